"""The coursework kit's cut: what a student tree leaves out besides the parts (kit.py
imports it).  The coloured order's twins of the parts (a stand-in coloured.c, the left-out
AVX-512 header, the emptied set-up functions) and the near-twins elsewhere in the library
(emptied or rewritten), with the twin bodies make check-kit's leak check looks for."""
import json
import os
import re
import sys

KIT = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(KIT)


def normalise(text):
    return " ".join(text.split())


# ------------------------------------------------------- the coloured order's twins
#
# The coloured (vectorised) order of explicit, verlet and pbd computes the assignments'
# parts a second time (coloured.c's XPBD, relaxation, Provot and spring loops, their AVX-512
# blocks, and the kernels' set-up of its weights and compliances): a student tree has only
# the reference order.  Its coloured.c refuses the order at creation, coloured_avx512.h is
# left out, and the kernels' functions that prepare the coloured loops are emptied.

REFUSED = ("order = coloured: this coursework tree has only the reference order "
           "(sequential); the coloured order computes the assignment's parts itself and is "
           "not handed out")

COLOURED_C = """/* A coursework tree's coloured.c (assignments/kit.py): the coloured order is left out of
 * it (it computes the assignments' parts a second time), so its creation refuses with a
 * message and nothing else here is reached. */
#include "kernels/coloured.h"

#include "core/status.h"

#include <stddef.h>

const char *const cloth__order_names[] = {"sequential", "coloured", NULL};

void cloth__coloured_start_threads(int threads) { (void)threads; }

cloth_status cloth__coloured_create(const cloth_mesh *m, const int *ids, int count,
                                    int stride, int with_pbd, cloth__coloured **out,
                                    cloth_error *err)
{
    (void)m;
    (void)ids;
    (void)count;
    (void)stride;
    (void)with_pbd;
    *out = NULL;
    return cloth__fail(err, CLOTH_EINVAL, "%s", "REFUSED");
}

void cloth__coloured_destroy(cloth__coloured *c) { (void)c; }
double *cloth__padded_alloc(int n) { (void)n; return NULL; }
void cloth__pad(const double *x, double *x4, int lo, int hi) { (void)x, (void)x4, (void)lo, (void)hi; }
void cloth__unpad(const double *x4, double *x, int lo, int hi) { (void)x, (void)x4, (void)lo, (void)hi; }
void cloth__coloured_xpbd(cloth__coloured *c, double *p, int lo, int hi)
{
    (void)c, (void)p, (void)lo, (void)hi;
}
void cloth__coloured_relax(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    (void)c, (void)x, (void)half_k, (void)lo, (void)hi;
}
int cloth__coloured_provot(cloth__coloured *c, double *x, double factor, double tol, int lo,
                           int hi)
{
    (void)c, (void)x, (void)factor, (void)tol, (void)lo, (void)hi;
    return 0;
}
void cloth__coloured_springs(const cloth__coloured *c, const double *x, const double *v,
                             double cd, double *f, int lo, int hi)
{
    (void)c, (void)x, (void)v, (void)cd, (void)f, (void)lo, (void)hi;
}
void cloth__coloured_copy_k(cloth__coloured *c, const cloth_mesh *m) { (void)c, (void)m; }

cloth_status cloth__coloured_tris_create(const cloth_mesh *m, int stride,
                                         cloth__coloured_tris **out, cloth_error *err)
{
    (void)m;
    (void)stride;
    *out = NULL;
    return cloth__fail(err, CLOTH_EINVAL, "%s", "REFUSED");
}

void cloth__coloured_tris_destroy(cloth__coloured_tris *c) { (void)c; }
void cloth__coloured_external_forces(cloth__force_env env, const cloth__coloured_tris *c,
                                     int threads, const double *x, const double *v,
                                     double t, double *f)
{
    (void)env, (void)c, (void)threads, (void)x, (void)v, (void)t, (void)f;
}
void cloth__coloured_forces(cloth__force_env env, const cloth__coloured_tris *tris,
                            const cloth__coloured *springs, int threads, const double *x,
                            const double *v, double t, double *x4, double *v4, double *f4,
                            const double *inv_mass, double *f)
{
    (void)env, (void)tris, (void)springs, (void)threads, (void)x, (void)v, (void)t;
    (void)x4, (void)v4, (void)f4, (void)inv_mass, (void)f;
}
""".replace('"REFUSED"', json.dumps(REFUSED))

LEFT_OUT = ("src/kernels/coloured_avx512.h",)

