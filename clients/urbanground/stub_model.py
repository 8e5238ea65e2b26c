#!/usr/bin/env python3
"""A scripted OpenAI-compatible Chat Completions endpoint for UrbanGround's evaluation harness.

`POST /v1/chat/completions` answers with the next scripted reply for the task the conversation is
about, in UrbanGround's ReAct format (`{"observation": ..., "reason": ..., "action": {...}}`, or
`{"answer": "B", "reason": ...}` on the QA final-answer turn). No model, no network: it is for
proving that the harness, the server and the scoring work end to end.

Script (--script FILE, JSON):

    {"tasks": {"SN-short-navigation-07": {"marker": ["[Short Navigation Task]", "Start: ...\nGoal:  ..."],
                                          "replies": [{"observation": ..., "reason": ..., "action": {...}}, ...]},
               "LQ-landmark-qa-01":      {"marker": "Which of these shops ...\nA. ...", "replies": [...]},
               "PS-place-search-01":     {"marker": [...], "replies": [...],
                                          "judge": {"description": "Find a bus stop ...", "radius": 15,
                                                    "georeference": {"lat": ..., "lon": ..., "height": ...},
                                                    "places": [{"label": "Cherry Road bus stop", "x": -210.3, "y": -131.5}, ...]}}}}

(a plain `{"MARKER": [replies...]}` mapping is accepted too). A marker is a string or a list of
strings; a request belongs to the task all of whose marker strings occur in its system message +
first user message (the harness puts the task text there: "Task:\n..."); the most specific match
(longest total marker) wins. The reply is chosen by the turn: the number of assistant messages
already in the conversation, not counting replies the harness rejected (those are followed by its
"The response could not be executed" correction). The QA answer turn (the last user message says
"Exploration is complete") gets the script's reply that has an "answer" key. Replies may be objects
(sent as compact JSON) or strings (sent verbatim). Past the end of a script: a terminate. No marker
matches: HTTP 400 with an OpenAI-style error (the harness does not retry it).

Two requests of UrbanGround's evaluators are not agent turns, and the stub answers them itself:

- the schedule parse of SF tasks (tasks/schedule_window_nav/schedule.py PARSE_PROMPT): parsed from
  the description in the prompt ("It is now HH:MM", then one numbered line per stop, "N. <activity>
  at <place> (<address>), by HH:MM."), with exactly the stop count the prompt asks for;
- the place-search judge (tasks/place_search/prompt.py JUDGE_PROMPT), which their harness asks an
  evaluation LLM about the final screenshot. The stub does not look at the image: it reads the
  avatar's position from the simulator (--state-url, GET /state) and says found=true only when it
  stands within the script's judge radius of one of the places of the requested kind (Curbside's
  own arrival rule for place search). Without --state-url it says found=false.

Every request is logged as one JSON line (--log): time, model, max_tokens, message count and roles,
whether an image was attached (media type, bytes, JPEG/PNG width × height), the task, the turn and
the reply sent.

Usage: stub_model.py --script replies.json --log requests.jsonl [--host 127.0.0.1] [--port 0]
       [--port-file F] [--state-url http://127.0.0.1:PORT/state]
       (port 0: any free one; the port is written to F and printed on stderr)
Stdlib only; binds 127.0.0.1 by default.
"""
from __future__ import annotations

import argparse
import base64
import binascii
import json
import math
import re
import struct
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CORRECTION = "The response could not be executed"
ANSWER_TURN = "Exploration is complete"
TERMINATE = {"observation": "The scripted replies are used up.", "reason": "Nothing more to replay; stop.", "action": {"action": "terminate"}}
# The first words of the two evaluator requests that are not agent turns (UrbanGround's
# tasks/schedule_window_nav/schedule.py PARSE_PROMPT and tasks/place_search/prompt.py JUDGE_PROMPT).
SCHEDULE_PARSE = "You are parsing a person's daily schedule"
PLACE_JUDGE = "You are judging whether an embodied agent completed a place-type search task"


def markers_of(value: Any) -> list[str] | None:
    """A marker as a list of non-empty strings (a string is a one-element list), or None if invalid."""
    if isinstance(value, str):
        return [value] if value else None
    if isinstance(value, list) and value and all(isinstance(m, str) and m for m in value):
        return list(value)
    return None


