#!/bin/sh
# The committed figure data against the code (issue 45 item 8): re-runs a sample of the
# figures' runs, every figure or part whose runs take seconds, exactly as `make figures`
# runs them (plots/make_figures.sh itself, its runs, --set keys and copy_data, into a
# scratch folder with RENDER=0), and compares the data files with plots/data/ byte for
# byte.  A change of the code that moves a sampled figure's data fails here until the data
# are regenerated (plots/make_figures.sh build/cloth FIGURE[:PART], or make figures) and
# committed.  For every file that differs it names the file and its first differing row
# (line number, the committed row and the row now); a committed file that the run no
# longer writes, or a file the run writes that is not committed, fails too.
#   tests/figures/check_data.sh path/to/cloth [FIGURE[:PART,...]]...
# Without figures, the sample below.  plots/make_figures.sh --list lists the figures and
# their parts.
#
# The sample (about 70 s of one core on the 2-core machine, docs/figures.md): hanging
# (6 runs), energy_drift (both sweeps), convergence (43 runs), self_contact's stack,
# flat, spin and drape3 (45 runs), and work_precision's verlet part (verlet's relaxation
# against the rigid pendulum: 2 one-frame runs, the pendulum in awk, 34 verlet runs,
# ~8 s).  Left out for their cost alone, not for any non-determinism (every one of them
# came back byte for byte on a second run on 2026-12-06): self_contact's pile (26 s of
# CPU; its newton run alone ~20 s), stability (~900 bisection runs), strain_ablation (66
# runs, ~170 s), drape_cond, pcg_iters (64 x 64), the reduced ablation_grid (80 runs),
# avatar, garments and work_precision's other parts (ode, bw, tau, drape: a minute or more
# each).  make figures regenerates all of them.
#
# The data are those of the machine that made them: the explicit, verlet, pbd, bw and pd
# runs are plain C with -ffp-contract=off, but newton's solves go through OpenBLAS, which
# picks its kernels by CPU, so on another processor its rows may differ in the last
# digits (docs/figures.md, "What reproduces bit for bit").
set -eu
SAMPLE="hanging energy_drift convergence self_contact:stack,flat,spin,drape3 work_precision:verlet"
CLOTH=${1:-build/cloth}
[ $# -gt 0 ] && shift
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
# the run starts from a copy of the committed data: make_figures.sh removes a figure's (or
# a part's) files before it writes them again, so afterwards a committed file it no longer
# writes is missing from the copy, and every file of a figure not run is left as it was
figures=${*:-$SAMPLE}
cp -R plots/data "$tmp/data"
# shellcheck disable=SC2086 # the figures are words
DATA="$tmp/data" OUT="$tmp/figures" RENDER=0 plots/make_figures.sh "$CLOTH" $figures \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "figure data: plots/make_figures.sh failed" >&2; exit 1; }

# first_difference A B: "line N" and both rows, or the shorter file's end
first_difference() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        for (n = 1; ; n++) {
            ra = getline x < a; rb = getline y < b
            if (ra <= 0 && rb <= 0) exit
            if (ra <= 0) { printf "  line %d: plots/data ends here (%d lines); the run has\n    now:       %s\n", n, n - 1, y; exit }
            if (rb <= 0) { printf "  line %d: the run ends here (%d lines); plots/data has\n    committed: %s\n", n, n - 1, x; exit }
            if (x != y) { printf "  line %d:\n    committed: %s\n    now:       %s\n", n, x, y; exit }
        } }'
}

bad=0 files=0 seen=""
for f in "$tmp"/data/* plots/data/*; do
    name=${f##*/}
    case " $seen " in *" $name "*) continue ;; esac
    seen="$seen $name"
    files=$((files + 1))
    if [ ! -f "plots/data/$name" ]; then
        echo "figure data: plots/data/$name: written by the run, not committed" >&2
        bad=$((bad + 1))
    elif [ ! -f "$tmp/data/$name" ]; then
        echo "figure data: plots/data/$name: committed, but the run no longer writes it" >&2
        bad=$((bad + 1))
    elif ! cmp -s "plots/data/$name" "$tmp/data/$name"; then
        echo "figure data: plots/data/$name differs from this code's run:" >&2
        first_difference "plots/data/$name" "$tmp/data/$name" >&2
        bad=$((bad + 1))
    fi
done
# the runs, from make_figures.sh's closing table ("FIGURE[:PARTS] (data)  RUNS  WALLs")
runs=$(awk '/ \(data\) / { n += $(NF - 1) } END { print n + 0 }' "$tmp/log")
if [ "$bad" -gt 0 ]; then
    echo "figure data: $bad file(s) of plots/data differ from what this code writes ($figures)." \
        "If the change is meant to move them, regenerate: plots/make_figures.sh $CLOTH" \
        "FIGURE (make figures for all) and commit plots/data; docs/figures.md" >&2
    exit 1
fi
echo "figure data: $figures: $runs runs, every file of plots/data byte for byte as committed" \
    "($files files compared)"
