#!/usr/bin/env python3
"""The coursework kit: cut an assignment's student tree, grade a submission.

  kit.py list                          the assignments, one name a line
  kit.py cut NAME OUT                  the student tree of NAME into OUT
  kit.py grade NAME SUBMISSION OUT [LIMIT]   results.json (Gradescope), summary.txt in OUT
  kit.py grade-tree NAME TREE SUBMISSION OUT LIMIT [SCRATCH]
                                       the same against TREE, a cut with the hidden tests
                                       (what Gradescope's run_autograder calls)
  kit.py autograder NAME ZIP [LIMIT]   Gradescope's autograder zip (setup.sh,
                                       run_autograder, the tree without reference bodies)

An assignment is a folder assignments/NAME/ with handout.md (the cut also writes it as
HANDOUT.ipynb, a notebook with cells that build and test), stubs/PART.c (the body a
student starts from), public/ (tests handed out), hidden/ (tests kept back) and
broken.json (deliberately broken solutions, for make check-kit).  Its parts
are regions of the library's own sources between

    /* ASSIGNMENT NAME: PART BEGIN */   and   /* ASSIGNMENT NAME: PART END */

which the reference build compiles as they are; the cut keeps both marker lines and puts
stubs/PART.c between them.  Tests are programs built on kit_test.h (one process per test
under a time limit, so a crash or a hang costs only that test)."""
import json, os, re, shutil, subprocess, sys

KIT = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(KIT)
MARK = re.compile(r"/\* ASSIGNMENT ([A-Za-z0-9_]+): ([A-Za-z0-9_]+) (BEGIN|END) \*/")


def names():
    return sorted(d for d in os.listdir(KIT)
                  if os.path.isfile(os.path.join(KIT, d, "handout.md")))


def marked_files(name, src_root=ROOT):
    """{relative path: [part, ...]} of the files under src/ with parts of NAME."""
    found = {}
    for dirpath, _, files in os.walk(os.path.join(src_root, "src")):
        if "node_modules" in dirpath:
            continue
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            with open(path) as fh:
                parts = [m.group(2) for m in MARK.finditer(fh.read())
                         if m.group(1) == name and m.group(3) == "BEGIN"]
            if parts:
                found[os.path.relpath(path, src_root)] = parts
    return found


def stub_text(text, name, path):
    """text with every part of NAME replaced by its stub; an unpaired marker is an error."""
    out, part = [], None
    for line in text.splitlines(keepends=True):
        m = MARK.search(line)
        if m and m.group(1) == name:
            if m.group(3) == "BEGIN":
                if part:
                    sys.exit(f"kit: {path}: {m.group(2)} BEGIN inside {part}")
                part = m.group(2)
                out.append(line)
                with open(os.path.join(KIT, name, "stubs", part + ".c")) as fh:
                    out.append(fh.read())
                continue
            if part != m.group(2):
                sys.exit(f"kit: {path}: {m.group(2)} END without its BEGIN")
            part = None
        if part is None:
            out.append(line)
    if part:
        sys.exit(f"kit: {path}: {part} has no END")
    return "".join(out)


def bodies(text, name):
    """{part: the text between its markers} of NAME's parts in text."""
    found, part, lines = {}, None, []
    for line in text.splitlines(keepends=True):
        m = MARK.search(line)
        if m and m.group(1) == name:
            if m.group(3) == "BEGIN":
                part, lines = m.group(2), []
            elif part == m.group(2):
                found[part], part = "".join(lines), None
            continue
        if part:
            lines.append(line)
    return found


def splice(text, name, submitted):
    """text with the body of every part of NAME in submitted put between its markers."""
    out, part = [], None
    for line in text.splitlines(keepends=True):
        m = MARK.search(line)
        if m and m.group(1) == name:
            out.append(line)
            if m.group(3) == "BEGIN":
                part = m.group(2)
                out.append(submitted[part])
            else:
                part = None
            continue
        if part is None:
            out.append(line)
    return "".join(out)


def write_if_changed(path, data):
    """Keeps the file (and its time stamp, for make) when its content is the same."""
    if os.path.isfile(path):
        with open(path, "rb") as fh:
            if fh.read() == data:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def notebook(handout):
    """The handout as a Jupyter notebook: a Markdown cell per section of handout.md, and
    after every part and after the tests' table a cell that builds the tree and runs the
    public tests (in the student tree, where the notebook sits beside the Makefile)."""
    def markdown(text):
        return {"cell_type": "markdown", "metadata": {},
                "source": text.strip("\n").splitlines(keepends=True)}

    def code(text):
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                "source": text.splitlines(keepends=True)}

    run_tests = ("# builds the tree and runs the public tests: PASS or FAIL for each, and why\n"
                 "!make -s && make -s test")
    cells = [code("# Run each cell with Shift-Enter; the shell commands run in this tree.\n"
                  "!ls src HANDOUT.md")]
    sections = re.split(r"(?m)^(?=## )", handout)
    for i, section in enumerate(sections):
        cells.append(markdown(section))
        if section.startswith("## Part") or i == len(sections) - 1:
            cells.append(code(run_tests))
    doc = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
           "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                       "name": "python3"},
                        "language_info": {"name": "python"}}}
    for k, c in enumerate(doc["cells"]):
        c["id"] = f"cell-{k}"
    return json.dumps(doc, indent=1) + "\n"


