#!/usr/bin/env python3
"""make check-kit: for every assignment, the reference scores 100 %, the untouched student
tree builds and scores 0 with no test crashing or timing out, Gradescope's autograder zip
holds its scripts, the hidden tests and the stubs (never a reference body), and each broken
solution in assignments/NAME/broken.json loses exactly the tests it lists (with the status
it names).

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
        student = os.path.join(base, "student-tree")
        kit.cut(name, student)
        stub = grade(name, student, os.path.join(base, "student"))
        rows.append(("untouched student tree", stub["score"], total,
                     [t["name"] for t in stub["tests"]], ""))
        expect(stub["score"] == 0, f"{name}: the student tree scores {stub['score']}")
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
