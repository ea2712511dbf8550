#!/usr/bin/env python3
"""The try-on's numbers from a run folder (docs/garments.md, Try-on):

    tryon_measure.py [--csv GARMENT,KERNEL] RUN_DIR [SCENE.ini] [CLOTH]

max body_depth over series.csv's frames against avatar.offset/2 (0.01 m unless the
scene says), stretch_max at frame 0 (the dressed start), frame 1 and the last, and the
hem of final.obj: the border loop (edges of one triangle) with the lowest mean height,
its mean and smallest distance from the body (the library's: `cloth body-distance
SCENE.ini`, the exact distance to the mannequin's capsules in the scene's pose at the
run's end; at a skirt's hem the nearest part is a leg), its mean radius about the
legs' midline (x = z = 0), and the mean height of the highest border loop (a skirt's
waist).  SCENE defaults to tryon_short_skirt.ini beside this script (the try-on scenes
share one [avatar]), CLOTH to build/cloth.  --csv prints one row of plots/data/garments_tryon.csv instead (CSV_HEADER,
tryon_table.sh)."""
import csv, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def body_distances(cloth, scene, time, points):
    text = "".join("%.17g %.17g %.17g\n" % p for p in points)
    out = subprocess.run([cloth, "body-distance", scene, "--time", repr(time)], input=text,
                         capture_output=True, text=True, check=True).stdout.split()
    return [float(d) for d in out]


def scene_offset(scene):
    section = None
    for line in open(scene):
        w = line.split("#")[0].strip()
        if w.startswith("["):
            section = w.strip("[]")
        elif section == "avatar" and w.replace(" ", "").startswith("offset="):
            return float(w.split("=")[1])
    return 0.01


CSV_HEADER = ("garment,kernel,frames,max_body_depth_mm,offset_half_mm,stretch_frame0,"
              "stretch_frame1,stretch_end,kinetic_end,hem_mean_mm,hem_min_mm,hem_y,waist_y")


def main():
    args = sys.argv[1:]
    label = None
    if args and args[0] == "--csv":
        label, args = args[1], args[2:]
    run = args[0]
    scene = args[1] if len(args) > 1 else os.path.join(HERE, "tryon_short_skirt.ini")
    cloth = args[2] if len(args) > 2 else os.path.join(HERE, "../../build/cloth")
    offset = scene_offset(scene)
    rows = list(csv.DictReader(open(run + "/series.csv")))
    depth = max(float(r["body_depth"]) for r in rows)
    v, tris = [], []
    for line in open(run + "/final.obj"):
        w = line.split()
        if w and w[0] == "v":
            v.append(tuple(float(t) for t in w[1:4]))
        elif w and w[0] == "f":
            tris.append([int(t.split("/")[0]) - 1 for t in w[1:4]])
    count = {}
    for t in tris:
        for e in range(3):
            key = tuple(sorted((t[e], t[(e + 1) % 3])))
            count[key] = count.get(key, 0) + 1
    nbr = {}
    for (a, b), c in count.items():
        if c == 1:
            nbr.setdefault(a, []).append(b)
            nbr.setdefault(b, []).append(a)
    seen, loops = set(), []
    for s in nbr:
        if s in seen:
            continue
        loop, stack = [], [s]
        while stack:
            i = stack.pop()
            if i in seen:
                continue
            seen.add(i)
            loop.append(i)
            stack.extend(nbr[i])
        loops.append(loop)
    hem = min(loops, key=lambda l: sum(v[i][1] for i in l) / len(l))
    top = max(loops, key=lambda l: sum(v[i][1] for i in l) / len(l))
    d = body_distances(cloth, scene, float(rows[-1]["time"]), [v[i] for i in hem])
    rad = [math.hypot(v[i][0], v[i][2]) for i in hem]
    if label:
        print("%s,%d,%.3f,%.1f,%.4f,%.4f,%.4f,%.3g,%.1f,%.1f,%.3f,%.3f" %
              (label, len(rows) - 1, 1e3 * depth, 1e3 * offset / 2,
               float(rows[0]["stretch_max"]), float(rows[min(1, len(rows) - 1)]["stretch_max"]),
               float(rows[-1]["stretch_max"]), float(rows[-1]["kinetic"]), 1e3 * sum(d) / len(d),
               1e3 * min(d), sum(v[i][1] for i in hem) / len(hem),
               sum(v[i][1] for i in top) / len(top)))
        return
    print("%s: frames %d, max body_depth %.2f mm (offset/2 = %.1f mm): %s; stretch_max "
          "frame 0 %.3f, frame 1 %.3f, last %.3f; %d border loops, hem %d vertices at mean y "
          "%.3f m: distance from the body mean %.1f mm, min %.1f mm; mean radius %.3f m; "
          "highest loop at mean y %.3f m" %
          (run, len(rows) - 1, 1e3 * depth, 1e3 * offset / 2,
           "ok" if depth <= offset / 2 else "EXCEEDED", float(rows[0]["stretch_max"]),
           float(rows[min(1, len(rows) - 1)]["stretch_max"]), float(rows[-1]["stretch_max"]),
           len(loops), len(hem), sum(v[i][1] for i in hem) / len(hem), 1e3 * sum(d) / len(d),
           1e3 * min(d), sum(rad) / len(rad), sum(v[i][1] for i in top) / len(top)))


if __name__ == "__main__":
    main()
