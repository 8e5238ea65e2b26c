"""Behaviour cloning of a small GNM-style navigation policy on `npm run dataset` data, exported to ONNX.

    python -m train.bc --data out/data/unit75 [out/data/reactive72 ...] --out assets/policies/bc-gnm [--epochs 15] [--seed 0]

Input: the GNM / visualnav-transformer layout `npm run dataset` writes (trajectory folders of
`0.jpg, 1.jpg, ...` at the expert's rate, `traj_data.pkl` with `position` [T, 2], `yaw` [T] and the
scenario `goal` [2], world frame; `data_splits/{train,test}/traj_names.txt`; `dataset.json`).

Trajectories recorded with `--perturb` carry `perturbed` [T] (1 where the command after frame k had
a turn-rate burst added) and `success` [1]: samples whose label window holds a burst, and the last
WAYPOINTS*STEP frames of a failed episode, are left out, so every label is the expert's own motion.

Model (per sample at frame t): `CONTEXT` frames (t - (CONTEXT-1)*STEP ... t, STEP frames apart; the
first frame repeated before the episode starts, as Curbside feeds a policy), each 3 x H x W, through
one shared conv encoder (3-channel convolutions only), concatenated with the scenario goal in the
robot frame at t; output `WAYPOINTS` future positions in the robot frame at t, metres, at
t + (k+1)*STEP frames (one control period apart). Loss: mean squared error in metres; images and
labels are mirrored left-right at random (y, goal y negated) as augmentation.

Export: `model.onnx` (inputs `obs` [B, T, 3, H, W] normalised by Curbside with ImageNet mean/std,
`goal` [B, 2]; output `waypoints` [B, K, 2]), its `curbside-policy/1` manifest `model.json`
(rate = dataset rate / STEP; the PD controller follows waypoint 1 scaled by 1/2, the mean motion over two
control periods), the PyTorch checkpoint `model.pt`, `train-log.json` (the command, data, per-epoch losses, timings) and `fixture.json`
(PyTorch's output on a formula input, which a browser test feeds onnxruntime-web) beside them.
"""
from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image
from torch import nn

CONTEXT = 2          # frames fed to the model
STEP = 2             # dataset frames per control period (10 Hz data -> 5 Hz policy)
WAYPOINTS = 5        # predicted positions, one control period apart
WIDTH, HEIGHT = 64, 48
MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def to_robot(dx: np.ndarray, dy: np.ndarray, yaw: float) -> tuple[np.ndarray, np.ndarray]:
    """World-frame offsets -> robot frame (x forward, y left) of a robot with heading `yaw`."""
    c, s = math.cos(yaw), math.sin(yaw)
    return c * dx + s * dy, -s * dx + c * dy


def load_frames(folder: Path, count: int) -> np.ndarray:
    """The trajectory's JPEGs as float32 [T, 3, H, W], area-resized to WIDTH x HEIGHT, ImageNet-normalised."""
    out = np.empty((count, 3, HEIGHT, WIDTH), np.float32)
    for k in range(count):
        img = Image.open(folder / f"{k}.jpg").convert("RGB").resize((WIDTH, HEIGHT), Image.BOX)
        a = (np.asarray(img, np.float32) / 255.0 - MEAN) / STD
        out[k] = a.transpose(2, 0, 1)
    return out


