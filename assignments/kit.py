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
import json, os, re, shutil, signal, subprocess, sys

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


def stub_text(text, path, released=()):
    """text with every marked part of every assignment replaced by that assignment's stub,
    except the parts of the assignments in released (their reference stays); an unpaired
    marker is an error."""
    out, part = [], None
    for line in text.splitlines(keepends=True):
        m = MARK.search(line)
        if m:
            who = (m.group(1), m.group(2))
            if m.group(3) == "BEGIN":
                if part:
                    sys.exit(f"kit: {path}: {who[1]} BEGIN inside {part[1]}")
                part = who
                out.append(line)
                if who[0] not in released:
                    with open(os.path.join(KIT, who[0], "stubs", who[1] + ".c")) as fh:
                        out.append(fh.read())
                continue
            if part != who:
                sys.exit(f"kit: {path}: {who[1]} END without its BEGIN")
            part = None
        if part is None or part[0] in released:
            out.append(line)
    if part:
        sys.exit(f"kit: {path}: {part[1]} has no END")
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


def config(name):
    """assignments/NAME/kit.json: needs (earlier assignments whose parts its kernel and
    tests run on: their stubs in the student tree, their released reference in the
    grading tree), kernel, and runs (the --set lists of the scene's runs that must call
    the student's parts or be refused: make check-kit)."""
    with open(os.path.join(KIT, name, "kit.json")) as fh:
        return json.load(fh)


from kit_twins import (COLOURED_C, EMPTIED, LEFT_OUT, NEAR_TWINS, REFUSED,  # noqa: E402,F401
                       REPLACED, empty_functions, function_span, normalise,
                       top_level_bodies, twins)


def reference_bodies():
    """{(assignment, part): the reference body} of every marked part in src/."""
    found = {}
    for name in names():
        for rel in marked_files(name):
            with open(os.path.join(ROOT, rel)) as fh:
                for part, body in bodies(fh.read(), name).items():
                    found[(name, part)] = body
    return found


def handout_commands(handout):
    """The shell commands of the handout's ```sh blocks (comments dropped)."""
    cmds = []
    for block in re.findall(r"(?ms)^```sh\n(.*?)^```", handout):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                cmds.append(line)
    return cmds


def student_files(name, hidden=False, released=()):
    """{relative path: bytes} of NAME's student tree: src/ with every assignment's parts
    stubbed (those of released kept), the coloured order left out, the scenes, the
    public (and hidden) tests, the Makefile and the handout."""
    files = {}
    for dirpath, _, fs in os.walk(os.path.join(ROOT, "src")):
        if "node_modules" in dirpath:
            continue
        for f in fs:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, ROOT)
            if rel in LEFT_OUT:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
            if rel == "src/kernels/coloured.c":
                data = COLOURED_C.encode()
            elif f.endswith((".c", ".h")):
                text = data.decode()
                new = empty_functions(stub_text(text, rel, released), rel)
                if new != text:
                    data = new.encode()
            files[rel] = data
    a = os.path.join(KIT, name)
    suites = ["public"] + (["hidden"] if hidden else [])
    for suite in suites:
        for f in sorted(os.listdir(os.path.join(a, suite))):
            with open(os.path.join(a, suite, f), "rb") as fh:
                files[f"tests/{suite}/{f}"] = fh.read()
    for f in sorted(os.listdir(os.path.join(a, "scenes"))):
        with open(os.path.join(a, "scenes", f), "rb") as fh:
            files[f"scenes/{f}"] = fh.read()
    with open(os.path.join(KIT, "kit_test.h"), "rb") as fh:
        files["tests/public/kit_test.h"] = fh.read()
    for src, dst in (("Makefile.student", "Makefile"), (f"{name}/handout.md", "HANDOUT.md")):
        with open(os.path.join(KIT, src), "rb") as fh:
            files[dst] = fh.read()
    files["HANDOUT.ipynb"] = notebook(files["HANDOUT.md"].decode()).encode()
    return files


def cut(name, out, hidden=False, released=None):
    """NAME's student tree into out; hidden adds the hidden tests and released keeps the
    reference of those assignments (by default the assignment's needs, released by the
    time it goes out: the student tree and the grading tree both have them)."""
    if name not in names():
        sys.exit(f"kit: no assignment {name!r} (make assignment lists them)")
    if released is None:
        released = config(name).get("needs", ())
    marked = marked_files(name)
    if not marked:
        sys.exit(f"kit: no region of src/ is marked ASSIGNMENT {name}")
    files = student_files(name, hidden, released)
    if os.path.isdir(out):  # drop what the cut no longer has (the build stays)
        for dirpath, _, fs in os.walk(out):
            for f in fs:
                rel = os.path.relpath(os.path.join(dirpath, f), out)
                if not rel.startswith("build" + os.sep) and rel not in files:
                    os.remove(os.path.join(dirpath, f))
    for rel, data in files.items():
        write_if_changed(os.path.join(out, rel), data)
    return marked


