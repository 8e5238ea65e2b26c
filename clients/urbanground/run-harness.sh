#!/usr/bin/env bash
# Runs UrbanGround's own released evaluation harness (AgentEvaluation/run_task.py --attach),
# unchanged, against Curbside's `npm run arena:serve`, by default on one short-navigation (SN) and
# one landmark-QA (LQ) task, or on any exported tasks (--tasks), with a scripted OpenAI-compatible
# stub model (stub_model.py), and prints the harness's scores. See README.md in this folder.
#
# Usage: clients/urbanground/run-harness.sh [--sn ID|auto] [--lq ID] [--tasks ID|KIND[,…]]… [ID|KIND…]
#            [--work DIR] [--max-steps N] [--port P] [--post-teleport-wait S] [--no-video]
#            [--ug-placeholders] [-- EXTRA run_task.py ARGS]
#
#   --tasks / positional: exported task ids (SN-short-navigation-07, PS-place-search-03, EVQ-…) or
#   bare kinds (LQ OQ SQ SN LN IN CN PS II SF MP DCR PL EVQ NTQ RQ EVN NTN RN), which pick that
#   kind's shortest oracle task; `--tasks all-kinds` = LQ,OQ,SQ,SN,LN,IN,CN,PS,II,SF,MP,DCR,PL,EVQ,RN
#   (one task of every kind, one dusk-question and one rain-navigation variant). Without them:
#   the --sn task and the --lq task.
#
#   --ug-placeholders (diagnostic): the harness reads a copy of the task files to which UrbanGround's
#   zero-coordinate startPoint/endPoint placeholders are added where the export leaves them out
#   (PS, II, SF, MP: their report code reads task["startPoint"] and task["endPoint"]); arena:serve
#   still serves the export as it is. Without it those kinds fail in the harness with KeyError.
#
# Environment:
#   UG_MIRROR  UrbanGround git dir to take the harness from (bare mirror or checkout);
#              default /work/.mirror/UrbanGround+UrbanGround/repo
#   UG_REF     commit/branch of it (default HEAD)
#   UG_REPO    instead of UG_MIRROR: an UrbanGround working tree used as is (its AgentEvaluation/)
#   UG_WHEELS  a folder of wheels for an offline install (pip --no-index --find-links); default
#              /tmp/ugdeps when it exists, else pip installs requirements.txt from your index
#   UG_CACHE   where the extracted harness and its venv are kept between runs
#              (default ${XDG_CACHE_HOME:-$HOME/.cache}/curbside-urbanground)
#   PYTHON     the interpreter for the venv (default python3; UrbanGround needs >= 3.10)
#   UG_SERVE_TIMEOUT (s, default 300), UG_HARNESS_TIMEOUT (s, default 1800, or 6 s a scripted step
#              plus 60 s a task when that is more)
#
# Exit status: 0 when every task completed and succeeded by the harness's own verdict (navigation
# reached_destination; questions and place search answer_correct; by default: SN reached its goal
# and LQ's answer was right); 1 otherwise.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SN=auto
LQ=LQ-landmark-qa-01
TASKS=()
WORK=
MAX_STEPS=
PORT=0
POST_WAIT=
VIDEO=1
PLACEHOLDERS=0
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sn) SN=${2:?--sn needs an id}; shift 2 ;;
    --lq) LQ=${2:?--lq needs an id}; shift 2 ;;
    --tasks) TASKS+=("${2:?--tasks needs ids}"); shift 2 ;;
    --work) WORK=${2:?--work needs a folder}; shift 2 ;;
    --max-steps) MAX_STEPS=${2:?--max-steps needs a number}; shift 2 ;;
    --port) PORT=${2:?--port needs a number}; shift 2 ;;
    --post-teleport-wait) POST_WAIT=${2:?--post-teleport-wait needs seconds}; shift 2 ;;
    --no-video) VIDEO=0; shift ;;
    --ug-placeholders) PLACEHOLDERS=1; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "run-harness: unknown argument $1 (see --help)" >&2; exit 2 ;;
    *) TASKS+=("$1"); shift ;;
  esac
