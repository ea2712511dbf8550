#!/usr/bin/env python3
"""Writes the avatar's BVH clips and the skirt's tube mesh (experiments/avatar/).

The clips move the built-in mannequin (src/body/mannequin.c): same joint names, rest
pose its T pose, distances in metres, angles in degrees.  Run from anywhere:
    python3 experiments/avatar/make_clips.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# name, parent, rest world position (m): the mannequin's joints
JOINTS = [
    ("pelvis", None, (0, 1.00, 0)), ("spine", "pelvis", (0, 1.10, 0)),
    ("chest", "spine", (0, 1.28, 0)), ("neck", "chest", (0, 1.50, 0)),
    ("head", "neck", (0, 1.58, 0)),
    ("l_shoulder", "chest", (0.18, 1.45, 0)), ("l_elbow", "l_shoulder", (0.48, 1.45, 0)),
    ("l_wrist", "l_elbow", (0.74, 1.45, 0)),
    ("r_shoulder", "chest", (-0.18, 1.45, 0)), ("r_elbow", "r_shoulder", (-0.48, 1.45, 0)),
    ("r_wrist", "r_elbow", (-0.74, 1.45, 0)),
    ("l_hip", "pelvis", (0.10, 0.94, 0)), ("l_knee", "l_hip", (0.10, 0.52, 0)),
    ("l_ankle", "l_knee", (0.10, 0.09, 0)),
    ("r_hip", "pelvis", (-0.10, 0.94, 0)), ("r_knee", "r_hip", (-0.10, 0.52, 0)),
    ("r_ankle", "r_knee", (-0.10, 0.09, 0)),
]
POS = {n: p for n, _, p in JOINTS}
PARENT = {n: q for n, q, _ in JOINTS}
CHILDREN = {n: [c for c, q, _ in JOINTS if q == n] for n, _, _ in JOINTS}
ORDER = []  # depth-first, the order of the channels in a frame


def hierarchy(name, depth, out):
    ORDER.append(name)
    pad = "  " * depth
    p, q = POS[name], POS[PARENT[name]] if PARENT[name] else (0, 0, 0)
    off = " ".join("%.4f" % (a - b) for a, b in zip(p, q))
    out.append("%s%s %s" % (pad, "ROOT" if depth == 0 else "JOINT", name))
    out.append(pad + "{")
    out.append("%s  OFFSET %s" % (pad, off))
    if depth == 0:
        out.append(pad + "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation")
    else:
        out.append(pad + "  CHANNELS 3 Zrotation Xrotation Yrotation")
    for c in CHILDREN[name]:
        hierarchy(c, depth + 1, out)
    if not CHILDREN[name]:
        out.append(pad + "  End Site")
        out.append(pad + "  {")
        out.append(pad + "    OFFSET 0.0000 0.1000 0.0000")
        out.append(pad + "  }")
    out.append(pad + "}")


def write_clip(path, frames, fps, pose_at):
    """pose_at(t) -> {joint: (z, x, y) degrees}, and 'root' -> (x, y, z) metres."""
    del ORDER[:]
    lines = ["HIERARCHY"]
    hierarchy("pelvis", 0, lines)
    lines += ["MOTION", "Frames: %d" % frames, "Frame Time: %.6f" % (1.0 / fps)]
    for f in range(frames):
        p = pose_at(f / fps)
        row = []
        for name in ORDER:
            if name == "pelvis":
                row += ["%.5f" % v for v in p.get("root", POS["pelvis"])]
            row += ["%.4f" % v for v in p.get(name, (0, 0, 0))]
        lines.append(" ".join(row))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def arms_raised(t, T=2.0):
    # the arms swing in the frontal plane from 60 degrees down to 80 up and back
    a = 10 - 70 * math.cos(2 * math.pi * t / T)
    return {"l_shoulder": (a, 0, 0), "r_shoulder": (-a, 0, 0)}


ARMS_DOWN = {"l_shoulder": (-60, 0, 0), "r_shoulder": (60, 0, 0)}


def walk(t, T=1.2):
    # walking on the spot: hips swing +-25 degrees, the knee bends in the swing phase,
    # the arms hang at 60 degrees and swing opposite to the legs, the pelvis bobs 1 cm
    ph = 2 * math.pi * t / T
    p = dict(ARMS_DOWN)
    for side, s in (("l", 1), ("r", -1)):
        hip = -25 * s * math.sin(ph)                     # -x rotation: thigh forward
        knee = 30 * (1 + math.cos(ph + (0 if s > 0 else math.pi) - 0.5 * math.pi))
        p[side + "_hip"] = (0, hip, 0)
        p[side + "_knee"] = (0, knee, 0)
        p[side + "_ankle"] = (0, -0.3 * hip, 0)
        z = -60 if s > 0 else 60
        p[side + "_shoulder"] = (z, 0, 15 * s * math.sin(ph))
    p["pelvis"] = (0, 0, 5 * math.sin(ph))
    p["root"] = (0, 1.00 + 0.01 * math.cos(2 * ph), 0)
    return p


def turn(t, T=4.0):
    # the body turns 60 degrees to the left about the vertical and back, arms down
    p = dict(ARMS_DOWN)
    p["pelvis"] = (0, 0, 30 * (1 - math.cos(2 * math.pi * t / T)))
    return p


def write_tube(path, around=32, rows=13, radius=0.21, top=1.04, spacing=0.04):
    """A tube skirt: rows rings of `around` vertices from y = top down; the top ring
    (vertices 0 .. around-1) is the waistband."""
    with open(path, "w") as f:
        f.write("# tube skirt, %d rings of %d, radius %g m, top at y = %g m\n"
                % (rows, around, radius, top))
        for r in range(rows):
            for a in range(around):
                ph = 2 * math.pi * a / around
                f.write("v %.6f %.6f %.6f\n" % (radius * math.cos(ph), top - r * spacing,
                                                 radius * math.sin(ph)))
        for r in range(rows - 1):
            for a in range(around):
                i = r * around + a + 1
                j = r * around + (a + 1) % around + 1
                f.write("f %d %d %d\nf %d %d %d\n" % (i, j, j + around, i, j + around, i + around))


if __name__ == "__main__":
    write_clip(os.path.join(HERE, "arms_raised.bvh"), 60, 30, arms_raised)
    write_clip(os.path.join(HERE, "walk.bvh"), 36, 30, walk)
    write_clip(os.path.join(HERE, "turn.bvh"), 120, 30, turn)
    write_tube(os.path.join(HERE, "skirt_tube.obj"))
