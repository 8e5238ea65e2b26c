#!/usr/bin/env python3
"""Build the stub model's script (stub_model.py --script) for one SN and one LQ task.

SN: replays the action sequence Curbside's ladder oracle used on that task
(`npm run arena -- --suite urbanground --agent oracle --family short-navigation`), converted from
Curbside's action labels ("move: forward for 1.45s", "look: yaw -12.3°, pitch 0°") to UrbanGround's
JSON actions, then terminates. LQ: two look actions, terminate, then the right answer letter (from
the exported task's qaAnswerIndex).

Each task's marker is the text UrbanGround's harness itself puts in the first user message
("Task:\\n..."): for SN the `Goal:  <label> (<lat>,<lon>,<h>m, yaw <y>°)` line (tasks/base.py
format_geo_point), for QA the question and its four options (tasks/qa.py format_question). The
stub picks the script whose marker occurs in the system + first user message.

Usage:
  make_replies.py --build DIR --episodes EPISODES.jsonl [--sn ID|auto] [--lq ID] --out replies.json

Prints one line to stdout: `SN_ID LQ_ID MAX_STEPS` (MAX_STEPS: the --max-steps both scripts fit in).
Stdlib only.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

LETTERS = "ABCD"


def fail(msg: str) -> None:
    print(f"make_replies: {msg}", file=sys.stderr)
    sys.exit(2)


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
        fail(f"{path}: no such task file (ids are like SN-short-navigation-07, LQ-landmark-qa-01)")
    doc = json.loads(path.read_text(encoding="utf-8"))
    return doc.get("task", doc) if isinstance(doc, dict) else doc


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", type=Path, required=True, help="arena:export folder (DIR/task/<ID>.json)")
    p.add_argument("--episodes", type=Path, required=True, help="the oracle's episodes.jsonl")
    p.add_argument("--sn", default="auto", help="SN task id, or auto: the easy one with the fewest oracle steps")
    p.add_argument("--lq", default="LQ-landmark-qa-01", help="LQ task id")
    p.add_argument("--out", type=Path, required=True)
    o = p.parse_args()

    episodes = {}
    for n, line in enumerate(o.episodes.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("agent") == "oracle" and r.get("family") == "short-navigation":
            episodes[f"SN-{r['task']}"] = r
    if not episodes:
        fail(f"{o.episodes}: no oracle short-navigation episodes")

    if o.sn == "auto":
        arrived = [r for r in episodes.values() if r.get("status") == "arrived" and r.get("difficulty") == "easy"]
        if not arrived:
            fail(f"{o.episodes}: the oracle arrived on no easy SN task")
        best = min(arrived, key=lambda r: (len(r["actions"]), r.get("distanceToGoal", 1e9), r["task"]))
        sn_id = f"SN-{best['task']}"
    else:
        sn_id = o.sn
        if sn_id not in episodes:
            fail(f"{sn_id}: no oracle episode for it in {o.episodes}")
    episode = episodes[sn_id]
    if episode.get("status") != "arrived":
        fail(f"{sn_id}: the oracle's episode ended {episode.get('status')!r}, not 'arrived'")
    sn_task = load_task(o.build, sn_id)
    lq_task = load_task(o.build, o.lq)
    if int(lq_task.get("type", -1)) != 7:
        fail(f"{o.lq}: type {lq_task.get('type')}, expected 7 (LandmarkQA)")

    goal = sn_task["endPoint"].get("label") or "the goal"
    actions = [to_urbanground(a["action"]) for a in episode["actions"]]
    if not actions or actions[-1]["action"] != "terminate":
        actions.append({"action": "terminate"})
    n = len(actions)
    sn_replies = []
    for k, a in enumerate(actions, 1):
        if a["action"] == "terminate":
            obs, why = f"Standing in front of {goal}; its storefront is right here.", "Arrived at the destination, so stop."
        elif a["action"] == "look":
            obs, why = f"A sidewalk with shop fronts; {goal} is not straight ahead.", f"Turn to face the route toward {goal}."
        else:
            obs, why = f"A sidewalk ahead; {goal} is further along it.", f"Keep walking toward {goal}."
        sn_replies.append({"observation": obs, "reason": f"{why} (scripted step {k}/{n}: Curbside oracle replay)", "action": a})

    letter = LETTERS[int(lq_task["qaAnswerIndex"])]
    right = lq_task["qaOptions"][int(lq_task["qaAnswerIndex"])]["text"]
    lq_replies = [
        {"observation": "A street with shop signs on both sides.", "reason": "Look left to read the nearest shop signs.", "action": {"action": "look", "yaw": -60.0, "pitch": 0.0}},
        {"observation": "More storefronts and their signs.", "reason": "Look right to compare the other side.", "action": {"action": "look", "yaw": 120.0, "pitch": 0.0}},
        {"observation": "I have seen the shops around the start.", "reason": "Enough evidence gathered; stop exploring.", "action": {"action": "terminate"}},
        {"answer": letter, "reason": f"{right} is the nearest shop to the start (scripted: the exported task's qaAnswerIndex)."},
    ]

    script = {
        "tasks": {
            sn_id: {"marker": f"Goal:  {format_geo_point(sn_task['endPoint'])}", "replies": sn_replies},
            o.lq: {"marker": format_question(lq_task), "replies": lq_replies},
        }
    }
    o.out.write_text(json.dumps(script, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # The harness stops SN on arrival; it needs one step per action (the terminate included).
    max_steps = max(len(sn_replies), len(lq_replies) - 1)
    print(f"make_replies: {sn_id}: {n} scripted steps ({len(episode['actions'])} oracle actions, then terminate), "
          f"oracle ended {episode.get('distanceToGoal', float('nan')):.2f} m from the goal; {o.lq}: answer {letter} ({right})", file=sys.stderr)
    print(sn_id, o.lq, max_steps)


if __name__ == "__main__":
    main()