def release(name, out):
    """The reference bodies of NAME, for after its deadline: each file with NAME's parts
    as it is in a student tree but with NAME's reference between the markers (a student
    or make grade takes them from there), and RELEASE.md listing them."""
    if name not in names():
        sys.exit(f"kit: no assignment {name!r} (make assignment lists them)")
    lines = [f"# {name}: the reference solution", "",
             "Each file below holds the reference body of each part of this assignment "
             "between its markers (the other assignments' parts are stubs). Copy a body "
             "between the same markers of your tree's file.", ""]
    for rel, parts in marked_files(name).items():
        with open(os.path.join(ROOT, rel)) as fh:
            text = empty_functions(stub_text(fh.read(), rel, released=(name,)), rel)
        write_if_changed(os.path.join(out, rel), text.encode())
        lines.append(f"- `{rel}`: {', '.join(parts)}")
    write_if_changed(os.path.join(out, "RELEASE.md"), ("\n".join(lines) + "\n").encode())
    print(f"release: {out}/ (RELEASE.md)")


# ------------------------------------------------------------------ grading

def test_table(path):
    """[(name, points)] from a test program's kit_test table (read from its source, so a
    submission that does not compile still lists every test it loses)."""
    with open(path) as fh:
        return [(m.group(1), float(m.group(2))) for m in
                re.finditer(r'\{"([^"]+)",\s*([0-9.]+),\s*\w+\}', fh.read())]


def run(cmd, cwd, limit, user=None, env_extra=None):
    """(exit status, output) of cmd; None for a timeout.  It runs in a session of its own,
    killed whole (by its process group) when it ends or times out, so a child it leaves
    behind does not outlive it; user (a uid) runs it as that user (the probe)."""
    # not the calling make's variables (make sanitize's CFLAGS would reach the tree)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "CFLAGS")}
    env["OPENBLAS_NUM_THREADS"] = "1"
    env.update(env_extra or {})
    if user is not None:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + cmd
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        data, _ = p.communicate(timeout=limit)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = None
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if rc is None:
        data, _ = p.communicate()
    return rc, data.decode(errors="replace")


def tail(text, n=4000):
    return text if len(text) <= n else "...\n" + text[-n:]


# A marked body may not reach around the test: these (outside comments and strings) make
# the grader reject the body (its stub stays, and the summary says why).
FORBIDDEN = ("exit", "_exit", "_Exit", "quick_exit", "abort", "longjmp", "siglongjmp",
             "setjmp", "system", "asm", "__asm", "__asm__", "__attribute__", "_Pragma",
             "atexit", "at_quick_exit", "fork", "vfork", "popen", "execv", "execve", "execl",
             "execlp", "execvp", "fopen", "freopen", "open", "creat", "remove", "unlink",
             "rename", "kill", "raise", "signal", "sigaction", "syscall", "dlopen", "dlsym")


def body_problems(body):
    """What in a submitted marked body makes the grader reject it: a forbidden call or
    keyword, a preprocessor line (or its digraph, trigraph), or unbalanced braces."""
    code = re.sub(r'/\*.*?\*/|//[^\n]*', " ", body, flags=re.S)
    if "/*" in code:
        return ["an unterminated comment"]
    code = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', code)
    found = []
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    found += [f"`{w}`" for w in FORBIDDEN if w in words]
    if re.search(r"(?m)^\s*#|%:|\?\?=", code):
        found.append("a preprocessor line")
    depth = 0
    for ch in code:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            break
    if depth != 0:
        found.append("unbalanced braces")
    return found


def probe_user():
    """The uid the probes run as: nobody's when this runs as root and setpriv is there
    (Gradescope's run_autograder, a root make grade), else None (the same user: make grade
    then runs the probe in a scratch folder with the results folder read-only)."""
    if os.geteuid() != 0 or not shutil.which("setpriv") or os.environ.get("KIT_SAME_USER"):
        return None
    import pwd
    try:
        return pwd.getpwnam(os.environ.get("KIT_PROBE_USER", "nobody")).pw_uid
    except KeyError:
        return None


def grade(name, submission, out, limit, build_limit=600, seed=None):
    # The pristine tree with the hidden tests, built once and kept: a submission's build
    # then recompiles only the files it replaces (make compares time stamps).  Its test
    # programs are the judges.
    cache = os.path.join(ROOT, "build", "assignments", ".grade-cache", name)
    cut(name, cache, hidden=True, released=config(name).get("needs", ()))
    grade_tree(name, cache, submission, out, limit, build_limit=build_limit, seed=seed)


