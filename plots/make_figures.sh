#!/bin/sh
# Runs every experiment and renders every figure into plots/ (PNG and SVG).
# Usage: plots/make_figures.sh path/to/cloth     (make figures calls it)
# Each figure is a function below: it runs its scenes into build/figures/<figure>/,
# copies the data behind the figure to plots/data/, and calls its gnuplot script.
set -eu
CLOTH=${1:-build/cloth}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
cd "$ROOT"
OUT=build/figures
mkdir -p "$OUT" plots/data
export OPENBLAS_NUM_THREADS=1
START=$(date +%s)
TABLE=""

# run_case FIGURE LABEL SCENE [--set k=v]...: one run into build/figures/FIGURE/LABEL
run_case() {
    fig=$1 label=$2 scene=$3
    shift 3
    dir="$OUT/$fig/$label"
    printf '[%4ss] %s: %s ...\n' "$(($(date +%s) - START))" "$fig" "$label"
    rc=0
    "$CLOTH" run "$scene" "$@" --out "$dir" >"$dir.log" 2>&1 || rc=$?
    mkdir -p "$dir"
    # a diverged run (exit 1) is a result; bad input (exit 2) is a broken experiment
    if [ "$rc" -ge 2 ]; then cat "$dir.log"; exit 1; fi
    tail -n 1 "$dir.log"
}

# has_kernel NAME: true when this build has the kernel
has_kernel() { "$CLOTH" list | grep -q "^  $1 "; }

# render FIGURE RUNS: gnuplot plots/FIGURE.gp, then a line for the closing table
render() {
    fig=$1 runs=$2 t0=$3
    gnuplot -e "outdir='plots'; datadir='plots/data'" "plots/$1.gp"
    TABLE="$TABLE$(printf '%-28s %5s %8ss' "plots/$fig.png" "$runs" "$(($(date +%s) - t0))")
"
}

# 1. hanging: seed 000's scene with every kernel; energy drift and max stretch vs time
fig_hanging() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/hanging"
    rm -f plots/data/hanging_*.csv
    for k in explicit verlet pbd newton; do
        has_kernel "$k" || continue
        case $k in
            explicit) sets="--set run.substeps=20" ;;
            verlet) sets="--set run.substeps=5" ;;
            pbd) sets="--set run.substeps=5" ;;
            newton) # 2070 unknowns: exact eigenvalues cost ~1 s an iteration, dpocon 2 ms
                sets="--set run.substeps=1 --set run.frames=120 --set newton.cond=estimate" ;;
        esac
        # shellcheck disable=SC2086
        run_case hanging "$k" experiments/hanging.ini --set run.kernel="$k" $sets
        cp "$OUT/hanging/$k/series.csv" "plots/data/hanging_$k.csv"
        runs=$((runs + 1))
    done
    render hanging "$runs" "$t0"
}

# 2. drape_cond: seed 001's drape test, the five barrier/stiffness curves of its sweep
fig_drape_cond() {
    has_kernel newton || return 0
    t0=$(date +%s)
    dir="$OUT/drape_cond"
    printf '[%4ss] drape_cond: sweep of experiments/drape.ini ...\n' "$(($(date +%s) - START))"
    rm -rf "$dir"
    "$CLOTH" sweep experiments/drape.ini -j 2 --out "$dir" >"$dir.log" 2>&1 || true
    tail -n 1 "$dir.log"
    rm -f plots/data/drape_*.csv
    cp "$dir/sweep.csv" plots/data/drape_sweep.csv
    runs=0
    for l in log-fixed log-ipc cubic-fixed cubic-dynamic-step cubic-dynamic-iteration; do
        [ -f "$dir/$l/series.csv" ] || { cat "$dir.log"; exit 1; }
        cp "$dir/$l/series.csv" "plots/data/drape_$l.csv"
        runs=$((runs + 1))
    done
    render drape_cond "$runs" "$t0"
}

fig_hanging
fig_drape_cond

printf '\n%-28s %5s %9s\n' "figure" "runs" "wall"
printf '%s' "$TABLE"
printf 'total: %ss\n' "$(($(date +%s) - START))"
