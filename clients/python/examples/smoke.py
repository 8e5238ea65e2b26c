#!/usr/bin/env python3
"""Smoke check of a running Curbside ``arena:serve``: ``python3 smoke.py URL [TOKEN]``.

Enters task vln-01, turns, walks with an image, takes a PNG screenshot, plans a route on the
map, checks that an out-of-range move is refused with 400, leaves the task, and prints one JSON
line summarising what came back. Exit code 0 on success; 1 with one line on stderr otherwise.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from curbside_client import CurbsideClient, CurbsideError, decode_data_url, image_size  # noqa: E402

TASK = "vln-01"


class SmokeFailure(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SmokeFailure(what)


def describe_image(data: bytes) -> dict:
    size = image_size(data)
    check(size is not None, f"not a PNG or JPEG ({len(data)} bytes, starting {data[:8]!r})")
    fmt, width, height = size  # type: ignore[misc]
    return {"format": fmt, "width": width, "height": height, "bytes": len(data)}


def run(url: str, token: str | None) -> dict:
    client = CurbsideClient(url, token=token, driver="curbside-smoke")
    client.wait_until_ready(timeout=10)
    summary: dict = {"ok": False, "url": url, "task": TASK}
    entered = False
    try:
        enter = client.enter_task(TASK)
        entered = True
        check(enter.get("task", {}).get("id") == TASK, f"enter_task answered {str(enter)[:200]}")
        state = client.get_state()
        summary["state"] = {"lat": state["lat"], "lon": state["lon"], "surface": state.get("surface")}

        yaw_before = state["yaw"]
        yaw_after = client.look(30)["state"]["yaw"]
        turned = (yaw_after - yaw_before + 180) % 360 - 180
        check(abs(turned - 30) < 0.5, f"look 30 turned {turned:.3f} degrees")
        summary["yaw_before"], summary["yaw_after"] = yaw_before, yaw_after

        moved = client.move("forward", 1.0, image=True)
        check("image" in moved, "move with image=True returned no image")
        summary["move"] = {"action": moved["action"], "image": describe_image(decode_data_url(moved["image"]))}

        png = client.screenshot(width=320, height=240, format="png")
        shot = describe_image(png)
        check((shot["format"], shot["width"], shot["height"]) == ("png", 320, 240), f"screenshot is {shot}")
        summary["screenshot"] = shot

        check(client.open_map()["state"]["mode"] == "map", "open_map did not switch to map mode")
        summary["map_select"] = client.map_select(0.6, 0.4)["action"]
        summary["navigate"] = client.navigate()["action"]
        check(client.close_map()["state"]["mode"] == "first_person", "close_map did not leave map mode")

        # Deliberately bad: moves last at most 2 s. Sent while the task is held, so the
        # refusal does not take the avatar lease again after exit_task.
        try:
            client.move("forward", 3)
        except CurbsideError as e:
            summary["bad_request"] = {"status": e.status, "error": e.message}
            check(e.status == 400, f"move seconds=3 gave status {e.status}, expected 400")
        else:
            raise SmokeFailure("move seconds=3 was accepted; expected a 400")

        summary["exit"] = client.exit_task()["action"]
        entered = False
        check(client.get_task().get("active") is False, "a task is still active after exit_task")
    finally:
        if entered:
            try:
                client.exit_task()
            except CurbsideError:
                pass
    summary["ok"] = True
    return summary


def main(argv: list) -> int:
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print("usage: smoke.py URL [TOKEN]   e.g. smoke.py http://127.0.0.1:8081", file=sys.stderr)
        return 1 if len(argv) not in (2, 3) else 0
    try:
        summary = run(argv[1], argv[2] if len(argv) == 3 else None)
    except CurbsideError as e:
        print(f"smoke: FAILED: {e}", file=sys.stderr)
        return 1
    except (SmokeFailure, KeyError, TypeError, ValueError) as e:
        print(f"smoke: FAILED: {type(e).__name__ + ': ' if not isinstance(e, SmokeFailure) else ''}{e}", file=sys.stderr)
        return 1
    print(json.dumps(summary, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