def cut(name, out, hidden=False):
    if name not in names():
        sys.exit(f"kit: no assignment {name!r} (make assignment lists them)")
    marked = marked_files(name)
    if not marked:
        sys.exit(f"kit: no region of src/ is marked ASSIGNMENT {name}")
    files = {}
    for dirpath, _, fs in os.walk(os.path.join(ROOT, "src")):
        if "node_modules" in dirpath:
            continue
        for f in fs:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, ROOT)
            with open(path, "rb") as fh:
                data = fh.read()
            if rel in marked:
                data = stub_text(data.decode(), name, rel).encode()
            files[rel] = data
    a = os.path.join(KIT, name)
    suites = ["public"] + (["hidden"] if hidden else [])
    for suite in suites:
        for f in sorted(os.listdir(os.path.join(a, suite))):
            with open(os.path.join(a, suite, f), "rb") as fh:
                files[f"tests/{suite}/{f}"] = fh.read()
    with open(os.path.join(KIT, "kit_test.h"), "rb") as fh:
        files["tests/public/kit_test.h"] = fh.read()
    for src, dst in (("Makefile.student", "Makefile"), (f"{name}/handout.md", "HANDOUT.md")):
        with open(os.path.join(KIT, src), "rb") as fh:
            files[dst] = fh.read()
    files["HANDOUT.ipynb"] = notebook(files["HANDOUT.md"].decode()).encode()
    if os.path.isdir(out):  # drop what the cut no longer has (the build stays)
        for dirpath, _, fs in os.walk(out):
            for f in fs:
                rel = os.path.relpath(os.path.join(dirpath, f), out)
                if not rel.startswith("build" + os.sep) and rel not in files:
                    os.remove(os.path.join(dirpath, f))
    for rel, data in files.items():
        write_if_changed(os.path.join(out, rel), data)
    return marked


# ------------------------------------------------------------------ grading

def test_table(path):
    """[(name, points)] from a test program's kit_test table (read from its source, so a
    submission that does not compile still lists every test it loses)."""
    with open(path) as fh:
        return [(m.group(1), float(m.group(2))) for m in
                re.finditer(r'\{"([^"]+)",\s*([0-9.]+),\s*\w+\}', fh.read())]


def run(cmd, cwd, limit):
    # not the calling make's variables (make sanitize's CFLAGS would reach the tree)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "CFLAGS")}
    env["OPENBLAS_NUM_THREADS"] = "1"
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=limit)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace")


def tail(text, n=4000):
    return text if len(text) <= n else "...\n" + text[-n:]


def grade(name, submission, out, limit, build_limit=600):
    # The pristine tree with the hidden tests, built once and kept: a submission's build
    # then recompiles only the files it replaces (make compares time stamps).
    cache = os.path.join(ROOT, "build", "assignments", ".grade-cache", name)
    cut(name, cache, hidden=True)
    grade_tree(name, cache, submission, out, limit, build_limit=build_limit)


