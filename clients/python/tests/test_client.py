"""Tests of curbside_client.

The live tests drive a real ``arena:serve`` given by ``CURBSIDE_URL`` (and ``CURBSIDE_TOKEN`` when
it was started with ``--token``); without ``CURBSIDE_URL`` they are skipped. They enter task
vln-01 of the cityarena suite. The offline tests (helpers, unreachable server) always run.

    CURBSIDE_URL=http://127.0.0.1:8081 python3 -m unittest discover -s clients/python/tests -v
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from curbside_client import AgentClient, CurbsideClient, CurbsideError, decode_data_url, image_size  # noqa: E402

URL = os.environ.get("CURBSIDE_URL", "").strip()
TOKEN = os.environ.get("CURBSIDE_TOKEN") or None
TASK = os.environ.get("CURBSIDE_TASK", "vln-01")
DRIVER = "curbside-client-tests"


def turned(before: float, after: float) -> float:
    """Signed heading change, degrees in [-180, 180)."""
    return (after - before + 180) % 360 - 180


class OfflineTest(unittest.TestCase):
    def test_decode_data_url(self) -> None:
        payload = b"\xff\xd8\xff\xe0 not really a jpeg"
        url = "data:image/jpeg;base64," + base64.b64encode(payload).decode()
        self.assertEqual(decode_data_url(url), payload)
        self.assertEqual(decode_data_url(base64.b64encode(payload).decode()), payload)

    def test_image_size_png(self) -> None:
        header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 320, 240) + b"\x08\x02\x00\x00\x00"
        self.assertEqual(image_size(header), ("png", 320, 240))

    def test_image_size_jpeg(self) -> None:
        app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
        sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 480, 640, 1) + b"\x01\x11\x00"
        self.assertEqual(image_size(b"\xff\xd8" + app0 + sof0), ("jpeg", 640, 480))

    def test_image_size_unknown(self) -> None:
        self.assertIsNone(image_size(b"GIF89a...."))
        self.assertIsNone(image_size(b""))

    def test_connection_refused_is_status_0_naming_the_url(self) -> None:
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        url = f"http://127.0.0.1:{port}"
        with self.assertRaises(CurbsideError) as caught:
            CurbsideClient(url, timeout=5).get_state()
        self.assertEqual(caught.exception.status, 0)
        self.assertIn(f"{url}/state", caught.exception.message)
        self.assertIn("refused", caught.exception.message)
        with self.assertRaises(CurbsideError) as waited:
            CurbsideClient(url).wait_until_ready(timeout=0.3, poll_interval=0.1)
        self.assertEqual(waited.exception.status, 0)

    def test_bad_arguments(self) -> None:
        with self.assertRaises(ValueError):
            CurbsideClient("127.0.0.1:8081")
        with self.assertRaises(ValueError):
            CurbsideClient().act({"dir": "forward"})

    def test_urbanground_names(self) -> None:
        self.assertIs(AgentClient, CurbsideClient)
        for name in ("task_enter", "task_get", "task_exit", "act_with_frames", "show_network", "toggle_network"):
            self.assertTrue(callable(getattr(CurbsideClient, name)), name)


@unittest.skipUnless(URL, "set CURBSIDE_URL=http://HOST:PORT of a running arena:serve (cityarena suite) to run the live tests")
class LiveTest(unittest.TestCase):
    client: CurbsideClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = CurbsideClient(URL, token=TOKEN, driver=DRIVER)
        cls.client.wait_until_ready(timeout=60)

    def tearDown(self) -> None:
        # Leave no task behind (and free the avatar for other drivers).
        try:
            self.client.exit_task()
        except CurbsideError:
            pass

    def enter(self) -> dict:
        reply = self.client.enter_task(TASK)
        self.assertTrue(reply["ok"])
        self.assertEqual(reply["task"]["id"], TASK)
        return reply

    def assertRefused(self, status: int, fragment: str, call, *args, **kwargs) -> CurbsideError:
        with self.assertRaises(CurbsideError) as caught:
            call(*args, **kwargs)
        e = caught.exception
        self.assertEqual(e.status, status, e.message)
        self.assertIn(fragment, e.message)
        self.assertNotIn("Traceback", e.message)
        return e

    def test_health_and_info(self) -> None:
        h = self.client.health()
        self.assertTrue(h["ok"])
        self.assertIn("POST /action", h["endpoints"])
        self.assertTrue(self.client.get_profile()["ok"])
        self.assertTrue(self.client.tileset_source()["ok"])
        self.assertIn("lat", self.client.wait_until_ready(timeout=5))

    def test_state_fields(self) -> None:
        s = self.client.get_state()
        for key, kind in (("lat", (int, float)), ("lon", (int, float)), ("yaw", (int, float)), ("mode", str), ("time", str), ("weather", str), ("on_sidewalk", bool)):
            self.assertIsInstance(s[key], kind, key)
        self.assertRegex(s["time"], r"^\d\d:\d\d:\d\d$")

    def test_task_lifecycle(self) -> None:
        self.enter()
        task = self.client.get_task()
        self.assertTrue(task["active"])
        self.assertEqual(task["id"], TASK)
        reply = self.client.exit_task()
        self.assertEqual(reply["action"], f"exit_task: {TASK}")
        self.assertFalse(self.client.get_task()["active"])
        self.assertTrue(self.client.reset_stats()["ok"])

    def test_unknown_task_is_404(self) -> None:
        self.assertRefused(404, "no task", self.client.enter_task, "no-such-task-xyz")

    def test_look_and_move_with_image(self) -> None:
        self.enter()
        before = self.client.get_state()
        after = self.client.look(30)["state"]
        self.assertAlmostEqual(turned(before["yaw"], after["yaw"]), 30, delta=0.5)
        self.assertAlmostEqual(after["pitch"], before["pitch"], delta=0.01)
        moved = self.client.move("forward", 1.0, image=True)
        self.assertTrue(moved["ok"])
        self.assertTrue(moved["action"].startswith("move: forward"), moved["action"])
        self.assertNotEqual((moved["state"]["lat"], moved["state"]["lon"]), (after["lat"], after["lon"]))
        self.assertTrue(moved["image"].startswith("data:image/jpeg;base64,"))
        size = image_size(decode_data_url(moved["image"]))
        self.assertIsNotNone(size)
        self.assertEqual(size[0], "jpeg")
        self.assertNotIn("images", moved)
        sprinted = self.client.sprint("backward", 0.5)
        self.assertTrue(sprinted["action"].startswith("sprint: backward"), sprinted["action"])
        self.assertTrue(self.client.jump()["ok"])

    def test_sampled_frames(self) -> None:
        self.enter()
        reply = self.client.move("forward", 1.0, interval=0.3, max_frames=60)
        self.assertEqual(len(reply["images"]), 3)
        frames = self.client.act_with_frames({"action": "move", "dir": "forward", "seconds": 1.0}, interval=0.25, max_frames=2)
        self.assertEqual(len(frames), 2)
        for frame in frames:
            self.assertEqual(image_size(frame)[0], "jpeg")
        # A non-move action is captured once, after it.
        self.assertEqual(len(self.client.look(10, interval=0.3)["images"]), 1)

    def test_screenshot(self) -> None:
        png = self.client.screenshot(width=320, height=240, format="png")
        self.assertEqual(image_size(png), ("png", 320, 240))
        jpeg = self.client.screenshot(quality=50)
        self.assertEqual(image_size(jpeg)[0], "jpeg")
        tiny = self.client.screenshot(width=1, height=1, format="png")  # clamped to 16
        self.assertEqual(image_size(tiny), ("png", 16, 16))
        self.assertRefused(400, "format", self.client.screenshot, format="gif")
        self.assertRefused(400, "quality", self.client.screenshot, quality=0)

    def test_map(self) -> None:
        self.enter()
        self.assertRefused(400, "select a point first", self.client.navigate)
        self.assertRefused(400, "not open", self.client.map_pan, 10, 0)
        self.assertEqual(self.client.open_map()["state"]["mode"], "map")
        self.assertRefused(400, "map is open", self.client.look, 10)
        self.assertTrue(self.client.map_zoom(0.5)["ok"])
        self.assertTrue(self.client.map_pan(east=5, north=-5)["ok"])
        self.assertTrue(self.client.map_orbit(20, 0)["ok"])
        self.assertTrue(self.client.map_select(0.6, 0.4)["action"].startswith("map_select:"))
        self.assertTrue(self.client.identify_location()["action"].startswith("identify_location:"))
        self.assertRegex(self.client.navigate()["action"], r"^navigate: route of \d+ m")
        self.assertTrue(self.client.clear_route()["ok"])
        for name in ("show_network", "hide_network", "toggle_network"):
            self.assertTrue(getattr(self.client, name)()["action"].startswith(name))
        before = self.client.get_state()
        after = self.client.map_teleport()["state"]
        self.assertEqual(after["mode"], "first_person")
        self.assertNotEqual((after["lat"], after["lon"]), (before["lat"], before["lon"]))
        self.client.open_map()
        self.assertEqual(self.client.close_map()["state"]["mode"], "first_person")

    def test_environment(self) -> None:
        self.enter()
        start = self.client.get_state()
        try:
            s = self.client.set_weather("rainy")["state"]
            self.assertEqual(s["weather"], "rainy")
            self.assertTrue(s["is_raining"])
            self.assertEqual(self.client.set_time(8, 30)["state"]["time"], "08:30:00")
            self.assertTrue(self.client.set_time_scale(1)["ok"])
            self.assertTrue(self.client.enable_pedestrians()["state"]["pedestrians_active"])
            self.assertFalse(self.client.disable_pedestrians()["state"]["pedestrians_active"])
            self.assertTrue(self.client.where_am_i()["action"].startswith("where_am_i:"))
            here = self.client.teleport(start["lat"], start["lon"], 5.0)["state"]
            self.assertAlmostEqual(here["lat"], start["lat"], places=5)
            self.assertAlmostEqual(here["lon"], start["lon"], places=5)
            self.assertRefused(400, "weather", self.client.set_weather, "snowy")
            self.assertRefused(400, "lat", self.client.teleport, 0.0, 0.0, 5.0)
        finally:
            self.client.set_weather(start["weather"] if start["weather"] != "foggy" else "sunny")
            hour, minute, _ = (int(v) for v in start["time"].split(":"))
            self.client.set_time(hour, minute)

    def test_bad_requests(self) -> None:
        self.enter()
        e = self.assertRefused(400, "seconds", self.client.move, "forward", 3)
        self.assertEqual(e.body, {"ok": False, "error": e.message})
        self.assertRefused(400, "unknown action", self.client.act, {"action": "fly"})
        self.assertRefused(400, "dir", self.client.move, "up", 1)
        self.assertRefused(400, "interval", self.client.move, "forward", 1, interval=50)
        self.assertRefused(404, "no such endpoint", self.client.request, "GET", "/nope")
        self.assertRefused(405, "wrong method", self.client.request, "GET", "/action")
        self.assertRefused(400, "id", self.client.request, "POST", "/task/enter", {})

    def test_one_driver_at_a_time(self) -> None:
        other = CurbsideClient(URL, token=TOKEN, driver="curbside-client-tests-other")
        self.enter()
        e = self.assertRefused(409, DRIVER, other.look, 10)
        self.assertIn("held by", e.message)
        self.assertTrue(other.get_state()["lat"])  # reading is open to all
        self.client.exit_task()  # frees the avatar
        try:
            self.assertTrue(other.look(0)["ok"])
        finally:
            other.exit_task()  # and give it back

    @unittest.skipUnless(TOKEN, "set CURBSIDE_TOKEN for a server started with --token")
    def test_token_required(self) -> None:
        self.assertRefused(401, "bearer", CurbsideClient(URL).get_state)
        self.assertRefused(401, "bearer", CurbsideClient(URL, token=TOKEN + "x").get_state)


if __name__ == "__main__":
    unittest.main()
