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

  check_kit.py OUT [--print] [--jobs=N] [NAME ...]   --print: the table of results, not a
                                          check; NAME: only those assignments; --jobs=N:
                                          the assignments in N processes at once"""
import contextlib, io, json, os, re, shutil, subprocess, sys, time, zipfile

KIT = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(KIT)
sys.path.insert(0, KIT)
import kit  # noqa: E402


SEED = "1"  # check-kit's grading runs are replayable: a fixed seed (REF_SEEDS for the reference)
REF_SEEDS = ("1", "2")  # ten more by hand: the report of issue 46 (seeds 11-20, all full marks)


def grade(name, submission, out, limit=10.0, seed=SEED, env=None):
    e = dict(os.environ, KIT_SEED=seed, **(env or {}))
    subprocess.run([sys.executable, os.path.join(KIT, "kit.py"), "grade", name, submission,
                    out, str(limit)], check=True, stdout=subprocess.DEVNULL, env=e)
    with open(os.path.join(out, "results.json")) as fh:
        return json.load(fh)


# ------------------------------------------------------------------ the exploits
#
# What a student who wants the points without the work would submit: each marked body is
# the stub (nothing implemented) with one trick.  Each must score 0 of the hidden points,
# by the judge alone (KIT_NO_BODY_CHECK=1: the grader's text check of the bodies off) and
# with the check on (the tricks it knows are rejected with a message).

def _c_string(text):
    return json.dumps(text)  # a JSON string is a valid C string literal here (ASCII)


def exploit_bodies(trick, part, first, stub, tests, out):
    """The body of part for the exploit trick (first: the assignment's first part)."""
    passes = "".join(f"PASS {t}\n" for t, _ in tests)
    if trick == "exit0":
        return "    void exit(int);\n    exit(0);\n" + stub
    if trick == "pass_lines":
        return ("    int printf(const char *, ...);\n    printf(\"%s\", " + _c_string(passes) +
                ");\n" + stub)
    if trick == "constructor" and first:
        return (stub + "}\n\n__attribute__((constructor)) static void fake_pass_" + part +
                "(void)\n{\n    int printf(const char *, ...);\n    void _exit(int);\n"
                "    printf(\"%s\", " + _c_string(passes) + ");\n    _exit(0);\n}\n\n"
                "static void rest_of_" + part + "(void)\n{\n")
    if trick == "fake_results" and first:
        total = sum(p for _, p in tests)
        doc = json.dumps({"score": total, "output": "all passed", "tests": [
            {"name": t, "score": p, "max_score": p, "status": "passed"} for t, p in tests]})
        lines = ["    struct _IO_FILE *fopen(const char *, const char *);",
                 "    int fputs(const char *, struct _IO_FILE *);",
                 "    int fclose(struct _IO_FILE *);"]
        for k, path in enumerate((os.path.join(out, "results.json"), "../results.json",
                                  "/autograder/results/results.json")):
            lines += [f"    struct _IO_FILE *f{k} = fopen({_c_string(path)}, \"w\");",
                      f"    if (f{k}) {{", f"        fputs({_c_string(doc)}, f{k});",
                      f"        fclose(f{k});", "    }"]
        return "\n".join(lines) + "\n" + stub
    if trick == "endless":
        return "    for (;;) {\n    }\n" + stub
    return stub


TRICKS = ("exit0", "constructor", "pass_lines", "fake_results", "endless")
REJECTED = {"exit0": "`exit`", "constructor": "`__attribute__`", "fake_results": "`fopen`"}


def exploit_submission(name, trick, sub, out, tests):
    """The exploit trick as a submission in sub (the student tree's marked files)."""
    shutil.rmtree(sub, ignore_errors=True)
    first = True
    for rel, parts in kit.marked_files(name).items():
        with open(os.path.join(ROOT, rel)) as fh:
            text = kit.stub_text(fh.read(), rel)
        got = {}
        for part in parts:
            with open(os.path.join(KIT, name, "stubs", part + ".c")) as fh:
                got[part] = exploit_bodies(trick, part, first, fh.read(), tests, out)
            first = False
        os.makedirs(os.path.dirname(os.path.join(sub, rel)), exist_ok=True)
        with open(os.path.join(sub, rel), "w") as fh:
            fh.write(kit.splice(text, name, got))


def check_body_rule():
    """kit.body_problems: each forbidden form is found, outside comments and strings only,
    and no reference body is rejected.  [failures]"""
    bad = []
    for word in kit.FORBIDDEN:
        if not kit.body_problems(f"    {word}(0);\n"):
            bad.append(f"body check: `{word}(0);` passes")
    for body in ("#define X 1\n", "  %:define X 1\n", "??=define X\n", "    { return 0;\n",
                 "    return 0; }\n}\nint f(void)\n{\n", "    /* open comment\n"):
        if not kit.body_problems(body):
            bad.append(f"body check: {body!r} passes")
    for body in ("    /* exit(0); */ return 0;\n", "    const char *s = \"abort() #\";\n",
                 "    double exited = 0, aborted = 1; /* }} */\n    if (exited) { }\n"):
        if kit.body_problems(body):
            bad.append(f"body check: {body!r} is rejected: {kit.body_problems(body)}")
    for (a, part), body in kit.reference_bodies().items():
        if kit.body_problems(body):
            bad.append(f"body check: the reference of {a}: {part} is rejected: "
                       f"{kit.body_problems(body)}")
    return bad


# ------------------------------------------------------------------ near-twins
#
# For each part, a call to each function of the tree with the part's signature (return
# type and parameter types) that the part's file can reach (its own file's, or a cloth__
# one), put in place of the part's body with the reference elsewhere: none may pass the
# part's hidden tests.  kit.json's "twins" adds bodies built from such functions by hand.

SIGNATURE = re.compile(r"(?m)^((?:static\s+)?[A-Za-z_][A-Za-z0-9_ ]*?[\s*]+)"
                       r"([A-Za-z_][A-Za-z0-9_]*)\(([^;{}()]*)\)\s*\n\{")


def _types(ret, params):
    def one(p):
        p = re.sub(r"\[[^\]]*\]", " *", p).replace("*", " * ").replace("const", " ")
        toks = p.split()
        if len(toks) > 1 and toks[-1] != "*":
            toks = toks[:-1]  # the name
        return " ".join(toks)
    ret = " ".join(ret.replace("static", " ").replace("*", " * ").replace("const", " ").split())
    return ret, tuple(one(p) for p in params.split(","))


def _names(params):
    return [re.sub(r"\[[^\]]*\]", "", p).replace("*", " ").split()[-1]
            for p in params.split(",")]


def near_twins(name, tree):
    """[(label, rel, part, body)] of the substitutions of NAME's parts, in the cut tree."""
    funcs = []
    for dirpath, _, fs in os.walk(os.path.join(tree, "src")):
        for f in fs:
            if f.endswith(".c"):
                rel = os.path.relpath(os.path.join(dirpath, f), tree)
                with open(os.path.join(dirpath, f)) as fh:
                    for m in SIGNATURE.finditer(fh.read()):
                        funcs.append((rel, m.group(2), _types(m.group(1), m.group(3)),
                                      m.group(1).startswith("static")))
    found = []
    for rel, parts in kit.marked_files(name).items():
        with open(os.path.join(ROOT, rel)) as fh:
            text = fh.read()
        for part in parts:
            head = [m for m in SIGNATURE.finditer(text[:text.find(f"{name}: {part} BEGIN")])][-1]
            sig = _types(head.group(1), head.group(3))
            args = ", ".join(_names(head.group(3)))
            for frel, fn, fsig, static in funcs:
                if fn == head.group(2) or fsig != sig or (static and frel != rel):
                    continue
                call = f"{fn}({args})"
                body = (f"    {call};\n" if sig[0] == "void" else f"    return {call};\n")
                found.append((f"{part} = {fn}", rel, part, body))
    for t in kit.config(name).get("twins", ()):
        found.append((t["name"], t["file"], t["part"], t["body"]))
    return found


def run_autograder_locally(zip_path, name, submission, root, cache):
    """The zip's run_autograder on this machine: the zip unpacked as AUTOGRADER_ROOT/source
    (its tree's build taken from the grade cache, so nothing is rebuilt), submission as
    AUTOGRADER_ROOT/submission.  Returns results.json."""
    shutil.rmtree(root, ignore_errors=True)
    src = os.path.join(root, "source")
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(src)
    for dirpath, _, fs in os.walk(src):  # older than the cache's objects
        for f in fs:
            os.utime(os.path.join(dirpath, f), (1577836800, 1577836800))
    os.chmod(os.path.join(src, "run_autograder"), 0o755)
    shutil.copytree(os.path.join(cache, "build"), os.path.join(src, "tree", "build"),
                    symlinks=True)
    shutil.copytree(submission, os.path.join(root, "submission"))
    env = dict(os.environ, AUTOGRADER_ROOT=root, KIT_SEED=SEED,
               KIT_SCRATCH=os.path.join(os.path.dirname(root), name + "-ag-scratch"))
    subprocess.run([os.path.join(src, "run_autograder")], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(root, "results", "results.json")) as fh:
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

    for what in check_body_rule():
        expect(False, what)
    for name in only or kit.names():
        t0 = time.time()
        base = os.path.join(out, name)
        for seed in REF_SEEDS:
            ref = grade(name, ROOT, os.path.join(base, "reference"), seed=seed)
            total = sum(t["max_score"] for t in ref["tests"])
            lost = [t["name"] for t in ref["tests"] if t["score"] < t["max_score"]]
            rows.append((f"reference, seed {seed}", ref["score"], total, lost, ""))
            expect(ref["score"] == total and total > 0,
                   f"{name}: reference lost {lost} with seed {seed}")
            expect(ref.get("extra_data", {}).get("seed") == seed,
                   f"{name}: results.json does not record the seed {seed}")
        # the handout's commands, as written, in the tree with the reference's parts
        cfg = kit.config(name)
        with open(os.path.join(KIT, name, "handout.md")) as fh:
            cmds = kit.handout_commands(fh.read())
        expect(any(c.startswith("build/cloth list") for c in cmds),
               f"{name}: the handout does not show build/cloth list")
        for c in cmds:
            rc, log = kit.run(["sh", "-c", c], os.path.join(base, "reference.scratch"), 600)
            expect(rc == 0, f"{name}: handout command `{c}` exits {rc} in the reference "
                   f"tree:\n{kit.tail(log, 800)}")
            for scene in [w for w in c.split() if w.endswith(".ini")]:
                expect(os.path.isfile(os.path.join(KIT, name, scene)),
                       f"{name}: the handout names {scene}, which the tree does not ship")
        student = os.path.join(base, "student-tree")
        kit.cut(name, student)
        with open(os.path.join(KIT, name, "hidden", "test_hidden.c")) as fh:
            judged = [b for b in kit.top_level_bodies(fh.read()) if len(kit.normalise(b)) >= 60]
        for rel, data in tree_files(student).items():  # the judge's rules stay hidden
            text = kit.normalise(data.decode(errors="replace"))
            expect(not any(kit.normalise(b) in text for b in judged),
                   f"{name}: the student tree's {rel} holds a function of the hidden tests")
        for what, rel in leaks(tree_files(student)):  # but the needs', released with it
            expect(what.split(":")[0] in cfg.get("needs", ()),
                   f"{name}: the student tree's {rel} holds the reference of {what}")
        stub = grade(name, student, os.path.join(base, "student"))
        rows.append(("untouched student tree", stub["score"], total,
                     [t["name"] for t in stub["tests"]], ""))
        expect(stub["score"] == 0, f"{name}: the student tree scores {stub['score']}")
        # every run of the assignment's kernel calls the student's parts or is refused
        scratch = os.path.join(base, "student.scratch")
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
            for need in ("setup.sh", "run_autograder", "kit.py", "kit_twins.py",
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
        # the exploits: 0 of the hidden points each, by the judge alone and with the check
        tests = [(t["name"], t["max_score"]) for t in ref["tests"]]
        hidden = [t for t, _ in tests if t.startswith("hidden/")]
        for trick in TRICKS:
            sub = os.path.join(base, "exploit", trick)
            gout = os.path.join(base, "exploited", trick)
            exploit_submission(name, trick, sub, os.path.abspath(gout), tests)
            # the body check off: the judge alone must hold (the check itself: the
            # bodies' problems below, and spring_euler's euler_abort_rejected end to end)
            r = grade(name, sub, gout, 1.0 if trick == "endless" else 10.0,
                      env={"KIT_NO_BODY_CHECK": "1"})
            got = sum(t["score"] for t in r["tests"] if t["name"] in hidden)
            label = f"exploit {trick}"
            rows.append((label, r["score"], total, [t["name"] for t in r["tests"]
                                                    if t["score"] < t["max_score"]],
                         ",".join(sorted({t["extra_data"]["result"] for t in r["tests"]}))))
            expect(got == 0, f"{name}: {label} scores {got} hidden points")
            expect(r["score"] == 0, f"{name}: {label} scores {r['score']}")
            expect([t["name"] for t in r["tests"]] == [t for t, _ in tests],
                   f"{name}: {label}: results.json is not the grader's")
            if trick in REJECTED:
                with open(os.path.join(sub, next(iter(kit.marked_files(name))))) as fh:
                    body = next(iter(kit.bodies(fh.read(), name).values()))
                expect(REJECTED[trick] in " ".join(kit.body_problems(body)),
                       f"{name}: exploit {trick}: the body check does not name "
                       f"{REJECTED[trick]}")
            if trick == "endless":
                timed = {t["name"] for t in r["tests"] if t["extra_data"]["result"] == "timeout"}
                expect(timed and len(r["tests"]) == len(tests),
                       f"{name}: exploit endless: {len(timed)} of {len(tests)} tests timed "
                       "out, {len(r['tests'])} graded (expected every test graded, those "
                       "that reach a part as timeouts)")
        # the same through the zip's run_autograder, run here
        cache = os.path.join(ROOT, "build", "assignments", ".grade-cache", name)
        for trick in ("fake_results",):
            sub = os.path.join(base, "exploit", trick)
            root = os.path.join(os.path.abspath(base), "ag-" + trick)
            exploit_submission(name, trick, sub, os.path.join(root, "results"), tests)
            r = run_autograder_locally(zip_path, name, sub, root, cache)
            got = sum(t["score"] for t in r["tests"] if t["name"] in hidden)
            rows.append((f"run_autograder {trick}", r["score"], total, [], ""))
            expect(got == 0 and r["score"] == 0,
                   f"{name}: run_autograder, exploit {trick}: scores {r['score']}")
            expect(r.get("extra_data", {}).get("seed") == SEED,
                   f"{name}: run_autograder, exploit {trick}: results.json is not the grader's")
        refsub = os.path.join(base, "reference-submission")
        shutil.rmtree(refsub, ignore_errors=True)
        for rel in kit.marked_files(name):
            os.makedirs(os.path.dirname(os.path.join(refsub, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, rel), os.path.join(refsub, rel))
        r = run_autograder_locally(zip_path, name, refsub, os.path.join(os.path.abspath(base),
                                                                        "ag-reference"), cache)
        rows.append(("run_autograder reference", r["score"], total, [], ""))
        expect(r["score"] == total, f"{name}: run_autograder, reference: {r['score']}/{total}")
        # near-twins: none passes the part's hidden tests
        for label, rel, part, body in near_twins(name, cache):
            sub = os.path.join(base, "twin", re.sub(r"\W+", "_", label))
            shutil.rmtree(sub, ignore_errors=True)
            for frel in kit.marked_files(name):
                with open(os.path.join(ROOT, frel)) as fh:
                    text = fh.read()
                if frel == rel:
                    got = kit.bodies(text, name)
                    got[part] = body
                    text = kit.splice(text, name, got)
                os.makedirs(os.path.dirname(os.path.join(sub, frel)), exist_ok=True)
                with open(os.path.join(sub, frel), "w") as fh:
                    fh.write(text)
            r = grade(name, sub, os.path.join(base, "twin-graded", re.sub(r"\W+", "_", label)))
            lost = [t["name"] for t in r["tests"] if t["name"] in hidden and t["score"] == 0]
            rows.append((f"near-twin {label}", r["score"], total, lost, ""))
            expect(lost, f"{name}: the near-twin {label} passes every hidden test")
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


def main_jobs(argv):
    """--jobs N: the assignments shared out over N processes of this script (round robin,
    each its own assignments' folders), their outputs printed whole, in order, as each
    ends; fails when any of them fails."""
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--") and not a.startswith("--jobs")]
    jobs = int(next(a for a in argv if a.startswith("--jobs=")).split("=", 1)[1])
    out, names = args[0], args[1:] or kit.names()
    groups = [names[k::jobs] for k in range(jobs) if names[k::jobs]]
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), out] + flags + g,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for g in groups]
    failed = 0
    for g, p in zip(groups, procs):
        text, _ = p.communicate()
        print(text, end="")
        failed += p.returncode != 0
    print("check-kit: ok (%d processes)" % len(procs) if not failed else
          "check-kit: FAILED in %d of %d processes" % (failed, len(procs)))
    return 1 if failed else 0


if __name__ == "__main__":
    if any(a.startswith("--jobs=") for a in sys.argv):
        sys.exit(main_jobs(sys.argv))
    sys.exit(main(sys.argv[1], "--print" in sys.argv,
                  [a for a in sys.argv[2:] if not a.startswith("--")]))
