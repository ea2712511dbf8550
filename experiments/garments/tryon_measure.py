#!/usr/bin/env python3
"""The try-on's numbers from a run folder (README, Garments, Try-on):

    tryon_measure.py RUN_DIR [OFFSET]

max body_depth over series.csv's frames against OFFSET/2 (default offset 0.01 m), and
the hem of final.obj: the border loop (edges of one triangle) with the lowest mean
height, its mean and smallest distance from the legs, the distance of each hem vertex to
the union of the four leg capsules of the built-in mannequin in the T pose (the table of
src/body/mannequin.c, scale 1: thighs and shins), and its mean radius about the legs'
midline (x = z = 0), and the mean height of the highest border loop (a skirt's waist).  Python, no dependencies."""
import csv, math, sys

LEGS = [  # (a, b, r) of l_hip, l_knee, r_hip, r_knee in src/body/mannequin.c
    ((0.10, 0.92, 0), (0.10, 0.52, 0), 0.075), ((0.10, 0.52, 0), (0.10, 0.10, 0), 0.055),
    ((-0.10, 0.92, 0), (-0.10, 0.52, 0), 0.075), ((-0.10, 0.52, 0), (-0.10, 0.10, 0), 0.055)]


def seg_dist(p, a, b):
    ab = [b[k] - a[k] for k in range(3)]
    ap = [p[k] - a[k] for k in range(3)]
    t = max(0.0, min(1.0, sum(ab[k] * ap[k] for k in range(3)) / sum(c * c for c in ab)))
    return math.dist(p, [a[k] + t * ab[k] for k in range(3)])


def leg_distance(p):
    return min(seg_dist(p, a, b) - r for a, b, r in LEGS)


def main():
    run = sys.argv[1]
    offset = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
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
    d = [leg_distance(v[i]) for i in hem]
    rad = [math.hypot(v[i][0], v[i][2]) for i in hem]
    print("%s: frames %d, max body_depth %.2f mm (offset/2 = %.1f mm): %s; final stretch_max "
          "%.3f; %d border loops, hem %d vertices at mean y %.3f m: distance from the legs "
          "mean %.1f mm, min %.1f mm; mean radius %.3f m; highest loop at mean y %.3f m" %
          (run, len(rows) - 1, 1e3 * depth, 1e3 * offset / 2,
           "ok" if depth <= offset / 2 else "EXCEEDED", float(rows[-1]["stretch_max"]),
           len(loops), len(hem), sum(v[i][1] for i in hem) / len(hem), 1e3 * sum(d) / len(d),
           1e3 * min(d), sum(rad) / len(rad), sum(v[i][1] for i in top) / len(top)))


if __name__ == "__main__":
    main()
