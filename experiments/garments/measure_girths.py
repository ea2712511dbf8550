#!/usr/bin/env python3
"""The mannequin's girths the shipped patterns are cut to (docs/garments.md, Patterns):

    measure_girths.py [SCENE.ini] [CLOTH]

At each height, rays from the body's vertical midline (x = z = 0) every 2 degrees find
the outermost point at distance avatar.offset from the body (the surface the try-on
keeps the cloth on), from the library's own distance (`cloth body-distance`, default
scene tryon_short_skirt.ini); the girth is the perimeter of their convex hull, what a
tape measure round the body reads.  Also the arm's girth round the upper arm's axis."""
import math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def distances(cloth, scene, points):
    text = "".join("%.9f %.9f %.9f\n" % p for p in points)
    out = subprocess.run([cloth, "body-distance", scene], input=text, capture_output=True,
                         text=True, check=True).stdout.split()
    return [float(d) for d in out]


def hull_perimeter(pts):
    pts = sorted(set(pts))
    def half(seq):
        h = []
        for p in seq:
            while len(h) >= 2 and ((h[-1][0] - h[-2][0]) * (p[1] - h[-2][1]) -
                                   (h[-1][1] - h[-2][1]) * (p[0] - h[-2][0])) <= 0:
                h.pop()
            h.append(p)
        return h
    hull = half(pts)[:-1] + half(pts[::-1])[:-1]
    return sum(math.dist(hull[i], hull[(i + 1) % len(hull)]) for i in range(len(hull)))


def girth(cloth, scene, offset, centre, axis, e0, e1, rmax=0.4, dr=0.0005):
    """The convex girth of {d = offset} in the plane through centre normal to axis."""
    rays, pts = 180, []
    radii = [dr * k for k in range(int(rmax / dr) + 1)]
    for i in range(rays):
        th = 2 * math.pi * i / rays
        d = [math.cos(th) * e0[k] + math.sin(th) * e1[k] for k in range(3)]
        pts.append([(centre[0] + r * d[0], centre[1] + r * d[1], centre[2] + r * d[2])
                    for r in radii])
    dist = distances(cloth, scene, [p for ray in pts for p in ray])
    out = []
    for i in range(rays):
        ds = dist[i * len(radii):(i + 1) * len(radii)]
        inside = [j for j in range(len(radii)) if ds[j] <= offset]
        if not inside:
            continue  # a ray between the legs that meets nothing
        k = inside[-1]  # the outermost crossing
        th = 2 * math.pi * i / rays
        out.append((radii[k] * math.cos(th), radii[k] * math.sin(th)))
    return hull_perimeter(out)


def main():
    scene = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "tryon_short_skirt.ini")
    cloth = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../build/cloth")
    offset = 0.01
    print("height (m), girth at distance %.3f m from the body (cm)" % offset)
    for y in (0.70, 0.80, 0.90, 0.95, 0.98, 1.00, 1.05, 1.10, 1.15, 1.20, 1.25, 1.30, 1.33,
              1.40):
        print("%.2f %.1f" % (y, 100 * girth(cloth, scene, offset, (0, y, 0), (0, 1, 0),
                                            (0, 0, 1), (1, 0, 0))))
    for x in (0.25, 0.30, 0.35):
        print("upper arm at x = %.2f: %.1f" % (x, 100 * girth(cloth, scene, offset,
                                                              (x, 1.45, 0), (1, 0, 0),
                                                              (0, 0, 1), (0, 1, 0), 0.2)))


if __name__ == "__main__":
    main()