def load_split(data: Path, split: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All samples of a split: observations [N, CONTEXT, 3, H, W], goals [N, 2], waypoints [N, K, 2]."""
    names = [n for n in (data / "data_splits" / split / "traj_names.txt").read_text().split("\n") if n]
    obs, goals, targets = [], [], []
    for name in names:
        folder = data / name
        d = pickle.load(open(folder / "traj_data.pkl", "rb"))
        pos, yaw, goal = d["position"], d["yaw"], d["goal"]
        t_count = len(yaw)
        if t_count < 2:
            continue
        # Recovery data (`npm run dataset -- --perturb`): a sample's label window must hold the
        # expert's own commands, so samples whose next WAYPOINTS*STEP commands include a burst are
        # skipped; so is the last second of an episode that failed (its future is the failure).
        perturbed = np.asarray(d.get("perturbed", np.zeros(t_count)))
        failed = "success" in d and float(np.asarray(d["success"]).reshape(-1)[0]) == 0.0
        last = t_count - 1 - (WAYPOINTS * STEP if failed else 0)
        frames = load_frames(folder, t_count)
        for t in range(max(0, last)):
            if perturbed[t : t + WAYPOINTS * STEP].any():
                continue
            ctx = [max(0, t - (CONTEXT - 1 - i) * STEP) for i in range(CONTEXT)]
            fut = [min(t_count - 1, t + (k + 1) * STEP) for k in range(WAYPOINTS)]
            wx, wy = to_robot(pos[fut, 0] - pos[t, 0], pos[fut, 1] - pos[t, 1], float(yaw[t]))
            gx, gy = to_robot(np.array([goal[0] - pos[t, 0]]), np.array([goal[1] - pos[t, 1]]), float(yaw[t]))
            obs.append(frames[ctx])
            goals.append([gx[0], gy[0]])
            targets.append(np.stack([wx, wy], 1))
    if not obs:
        raise SystemExit(f"train.bc: {data}: the {split} split has no trajectory with 2 or more frames")
    return np.stack(obs).astype(np.float32), np.array(goals, np.float32), np.stack(targets).astype(np.float32)


class GnmLite(nn.Module):
    """A shared conv encoder per frame (3-channel convolutions), the goal, and an MLP to K waypoints."""

    def __init__(self) -> None:
        super().__init__()
        def block(i: int, o: int, k: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(i, o, k, stride=2, padding=k // 2), nn.ReLU())
        self.encoder = nn.Sequential(block(3, 16, 5), block(16, 32, 3), block(32, 64, 3), block(64, 64, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(CONTEXT * 64 + 5, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, WAYPOINTS * 2))

    def forward(self, obs: torch.Tensor, goal: torch.Tensor) -> torch.Tensor:
        b = obs.shape[0]
        f = self.encoder(obs.reshape(b * CONTEXT, 3, HEIGHT, WIDTH)).reshape(b, CONTEXT * 64)
        dist = torch.sqrt((goal * goal).sum(1, keepdim=True) + 1e-6)
        # Goal features: position / 10 m, direction, distance / 20 m (clipped).
        g = torch.cat([goal / 10.0, goal / dist, dist.clamp(max=20.0) / 20.0], 1)
        return self.head(torch.cat([f, g], 1)).reshape(b, WAYPOINTS, 2)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m train.bc", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, type=Path, nargs="+", help="dataset directories (npm run dataset --out), trained on together")
    p.add_argument("--out", required=True, type=Path, help="policy directory to write (model.onnx, model.json, train-log.json)")
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default="bc-gnm", help="manifest name")
    a = p.parse_args(argv)
    metas = []
    for d in a.data:
        meta_path = d / "dataset.json"
        if not meta_path.exists():
            raise SystemExit(f"train.bc: {meta_path}: missing; make the data with npm run dataset -- --out {d}")
        metas.append(json.loads(meta_path.read_text()))
        if metas[-1]["rateHz"] != metas[0]["rateHz"] or metas[-1]["camera"]["fovYDeg"] != metas[0]["camera"]["fovYDeg"]:
            raise SystemExit(f"train.bc: {meta_path}: rate or camera differs from {a.data[0]}'s; record the datasets alike")
    meta = metas[0]
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    t0 = time.time()
    def joined(split: str):
        parts = [load_split(d, split) for d in a.data if (d / "data_splits" / split / "traj_names.txt").read_text().strip()]
        return tuple(np.concatenate([p[k] for p in parts]) for k in range(3)) if parts else None
    train = joined("train")
    if train is None:
        raise SystemExit(f"train.bc: {', '.join(map(str, a.data))}: no training trajectories")
    test = joined("test")
    load_s = time.time() - t0
    print(f"train.bc: {len(train[0])} training samples{'' if test is None else f', {len(test[0])} test'} from {', '.join(map(str, a.data))} ({load_s:.0f} s)", flush=True)
    model = GnmLite()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, a.epochs)
    tensors = [torch.from_numpy(x) for x in train]
    log = {"command": " ".join(["python -m train.bc", *(argv if argv is not None else sys.argv[1:])]), "datasets": metas, "samples": {"train": len(train[0]), "test": 0 if test is None else len(test[0])}, "epochs": []}

    def evaluate(split) -> float:
        model.eval()
        with torch.no_grad():
            o, g, w = (torch.from_numpy(x) for x in split)
            return float(sum(((model(o[i:i + 256], g[i:i + 256]) - w[i:i + 256]) ** 2).mean(-1).sum() for i in range(0, len(o), 256)) / (len(o) * WAYPOINTS))

    t1 = time.time()
    for epoch in range(a.epochs):
        model.train()
        order = rng.permutation(len(train[0]))
        total = 0.0
        for i in range(0, len(order), a.batch):
            idx = torch.from_numpy(order[i:i + a.batch])
            o, g, w = (x[idx] for x in tensors)
            flip = torch.from_numpy(rng.random(len(idx)) < 0.5)
            o = torch.where(flip[:, None, None, None, None], o.flip(-1), o)
            sign = torch.where(flip, -1.0, 1.0)
            g = torch.stack([g[:, 0], g[:, 1] * sign], 1)
            w = torch.stack([w[..., 0], w[..., 1] * sign[:, None]], -1)
            loss = ((model(o, g) - w) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        row = {"epoch": epoch + 1, "train_mse_m2": total / len(order), "seconds": round(time.time() - t1, 1)}
        if test is not None:
            row["test_mse_m2"] = evaluate(test)
        log["epochs"].append(row)
        print("train.bc: " + ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)

    a.out.mkdir(parents=True, exist_ok=True)
    model.eval()
    torch.save(model.state_dict(), a.out / "model.pt")  # the PyTorch checkpoint (GnmLite), for serving over the remote bridge
    example = (torch.from_numpy(train[0][:2]), torch.from_numpy(train[1][:2]))
    torch.onnx.export(model, example, str(a.out / "model.onnx"), input_names=["obs", "goal"], output_names=["waypoints"],
                      dynamic_axes={"obs": {0: "B"}, "goal": {0: "B"}, "waypoints": {0: "B"}}, opset_version=17, dynamo=False)
    rate = meta["rateHz"] / STEP
    manifest = {
        "format": "curbside-policy/1", "name": a.name, "rateHz": rate,
        "image": {"width": WIDTH, "height": HEIGHT},
        "context": {"frames": CONTEXT, "spacing": 1 / rate},
        "normalization": {"mean": MEAN.tolist(), "std": STD.tolist(), "appliedBy": "curbside"},
        "inputs": {"observation": "obs", "layout": "BTCHW"},
        "goal": {"type": "point", "input": "goal"},
        "output": {"kind": "waypoints", "name": "waypoints", "count": WAYPOINTS, "dims": 2, "scale": 0.5, "waypointIndex": 1},
        "camera": {"height": meta["camera"]["heightM"], "pitchDeg": meta["camera"]["pitchDeg"], "fovYDeg": meta["camera"]["fovYDeg"]},
    }
    (a.out / "model.json").write_text(json.dumps(manifest, indent=2) + "\n")
    # The export agrees with PyTorch (onnxruntime, CPU).
    import onnxruntime as ort
    sess = ort.InferenceSession(str(a.out / "model.onnx"), providers=["CPUExecutionProvider"])
    onnx_out = sess.run(None, {"obs": example[0].numpy(), "goal": example[1].numpy()})[0]
    with torch.no_grad():
        torch_out = model(*example).numpy()
    log["export_max_abs_diff"] = float(np.abs(onnx_out - torch_out).max())
    # A fixture for the page's onnxruntime-web: a formula input (no image to ship) and PyTorch's output.
    n = CONTEXT * 3 * HEIGHT * WIDTH
    fixture_obs = torch.from_numpy((1.5 * np.sin(0.37 * np.arange(n))).astype(np.float32).reshape(1, CONTEXT, 3, HEIGHT, WIDTH))
    fixture_goal = torch.tensor([[6.0, -1.5]])
    with torch.no_grad():
        fixture_out = model(fixture_obs, fixture_goal).numpy()
    (a.out / "fixture.json").write_text(json.dumps({
        "obs": "float32 [1, %d, 3, %d, %d], element i = 1.5 * sin(0.37 * i)" % (CONTEXT, HEIGHT, WIDTH),
        "goal": [[6.0, -1.5]],
        "waypoints": fixture_out.astype(float).round(7).tolist(),
    }, indent=2) + "\n")
    log["train_seconds"] = round(time.time() - t1, 1)
    log["load_seconds"] = round(load_s, 1)
    (a.out / "train-log.json").write_text(json.dumps(log, indent=2) + "\n")
    print(f"train.bc: wrote {a.out}/model.onnx ({(a.out / 'model.onnx').stat().st_size / 1024:.0f} KB), model.json, train-log.json; onnxruntime vs torch max |diff| {log['export_max_abs_diff']:.2e}")


if __name__ == "__main__":
    main()
