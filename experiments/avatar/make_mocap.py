#!/usr/bin/env python3
"""Writes SYNTHETIC motion-capture clips in the namings of real libraries
(experiments/avatar/): no real clip could be downloaded where this was written, and none
is shipped.  They are made to look like what those libraries export, not recorded.

- cmu_walk.bvh: the 31 joints of the CMU database's BVH conversions (Hips, LHipJoint,
  LeftUpLeg, ..., LowerBack, Spine, Spine1, Neck, Neck1, Head, LeftShoulder, LeftArm,
  ..., LeftFingerBase, LeftHandIndex1, LThumb), units of 1/18 m (hips about 17.6 units
  high), 120 fps, 360 frames (3 s), a rest pose with the arms 10 degrees below the
  horizontal and the root recorded 2.3 m and -1.1 m from the origin;
- mixamo_walk.bvh: Mixamo's names with the "mixamorig:" namespace (Hips, Spine,
  Spine1, Spine2, Neck, Head, HeadTop_End, fingers 1-4, toes), centimetres, 30 fps,
  96 frames, the header written with tabs ("Frames:<TAB>96"), root 1.5 m along x;
- cmu_walk_away.bvh: the CMU skeleton's walk with its root drifting backwards (-z) at
  0.8 m/s for 1.5 s (180 frames, 1.2 m; a moonwalk, not a recorded gait): a clip that
  does not loop and has root motion, walking into a cape (docs/avatar.md, "Playing a
  real capture");
- biovision_walk.bvh and biovision.map: Biovision-style names (Hips, Chest, Chest2,
  LeftCollar, LeftShoulder, LeftElbow, LeftWrist, LeftHip, LeftKnee, LeftAnkle, Neck,
  Head), centimetres, 60 fps, with the joint map (avatar.joint_map) that plays it.

Each is the walk on the spot of walk.bvh (make_clips.py): the thighs swing +-25
degrees, the knees bend in the swing phase, the arms hang and swing, the pelvis bobs;
a joint's rotation R on the mannequin's T pose is written as A^T R A in the clip, A
the rotation from the clip's rest bone to the mannequin's (docs/avatar.md), so that all
three play the same walk.  Run from anywhere:
    python3 experiments/avatar/make_mocap.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# ------------------------------------------------------------ 3x3 rotations
def mul(A, B):
    return [[sum(A[r][k] * B[k][c] for k in range(3)) for c in range(3)] for r in range(3)]


def tr(A):
    return [[A[c][r] for c in range(3)] for r in range(3)]


def rot(axis, deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    if axis == "X":
        return [[1, 0, 0], [0, c, -s], [0, s, c]]
    if axis == "Y":
        return [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


I3 = rot("X", 0)


def euler(R, order):
    """Angles (degrees) a, b, c with R = R_order[0](a) R_order[1](b) R_order[2](c)."""
    if order == "ZYX":
        b = math.asin(max(-1, min(1, -R[2][0])))
        a = math.atan2(R[1][0], R[0][0])
        c = math.atan2(R[2][1], R[2][2])
    elif order == "ZXY":
        b = math.asin(max(-1, min(1, R[2][1])))
        a = math.atan2(-R[0][1], R[1][1])
        c = math.atan2(-R[2][0], R[2][2])
    else:
        raise ValueError(order)
    out = [math.degrees(v) for v in (a, b, c)]
    back = mul(mul(rot(order[0], out[0]), rot(order[1], out[1])), rot(order[2], out[2]))
    assert max(abs(back[r][k] - R[r][k]) for r in range(3) for k in range(3)) < 1e-9
    return out


# --------------------------------------------------------------- the walk
def walk(t, T=1.2):
    """Each mannequin joint's rotation from its T pose, and the root's height (m)."""
    ph = 2 * math.pi * t / T
    R = {}
    for side, s in (("l", 1), ("r", -1)):
        hip = -25 * s * math.sin(ph)
        knee = 30 * (1 + math.cos(ph + (0 if s > 0 else math.pi) - 0.5 * math.pi))
        R[side + "_hip"] = rot("X", hip)
        R[side + "_knee"] = rot("X", knee)
        R[side + "_ankle"] = rot("X", -0.3 * hip)
        R[side + "_shoulder"] = mul(rot("Z", -60 * s), rot("Y", 15 * s * math.sin(ph)))
        R[side + "_elbow"] = rot("Y", -20 * s)       # the forearm bent forward
    R["pelvis"] = rot("Y", 5 * math.sin(ph))
    R["chest"] = rot("Y", -4 * math.sin(ph))
    return R, 0.01 * math.cos(2 * ph)


# ------------------------------------------------------------- skeletons
def skeleton(rows):
    """rows: (name, parent, offset, mannequin joint or None, end offset or None)."""
    return [dict(name=n, parent=p, off=o, joint=j, end=e) for n, p, o, j, e in rows]


def down10(x, length):
    a = math.radians(10)
    return (x * length * math.cos(a), -length * math.sin(a), 0)


CMU = skeleton([
    ("Hips", None, (0, 0, 0), "pelvis", None),
    ("LHipJoint", "Hips", (0, 0, 0), None, None),
    ("LeftUpLeg", "LHipJoint", (0.09, -0.08, 0), "l_hip", None),
    ("LeftLeg", "LeftUpLeg", (0, -0.42, 0), "l_knee", None),
    ("LeftFoot", "LeftLeg", (0, -0.41, 0), "l_ankle", None),
    ("LeftToeBase", "LeftFoot", (0, -0.07, 0.12), None, (0, 0, 0.05)),
    ("RHipJoint", "Hips", (0, 0, 0), None, None),
    ("RightUpLeg", "RHipJoint", (-0.09, -0.08, 0), "r_hip", None),
    ("RightLeg", "RightUpLeg", (0, -0.42, 0), "r_knee", None),
    ("RightFoot", "RightLeg", (0, -0.41, 0), "r_ankle", None),
    ("RightToeBase", "RightFoot", (0, -0.07, 0.12), None, (0, 0, 0.05)),
    ("LowerBack", "Hips", (0, 0, 0), None, None),
    ("Spine", "LowerBack", (0, 0.10, 0), "spine", None),
    ("Spine1", "Spine", (0, 0.17, 0), "chest", None),
    ("Neck", "Spine1", (0, 0.20, 0), "neck", None),
    ("Neck1", "Neck", (0, 0.05, 0), None, None),
    ("Head", "Neck1", (0, 0.05, 0), "head", (0, 0.15, 0)),
    ("LeftShoulder", "Spine1", (0.02, 0.15, 0), None, None),
    ("LeftArm", "LeftShoulder", (0.15, 0, 0), "l_shoulder", None),
    ("LeftForeArm", "LeftArm", down10(1, 0.28), "l_elbow", None),
    ("LeftHand", "LeftForeArm", down10(1, 0.25), "l_wrist", None),
    ("LeftFingerBase", "LeftHand", down10(1, 0.06), None, None),
    ("LeftHandIndex1", "LeftFingerBase", down10(1, 0.04), None, down10(1, 0.03)),
    ("LThumb", "LeftHand", (0.02, 0, 0.03), None, (0.02, 0, 0.02)),
    ("RightShoulder", "Spine1", (-0.02, 0.15, 0), None, None),
    ("RightArm", "RightShoulder", (-0.15, 0, 0), "r_shoulder", None),
    ("RightForeArm", "RightArm", down10(-1, 0.28), "r_elbow", None),
    ("RightHand", "RightForeArm", down10(-1, 0.25), "r_wrist", None),
    ("RightFingerBase", "RightHand", down10(-1, 0.06), None, None),
    ("RightHandIndex1", "RightFingerBase", down10(-1, 0.04), None, down10(-1, 0.03)),
    ("RThumb", "RightHand", (-0.02, 0, 0.03), None, (-0.02, 0, 0.02)),
])


def mixamo_rows():
    rows = [("Hips", None, (0, 0.97, 0), "pelvis", None),
            ("Spine", "Hips", (0, 0.09, 0), "spine", None),
            ("Spine1", "Spine", (0, 0.11, 0), None, None),
            ("Spine2", "Spine1", (0, 0.12, 0), "chest", None),
            ("Neck", "Spine2", (0, 0.15, 0), "neck", None),
            ("Head", "Neck", (0, 0.09, 0), "head", None),
            ("HeadTop_End", "Head", (0, 0.18, 0), None, (0, 0, 0))]
    for side, s in (("Left", 1), ("Right", -1)):
        j = side[0].lower() + "_"
        rows += [(side + "Shoulder", "Spine2", (0.06 * s, 0.11, 0), None, None),
                 (side + "Arm", side + "Shoulder", (0.12 * s, 0, 0), j + "shoulder", None),
                 (side + "ForeArm", side + "Arm", (0.27 * s, 0, 0), j + "elbow", None),
                 (side + "Hand", side + "ForeArm", (0.25 * s, 0, 0), j + "wrist", None)]
        for finger, base in (("Thumb", (0.03, -0.01, 0.03)), ("Index", (0.09, 0, 0.02)),
                             ("Middle", (0.09, 0, 0)), ("Ring", (0.085, 0, -0.02)),
                             ("Pinky", (0.08, 0, -0.04))):
            parent = side + "Hand"
            for k in range(1, 5):
                off = (base[0] * s, base[1], base[2]) if k == 1 else (0.03 * s, 0, 0)
                name = "%sHand%s%d" % (side, finger, k)
                rows.append((name, parent, off, None, (0, 0, 0) if k == 4 else None))
                parent = name
        rows += [(side + "UpLeg", "Hips", (0.09 * s, -0.06, 0), j + "hip", None),
                 (side + "Leg", side + "UpLeg", (0, -0.42, 0), j + "knee", None),
                 (side + "Foot", side + "Leg", (0, -0.42, 0), j + "ankle", None),
                 (side + "ToeBase", side + "Foot", (0, -0.07, 0.12), None, None),
                 (side + "Toe_End", side + "ToeBase", (0, 0, 0.06), None, (0, 0, 0))]
    return skeleton([("mixamorig:" + n, p and "mixamorig:" + p, o, j, e)
                     for n, p, o, j, e in rows])


BIOVISION = skeleton([
    ("Hips", None, (0, 0.95, 0), "pelvis", None),
    ("Chest", "Hips", (0, 0.12, 0), "spine", None),
    ("Chest2", "Chest", (0, 0.18, 0), "chest", None),
    ("Neck", "Chest2", (0, 0.22, 0), "neck", None),
    ("Head", "Neck", (0, 0.09, 0), "head", (0, 0.17, 0)),
    ("LeftCollar", "Chest2", (0.03, 0.17, 0), None, None),
    ("LeftShoulder", "LeftCollar", (0.14, 0, 0), "l_shoulder", None),
    ("LeftElbow", "LeftShoulder", (0.29, 0, 0), "l_elbow", None),
    ("LeftWrist", "LeftElbow", (0.25, 0, 0), "l_wrist", (0.16, 0, 0)),
    ("RightCollar", "Chest2", (-0.03, 0.17, 0), None, None),
    ("RightShoulder", "RightCollar", (-0.14, 0, 0), "r_shoulder", None),
    ("RightElbow", "RightShoulder", (-0.29, 0, 0), "r_elbow", None),
    ("RightWrist", "RightElbow", (-0.25, 0, 0), "r_wrist", (-0.16, 0, 0)),
    ("LeftHip", "Hips", (0.10, -0.05, 0), "l_hip", None),
    ("LeftKnee", "LeftHip", (0, -0.42, 0), "l_knee", None),
    ("LeftAnkle", "LeftKnee", (0, -0.42, 0), "l_ankle", (0, -0.06, 0.15)),
    ("RightHip", "Hips", (-0.10, -0.05, 0), "r_hip", None),
    ("RightKnee", "RightHip", (0, -0.42, 0), "r_knee", None),
    ("RightAnkle", "RightKnee", (0, -0.42, 0), "r_ankle", (0, -0.06, 0.15)),
])


# ------------------------------------------------------------ the writer
def write(path, skel, units, fps, frames, order, root_at, tabs=False, speed=0.0):
    """units: clip units a metre; order: the rotation channels' order ("ZYX": Zrotation
    Yrotation Xrotation); root_at: the root's recorded horizontal place (m) at the start;
    speed: the root's walk forward (+z, m/s)."""
    by = {j["name"]: j for j in skel}
    kids = {j["name"]: [k for k in skel if k["parent"] == j["name"]] for j in skel}
    rest = {}
    for j in skel:
        p = rest[j["parent"]] if j["parent"] else (0, 0, 0)
        rest[j["name"]] = tuple(a + b for a, b in zip(p, j["off"]))
    low = min(rest[n][1] + (by[n]["end"][1] if by[n]["end"] else 0) for n in rest)
    # A = rotation about z taking the clip's rest arm to the mannequin's horizontal one
    # (the only bones whose rest direction differs here)
    align = {}
    for j in skel:
        if j["joint"] and ("shoulder" in j["joint"] or "elbow" in j["joint"]):
            child = [k for k in kids[j["name"]] if k["joint"]][0]
            d = child["off"]
            align[j["name"]] = rot("Z", -math.degrees(math.atan2(d[1], abs(d[0])))
                                   * (1 if d[0] > 0 else -1))
    rot_names = {"X": "Xrotation", "Y": "Yrotation", "Z": "Zrotation"}
    chans = " ".join(rot_names[a] for a in order)
    out = ["HIERARCHY"]

    def emit(j, depth):
        pad = "  " * depth
        out.append("%s%s %s" % (pad, "ROOT" if depth == 0 else "JOINT", j["name"]))
        out.append(pad + "{")
        out.append("%s  OFFSET %s" % (pad, " ".join("%.6f" % (units * v) for v in j["off"])))
        if depth == 0:
            out.append("%s  CHANNELS 6 Xposition Yposition Zposition %s" % (pad, chans))
        else:
            out.append("%s  CHANNELS 3 %s" % (pad, chans))
        for k in kids[j["name"]]:
            emit(k, depth + 1)
        if j["end"]:
            out.append(pad + "  End Site")
            out.append(pad + "  {")
            out.append("%s    OFFSET %s" % (pad, " ".join("%.6f" % (units * v)
                                                           for v in j["end"])))
            out.append(pad + "  }")
        out.append(pad + "}")
    emit(skel[0], 0)
    sep = "\t" if tabs else " "
    out += ["MOTION", "Frames:%s%d" % (sep, frames), "Frame Time:%s%.8f" % (sep, 1.0 / fps)]
    hip = rest[skel[0]["name"]][1] - low   # standing: the lowest point on the floor
    for f in range(frames):
        R, bob = walk(f / fps)
        row = ["%.6f" % (units * v)
               for v in (root_at[0], hip + bob, root_at[1] + speed * f / fps)]
        for j in skel:
            Q = R.get(j["joint"], I3) if j["joint"] else I3
            if j["name"] in align:
                A = align[j["name"]]
                Q = mul(mul(tr(A), Q), A)
            row += ["%.6f" % v for v in euler(Q, order)]
        out.append(" ".join(row))
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