def load_script(path: Path) -> dict[str, dict[str, Any]]:
    """Returns {name: {"marker": [str, ...], "replies": list, "judge": dict | None}}."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: expected a JSON object")
    tasks: dict[str, dict[str, Any]] = {}
    if isinstance(doc.get("tasks"), dict):
        for name, t in doc["tasks"].items():
            marker = markers_of(t.get("marker")) if isinstance(t, dict) else None
            if marker is None or not isinstance(t.get("replies"), list):
                raise ValueError(f"{path}: tasks.{name}: expected {{\"marker\": non-empty string or list of them, \"replies\": [...]}}")
            judge = t.get("judge")
            if judge is not None and not (isinstance(judge, dict) and isinstance(judge.get("description"), str)
                                          and isinstance(judge.get("places"), list) and isinstance(judge.get("georeference"), dict)):
                raise ValueError(f"{path}: tasks.{name}.judge: expected {{\"description\", \"places\", \"georeference\", \"radius\"}}")
            tasks[name] = {"marker": marker, "replies": t["replies"], "judge": judge}
    else:
        for marker, replies in doc.items():
            if not marker or not isinstance(replies, list):
                raise ValueError(f"{path}: {marker[:40]!r}: expected a list of replies")
            tasks[marker[:40]] = {"marker": [marker], "replies": replies, "judge": None}
    if not tasks:
        raise ValueError(f"{path}: no tasks")
    return tasks


# ── the SF schedule parse ──────────────────────────────────────────────────────────────────

_NOW = re.compile(r"\b(?:it is now|it's now|it is currently|it's currently)\s+([01]?\d|2[0-3]):([0-5]\d)\b", re.I)
_STOP = re.compile(r"^\s*(\d+)\.\s+(.+?)\s+at\s+(.+?)(?:\s+\([^()]*\))?,\s*by\s+([01]?\d|2[0-3]):([0-5]\d)\.?\s*$")
_DWELL = re.compile(r"about\s+(\d+)\s+minutes\s+at\s+each", re.I)


def parse_schedule_text(description: str) -> dict[str, Any]:
    """UrbanGround's schedule JSON for a Curbside schedule description (see the module docstring)."""
    now = _NOW.search(description)
    appointments = []
    for line in description.splitlines():
        m = _STOP.match(line)
        if m:
            appointments.append({"place": m.group(3).strip(), "activity": m.group(2).strip(),
                                 "time": f"{int(m.group(4)):02d}:{m.group(5)}"})
    dwell = _DWELL.search(description)
    return {
        "current_time": f"{int(now.group(1)):02d}:{now.group(2)}" if now else None,
        "appointments": appointments,
        "total_deadline": None,
        "dwell_minutes": int(dwell.group(1)) if dwell else None,
    }


# ── the PS judge: the avatar's position against the places of the kind ───────────────────

_WGS84_A = 6_378_137.0
_WGS84_F = 1 / 298.257223563
_WGS84_E2 = _WGS84_F * (2 - _WGS84_F)


def _ecef(lat: float, lon: float, height: float) -> tuple[float, float, float]:
    phi, lam = math.radians(lat), math.radians(lon)
    n = _WGS84_A / math.sqrt(1 - _WGS84_E2 * math.sin(phi) ** 2)
    return ((n + height) * math.cos(phi) * math.cos(lam), (n + height) * math.cos(phi) * math.sin(lam),
            (n * (1 - _WGS84_E2) + height) * math.sin(phi))


def geodetic_to_world(georef: dict[str, float], lat: float, lon: float, height: float) -> tuple[float, float]:
    """East and north (metres) of a WGS84 position in Curbside's world frame: ENU at the georeference
    (src/world/georef.ts geodeticToWorld, exact on the WGS84 ellipsoid)."""
    phi, lam = math.radians(float(georef["lat"])), math.radians(float(georef["lon"]))
    sp, cp, sl, cl = math.sin(phi), math.cos(phi), math.sin(lam), math.cos(lam)
    o = _ecef(float(georef["lat"]), float(georef["lon"]), float(georef.get("height", 0.0)))
    q = _ecef(lat, lon, height)
    dx, dy, dz = q[0] - o[0], q[1] - o[1], q[2] - o[2]
    return (-sl * dx + cl * dy, -sp * cl * dx - sp * sl * dy + cp * dz)


def judge_place(judge: dict[str, Any], state: dict[str, Any] | None) -> dict[str, Any]:
    """The judge's JSON: found iff the avatar stands within the radius of a place of the kind."""
    radius = float(judge.get("radius", 15.0))
    if not state or "lat" not in state or "lon" not in state:
        return {"found": False, "confidence": "low",
                "reason": "Curbside stub judge: the simulator's /state could not be read, so arrival cannot be confirmed."}
    x, y = geodetic_to_world(judge["georeference"], float(state["lat"]), float(state["lon"]),
                             float(state.get("alt", judge["georeference"].get("height", 0.0))))
    best = min(judge["places"], key=lambda p: math.hypot(float(p["x"]) - x, float(p["y"]) - y))
    d = math.hypot(float(best["x"]) - x, float(best["y"]) - y)
    found = d <= radius
    return {"found": found, "confidence": "high",
            "reason": (f"Curbside stub judge (from the simulator's position, not the image): the avatar stands "
                       f"{d:.1f} m from {best.get('label', 'the nearest place of the kind')}, "
                       f"{'within' if found else 'outside'} the {radius:g} m radius.")}


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a JPEG or PNG, from its header."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return (w, h)
        i += 2 + length
    return None


