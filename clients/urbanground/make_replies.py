#!/usr/bin/env python3
"""Build the stub model's script (stub_model.py --script) for any exported UrbanGround tasks.

Navigation kinds (SN LN IN CN PS II SF MP DCR PL, and the SN variants EVN NTN RN): replays the
action sequence Curbside's ladder oracle used on that task (`npm run arena -- --suite urbanground
--agent oracle --family F…`; a variant replays its SN task's episode, same start and goal),
converted from Curbside's action labels ("sprint: forward for 1.45s", "look: yaw -12.3°, pitch 0°")
to UrbanGround's JSON actions, then terminates. Question kinds (LQ OQ SQ, and their variants EVQ NTQ
RQ): two looks, terminate, then the right letter (the exported task's qaAnswerIndex). Place search
(PS) also gets the stub's judge data: the places of the requested kind (Curbside's truth, world
frame) and the georeference, so that the stub can judge arrival from the simulator's position.

Each task's marker is text UrbanGround's harness itself puts in the first user message ("Task:\\n..."):
the kind's header line ("[Short Navigation Task]", ...) with, for point-to-point navigation, the
`Start: …`/`Goal:  …` lines (tasks/base.py format_geo_point), for PS II SF MP the `Current location:`
line and the description, and for questions the question with its four options (tasks/qa.py
format_question). A variant shares its source task's marker and replies (same text, same actions).

Usage:
  make_replies.py --build DIR --episodes EPISODES.jsonl [--suite SUITE.json]
                  [--sn ID|auto] [--lq ID] [--tasks ID|PREFIX[,...]]... --out replies.json
  make_replies.py --families [--sn …] [--lq …] [--tasks …]     (only print the oracle families needed)

Without --tasks the selection is the --sn task and the --lq task. A bare prefix in --tasks (`PS`)
picks that kind's task automatically: for navigation the oracle's arrived episode with the fewest
actions (easy tasks first, then the smallest final distance; `SN` is what `--sn auto` picks), for
questions the first id; a variant prefix (EVN, RQ, …) takes the variant of that pick.

Prints one line to stdout: `MAX_STEPS TOTAL_STEPS ID…` (MAX_STEPS: the --max-steps every script
fits in; TOTAL_STEPS: the scripted steps of all tasks together) and one line per task to stderr.
Stdlib only.
"""
from __future__ import annotations

import argparse
import json
import re
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stub_model import geodetic_to_world  # noqa: E402  (same folder; stdlib only)

LETTERS = "ABCD"

# Kind prefix → the arena family its tasks come from, and for a variant the prefix it re-prefixes.
FAMILY = {
    "LQ": "landmark-qa", "OQ": "orientation-qa", "SQ": "exploration-qa",
    "SN": "short-navigation", "LN": "long-navigation", "IN": "instruction-navigation",
    "CN": "constrained-navigation", "PS": "place-search", "II": "implicit-intent",
    "SF": "schedule", "MP": "multi-stop", "DCR": "dynamic-closure", "PL": "pedestrian-navigation",
}
QA_PREFIXES = {"LQ", "OQ", "SQ"}
QA_VARIANTS = {"EVQ", "NTQ", "RQ"}
NAV_VARIANTS = {"EVN", "NTN", "RN"}
# The header line of each kind's task text in UrbanGround's evaluators (tasks/*/evaluator.py
# task_instructions); the condition variants use their source kind's evaluator text unchanged.
HEADER = {
    "SN": "[Short Navigation Task]", "EVN": "[Short Navigation Task]", "NTN": "[Short Navigation Task]",
    "RN": "[Short Navigation Task]", "LN": "[Long-Range Navigation Task]", "PL": "[Long-Range Navigation Task]",
    "IN": "[Instruction-Following Navigation Task]", "CN": "[Constrained Navigation Task]",
    "DCR": "[Navigation Task]", "PS": "[Place-Type Search Task]", "II": "[Implicit Intent Navigation Task]",
    "SF": "[Time-Window Schedule Task]", "MP": "[Multi-Point Route Planning Task]",
}
QA_SCRIPT_STEPS = 3  # two looks and a terminate


def fail(msg: str) -> None:
    print(f"make_replies: {msg}", file=sys.stderr)
    sys.exit(2)


def prefix_of(task_id: str) -> str:
    return task_id.split("-", 1)[0]


def arena_id(task_id: str) -> str:
    return task_id.split("-", 1)[1] if "-" in task_id else task_id


def source_prefix(prefix: str) -> str:
    """The kind a task of `prefix` is played as (a variant's source kind)."""
    if prefix in NAV_VARIANTS:
        return "SN"
    return prefix


