#!/usr/bin/env python3
"""A scripted OpenAI-compatible Chat Completions endpoint for UrbanGround's evaluation harness.

`POST /v1/chat/completions` answers with the next scripted reply for the task the conversation is
about, in UrbanGround's ReAct format (`{"observation": ..., "reason": ..., "action": {...}}`, or
`{"answer": "B", "reason": ...}` on the QA final-answer turn). No model, no network: it is for
proving that the harness, the server and the scoring work end to end.

Script (--script FILE, JSON):

    {"tasks": {"SN-short-navigation-07": {"marker": "Goal:  Lopez Cafe Railway (47.378990,...)",
                                          "replies": [{"observation": ..., "reason": ..., "action": {...}}, ...]},
               "LQ-landmark-qa-01":      {"marker": "Which of these shops ...\\nA. ...", "replies": [...]}}}

(a plain `{"MARKER": [replies...]}` mapping is accepted too). A request belongs to the task whose
marker occurs in its system message + first user message (the harness puts the task text there:
"Task:\\n..."); the longest matching marker wins. The reply is chosen by the turn: the number of
assistant messages already in the conversation, not counting replies the harness rejected (those are
followed by its "The response could not be executed" correction). The QA answer turn (the last user
message says "Exploration is complete") gets the script's reply that has an "answer" key. Replies
may be objects (sent as compact JSON) or strings (sent verbatim). Past the end of a script: a
terminate. No marker matches: HTTP 400 with an OpenAI-style error (the harness does not retry it).

Every request is logged as one JSON line (--log): time, model, max_tokens, message count and roles,
whether an image was attached (media type, bytes, JPEG/PNG width × height), the task, the turn and
the reply sent.

Usage: stub_model.py --script replies.json --log requests.jsonl [--host 127.0.0.1] [--port 0]
       [--port-file F]   (port 0: any free one; the port is written to F and printed on stderr)
Stdlib only; binds 127.0.0.1 by default.
"""
from __future__ import annotations

import argparse
import base64
import binascii
import json
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CORRECTION = "The response could not be executed"
ANSWER_TURN = "Exploration is complete"
TERMINATE = {"observation": "The scripted replies are used up.", "reason": "Nothing more to replay; stop.", "action": {"action": "terminate"}}


def load_script(path: Path) -> dict[str, dict[str, Any]]:
    """Returns {name: {"marker": str, "replies": list}}."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: expected a JSON object")
    tasks: dict[str, dict[str, Any]] = {}
    if isinstance(doc.get("tasks"), dict):
        for name, t in doc["tasks"].items():
            if not isinstance(t, dict) or not isinstance(t.get("marker"), str) or not t["marker"] or not isinstance(t.get("replies"), list):
                raise ValueError(f"{path}: tasks.{name}: expected {{\"marker\": non-empty string, \"replies\": [...]}}")
            tasks[name] = {"marker": t["marker"], "replies": t["replies"]}
    else:
        for marker, replies in doc.items():
            if not marker or not isinstance(replies, list):
                raise ValueError(f"{path}: {marker[:40]!r}: expected a list of replies")
            tasks[marker[:40]] = {"marker": marker, "replies": replies}
    if not tasks:
        raise ValueError(f"{path}: no tasks")
    return tasks


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
    def __init__(self, tasks: dict[str, dict[str, Any]], log_path: Path):
        self.tasks = tasks
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
        hits = [name for name, t in self.tasks.items() if t["marker"] in haystack]
        return max(hits, key=lambda n: len(self.tasks[n]["marker"])) if hits else None

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
    o = p.parse_args()
    try:
        tasks = load_script(o.script)
    except (OSError, ValueError) as e:
        print(f"stub_model: {e}", file=sys.stderr)
        sys.exit(2)
    stub = Stub(tasks, o.log)
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
