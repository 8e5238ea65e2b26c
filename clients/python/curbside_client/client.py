"""A standard-library HTTP client for Curbside's ``arena:serve`` control API.

The server speaks UrbanGround's control protocol (``GET /state``, ``GET /screenshot``,
``POST /action``, ``POST /task/enter`` ...), so this client offers the same calls as
UrbanGround's own Python client, plus what Curbside adds: a bearer token, a named driver
(``X-Curbside-Driver``) and the ``image`` / ``interval`` / ``max_frames`` options of
``POST /action``.

Every failure surfaces as :class:`CurbsideError`: an HTTP error carries its status and the
server's ``error`` text; a server that cannot be reached has status 0.
"""

from __future__ import annotations

import base64
import json
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, Tuple

__all__ = [
    "DEFAULT_URL",
    "CurbsideClient",
    "CurbsideError",
    "decode_data_url",
    "image_size",
]

__version__ = "0.1.0"

#: UrbanGround's default address (``arena:serve`` uses the same port unless told otherwise).
DEFAULT_URL = "http://127.0.0.1:8081"

JsonDict = Dict[str, Any]


class CurbsideError(Exception):
    """A request that did not succeed.

    ``status`` is the HTTP status (400 bad action, 401 token, 404 unknown task or path,
    409 avatar held by another driver, 413 body too large, 500 server fault), or 0 when no
    HTTP answer came back (connection refused, timeout, DNS failure). ``message`` is the
    server's ``error`` field when it sent one. ``body`` is the decoded JSON reply, if any.
    """

    def __init__(self, status: int, message: str, body: Optional[Any] = None) -> None:
        super().__init__(f"HTTP {status}: {message}" if status else message)
        self.status = status
        self.message = message
        self.body = body


def decode_data_url(value: str) -> bytes:
    """Returns the bytes of a ``data:image/...;base64,...`` string (a bare base64 string works too)."""
    if value.startswith("data:"):
        header, sep, payload = value.partition(",")
        if not sep:
            raise ValueError("data URL without a comma")
        if not header.endswith(";base64"):
            return urllib.parse.unquote_to_bytes(payload)
        value = payload
    return base64.b64decode(value)