done

MIRROR=${UG_MIRROR:-/work/.mirror/UrbanGround+UrbanGround/repo}
REF=${UG_REF:-HEAD}
CACHE=${UG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/curbside-urbanground}
PYTHON=${PYTHON:-python3}
SERVE_TIMEOUT=${UG_SERVE_TIMEOUT:-300}
if [ -z "${UG_WHEELS+x}" ] && [ -d /tmp/ugdeps ]; then UG_WHEELS=/tmp/ugdeps; fi
UG_WHEELS=${UG_WHEELS:-}
[ -n "$WORK" ] || WORK=$(mktemp -d "${TMPDIR:-/tmp}/curbside-urbanground.XXXXXX")
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
T0=$(date +%s)
ALL_KINDS=LQ,OQ,SQ,SN,LN,IN,CN,PS,II,SF,MP,DCR,PL,EVQ,RN
SEL=()
for t in "${TASKS[@]}"; do [ "$t" = all-kinds ] && t=$ALL_KINDS; SEL+=(--tasks "$t"); done
[ ${#TASKS[@]} -gt 0 ] || SEL=(--sn "$SN" --lq "$LQ")

say() { printf '[run-harness %4ss] %s\n' "$(( $(date +%s) - T0 ))" "$*" >&2; }
die() { printf 'run-harness: error: %s\n' "$*" >&2; exit 1; }
tail_of() { [ -f "$1" ] && { echo "--- last lines of $1:" >&2; tail -n "${2:-20}" "$1" >&2; echo "---" >&2; }; return 0; }

SERVER_PID= SERVER_PGID= STUB_PID=
stop_all() {
  local rc=$?
  set +e
  if [ -n "$STUB_PID" ] && kill -0 "$STUB_PID" 2>/dev/null; then
    kill -TERM "$STUB_PID" 2>/dev/null; wait "$STUB_PID" 2>/dev/null
  fi
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    say "stopping arena:serve (pid $SERVER_PID)"
    # Like Ctrl-C in its terminal: the server records any active task and closes its browser.
    if [ -n "$SERVER_PGID" ]; then kill -INT -- "-$SERVER_PGID" 2>/dev/null; else kill -INT "$SERVER_PID" 2>/dev/null; fi
    for _ in $(seq 1 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      say "arena:serve did not stop in 30 s: killing it"
      if [ -n "$SERVER_PGID" ]; then kill -KILL -- "-$SERVER_PGID" 2>/dev/null; else kill -KILL "$SERVER_PID" 2>/dev/null; fi
    fi
    wait "$SERVER_PID" 2>/dev/null
  fi
  exit "$rc"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$ROOT"
[ -d node_modules ] || die "$ROOT/node_modules is missing: run npm ci first"
command -v "$PYTHON" >/dev/null || die "$PYTHON not found (set PYTHON=python3.11 or similar)"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || die "$PYTHON is $("$PYTHON" -V 2>&1); UrbanGround's harness needs Python >= 3.10"
say "work folder: $WORK"

# 1. Curbside's urbanground suite as UrbanGround task files (WORK/build/task/<ID>.json + curbside.json).
say "exporting the urbanground suite (npm run arena:export)"
npm run -s arena:export -- --suite urbanground --out "$WORK/build" > "$WORK/export.log" 2>&1 || { tail_of "$WORK/export.log"; die "arena:export failed"; }
say "$(tail -n 1 "$WORK/export.log")"

# 2. arena:serve over them (started now: it takes ~30-60 s to build the world and open its view).
say "starting arena:serve (npm run arena:serve -- --tasks $WORK/build --port $PORT)"
mkdir -p "$WORK/serve"
setsid npm run -s arena:serve -- --tasks "$WORK/build" --port "$PORT" --out "$WORK/serve" > "$WORK/serve/stdout.log" 2> "$WORK/serve/stderr.log" < /dev/null &
SERVER_PID=$!
sleep 0.5
SERVER_PGID=$(ps -o pgid= -p "$SERVER_PID" 2>/dev/null | tr -d ' ' || true)
# Never signal our own group.
[ "$SERVER_PGID" = "$(ps -o pgid= -p $$ | tr -d ' ')" ] && SERVER_PGID=
say "arena:serve is pid $SERVER_PID${SERVER_PGID:+ (process group $SERVER_PGID)}; its log: $WORK/serve/stderr.log"

# 3. Curbside's ladder oracle on the navigation families of the selection: the action sequences
#    the stub replays (the questions' answers come from the task files).
FAMILIES=$("$PYTHON" "$HERE/make_replies.py" --families "${SEL[@]}") || die "bad task selection"
SUITE_FILE=$ROOT/scenes/arena/urbanground.json
if [ -n "$FAMILIES" ]; then
  say "running Curbside's oracle on the families $FAMILIES (npm run arena)"
  # shellcheck disable=SC2086
  npm run -s arena -- --suite urbanground --agent oracle --family $FAMILIES --out "$WORK/oracle" --fresh > "$WORK/oracle.log" 2>&1 || { tail_of "$WORK/oracle.log"; die "the oracle run failed"; }
else
  mkdir -p "$WORK/oracle" && : > "$WORK/oracle/episodes.jsonl"
fi
read -r NEED_STEPS TOTAL_STEPS TASK_IDS < <("$PYTHON" "$HERE/make_replies.py" --build "$WORK/build" --episodes "$WORK/oracle/episodes.jsonl" --suite "$SUITE_FILE" "${SEL[@]}" --out "$WORK/replies.json" 2> "$WORK/replies.log") || { cat "$WORK/replies.log" >&2; die "could not build the stub's replies"; }
[ -n "${TASK_IDS:-}" ] || { cat "$WORK/replies.log" >&2; die "could not build the stub's replies"; }
read -r -a IDS <<< "$TASK_IDS"
while IFS= read -r line; do say "${line#make_replies: }"; done < "$WORK/replies.log"
MAX_STEPS=${MAX_STEPS:-$NEED_STEPS}
[ "$MAX_STEPS" -ge "$NEED_STEPS" ] || say "warning: --max-steps $MAX_STEPS < the $NEED_STEPS scripted steps: a navigation task may not reach its goal"
# The harness's time limit: the default, or more for long selections (~6 s a step, 60 s a task).
HARNESS_TIMEOUT=${UG_HARNESS_TIMEOUT:-$(( 1800 > 6 * TOTAL_STEPS + 60 * ${#IDS[@]} ? 1800 : 6 * TOTAL_STEPS + 60 * ${#IDS[@]} ))}

# 4. UrbanGround's harness, unchanged, in its own venv (cached by commit).
if [ -n "${UG_REPO:-}" ]; then
  HARNESS=$(cd "$UG_REPO" && pwd)
  [ -f "$HARNESS/AgentEvaluation/run_task.py" ] || die "UG_REPO=$UG_REPO has no AgentEvaluation/run_task.py"
  KEY=$(git -C "$HARNESS" rev-parse --short=12 HEAD 2>/dev/null || echo worktree)
else
  COMMIT=$(git -C "$MIRROR" rev-parse --verify "$REF^{commit}" 2>/dev/null) || die "cannot read $REF of UrbanGround from $MIRROR (set UG_MIRROR to its git dir, or UG_REPO to a checkout)"
  KEY=${COMMIT:0:12}
  HARNESS="$CACHE/harness-$KEY"
  if [ ! -f "$HARNESS/AgentEvaluation/run_task.py" ]; then
    say "extracting UrbanGround's AgentEvaluation/ at $KEY into $HARNESS"
    rm -rf "$HARNESS.tmp" && mkdir -p "$HARNESS.tmp"
    git -C "$MIRROR" archive "$COMMIT" AgentEvaluation requirements.txt | tar -x -C "$HARNESS.tmp"
    rm -rf "$HARNESS" && mv "$HARNESS.tmp" "$HARNESS"
  fi
fi
VENV="$CACHE/venv-$KEY-$("$PYTHON" -c 'import sys; print("py%d%d" % sys.version_info[:2])')"
REQ_SUM=$(sha256sum "$HARNESS/requirements.txt" | cut -c1-16)
if [ "$(cat "$VENV/.curbside-installed" 2>/dev/null)" != "$REQ_SUM" ]; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" || die "$PYTHON -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
  if [ -n "$UG_WHEELS" ]; then
    say "installing the harness's requirements.txt into $VENV from the wheels in $UG_WHEELS (offline)"
    "$VENV/bin/pip" install -q --no-index --find-links "$UG_WHEELS" -r "$HARNESS/requirements.txt" > "$WORK/pip.log" 2>&1 || { tail_of "$WORK/pip.log"; die "pip install from $UG_WHEELS failed (unset UG_WHEELS to use your package index)"; }
  else
    say "installing the harness's requirements.txt into $VENV (pip, from your package index)"
    "$VENV/bin/pip" install -q -r "$HARNESS/requirements.txt" > "$WORK/pip.log" 2>&1 || { tail_of "$WORK/pip.log"; die "pip install -r requirements.txt failed"; }
  fi
  echo "$REQ_SUM" > "$VENV/.curbside-installed"
else
  say "using the harness venv $VENV"
fi

# 5. Wait for arena:serve.
say "waiting for arena:serve to be ready (up to ${SERVE_TIMEOUT} s)"
URL=
for _ in $(seq 1 $(( SERVE_TIMEOUT * 2 ))); do
  if grep -q 'ready in' "$WORK/serve/stderr.log" 2>/dev/null; then
    URL=$(grep -o 'ready in .* at http://[^ ]*' "$WORK/serve/stderr.log" | head -n 1 | sed 's/.* at //')
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || { tail_of "$WORK/serve/stderr.log"; SERVER_PID=; die "arena:serve exited before it was ready"; }
  sleep 0.5
done
[ -n "$URL" ] || { tail_of "$WORK/serve/stderr.log"; die "arena:serve printed no 'ready in ... at URL' within ${SERVE_TIMEOUT} s"; }
say "$(grep -o 'arena:serve: world.*' "$WORK/serve/stderr.log" | head -n 1)"
curl -fsS --max-time 10 "$URL/health" > /dev/null || die "GET $URL/health failed"

# 6. The stub model.
rm -f "$WORK/stub.port"
"$PYTHON" "$HERE/stub_model.py" --script "$WORK/replies.json" --log "$WORK/stub-requests.jsonl" --port 0 --port-file "$WORK/stub.port" --state-url "$URL/state" > "$WORK/stub.log" 2>&1 &
STUB_PID=$!
for _ in $(seq 1 40); do [ -s "$WORK/stub.port" ] && break; kill -0 "$STUB_PID" 2>/dev/null || break; sleep 0.25; done
[ -s "$WORK/stub.port" ] || { tail_of "$WORK/stub.log"; die "the stub model did not start"; }
STUB_URL="http://127.0.0.1:$(cat "$WORK/stub.port")/v1"
say "stub model at $STUB_URL (pid $STUB_PID)"

# 7. The harness.
HBUILD=$WORK/build
if [ "$PLACEHOLDERS" = 1 ]; then
  # Diagnostic only: the harness's own copy of the task files, with UrbanGround's zero placeholders.
  HBUILD=$WORK/build-harness
  rm -rf "$HBUILD" && mkdir -p "$HBUILD/task"
  "$PYTHON" - "$WORK/build/task" "$HBUILD/task" "${IDS[@]}" > "$WORK/placeholders.log" <<'EOF' || die "could not write the placeholder copies"
import json, shutil, sys
from pathlib import Path
src, dst, ids = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
zero = {"lat": 0.0, "lon": 0.0, "height": 0.0, "yaw": 0.0, "label": ""}
for path in src.glob("*.json"):
    # Only the kinds whose UrbanGround files carry placeholders (tasks/base.py: PS, II, SF, MP).
    if path.stem not in ids or path.stem.split("-")[0] not in ("PS", "II", "SF", "MP"):
        shutil.copy(path, dst / path.name)
        continue
    doc = json.loads(path.read_text())
    task = doc.get("task", doc)
    added = [f for f in ("startPoint", "endPoint") if f not in task]
    for f in added:
        task[f] = dict(zero)
    (dst / path.name).write_text(json.dumps(doc, indent=2) + "\n")
    if added:
        print(f"{path.stem}: added {' and '.join(added)} (zero placeholders)")
EOF
  say "--ug-placeholders (diagnostic): the harness reads $HBUILD; $(wc -l < "$WORK/placeholders.log") of the selected task files got zero startPoint/endPoint placeholders (see $WORK/placeholders.log); arena:serve serves the export unchanged"
fi
ARGS=("${IDS[@]}" --attach --build-folder "$HBUILD" --server-url "$URL" --model curbside-stub
      --max-steps "$MAX_STEPS" --output-dir "$WORK/output" --force-rerun)
[ -n "$POST_WAIT" ] && ARGS+=(--post-teleport-wait "$POST_WAIT")
[ "$VIDEO" = 1 ] || ARGS+=(--no-save-video)
ARGS+=("${EXTRA[@]}")
say "running: AGENT_API_KEY=curbside-stub AGENT_API_BASE=$STUB_URL python AgentEvaluation/run_task.py ${ARGS[*]}"
H0=$(date +%s)
set +e
( cd "$WORK" && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u AGENT_MODEL \
    AGENT_API_KEY=curbside-stub AGENT_API_BASE="$STUB_URL" AGENT_API_MAX_ATTEMPTS=3 \
    timeout "$HARNESS_TIMEOUT" "$VENV/bin/python" "$HARNESS/AgentEvaluation/run_task.py" "${ARGS[@]}" \
    > "$WORK/harness-stdout.json" 2> "$WORK/harness.log" )
HRC=$?
set -e
say "harness exited $HRC after $(( $(date +%s) - H0 )) s (log: $WORK/harness.log)"
[ "$HRC" = 124 ] && { tail_of "$WORK/harness.log"; die "the harness ran past ${HARNESS_TIMEOUT} s (UG_HARNESS_TIMEOUT)"; }
[ "$HRC" = 0 ] || { tail_of "$WORK/harness.log" 30; die "the harness failed (exit $HRC)"; }

# 8. Scores.
set +e
"$PYTHON" - "$WORK" "${IDS[@]}" <<'EOF'
import json, sys
from pathlib import Path
work, ids = Path(sys.argv[1]), sys.argv[2:]
text = (work / "harness-stdout.json").read_text()
summary = json.loads(text[text.find("{"):text.rfind("}") + 1])
print(json.dumps({k: v for k, v in summary.items() if k != "batch_report"}, indent=2))
batch = json.loads(Path(summary["batch_report"]).read_text()) if summary.get("batch_report") else {}
results = {r["task_id"]: r for r in batch.get("results", [])}
EXTRA = ("closure_violated", "closure_disclosure_step", "closure_checked_step_count",
         "schedule_stops_reached", "schedule_stop_count", "schedule_completed_in_order", "schedule_on_time_ratio",
         "schedule_order_violation_count", "schedule_time_windows_parsed", "schedule_clock_active",
         "multipoint_targets_visited", "multipoint_target_count", "multipoint_visit_order", "multipoint_route_efficiency",
         "pedestrians_active", "pedestrian_count_max", "pedestrian_collision_count",
         "rain_weather_active", "rain_exposure_time_ratio", "rain_exposure_counter_seconds",
         "condition", "condition_applied", "condition_state_weather", "condition_state_time")
ok = True
rows = []
for tid in ids:
    rp = Path(summary["output_dir"]) / tid / "report.json"
    fail = rp.parent / "run_failure.json"
    res = results.get(tid, {})
    if not rp.is_file() or fail.is_file():
        err = json.loads(fail.read_text()).get("error") if fail.is_file() else "no report.json"
        print(f"{tid}: FAILED: {err}")
        rows.append({"task": tid, "kind": res.get("task_type") or tid.split("-")[0], "verdict": "error", "success": False,
                     "steps": res.get("steps_completed"), "wall_seconds": res.get("elapsed_seconds"), "error": err})
        ok = False
        continue
    r = json.loads(rp.read_text())
    m = r.get("metrics") or {}
    extra = " ".join(f"{k}={json.dumps(m[k])}" for k in EXTRA
                     if k in m and not (k.startswith("closure_") and not m.get("closure_edge_count")))
    if "placesearch_found" in m:
        good = bool(m.get("answer_correct"))
        print(f"{tid}: found={good} (the stub's judge: {m.get('placesearch_judge_reason')}) steps={m.get('steps_completed')} "
              f"completion_event={m.get('completion_event')} path_length_meters={m.get('path_length_meters')}")
    elif "answer_correct" in m:
        good = bool(m.get("answer_correct"))
        print(f"{tid}: answer={m.get('answer')} correct_answer={m.get('correct_answer')} answer_correct={good} steps={m.get('steps_completed')} "
              f"completion_event={m.get('completion_event')}" + (f" {extra}" if extra else ""))
    else:
        good = bool(m.get("reached_destination"))
        print(f"{tid}: success={good} distance_to_destination_meters={m.get('distance_to_destination_meters')} "
              f"(from {m.get('original_distance_meters')}, radius {m.get('arrival_radius_meters')}) steps={m.get('steps_completed')} "
              f"completion_event={m.get('completion_event')} path_length_meters={m.get('path_length_meters')} sidewalk_time_ratio={m.get('sidewalk_time_ratio')}"
              + (f"\n  {extra}" if extra else ""))
    print(f"  report: {rp}" + (f"\n  video:  {r.get('video_path')} ({r.get('video_frame_count')} frames)" if r.get("video_path") else ""))
    rows.append({"task": tid, "kind": r.get("task_type"), "verdict": "success" if good else "fail", "success": good,
                 "steps": m.get("steps_completed"), "wall_seconds": res.get("elapsed_seconds"),
                 "field": "answer_correct" if "answer_correct" in m else "reached_destination"})
    ok = ok and good
(work / "results.json").write_text(json.dumps(rows, indent=2) + "\n")
if len(ids) > 2:
    print(f"\n{'task':36} {'kind':20} {'verdict':8} {'steps':>5} {'wall s':>7}")
    for row in rows:
        print(f"{row['task']:36} {str(row['kind']):20} {row['verdict']:8} {str(row['steps']):>5} {str(row['wall_seconds']):>7}")
    print(f"(also in {work / 'results.json'})")
reqs = [json.loads(l) for l in (work / "stub-requests.jsonl").read_text().splitlines() if l.strip()]
imgs = [i for q in reqs for i in (q.get("image") or [])]
sizes = sorted({i.get("size") for i in imgs if i.get("size")})
special = {k: sum(1 for q in reqs if q.get("kind") == k) for k in ("schedule_parse", "place_judge")}
special_text = "".join(f", {n} {k.replace('_', ' ')}" for k, n in special.items() if n)
print(f"stub model: {len(reqs)} requests{special_text}, {len(imgs)} with an image ({', '.join(sizes)} JPEG, {min((i.get('bytes') or 0) for i in imgs) if imgs else 0}-{max((i.get('bytes') or 0) for i in imgs) if imgs else 0} bytes); log {work / 'stub-requests.jsonl'}")
sys.exit(0 if ok else 1)
EOF
RC=$?
set -e
say "arena:serve's records: $WORK/serve/serve-records.jsonl; everything is in $WORK"
if [ "$RC" = 0 ]; then
  if [ ${#TASKS[@]} -gt 0 ]; then say "OK: all ${#IDS[@]} tasks succeeded by the harness's verdict"; else say "OK: SN reached its goal and LQ was answered correctly"; fi
else say "FAILED: see above"; fi
exit "$RC"
