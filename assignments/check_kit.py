#!/usr/bin/env python3
"""make check-kit: for every assignment, the reference scores 100 %, the untouched student
tree builds and scores 0 with no test crashing or timing out, Gradescope's autograder zip
holds its scripts, the hidden tests and the stubs (never a reference body), and each broken
solution in assignments/NAME/broken.json loses exactly the tests it lists (with the status
it names).  The leak check: no cut tree holds a reference body of any assignment's part
(whitespace-normalised) or a twin of one (the coloured order's loops), and in the untouched
tree every run of kit.json's runs fails saying `not implemented` or non-finite, or is
refused (only the reference order).  The command check: every command of the handout's
```sh blocks runs (exit 0) in the tree with the reference's parts.

  check_kit.py OUT [--print] [NAME ...]   --print: the table of results, not a check;
                                          NAME: only those assignments"""
import contextlib, io, json, os, shutil, subprocess, sys, time, zipfile

KIT = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(KIT)
sys.path.insert(0, KIT)
import kit  # noqa: E402


def grade(name, submission, out, limit=10.0):
    subprocess.run([sys.executable, os.path.join(KIT, "kit.py"), "grade", name, submission,
                    out, str(limit)], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "results.json")) as fh:
        return json.load(fh)


STUB_SAYS = ("not implemented", "nan", "non-finite", "only the reference order")


def leaks(files):
    """[(what, path)] of the reference bodies and twins (normalised) found in files, a
    {path: bytes} of a tree."""
    texts = {rel: kit.normalise(data.decode(errors="replace")) for rel, data in files.items()}
    wanted = {f"{a}: {p}": b for (a, p), b in kit.reference_bodies().items()}
    wanted.update({f"twin: {k}": v for k, v in kit.twins().items()})
    return [(what, rel) for what, body in wanted.items() for rel, text in texts.items()
            if kit.normalise(body) and kit.normalise(body) in text]


def tree_files(root):
    found = {}
    for dirpath, _, fs in os.walk(root):
        if os.path.relpath(dirpath, root).split(os.sep)[0] == "build":
            continue
        for f in fs:
            with open(os.path.join(dirpath, f), "rb") as fh:
                found[os.path.relpath(os.path.join(dirpath, f), root)] = fh.read()
    return found