def format_geo_point(point: dict) -> str:
    """UrbanGround's tasks/base.py format_geo_point, reproduced exactly."""
    lat, lon = float(point.get("lat", 0.0)), float(point.get("lon", 0.0))
    height, yaw = float(point.get("height", 0.0)), float(point.get("yaw", 0.0))
    position = f"{lat:.6f},{lon:.6f},{height:.1f}m, yaw {yaw:.0f}\u00b0"
    label = str(point.get("label") or "").strip()
    label = {"当前位置": "Current position"}.get(label, label)
    return f"{label} ({position})" if label else position


def format_question(task: dict) -> str:
    """UrbanGround's tasks/qa.py format_question, reproduced exactly."""
    lines = [str(task.get("description", "")).strip()]
    lines.extend(f"{letter}. {str(o.get('text', '')).strip()}" for letter, o in zip(LETTERS, task["qaOptions"]))
    return "\n".join(lines)


MOVE = re.compile(r"^(move|sprint): (forward|backward|left|right) for ([0-9.]+)s(?:, turning (-?[0-9.]+)°/s)?")
LOOK = re.compile(r"^look: yaw (-?[0-9.]+)°, pitch (-?[0-9.]+)°")


def to_urbanground(label: str) -> dict:
    """Curbside's action label (src/arena/control/actions.ts applyFirstPersonAction) → UrbanGround action JSON."""
    if label.strip() == "terminate" or label.startswith("terminate"):
        return {"action": "terminate"}
    m = MOVE.match(label)
    if m:
        a = {"action": m.group(1), "dir": m.group(2), "seconds": float(m.group(3))}
        if m.group(4) is not None:
            a["yaw_rate"] = float(m.group(4))
        return a
    m = LOOK.match(label)
    if m:
        return {"action": "look", "yaw": float(m.group(1)), "pitch": float(m.group(2))}
    raise ValueError(f"cannot convert oracle action {label!r} (expected move/sprint/look/terminate)")


def load_task(build: Path, task_id: str) -> dict:
    path = build / "task" / f"{task_id}.json"
    if not path.is_file():
        fail(f"{path}: no such task file (ids are like SN-short-navigation-07, LQ-landmark-qa-01, PS-place-search-03)")
    doc = json.loads(path.read_text(encoding="utf-8"))
    return doc.get("task", doc) if isinstance(doc, dict) else doc


def all_ids(build: Path) -> list[str]:
    return sorted(p.stem for p in (build / "task").glob("*.json"))