# the kernels' functions that set up the coloured loops (weights, compliances, gains: the
# parts' formulas again), emptied; reached only after cloth__coloured_create, which refuses
EMPTIED = {
    "src/kernels/pbd/pbd.c": {
        "colour_constraints": "(void)m;\n    (void)w;\n    (void)xpbd;\n"
                              "    return cloth__fail(err, CLOTH_EINVAL, \"pbd.%s\", REFUSED);",
        "prepare_coloured": "(void)sim;\n    (void)w;\n    (void)h;",
    },
    "src/kernels/verlet/verlet.c": {
        "colour_springs": "(void)m;\n    (void)w;\n"
                          "    return cloth__fail(err, CLOTH_EINVAL, \"verlet.%s\", REFUSED);",
    },
}


# Near-twins of the parts elsewhere in the library (issue 46): a student could call them
# instead of writing the part.  pbd's edge strain limit is XPBD's distance projection with
# zero compliance (emptied: a tree's pbd.strain_limit with strain_measure = edge then fails
# its step's limit check, never silently ok); the Verlet demo's relaxation moves a free end
# by both halves when its neighbour is pinned, Provot's rule (a tree's relaxation moves
# each free end by its own half only).
NEAR_TWINS = {
    "src/kernels/pbd/pbd_strain.c": {
        "cloth__pbd_project_strain_edges": "(void)sim;\n    (void)sd;\n    (void)w;",
        "cloth__pbd_project_strain_edges_range": "(void)sd;\n    (void)w;\n    (void)lo;\n"
                                                 "    (void)hi;",
    },
}
REPLACED = {
    "src/kernels/verlet/verlet.c": [(
        "        /* a pinned end does not move: the free end takes both halves */\n"
        "        double ca = free_b ? c : 2 * c, cb = free_a ? c : 2 * c;\n",
        "        /* a coursework tree (assignments/kit.py): each free end moves its own half,\n"
        "         * whether or not the other end is pinned (the reference's rule for a pinned\n"
        "         * end is verlet_provot's part) */\n"
        "        double ca = c, cb = c;\n")],
}


def function_span(text, fn):
    """(start, end) of the body of the top-level function fn in text, braces included
    (the tree's style: the opening brace alone on the line after the signature, the
    closing one alone at column 0), or None."""
    m = re.search(r"(?m)^[A-Za-z_][^;{}]*\b" + re.escape(fn) + r"\([^;{}]*\)\s*\n\{\n", text)
    if not m:
        return None
    close = text.find("\n}\n", m.end() - 1)
    return (m.end() - 2, close + 2) if close >= 0 else None


def top_level_bodies(text):
    """The bodies of the top-level functions of a C file (for the twin check)."""
    return [b for b in re.findall(r"(?ms)^[A-Za-z_][^;{}]*\)\s*\n\{\n(.*?)^\}\n", text)]


def empty_functions(text, rel):
    for fn, body in NEAR_TWINS.get(rel, {}).items():
        span = function_span(text, fn)
        if span is None:
            sys.exit(f"kit: {rel}: no function {fn} to empty (assignments/kit.py NEAR_TWINS)")
        text = (text[:span[0]] + "{\n    /* a near-twin of an assignment's part: not in a "
                "coursework tree (assignments/kit.py) */\n    " + body + "\n}" + text[span[1]:])
    for old, new in REPLACED.get(rel, ()):
        if text.count(old) != 1:
            sys.exit(f"kit: {rel}: the text to replace is not there once (assignments/kit.py "
                     f"REPLACED):\n{old}")
        text = text.replace(old, new)
    for fn, body in EMPTIED.get(rel, {}).items():
        span = function_span(text, fn)
        if span is None:
            sys.exit(f"kit: {rel}: no function {fn} to empty (assignments/kit.py EMPTIED)")
        refused = json.dumps(REFUSED) if "REFUSED" in body else ""
        body = body.replace("REFUSED", refused)
        text = (text[:span[0]] + "{\n    /* the coloured order is not in a coursework tree "
                "(assignments/kit.py) */\n    " + body + "\n}" + text[span[1]:])
    return text


def twins():
    """{where: text} of the reference's twins of the parts that a student tree must not
    hold: every function body of coloured.c and of the files left out, and the emptied
    functions' bodies."""
    found = {}
    for rel in ("src/kernels/coloured.c",) + LEFT_OUT:
        with open(os.path.join(ROOT, rel)) as fh:
            for k, b in enumerate(top_level_bodies(fh.read())):
                found[f"{rel} function {k}"] = b
    for rel, fns in list(EMPTIED.items()) + list(NEAR_TWINS.items()):
        with open(os.path.join(ROOT, rel)) as fh:
            text = fh.read()
        for fn in fns:
            span = function_span(text, fn)
            if span:
                found[f"{rel} {fn}"] = text[span[0] + 1:span[1] - 1]
    for rel, pairs in REPLACED.items():
        for k, (old, _) in enumerate(pairs):
            found[f"{rel} replaced text {k}"] = old
    return {k: v for k, v in found.items() if len(normalise(v)) >= 60}