def images_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        if not isinstance(m.get("content"), list):
            continue
        for p in m["content"]:
            if not isinstance(p, dict) or p.get("type") != "image_url":
                continue
            url = str((p.get("image_url") or {}).get("url", ""))
            info: dict[str, Any] = {"role": m.get("role"), "media_type": url[5:url.find(";")] if url.startswith("data:") else "url"}
            if url.startswith("data:") and "," in url:
                try:
                    data = base64.b64decode(url.split(",", 1)[1], validate=True)
                    info["bytes"] = len(data)
                    size = image_size(data)
                    info["size"] = f"{size[0]}x{size[1]}" if size else None
                except (binascii.Error, ValueError, struct.error):
                    info["bytes"] = None
            out.append(info)
    return out


class Stub:
    def __init__(self, tasks: dict[str, dict[str, Any]], log_path: Path, state_url: str | None = None):
        self.tasks = tasks
        self.state_url = state_url
        self.log = log_path.open("a", encoding="utf-8")
        self.lock = threading.Lock()
        self.count = 0

    def write_log(self, record: dict[str, Any]) -> None:
        with self.lock:
            self.count += 1
            record = {"n": self.count, "time": round(time.time(), 3), **record}
            self.log.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.log.flush()

    def find_task(self, messages: list[dict[str, Any]]) -> str | None:
        system = next((text_of(m.get("content")) for m in messages if m.get("role") == "system"), "")
        first_user = next((text_of(m.get("content")) for m in messages if m.get("role") == "user"), "")
        haystack = f"{system}\n{first_user}"
        hits = [name for name, t in self.tasks.items() if all(m in haystack for m in t["marker"])]
        return max(hits, key=lambda n: sum(len(m) for m in self.tasks[n]["marker"])) if hits else None

    def read_state(self) -> dict[str, Any] | None:
        if not self.state_url:
            return None
        try:
            with urllib.request.urlopen(self.state_url, timeout=10) as r:
                return json.loads(r.read())
        except (OSError, ValueError):
            return None

    def evaluator_request(self, first_user: str, record: dict[str, Any]) -> Any:
        """The reply to an evaluator's own request (schedule parse, place judge), or None for an agent turn."""
        if first_user.startswith(SCHEDULE_PARSE):
            record["kind"] = "schedule_parse"
            text = first_user.split("Schedule text:", 1)[1] if "Schedule text:" in first_user else first_user
            parsed = parse_schedule_text(text)
            m = re.search(r"EXACTLY (\d+) entries", first_user)
            if m and int(m.group(1)) != len(parsed["appointments"]):
                record["warning"] = f"parsed {len(parsed['appointments'])} appointments, the prompt asks for {m.group(1)}"
            return parsed
        if first_user.startswith(PLACE_JUDGE):
            record["kind"] = "place_judge"
            m = re.search(r'The task given to the agent was: "(.*?)"\nThe agent', first_user, re.S)
            description = m.group(1).strip() if m else ""
            name = next((n for n, t in self.tasks.items() if t.get("judge") and t["judge"]["description"].strip() == description), None)
            record["task"] = name
            if name is None:
                record["warning"] = "no scripted task has this place-search description"
                return {"found": False, "confidence": "low", "reason": "Curbside stub judge: this task is not in the script, so arrival cannot be confirmed."}
            state = self.read_state()
            record["state"] = {k: state.get(k) for k in ("lat", "lon", "alt")} if state else None
            return judge_place(self.tasks[name]["judge"], state)
        return None

    @staticmethod
    def turn_of(messages: list[dict[str, Any]]) -> tuple[int, int]:
        """(accepted assistant turns so far, rejected ones)."""
        accepted = rejected = 0
        for i, m in enumerate(messages):
            if m.get("role") != "assistant":
                continue
            nxt = messages[i + 1] if i + 1 < len(messages) else None
            if nxt and nxt.get("role") == "user" and text_of(nxt.get("content")).startswith(CORRECTION):
                rejected += 1
            else:
                accepted += 1
        return accepted, rejected

    def reply(self, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, {"error": {"message": "messages: expected a non-empty list", "type": "invalid_request_error"}}
        last = messages[-1]
        last_text = text_of(last.get("content"))
        task = self.find_task(messages)
        turn, rejected = self.turn_of(messages)
        record: dict[str, Any] = {
            "model": request.get("model"), "max_tokens": request.get("max_tokens"),
            "messages": len(messages), "roles": [m.get("role") for m in messages],
            "image": images_of(messages) or None, "task": task, "turn": turn,
        }
        if rejected:
            record["rejected_before"] = rejected
        first_user = next((text_of(m.get("content")) for m in messages if m.get("role") == "user"), "")
        special = self.evaluator_request(first_user, record)
        if special is not None:
            return self.respond(request, record, special)
        if task is None:
            record["error"] = "no task marker matches"
            self.write_log(record)
            return 400, {"error": {"message": "curbside stub: no scripted task's marker occurs in the system or first user message", "type": "invalid_request_error"}}
        replies = self.tasks[task]["replies"]
        if ANSWER_TURN in last_text:
            record["kind"] = "answer"
            content = next((r for r in replies if isinstance(r, dict) and "answer" in r), None)
            if content is None:
                content = {"answer": "A", "reason": "No scripted answer; guessing A."}
                record["warning"] = "no scripted answer"
        else:
            record["kind"] = "step"
            steps = [r for r in replies if not (isinstance(r, dict) and "answer" in r)]
            if turn < len(steps):
                content = steps[turn]
            else:
                content = TERMINATE
                record["warning"] = f"script has {len(steps)} steps; turn {turn} past its end: terminate"
        return self.respond(request, record, content)

    def respond(self, request: dict[str, Any], record: dict[str, Any], content: Any) -> tuple[int, dict[str, Any]]:
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        record["reply"] = content if isinstance(content, dict) else text[:200]
        self.write_log(record)
        return 200, {
            "id": f"chatcmpl-curbside-stub-{self.count}", "object": "chat.completion", "created": int(time.time()),
            "model": request.get("model") or "curbside-stub",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop", "logprobs": None}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }


def handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def send_json(self, status: int, body: Any) -> None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].rstrip("/")
            if path in ("", "/health"):
                return self.send_json(200, {"ok": True, "service": "curbside stub model", "tasks": list(stub.tasks)})
            if path == "/v1/models":
                return self.send_json(200, {"object": "list", "data": [{"id": "curbside-stub", "object": "model", "owned_by": "curbside"}]})
            return self.send_json(404, {"error": {"message": f"GET {path}: not found", "type": "invalid_request_error"}})

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0].rstrip("/")
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            if path not in ("/v1/chat/completions", "/chat/completions"):
                return self.send_json(404, {"error": {"message": f"POST {path}: not found (POST /v1/chat/completions)", "type": "invalid_request_error"}})
            try:
                request = json.loads(body or b"{}")
            except json.JSONDecodeError as e:
                return self.send_json(400, {"error": {"message": f"body: not JSON ({e})", "type": "invalid_request_error"}})
            try:
                status, out = stub.reply(request if isinstance(request, dict) else {})
            except Exception as e:  # keep serving; the harness sees a 500 and retries
                stub.write_log({"error": f"{type(e).__name__}: {e}"})
                status, out = 500, {"error": {"message": f"curbside stub: {type(e).__name__}: {e}", "type": "server_error"}}
            self.send_json(status, out)

    return H


def main() -> None:
    p = argparse.ArgumentParser(description="Scripted OpenAI-compatible Chat Completions stub for UrbanGround's harness.")
    p.add_argument("--script", type=Path, required=True, help="replies JSON (see the module docstring)")
    p.add_argument("--log", type=Path, required=True, help="request log, one JSON line per request (appended)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0: any free port")
    p.add_argument("--port-file", type=Path, help="write the bound port here once listening")
    p.add_argument("--state-url", help="the simulator's GET /state URL, read by the place-search judge")
    o = p.parse_args()
    try:
        tasks = load_script(o.script)
    except (OSError, ValueError) as e:
        print(f"stub_model: {e}", file=sys.stderr)
        sys.exit(2)
    stub = Stub(tasks, o.log, o.state_url)
    server = ThreadingHTTPServer((o.host, o.port), handler(stub))
    port = server.server_address[1]
    if o.port_file:
        tmp = o.port_file.with_suffix(".tmp")
        tmp.write_text(f"{port}\n")
        tmp.replace(o.port_file)
    print(f"stub_model: {len(tasks)} scripted tasks ({', '.join(tasks)}); listening on http://{o.host}:{port}/v1", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