def main(out, show, only):
    failures = []
    rows = []

    def expect(ok, what):
        if not ok:
            failures.append(what)

    for name in only or kit.names():
        t0 = time.time()
        base = os.path.join(out, name)
        ref = grade(name, ROOT, os.path.join(base, "reference"))
        total = sum(t["max_score"] for t in ref["tests"])
        lost = [t["name"] for t in ref["tests"] if t["score"] < t["max_score"]]
        rows.append(("reference", ref["score"], total, lost, ""))
        expect(ref["score"] == total and total > 0, f"{name}: reference lost {lost}")
        # the handout's commands, as written, in the tree with the reference's parts
        cfg = kit.config(name)
        with open(os.path.join(KIT, name, "handout.md")) as fh:
            cmds = kit.handout_commands(fh.read())
        expect(any(c.startswith("build/cloth list") for c in cmds),
               f"{name}: the handout does not show build/cloth list")
        for c in cmds:
            rc, log = kit.run(["sh", "-c", c], os.path.join(base, "reference", "scratch"), 600)
            expect(rc == 0, f"{name}: handout command `{c}` exits {rc} in the reference "
                   f"tree:\n{kit.tail(log, 800)}")
            for scene in [w for w in c.split() if w.endswith(".ini")]:
                expect(os.path.isfile(os.path.join(KIT, name, scene)),
                       f"{name}: the handout names {scene}, which the tree does not ship")
        student = os.path.join(base, "student-tree")
        kit.cut(name, student)
        for what, rel in leaks(tree_files(student)):
            expect(False, f"{name}: the student tree's {rel} holds the reference of {what}")
        stub = grade(name, student, os.path.join(base, "student"))
        rows.append(("untouched student tree", stub["score"], total,
                     [t["name"] for t in stub["tests"]], ""))
        expect(stub["score"] == 0, f"{name}: the student tree scores {stub['score']}")
        # every run of the assignment's kernel calls the student's parts or is refused
        scratch = os.path.join(base, "student", "scratch")
        rc, log = kit.run(["make", "-j" + str(os.cpu_count() or 1), "build/cloth"], scratch,
                          600)
        expect(rc == 0, f"{name}: the untouched tree's CLI does not build:\n{kit.tail(log)}")
        for sets in cfg["runs"]:
            cmd = ["build/cloth", "run", cfg["scene"], "--out", "build/runs/check"] + sets
            rc, log = kit.run(cmd, scratch, 120)
            said = [w for w in STUB_SAYS if w in log]
            expect(rc != 0 and said, f"{name}: untouched tree: `{' '.join(cmd)}` exits {rc} "
                   f"without calling the student's parts:\n{kit.tail(log, 600)}")
            rows.append(("run " + " ".join(sets[1::2]), 0, 0, [], said[0] if said else
                         f"rc {rc}"))
        for t in stub["tests"]:
            expect(t["extra_data"]["result"] == "failed",
                   f"{name}: student tree: {t['name']} {t['extra_data']['result']} "
                   "(expected failed)")
            # a stub returns CLOTH_ENOTIMPL, or NaN where there is no status to return
            expect(any(s in t["output"] for s in ("not implemented", "nan", "non-finite")),
                   f"{name}: student tree: {t['name']} says neither 'not implemented' nor "
                   "nan nor non-finite")
        # Gradescope's zip: its scripts, the hidden tests, and stubs, never the reference
        zip_path = os.path.join(base, f"{name}-autograder.zip")
        with contextlib.redirect_stdout(io.StringIO()):
            kit.autograder(name, zip_path, 10.0)
        with zipfile.ZipFile(zip_path) as z:
            names = set(z.namelist())
            for need in ("setup.sh", "run_autograder", "kit.py",
                         "tree/tests/hidden/test_hidden.c", "tree/Makefile"):
                expect(need in names, f"{name}: the autograder zip has no {need}")
            released = set(cfg.get("needs", ()))
            zfiles = {n[len("tree/"):]: z.read(n) for n in names if n.startswith("tree/")}
            for what, rel in leaks(zfiles):
                expect(what.split(":")[0] in released,
                       f"{name}: the autograder zip's {rel} holds the reference of {what}")
            for rel, parts in kit.marked_files(name).items():
                got = kit.bodies(z.read("tree/" + rel).decode(), name)
                for part in parts:
                    with open(os.path.join(KIT, name, "stubs", part + ".c")) as fh:
                        expect(got.get(part) == fh.read(),
                               f"{name}: the autograder zip's {rel} has not the stub of {part}")
        with open(os.path.join(KIT, name, "broken.json")) as fh:
            broken = json.load(fh)["solutions"]
        for b in broken:
            sub = os.path.join(base, "broken", b["name"])
            shutil.rmtree(sub, ignore_errors=True)
            for rel in b.get("only", kit.marked_files(name)):  # the reference, one edit
                with open(os.path.join(ROOT, rel)) as fh:
                    text = fh.read()
                if rel == b.get("file"):
                    expect(text.count(b["old"]) == 1,
                           f"{name}/{b['name']}: 'old' is not in {rel} once")
                    text = text.replace(b["old"], b["new"])
                os.makedirs(os.path.dirname(os.path.join(sub, rel)), exist_ok=True)
                with open(os.path.join(sub, rel), "w") as fh:
                    fh.write(text)
            r = grade(name, sub, os.path.join(base, "graded", b["name"]),
                      b.get("time_limit", 10.0))
            got = sorted(t["name"] for t in r["tests"] if t["score"] < t["max_score"])
            rows.append((b["name"], r["score"], total, got,
                         ",".join(sorted({t["extra_data"]["result"] for t in r["tests"]
                                          if t["score"] < t["max_score"]}))))
            expect(got == sorted(b["lost"]),
                   f"{name}/{b['name']}: lost {got}, expected {sorted(b['lost'])}")
            want = b.get("status", "failed")
            for t in r["tests"]:
                if t["score"] < t["max_score"]:
                    got_status = t["extra_data"]["result"]
                    expect(got_status == want,
                           f"{name}/{b['name']}: {t['name']} {got_status} (expected {want})")
                    expect(b.get("output", "") in t["output"],
                           f"{name}/{b['name']}: {t['name']} does not say {b.get('output')!r}")
        for sol, score, tot, lost, status in rows:
            print(f"{name}: {sol:<24} {score:>4g}/{tot:<4g} {status:<14} lost: "
                  f"{' '.join(lost) if lost else '-'}")
        print(f"{name}: {time.time() - t0:.0f} s")
        rows.clear()
    if failures and not show:
        print("check-kit: FAILED\n  " + "\n  ".join(failures))
        return 1
    print("check-kit: ok" if not failures else "check-kit: (--print) " + str(len(failures)) +
          " mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--print" in sys.argv,
                  [a for a in sys.argv[2:] if not a.startswith("--")]))