def grade_tree(name, tree, submission, out, limit, scratch=None, build_limit=600):
    """Grades submission against tree, a student tree cut with the hidden tests (its
    markers say which parts are graded): what make grade and Gradescope's run_autograder
    do.  The scratch copy is out/scratch unless scratch names another folder."""
    os.makedirs(out, exist_ok=True)
    marked = marked_files(name, tree)
    jobs = str(os.cpu_count() or 1)
    rc, log = run(["make", "-j" + jobs, "lib", "tests"], tree, build_limit)
    if rc != 0:
        sys.exit(f"kit: the pristine tree of {name} does not build:\n{tail(log)}")
    scratch = scratch or os.path.join(out, "scratch")
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(tree, scratch, symlinks=True)
    # Only the bodies between the markers come from the submission, spliced into the
    # pristine file: what a student changed elsewhere (or a stale tree) does not count.
    notes = []
    for rel, parts in marked.items():
        for cand in (os.path.join(submission, rel),
                     os.path.join(submission, os.path.basename(rel))):
            if os.path.isfile(cand):
                break
        else:
            notes.append(f"{rel} is not in the submission: its stubs stay")
            continue
        with open(cand, errors="replace") as fh:
            got = bodies(fh.read(), name)
        target = os.path.join(scratch, rel)
        with open(target) as fh:
            text = fh.read()
        stubs = bodies(text, name)
        for part in parts:
            if part in got:
                notes.append(f"{part}: from {os.path.relpath(cand, submission)}")
            else:
                got[part] = stubs[part]
                notes.append(f"{part}: no markers in {os.path.relpath(cand, submission)}: "
                             "its stub stays")
        with open(target, "w") as fh:  # a new time stamp: make recompiles it
            fh.write(splice(text, name, got))
    rc, log = run(["make", "-j" + jobs, "lib"], scratch, build_limit)
    lib_error = None if rc == 0 else ("timed out" if rc is None else tail(log))
    results = []
    for suite in ("public", "hidden"):
        prog = os.path.join("tests", suite, f"test_{suite}.c")
        table = test_table(os.path.join(scratch, prog))
        error = lib_error
        if error is None:
            rc, log = run(["make", f"build/{suite}/test_{suite}"], scratch, build_limit)
            error = None if rc == 0 else ("timed out" if rc is None else tail(log))
        for test, points in table:
            entry = {"name": test, "max_score": points,
                     "visibility": "visible" if suite == "public" else "after_published"}
            if error is not None:
                entry.update(score=0, status="compile-error",
                             output="compile error: the submission does not build, so "
                                    "this test could not run\n" + error)
            else:
                rc, log = run([f"build/{suite}/test_{suite}", test], scratch, limit)
                if rc == 0:
                    entry.update(score=points, status="passed", output=tail(log))
                elif rc is None:
                    entry.update(score=0, status="timeout",
                                 output=f"timed out after {limit:g} s\n" + tail(log))
                elif rc < 0:
                    entry.update(score=0, status="crashed",
                                 output=f"crashed (signal {-rc})\n" + tail(log))
                else:
                    entry.update(score=0, status="failed", output=tail(log))
            entry["extra_data"] = {"result": entry["status"]}
            if entry["status"] != "passed":
                entry["status"] = "failed"
            results.append(entry)
    score = sum(t["score"] for t in results)
    total = sum(t["max_score"] for t in results)
    lines = [f"{name}: {score:g} / {total:g}"] + [f"  {n}" for n in notes]
    if lib_error is not None:
        lines.append("  COMPILE ERROR: every test is lost (see any test's output)")
    for t in results:
        lines.append(f"  {t['extra_data']['result']:<13} {t['score']:>4g}/{t['max_score']:<4g} "
                     f"{t['name']}")
    summary = "\n".join(lines) + "\n"
    doc = {"score": score, "output": summary, "tests": results}
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump(doc, fh, indent=2)
    with open(os.path.join(out, "summary.txt"), "w") as fh:
        fh.write(summary)
    sys.stdout.write(summary)


# ------------------------------------------------------------ Gradescope

DEBS = ("build-essential pkg-config libopenblas-dev liblapacke-dev libsuitesparse-dev "
        "libarpack2-dev libcjson-dev python3")

SETUP_SH = f"""#!/usr/bin/env bash
# Gradescope runs this once, when the autograder is uploaded: the tools, then the
# pristine tree built once (a submission's build recompiles only the files it replaces).
set -e
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq {DEBS}
cd /autograder/source/tree
make -j"$(nproc)" lib tests
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this per submission: the files in /autograder/submission (at their paths
# in the tree or flat) are graded into /autograder/results/results.json.
cd /autograder/source
exec python3 kit.py grade-tree {name} tree /autograder/submission /autograder/results \\
    {limit} /tmp/clothbench-grade
"""


def autograder(name, zip_path, limit):
    """Gradescope's autograder zip: setup.sh, run_autograder, this script and the student
    tree with the hidden tests (stubs, never the reference bodies)."""
    import tempfile
    import zipfile
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        cut(name, tree, hidden=True)
        os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
            def add(arcname, data):
                info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if not arcname.startswith("tree/") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
            add("setup.sh", SETUP_SH)
            add("run_autograder", RUN_AUTOGRADER.format(name=name, limit=f"{limit:g}"))
            with open(os.path.abspath(__file__)) as fh:
                add("kit.py", fh.read())
            for dirpath, _, fs in sorted(os.walk(tree)):
                for f in sorted(fs):
                    path = os.path.join(dirpath, f)
                    with open(path, "rb") as fh:
                        add("tree/" + os.path.relpath(path, tree), fh.read())
    print(f"autograder: {zip_path} (upload it as the assignment's autograder on Gradescope)")


def main(argv):
    if len(argv) == 1 and argv[0] == "list":
        print("\n".join(names()))
    elif len(argv) == 3 and argv[0] == "cut":
        cut(argv[1], argv[2])
    elif len(argv) in (4, 5) and argv[0] == "grade":
        grade(argv[1], argv[2], argv[3], float(argv[4]) if len(argv) == 5 else 10.0)
    elif len(argv) in (6, 7) and argv[0] == "grade-tree":
        grade_tree(argv[1], argv[2], argv[3], argv[4], float(argv[5]),
                   argv[6] if len(argv) == 7 else None)
    elif len(argv) in (3, 4) and argv[0] == "autograder":
        autograder(argv[1], argv[2], float(argv[3]) if len(argv) == 4 else 10.0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
