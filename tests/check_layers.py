"""The layering of src/ (each folder's README.md says what it may include): no include
and no call goes up a layer, and no two files reach each other in a circle.

Usage: check_layers.py [BUILD]   (BUILD: the build directory, default build)

Three checks, every offence printed, exit 1 when there is one:

1. Includes: a file includes only headers of its own layer and the layers below it;
   cloth.h, the public header, may be included by anyone and includes no src/ header.
2. Calls: for each object BUILD/obj/LAYER/.../NAME.o of a src/ file, `nm` lists the
   symbols it uses (undefined: functions it calls, data it reads) and the object that
   defines each; a use from a lower layer of a symbol a higher layer defines fails.  A
   public function (cloth.h) counts in the layer of the object that defines it, so calls
   through cloth.h are caught.
3. Cycles: files are nodes (a .c and its .h are one node: src/garment/pattern), the
   includes and the calls between them edges; any cycle, inside a folder too, fails.
   Each strongly connected component with more than one node counts as one cycle,
   printed as shortest closed paths through its nodes until every node is on one.

Without the objects (none, or some missing or older than their sources) the calls are not
known: the include checks run alone and the cycles are of includes only, which it says.
"""
import os
import re
import subprocess
import sys
from collections import deque

# Lowest first: a layer may use its own and the ones before it.
LAYERS = ["core", "linalg", "terms", "body", "sim", "kernels", "garment", "assemble", "harness",
          "app"]
RANK = {name: i for i, name in enumerate(LAYERS)}
PUBLIC = "cloth.h"

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SRC = os.path.join(ROOT, "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(path):
    """Layer of a path relative to src/ (a file or a node), None for cloth.h."""
    head = path.split("/", 1)[0]
    return None if head == path else head


def node(path):
    """src/a/b.c and src/a/b.h are the node a/b."""
    return os.path.splitext(path)[0]


def sources():
    out = []
    for top, dirs, files in os.walk(SRC):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "web"))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(top, f), SRC))
    return sorted(out)


def check_includes(files, offences, edges):
    """Upward includes; the include edges between nodes into edges."""
    count = 0
    for f in files:
        with open(os.path.join(SRC, f), encoding="utf-8") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            if not os.path.exists(os.path.join(SRC, inc)):
                continue  # a system or generated header, not a file of src/
            to, frm = layer(inc), layer(f)
            if frm is None and to is not None:
                offences.append(f"include: {f} (public) includes {inc}, a private header")
                count += 1
            elif to is not None and frm is not None and RANK.get(to, -1) > RANK.get(frm, -1):
                offences.append(f"include up: {f} ({frm}) includes {inc} ({to})")
                count += 1
            if node(f) != node(inc):
                edges.setdefault(node(f), {}).setdefault(node(inc), f"includes {inc}")
    return count


def nm(obj):
    """(defined, undefined) external symbols of an object."""
    text = subprocess.run(["nm", "-P", "-g", obj], capture_output=True, text=True,
                          check=True).stdout
    defined, undefined = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind in ("U", "w", "v"):
            undefined.add(name)
        else:
            defined.add(name)
    return defined, undefined


def objects(build, files):
    """{node: object} of every src/ .c file, or the reason they cannot be read."""
    objs, missing, stale = {}, 0, 0
    for f in files:
        if not f.endswith(".c"):
            continue
        obj = os.path.join(build, "obj", f[:-2] + ".o")
        if not os.path.exists(obj):
            missing += 1
        elif os.path.getmtime(obj) < os.path.getmtime(os.path.join(SRC, f)):
            stale += 1
        objs[node(f)] = obj
    if missing == len(objs):
        return None, f"no objects in {build}/obj"
    if missing or stale:
        return None, (f"{missing} objects missing and {stale} older than their sources in "
                      f"{build}/obj (build first)")
    return objs, None


def check_calls(objs, offences, edges):
    """Upward calls (any use of a symbol: functions and data); the call edges into edges."""
    symbols = {n: nm(o) for n, o in objs.items()}
    owner = {}
    for n, (defined, _) in symbols.items():
        for s in defined:
            owner[s] = n
    count = 0
    for n in sorted(symbols):
        ups = {}
        for s in sorted(symbols[n][1]):
            to = owner.get(s)
            if to is None or to == n:
                continue  # a library's (libc, LAPACK, cJSON, ...) or its own
            edges.setdefault(n, {}).setdefault(to, f"calls {s}")
            if RANK.get(layer(to), -1) > RANK.get(layer(n), -1):
                ups.setdefault(to, []).append(s)
        for to, syms in sorted(ups.items()):
            offences.append(f"call up: {n}.o ({layer(n)}) calls {', '.join(syms)} of {to}.o "
                            f"({layer(to)})")
            count += 1
    return count


def components(edges):
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    nodes = sorted(set(edges) | {t for e in edges.values() for t in e})
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def shortest_cycle(edges, comp, start):
    """A shortest closed path from start back to it, inside comp."""
    inside = set(comp)
    prev, queue = {start: None}, deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(edges.get(v, {})):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                return path + [start]
            if w in inside and w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    if not os.path.isabs(build):
        build = os.path.join(ROOT, build)
    files = sources()
    offences, edges = [], {}
    for folder in sorted({layer(f) for f in files} - set(LAYERS) - {None}):
        offences.append(f"src/{folder}/ is in no layer (LAYERS in check_layers.py)")
    ups_inc = check_includes(files, offences, edges)
    objs, why = objects(build, files)
    ups_call = check_calls(objs, offences, edges) if objs else None
    comps = components(edges)
    for comp in comps:
        covered, first = set(), True
        for start in comp:  # a shortest cycle through each node no earlier one passed
            if start in covered:
                continue
            path = shortest_cycle(edges, comp, start)
            covered.update(path)
            steps = " -> ".join(f"{a} ({edges[a][b]})" for a, b in zip(path, path[1:]))
            offences.append(("cycle: " if first else "  and: ") + f"{steps} -> {path[-1]}")
            first = False
    for line in offences:
        print(f"layers: {line}")
    nodes = len({node(f) for f in files})
    calls = "skipped" if ups_call is None else str(ups_call)
    print(f"layers: {len(files)} files ({nodes} nodes), upward includes {ups_inc}, "
          f"upward calls {calls}, cycles {len(comps)}" + (" (of includes only)" if why else ""))
    if why:
        print(f"layers: the symbol checks were skipped: {why}")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