if __name__ == "__main__":
    write(os.path.join(HERE, "cmu_walk.bvh"), CMU, 18.0, 120, 360, "ZYX", (2.3, -1.1))
    write(os.path.join(HERE, "mixamo_walk.bvh"), mixamo_rows(), 100.0, 30, 96, "ZXY",
          (1.5, 0.0), tabs=True)
    write(os.path.join(HERE, "biovision_walk.bvh"), BIOVISION, 100.0, 60, 144, "ZXY",
          (0.4, 2.3))
    # a clip that does not loop, with root motion: 1.5 s of the 1.2 s cycle (its last
    # pose is not its first), the root drifting 0.8 m/s backwards (1.2 m, -z: into
    # whatever hangs behind the body, a cape), the arms down at its start
    write(os.path.join(HERE, "cmu_walk_away.bvh"), CMU, 18.0, 120, 180, "ZYX", (2.3, -1.1),
          speed=-0.8)
    with open(os.path.join(HERE, "biovision.map"), "w") as fh:
        fh.write("# biovision_walk.bvh's joints onto the mannequin's (avatar.joint_map):\n"
                 "# clip joint, body joint; LeftCollar and RightCollar are left out and\n"
                 "# fold into the shoulders\n")
        for j in (j for j in BIOVISION if j["joint"]):
            fh.write("%-14s %s\n" % (j["name"], j["joint"]))