def image_size(data: bytes) -> Optional[Tuple[str, int, int]]:
    """Reads ``(format, width, height)`` from a PNG or JPEG header, or returns None.

    Nothing is decoded: only the PNG ``IHDR`` chunk or the JPEG start-of-frame marker is read.
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return ("png", width, height)
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01,) or 0xD0 <= marker <= 0xD9:  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        # Start-of-frame markers C0..CF, except DHT (C4), JPG (C8) and DAC (CC).
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return ("jpeg", width, height)
        i += 2 + length
    return None


def _number(value: Any) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


class CurbsideClient:
    """Drives one avatar of a Curbside ``arena:serve`` (or any server of UrbanGround's API).

    :param base_url: the server, e.g. ``http://127.0.0.1:8081``.
    :param token: sent as ``Authorization: Bearer TOKEN`` (servers started with ``--token``).
    :param driver: sent as ``X-Curbside-Driver``; the server lets one driver at a time post
        actions and names the holder in its 409 answer to the others.
    :param timeout: seconds to wait for each answer (per-call ``timeout`` arguments override it).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: Optional[str] = None,
        driver: Optional[str] = None,
        timeout: float = 60.0,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url: expected http://HOST:PORT, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.driver = driver
        self.timeout = timeout

    def __repr__(self) -> str:
        who = f", driver={self.driver!r}" if self.driver else ""
        return f"CurbsideClient({self.base_url!r}{who})"

    # ------------------------------------------------------------------ transport

    def _headers(self, has_body: bool) -> Dict[str, str]:
        headers = {"Accept": "application/json, image/*", "User-Agent": f"curbside-client/{__version__}"}
        if has_body:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.driver:
            headers["X-Curbside-Driver"] = self.driver
        return headers

    def request(
        self,
        method: str,
        path: str,
        body: Optional[Any] = None,
        query: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Tuple[int, str, bytes]:
        """Sends one request; returns ``(status, content type, body bytes)`` of a 2xx answer.

        :raises CurbsideError: for any non-2xx answer or when the server cannot be reached.
        """
        url = self.base_url + path
        if query:
            pairs = {k: _number(v) for k, v in query.items() if v is not None}
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method, headers=self._headers(data is not None))
        wait = self.timeout if timeout is None else timeout
        try:
            with urllib.request.urlopen(req, timeout=wait) as resp:
                return resp.status, resp.headers.get("Content-Type", ""), resp.read()
        except urllib.error.HTTPError as e:
            raw = b""
            try:
                raw = e.read()
            except Exception:  # the body may be gone (e.g. a 413 that closes the socket)
                pass
            finally:
                e.close()
            raise self._http_error(method, path, e.code, e.reason, raw) from None
        except urllib.error.URLError as e:
            reason = e.reason
            if isinstance(reason, ConnectionRefusedError):
                why = "connection refused (is arena:serve running?)"
            elif isinstance(reason, (socket.timeout, TimeoutError)):
                why = f"no answer within {wait:g} s"
            else:
                why = str(reason)
            raise CurbsideError(0, f"{method} {url}: {why}") from None
        except (socket.timeout, TimeoutError):
            raise CurbsideError(0, f"{method} {url}: no answer within {wait:g} s") from None
        except (ConnectionError, OSError) as e:
            raise CurbsideError(0, f"{method} {url}: {e}") from None

    @staticmethod
    def _http_error(method: str, path: str, status: int, reason: Any, raw: bytes) -> CurbsideError:
        parsed: Any = None
        message = ""
        if raw:
            try:
                parsed = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                parsed = None
            if isinstance(parsed, dict) and isinstance(parsed.get("error"), str):
                message = parsed["error"]
            elif parsed is None:
                message = raw[:300].decode("utf-8", "replace").strip()
        if not message:
            message = f"{method} {path}: {reason or 'error'}"
        return CurbsideError(status, message, parsed)

    def _json(
        self,
        method: str,
        path: str,
        body: Optional[Any] = None,
        query: Optional[Dict[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> JsonDict:
        status, _, raw = self.request(method, path, body, query, timeout)
        if not raw.strip():
            return {}
        try:
            value = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise CurbsideError(status, f"{method} {path}: the answer is not JSON: {raw[:120]!r}") from None
        if isinstance(value, dict) and value.get("ok") is False:
            raise CurbsideError(status, str(value.get("error") or f"{method} {path}: ok is false"), value)
        return value

    # ------------------------------------------------------------------ observation

    def health(self) -> JsonDict:
        """``GET /health``: service, status, endpoints (Curbside adds tasks, world, georeference, driver)."""
        return self._json("GET", "/health")

    def get_state(self) -> JsonDict:
        """``GET /state``: pose (lat, lon, alt, yaw, pitch), mode, surface, time, weather, counters."""
        return self._json("GET", "/state")

    def get_profile(self) -> JsonDict:
        """``GET /profile``: the avatar's (fixed) profile."""
        return self._json("GET", "/profile")

    def tileset_source(self) -> JsonDict:
        """``GET /tileset_source``."""
        return self._json("GET", "/tileset_source")

    def screenshot(
        self,
        width: Optional[int] = None,
        height: Optional[int] = None,
        format: Optional[str] = None,
        quality: Optional[int] = None,
        include_ui: bool = False,
        timeout: Optional[float] = None,
    ) -> bytes:
        """``GET /screenshot``: the encoded image (JPEG unless ``format="png"``), as bytes.

        Without arguments the server picks its default size; ``width`` and ``height`` are
        clamped by the server to 16..4096, ``quality`` must be 1..100.
        """
        query = {
            "width": width,
            "height": height,
            "format": format,
            "quality": quality,
            "include_ui": 1 if include_ui else None,
        }
        return self.request("GET", "/screenshot", query=query, timeout=timeout)[2]

    def wait_until_ready(self, timeout: float = 600.0, poll_interval: float = 1.0) -> JsonDict:
        """Polls ``GET /state`` until it answers; returns that state.

        Unreachable servers and 5xx answers are retried until ``timeout`` seconds pass (then a
        CurbsideError with status 0); any 4xx (a wrong token, say) is raised at once.
        """
        deadline = time.monotonic() + timeout
        last = "no attempt"
        while True:
            try:
                return self.get_state()
            except CurbsideError as e:
                if 400 <= e.status < 500:
                    raise
                last = str(e)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CurbsideError(0, f"{self.base_url} was not ready within {timeout:g} s (last: {last})")
            time.sleep(min(poll_interval, remaining))

    # ------------------------------------------------------------------ tasks

    def enter_task(self, task_id: str, timeout: Optional[float] = None) -> JsonDict:
        """``POST /task/enter``: puts the avatar at the task's start; returns ``{ok, action, task}``."""
        return self._json("POST", "/task/enter", {"id": task_id}, timeout=timeout)

    def exit_task(self) -> JsonDict:
        """``POST /task/exit``: ends the task (and frees the avatar for other drivers)."""
        return self._json("POST", "/task/exit")

    def get_task(self) -> JsonDict:
        """``GET /task``: ``{active}``, plus id, type, type_name, end_points, restricted_zones."""
        return self._json("GET", "/task")

    def reset_stats(self) -> JsonDict:
        """``POST /stats/reset``: zeroes the collision and rain counters."""
        return self._json("POST", "/stats/reset")

    # UrbanGround's client names these task_enter / task_get / task_exit.
    task_enter = enter_task
    task_get = get_task
    task_exit = exit_task

    # ------------------------------------------------------------------ actions

    def act(
        self,
        action: JsonDict,
        *,
        image: bool = False,
        interval: Optional[float] = None,
        max_frames: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> JsonDict:
        """``POST /action`` with ``action`` (a dict with an ``"action"`` key) as the body.

        The action is sent as given: values out of range come back as a 400 CurbsideError
        naming the field (this client does not clamp). Returns ``{ok, action, state}``; with
        ``image=True`` also ``image`` (a JPEG data URL after the action); with ``interval``
        (seconds, 0.05..10) also ``images``, data URLs sampled while a move runs (at most
        ``max_frames``, 1..240, server default 60).
        """
        if not isinstance(action, dict) or not isinstance(action.get("action"), str):
            raise ValueError('action: expected a dict such as {"action": "move", "dir": "forward", "seconds": 1}')
        query = {"image": 1 if image else None, "interval": interval, "max_frames": max_frames}
        return self._json("POST", "/action", action, query=query, timeout=timeout)

    def act_with_frames(self, action: JsonDict, interval: float = 0.3, max_frames: int = 60, **options: Any) -> List[bytes]:
        """Runs ``action`` sampling frames every ``interval`` seconds; returns the JPEG bytes."""
        reply = self.act(action, interval=interval, max_frames=max_frames, **options)
        return [decode_data_url(v) for v in reply.get("images", [])]

    def _do(self, name: str, fields: JsonDict, options: JsonDict) -> JsonDict:
        body: JsonDict = {"action": name}
        body.update({k: v for k, v in fields.items() if v is not None})
        return self.act(body, **options)

    # First person.

    def move(self, direction: str = "forward", seconds: float = 0.5, sprint: bool = False, *,
             image: bool = False, interval: Optional[float] = None, max_frames: Optional[int] = None,
             timeout: Optional[float] = None, **fields: Any) -> JsonDict:
        """Walks (or sprints) ``direction`` (forward|backward|left|right) for ``seconds`` (0.05..2).

        Extra fields pass through: ``yaw_rate``, ``pitch_rate`` (deg/s), ``jump``, ``jump_at``.
        """
        fields.update(dir=direction, seconds=seconds)
        return self._do("sprint" if sprint else "move", fields,
                        dict(image=image, interval=interval, max_frames=max_frames, timeout=timeout))

    def sprint(self, direction: str = "forward", seconds: float = 0.5, **kwargs: Any) -> JsonDict:
        """Like :meth:`move`, running."""
        return self.move(direction, seconds, sprint=True, **kwargs)

    def look(self, yaw: float = 0.0, pitch: float = 0.0, **options: Any) -> JsonDict:
        """Turns by ``yaw`` degrees (positive: right) and tilts by ``pitch`` (positive: up), relative."""
        return self._do("look", {"yaw": yaw, "pitch": pitch}, options)

    def jump(self, **options: Any) -> JsonDict:
        return self._do("jump", {}, options)

    # Map.

    def open_map(self, **options: Any) -> JsonDict:
        """Opens the top-down map centred on the avatar (``state.mode`` becomes ``"map"``)."""
        return self._do("open_map", {}, options)

    def close_map(self, **options: Any) -> JsonDict:
        return self._do("close_map", {}, options)

    def map_pan(self, east: float = 0.0, north: float = 0.0, **options: Any) -> JsonDict:
        """Moves the map's focus by metres east and north."""
        return self._do("map_pan", {"east": east, "north": north}, options)

    def map_zoom(self, factor: float, **options: Any) -> JsonDict:
        """Scales the map's span: below 1 closer, above 1 farther."""
        return self._do("map_zoom", {"factor": factor}, options)

    def map_select(self, x: float, y: float, **options: Any) -> JsonDict:
        """Selects the map point at normalised screen position (x, y), each 0..1, y = 0 at the top."""
        return self._do("map_select", {"x": x, "y": y}, options)

    def map_orbit(self, yaw: float = 0.0, pitch: float = 0.0, **options: Any) -> JsonDict:
        return self._do("map_orbit", {"yaw": yaw, "pitch": pitch}, options)

    def identify_location(self, **options: Any) -> JsonDict:
        """Describes the selected map point (in the reply's ``action`` text)."""
        return self._do("identify_location", {}, options)

    def navigate(self, **options: Any) -> JsonDict:
        """Plans a walking route to the selected map point (its length is in the ``action`` text)."""
        return self._do("navigate", {}, options)

    def clear_route(self, **options: Any) -> JsonDict:
        return self._do("clear_route", {}, options)

    def map_teleport(self, **options: Any) -> JsonDict:
        """Moves the avatar to the selected map point and closes the map."""
        return self._do("map_teleport", {}, options)

    def show_network(self, **options: Any) -> JsonDict:
        return self._do("show_network", {}, options)

    def hide_network(self, **options: Any) -> JsonDict:
        return self._do("hide_network", {}, options)

    def toggle_network(self, **options: Any) -> JsonDict:
        return self._do("toggle_network", {}, options)

    # Environment.

    def teleport(self, lat: float, lon: float, height: Optional[float] = None, **options: Any) -> JsonDict:
        """Puts the avatar at WGS84 ``lat``, ``lon`` (Curbside stands it on the ground whatever ``height``)."""
        return self._do("teleport", {"lat": lat, "lon": lon, "height": height}, options)

    def where_am_i(self, **options: Any) -> JsonDict:
        """The surface under the avatar, in the reply's ``action`` text."""
        return self._do("where_am_i", {}, options)

    def set_weather(self, weather: str, **options: Any) -> JsonDict:
        """sunny, partly_cloudy, cloudy, overcast, rainy or thunderstorm."""
        return self._do("set_weather", {"weather": weather}, options)

    def set_time(self, hour: int, minute: int = 0, **options: Any) -> JsonDict:
        return self._do("set_time", {"hour": hour, "minute": minute}, options)

    def set_time_scale(self, factor: float, **options: Any) -> JsonDict:
        """Simulated seconds per second of action (0..1000)."""
        return self._do("set_time_scale", {"factor": factor}, options)

    def enable_pedestrians(self, **options: Any) -> JsonDict:
        return self._do("enable_pedestrians", {}, options)

    def disable_pedestrians(self, **options: Any) -> JsonDict:
        return self._do("disable_pedestrians", {}, options)
