"""Serve a trained PyTorch checkpoint to Curbside over the remote-policy bridge (`curbside-remote-policy/1`).

    npm run bench -- --suite smoke --policy remote          # prints the relay URL and token
    python -m train.serve --url ws://127.0.0.1:PORT --token TOKEN [--policy assets/policies/bc-gnm]

Loads `model.pt` (a `train.bc.GnmLite` state dict) and its `model.json` manifest, sends the manifest as
the spec, answers every observation ([B, T, 3, H, W], normalised by Curbside as the manifest says; the
goal in the robot frame) with the model's waypoints, and exits 0 when the relay says the run is done
(1 with the relay's message when it failed). This is how a researcher's own model (ViNT, NoMaD, ...) runs
unchanged: replace the model, keep the loop. Protocol: src/policy/REMOTE-PROTOCOL.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import struct
import sys
from pathlib import Path

import numpy as np
import torch
import websockets

from train.bc import GnmLite


def decode(msg: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """A binary observation: its JSON header and its float32 tensors by name."""
    (n,) = struct.unpack_from("<I", msg, 0)
    header = json.loads(msg[4:4 + n])
    start = (4 + n + 3) // 4 * 4
    tensors = {t["name"]: np.frombuffer(msg, "<f4", count=int(np.prod(t["shape"])), offset=start + t["offset"]).reshape(t["shape"]) for t in header["tensors"]}
    return header, tensors


async def serve(url: str, token: str, policy: Path) -> int:
    manifest = json.loads((policy / "model.json").read_text())
    model = GnmLite()
    model.load_state_dict(torch.load(policy / "model.pt", weights_only=True))
    model.eval()
    async with websockets.connect(f"{url.rstrip('/')}/policy", additional_headers={"Authorization": f"Bearer {token}"}, max_size=None) as ws:
        await ws.send(json.dumps({"type": "spec", "manifest": manifest}))
        async for msg in ws:
            if isinstance(msg, str):
                m = json.loads(msg)
                if m["type"] == "done":
                    print(f"train.serve: the run finished ({m.get('episodes')} episodes)")
                    return 0
                if m["type"] == "error":
                    print(f"train.serve: the run failed: {m.get('message')}", file=sys.stderr)
                    return 1
                continue
            header, tensors = decode(msg)
            obs = torch.from_numpy(tensors["observation"].copy())
            goal = torch.tensor(header["goalRobot"], dtype=torch.float32)
            with torch.no_grad():
                waypoints = model(obs, goal).numpy()
            await ws.send(json.dumps({"type": "action", "step": header["step"], "waypoints": waypoints.tolist()}))
    print("train.serve: the relay closed without saying why", file=sys.stderr)
    return 1


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m train.serve", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", required=True, help="relay URL printed by npm run bench -- --policy remote")
    p.add_argument("--token", required=True, help="session token printed by npm run bench")
    p.add_argument("--policy", type=Path, default=Path("assets/policies/bc-gnm"), help="folder with model.pt and model.json")
    a = p.parse_args()
    raise SystemExit(asyncio.run(serve(a.url, a.token, a.policy)))


if __name__ == "__main__":
    main()