def load_episodes(path: Path) -> dict[str, dict]:
    """Oracle episodes by arena task id."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if r.get("agent") == "oracle":
                out[r["task"]] = r
    return out


def auto_pick(prefix: str, build: Path, episodes: dict[str, dict], sn_auto: str | None = None) -> str:
    """The task a bare prefix stands for (see the module docstring)."""
    kind = source_prefix(prefix)
    if prefix in QA_PREFIXES or prefix in QA_VARIANTS:
        ids = [i for i in all_ids(build) if prefix_of(i) == prefix]
        if not ids:
            fail(f"{prefix}: no exported task of this kind in {build / 'task'}")
        return ids[0]
    if prefix not in FAMILY and prefix not in NAV_VARIANTS:
        fail(f"{prefix}: unknown kind (expected a task id or one of {', '.join([*FAMILY, *sorted(NAV_VARIANTS | QA_VARIANTS)])})")
    if kind == "SN" and sn_auto:
        base = sn_auto
    else:
        family = FAMILY[kind]
        eps = [r for r in episodes.values() if r.get("family") == family and r.get("status") == "arrived"]
        if not eps:
            fail(f"{prefix}: the oracle arrived on no {family} task (is it in the oracle run?)")
        easy = [r for r in eps if r.get("difficulty") == "easy"]
        best = min(easy or eps, key=lambda r: (len(r["actions"]), r.get("distanceToGoal", 1e9), r["task"]))
        base = f"{kind}-{best['task']}"
    task_id = f"{prefix}-{arena_id(base)}"
    if not (build / "task" / f"{task_id}.json").is_file():
        fail(f"{prefix}: {task_id} was not exported")
    return task_id


def selection(o: argparse.Namespace) -> list[str]:
    """The requested task ids and bare prefixes, in order (without --tasks: the --sn and --lq tasks)."""
    items = [x.strip() for arg in (o.tasks or []) for x in arg.split(",") if x.strip()]
    return items or [o.sn if o.sn != "auto" else "SN", o.lq]


def families_for(items: list[str]) -> list[str]:
    out = []
    for item in items:
        kind = source_prefix(prefix_of(item))
        fam = FAMILY.get(kind)
        if fam and kind not in QA_PREFIXES and fam not in out:
            out.append(fam)
    return out


def nav_marker(prefix: str, task: dict) -> list[str]:
    header = HEADER[prefix]
    if prefix in ("PS", "II", "SF", "MP"):
        start = task.get({"PS": "searchOrigin", "II": "exploreStart", "SF": "scheduleStart", "MP": "multiRouteStart"}[prefix])
        marker = [header, f"Current location: {format_geo_point(start)}"]
        if prefix == "PS":
            marker.append(f"Request: {str(task.get('description', '')).strip()}")
        elif prefix == "II":
            marker.append(f"Everyday goal: {str(task.get('description', '')).strip()}")
        elif prefix == "MP":
            marker.append(str(task.get("description", "")).strip())
        return marker
    return [header, f"Start: {format_geo_point(task['startPoint'])}\nGoal:  {format_geo_point(task['endPoint'])}"]


def goal_name(prefix: str, task: dict) -> str:
    if prefix in ("SF",):
        return "the next appointment"
    if prefix in ("MP",):
        return "the next stop"
    if prefix == "PS":
        return f"a {task.get('poiCategory') or 'place of the kind'}"
    return str((task.get("endPoint") or {}).get("label") or "the goal")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", type=Path, help="arena:export folder (DIR/task/<ID>.json, DIR/curbside.json)")
    p.add_argument("--episodes", type=Path, help="the oracle's episodes.jsonl")
    p.add_argument("--suite", type=Path, help="the arena suite file the export was made from (place search's judge data)")
    p.add_argument("--sn", default="auto", help="SN task id, or auto: the easy one with the fewest oracle steps (without --tasks)")
    p.add_argument("--lq", default="LQ-landmark-qa-01", help="LQ task id (without --tasks)")
    p.add_argument("--tasks", action="append", help="task ids or bare kind prefixes, comma-separated (repeatable)")
    p.add_argument("--families", action="store_true", help="only print the oracle families the selection needs")
    p.add_argument("--out", type=Path)
    o = p.parse_args()

    items = selection(o)
    if o.families:
        print(" ".join(families_for(items)))
        return
    if not (o.build and o.episodes and o.out):
        fail("--build, --episodes and --out are required")

    episodes = load_episodes(o.episodes)
    sn_auto = None
    if not o.tasks and o.sn == "auto" or "SN" in items or any(x in NAV_VARIANTS for x in items):
        # `--sn auto`'s pick (kept exactly as before: the easy arrived SN with the fewest actions).
        arrived = [r for r in episodes.values() if r.get("family") == "short-navigation" and r.get("status") == "arrived" and r.get("difficulty") == "easy"]
        if arrived:
            best = min(arrived, key=lambda r: (len(r["actions"]), r.get("distanceToGoal", 1e9), r["task"]))
            sn_auto = f"SN-{best['task']}"
        elif "SN" in items:
            fail(f"{o.episodes}: the oracle arrived on no easy SN task")
    ids: list[str] = []
    for item in items:
        task_id = item if "-" in item else auto_pick(item, o.build, episodes, sn_auto)
        if task_id not in ids:
            ids.append(task_id)

    suite = None
    if o.suite:
        suite = {t["id"]: t for t in json.loads(o.suite.read_text(encoding="utf-8"))["tasks"]}
    manifest_path = o.build / "curbside.json"
    georef = json.loads(manifest_path.read_text(encoding="utf-8"))["georeference"] if manifest_path.is_file() else None

    tasks_out: dict[str, dict] = {}
    lengths: list[int] = []
    for task_id in ids:
        prefix = prefix_of(task_id)
        task = load_task(o.build, task_id)
        if prefix in QA_PREFIXES or prefix in QA_VARIANTS:
            if int(task.get("type", -1)) not in (7, 8, 9):
                fail(f"{task_id}: type {task.get('type')}, expected a question (7, 8 or 9)")
            letter = LETTERS[int(task["qaAnswerIndex"])]
            right = task["qaOptions"][int(task["qaAnswerIndex"])]["text"]
            replies = [
                {"observation": "A street with shop signs on both sides.", "reason": "Look left to read the nearest shop signs.", "action": {"action": "look", "yaw": -60.0, "pitch": 0.0}},
                {"observation": "More storefronts and their signs.", "reason": "Look right to compare the other side.", "action": {"action": "look", "yaw": 120.0, "pitch": 0.0}},
                {"observation": "I have seen the shops around the start.", "reason": "Enough evidence gathered; stop exploring.", "action": {"action": "terminate"}},
                {"answer": letter, "reason": f"{right} (scripted: the exported task's qaAnswerIndex)."},
            ]
            tasks_out[task_id] = {"marker": format_question(task), "replies": replies}
            lengths.append(QA_SCRIPT_STEPS)
            print(f"make_replies: {task_id}: {QA_SCRIPT_STEPS} scripted steps (two looks, terminate), answer {letter} ({right})", file=sys.stderr)
            continue
        if prefix not in HEADER:
            fail(f"{task_id}: unknown kind {prefix!r}")
        kind = source_prefix(prefix)
        aid = arena_id(task_id)
        episode = episodes.get(aid)
        if episode is None:
            fail(f"{task_id}: no oracle episode for {aid} in {o.episodes} (the oracle run needs --family {FAMILY[kind]})")
        if episode.get("status") != "arrived":
            fail(f"{task_id}: the oracle's episode ended {episode.get('status')!r}, not 'arrived'")
        goal = goal_name(prefix, task)
        actions = [to_urbanground(a["action"]) for a in episode["actions"] if a.get("valid", True)]
        if not actions or actions[-1]["action"] != "terminate":
            actions.append({"action": "terminate"})
        n = len(actions)
        replies = []
        for k, a in enumerate(actions, 1):
            if a["action"] == "terminate":
                obs, why = f"Standing in front of {goal}; it is right here.", "Arrived at the destination, so stop."
            elif a["action"] == "look":
                obs, why = f"A sidewalk with shop fronts; {goal} is not straight ahead.", f"Turn to face the route toward {goal}."
            else:
                obs, why = f"A sidewalk ahead; {goal} is further along it.", f"Keep walking toward {goal}."
            replies.append({"observation": obs, "reason": f"{why} (scripted step {k}/{n}: Curbside oracle replay)", "action": a})
        entry: dict = {"marker": nav_marker(prefix, task), "replies": replies}
        note = ""
        if prefix == "PS":
            truth = (suite or {}).get(aid, {}).get("truth") if suite else None
            if not truth or truth.get("scoring") != "arrival_any" or georef is None:
                fail(f"{task_id}: place search needs --suite (the arena suite file) and {manifest_path} for the judge's places")
            entry["judge"] = {
                "description": str(task.get("description", "")).strip(),
                "radius": float(truth.get("radius", 15)),
                "category": truth.get("category"),
                "georeference": georef,
                "places": [{"label": g["label"], "x": g["goal"][0], "y": g["goal"][1]} for g in truth["goals"]],
            }
            note = f"; judge: within {entry['judge']['radius']:g} m of any of {len(truth['goals'])} {truth.get('category')} places"
        elif prefix == "II" and georef is not None and isinstance(task.get("endPoint"), dict) and episode.get("finalPosition"):
            # UrbanGround scores II against the file's one hidden endPoint; Curbside's oracle goes to
            # the place of the kind nearest along the network, which may be another one.
            e = task["endPoint"]
            ex, ey = geodetic_to_world(georef, float(e["lat"]), float(e["lon"]), float(e.get("height", georef.get("height", 0.0))))
            fx, fy = episode["finalPosition"]
            note = f"; {math.hypot(ex - fx, ey - fy):.2f} m from the file's endPoint ({e.get('label')}), which UrbanGround scores against"
        tasks_out[task_id] = entry
        lengths.append(n)
        src = f" (replays {kind}-{aid})" if prefix != kind else ""
        dist = episode.get("distanceToGoal")
        ended = f"oracle ended {dist:.2f} m from the goal" if isinstance(dist, (int, float)) else \
            f"oracle reached {(episode.get('metrics') or {}).get('stopsReached')}/{(episode.get('metrics') or {}).get('stopsTotal')} stops"
        print(f"make_replies: {task_id}: {n} scripted steps ({len(episode['actions'])} oracle actions, then terminate){src}, "
              f"{ended}{note}", file=sys.stderr)

    # Tasks whose markers are the same (a variant and its source) must share their replies.
    by_marker: dict[str, str] = {}
    for task_id, t in tasks_out.items():
        key = json.dumps(t["marker"], ensure_ascii=False)
        other = by_marker.setdefault(key, task_id)
        if other != task_id and tasks_out[other]["replies"] != t["replies"]:
            fail(f"{task_id} and {other} have the same task text but different scripts: run them separately")

    o.out.write_text(json.dumps({"tasks": tasks_out}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # The harness stops navigation on arrival; it needs one step per action (the terminate included).
    print(max(lengths), sum(lengths), *ids)


if __name__ == "__main__":
    main()