def grade_tree(name, tree, submission, out, limit, scratch=None, build_limit=600, seed=None):
    """Grades submission against tree, a student tree cut with the hidden tests (its
    markers say which parts are graded): what make grade and Gradescope's run_autograder
    do.  Each test runs twice: the probe (the test program built with the submission, in
    the scratch copy, as an unprivileged user when there is one) writes the values the
    student's code produced, and the judge (the same program built from the pristine
    tree: stubs, no student code) recomputes the expected values, reads the probe's and
    decides.  The seed (KIT_SEED, else drawn) sets the hidden tests' inputs and is
    recorded in results.json.  results.json is written last, by this process alone."""
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    if seed is None:
        seed = os.environ.get("KIT_SEED") or str(int.from_bytes(os.urandom(4), "little"))
    seed = str(int(seed))
    marked = marked_files(name, tree)
    jobs = str(os.cpu_count() or 1)
    rc, log = run(["make", "-j" + jobs, "lib", "tests"], tree, build_limit)
    if rc != 0:
        sys.exit(f"kit: the pristine tree of {name} does not build:\n{tail(log)}")
    scratch = os.path.abspath(scratch or out.rstrip(os.sep) + ".scratch")
    if os.path.commonpath([scratch, out]) == out:
        sys.exit(f"kit: the scratch folder {scratch} is inside the results folder {out}")
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(tree, scratch, symlinks=True)
    # Only the bodies between the markers come from the submission, spliced into the
    # pristine file: what a student changed elsewhere (or a stale tree) does not count.
    notes, rejected = [], []
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
            bad = body_problems(got[part]) if part in got else []
            if part in got and bad and not os.environ.get("KIT_NO_BODY_CHECK"):
                got[part] = stubs[part]
                rejected.append(part)
                notes.append(f"REJECTED {part}: its body uses {', '.join(bad)}, which a "
                             "marked body may not: it counts as not written (its stub stays)")
            elif part in got:
                notes.append(f"{part}: from {os.path.relpath(cand, submission)}")
            else:
                got[part] = stubs[part]
                notes.append(f"{part}: no markers in {os.path.relpath(cand, submission)}: "
                             "its stub stays")
        with open(target, "w") as fh:  # a new time stamp: make recompiles it
            fh.write(splice(text, name, got))
    rc, log = run(["make", "-j" + jobs, "lib"], scratch, build_limit)
    lib_error = None if rc == 0 else ("timed out" if rc is None else tail(log))
    user = probe_user()
    values_dir = os.path.join(scratch, ".probe")
    os.makedirs(values_dir, exist_ok=True)
    results = []
    jobs_n = int(jobs)
    suites = []
    for suite in ("public", "hidden"):
        table = test_table(os.path.join(tree, "tests", suite, f"test_{suite}.c"))
        error = lib_error
        if error is None:
            rc, log = run(["make", f"build/{suite}/test_{suite}"], scratch, build_limit)
            error = None if rc == 0 else ("timed out" if rc is None else tail(log))
        suites.append((suite, table, error))
    if user is not None:
        for dirpath, dirs, fs in os.walk(scratch):  # the probe's playground
            for f in dirs + fs:
                os.lchown(os.path.join(dirpath, f), user, user)
        os.chown(scratch, user, user)
    work = [(suite, k, test, points, error) for suite, table, error in suites
            for k, (test, points) in enumerate(table)]

    def probe(job):  # the student's code: its values into .probe/SUITE-K.txt
        suite, k, test, points, error = job
        if error is not None:
            return None
        values = os.path.join(values_dir, f"{suite}-{k}.txt")
        return run([f"build/{suite}/test_{suite}", "--probe", test, values], scratch, limit,
                   user=user, env_extra={"KIT_SEED": seed})

    import concurrent.futures as cf
    import tempfile
    mode = os.stat(out).st_mode
    os.chmod(out, 0o555)  # the results folder, read-only while the probes run
    try:
        with cf.ThreadPoolExecutor(jobs_n) as pool:
            probed = list(pool.map(probe, work))
    finally:
        os.chmod(out, mode & 0o7777)
    private = tempfile.mkdtemp(prefix="kit-judge-")  # the values, out of the probes' reach

    def judge(job_probe):  # the pristine tree's program decides on the probe's values
        (suite, k, test, points, error), pr = job_probe
        entry = {"name": test, "max_score": points,
                 "visibility": "visible" if suite == "public" else "after_published"}
        if error is not None:
            entry.update(score=0, status="compile-error",
                         output="compile error: the submission does not build, so "
                                "this test could not run\n" + error)
            return entry
        prc, plog = pr
        said = "\n--- what your code printed (the probe) ---\n" + tail(plog, 2000)
        if prc is None:
            entry.update(score=0, status="timeout", output=f"timed out after {limit:g} s" + said)
            return entry
        if prc < 0:
            entry.update(score=0, status="crashed", output=f"crashed (signal {-prc})" + said)
            return entry
        judged = os.path.join(private, f"{suite}-{k}.txt")
        try:
            src = os.path.join(values_dir, f"{suite}-{k}.txt")
            if (os.path.islink(src) or os.path.getsize(src) > 64 << 20 or
                    not os.path.realpath(src).startswith(os.path.realpath(scratch) + os.sep)):
                raise OSError("a link, or more than 64 MB of values")
            shutil.copyfile(src, judged)
            jrc, jlog = run([os.path.join(os.path.abspath(tree), "build", suite,
                                          f"test_{suite}"), "--judge", test, judged],
                            tree, limit, env_extra={"KIT_SEED": seed})
        except OSError as e:
            jrc, jlog = 1, f"FAILED: the probe wrote no values ({e})\n"
        entry.update(score=points if jrc == 0 else 0,
                     status="passed" if jrc == 0 else "failed", output=tail(jlog) + said)
        return entry

    try:
        with cf.ThreadPoolExecutor(jobs_n) as pool:
            results = list(pool.map(judge, zip(work, probed)))
    finally:
        shutil.rmtree(private, ignore_errors=True)
    for entry in results:
        if rejected:
            entry["output"] = ("rejected parts (not counted): " + ", ".join(rejected) + "\n" +
                               entry["output"])
        entry["extra_data"] = {"result": entry["status"], "seed": seed}
        if entry["status"] != "passed":
            entry["status"] = "failed"
    score = sum(t["score"] for t in results)
    total = sum(t["max_score"] for t in results)
    lines = [f"{name}: {score:g} / {total:g} (seed {seed}: KIT_SEED={seed} replays it)"]
    lines += [f"  {n}" for n in notes]
    if lib_error is not None:
        lines.append("  COMPILE ERROR: every test is lost (see any test's output)")
    for t in results:
        lines.append(f"  {t['extra_data']['result']:<13} {t['score']:>4g}/{t['max_score']:<4g} "
                     f"{t['name']}")
    summary = "\n".join(lines) + "\n"
    doc = {"score": score, "output": summary, "tests": results,
           "extra_data": {"seed": seed, "rejected": rejected}}
    for f in ("results.json", "summary.txt"):  # whatever was there, a probe's or not
        path = os.path.join(out, f)
        if os.path.lexists(path):
            os.remove(path)
    with open(os.path.join(out, "summary.txt"), "w") as fh:
        fh.write(summary)
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump(doc, fh, indent=2)
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
# in the tree or flat) are graded into /autograder/results/results.json.  Each test's probe
# (the student's code) runs as the user nobody (setpriv, as Gradescope runs this as root),
# in /tmp/clothbench-grade, where it cannot write the results folder nor the tree whose
# test programs judge it.  KIT_SEED=N replays a grading run (results.json gives its seed).
# AUTOGRADER_ROOT (default /autograder) lets it run elsewhere, e.g. on the instructor's
# machine: AUTOGRADER_ROOT=DIR DIR/source/run_autograder with DIR/submission, DIR/results.
R="${{AUTOGRADER_ROOT:-/autograder}}"
cd "$R/source"
[ -d tree/build/hidden ] || make -C tree -j"$(nproc)" lib tests >/dev/null
mkdir -p "$R/results"
exec python3 kit.py grade-tree {name} tree "$R/submission" "$R/results" \\
    {limit} "${{KIT_SCRATCH:-/tmp/clothbench-grade}}"
"""


def autograder(name, zip_path, limit):
    """Gradescope's autograder zip: setup.sh, run_autograder, this script and the student
    tree with the hidden tests (stubs, never the reference bodies)."""
    import tempfile
    import zipfile
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        cut(name, tree, hidden=True, released=config(name).get("needs", ()))
        os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
            def add(arcname, data):
                info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if not arcname.startswith("tree/") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
            add("setup.sh", SETUP_SH)
            add("run_autograder", RUN_AUTOGRADER.format(name=name, limit=f"{limit:g}"))
            for f in ("kit.py", "kit_twins.py"):
                with open(os.path.join(KIT, f)) as fh:
                    add(f, fh.read())
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
    elif len(argv) == 3 and argv[0] == "release":
        release(argv[1], argv[2])
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
