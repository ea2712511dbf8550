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
            verlet) sets="--set run.substeps=5 --set verlet.iterations=12" ;; # seed 000
            pbd) sets="--set run.substeps=5" ;;
            newton) sets="--set run.substeps=1 --set run.frames=120" ;;
        esac
        # shellcheck disable=SC2086
        run_case hanging "$k" experiments/hanging.ini --set run.kernel="$k" $sets
        cp "$OUT/hanging/$k/series.csv" "plots/data/hanging_$k.csv"
        runs=$((runs + 1))
    done
    render hanging "$runs" "$t0"
}

# 3. strain_ablation (verlet part): Provot's limit tau_c in {off, 20, 10, 5, 2, 1 %} on a
# corner-pinned cloth; a table of max stretch, Provot sweeps per step and wall time.
fig_strain_ablation() {
    t0=$(date +%s) runs=0
    has_kernel verlet || return 0
    mkdir -p "$OUT/strain_ablation"
    table=plots/data/strain_ablation_verlet.csv
    # the scene's pass budget (strain_passes under [verlet]), for the table and the figure
    budget=$(sed -n 's/^strain_passes *= *\([0-9]*\).*/\1/p' experiments/strain_ablation.ini)
    echo "label,tau,max_stretch,passes_per_step,budget,not_converged_steps,steps,wall_ms" \
        >"$table.part"
    for tau in off 0.20 0.10 0.05 0.02 0.01; do
        value=$tau
        [ "$tau" = off ] && value=0
        run_case strain_ablation "verlet_$tau" experiments/strain_ablation.ini \
            --set run.kernel=verlet --set verlet.strain_limit="$value"
        # one row from summary.csv, columns found by name; in mode provot every
        # iteration is a Provot sweep (no relaxation passes)
        awk -F, -v label="$tau" -v tau="$value" -v budget="$budget" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
            NR == 2 { steps = $c["substeps"] * $c["frames"]
                      printf "%s,%s,%.17g,%.6g,%s,%d,%d,%.1f\n", label, tau,
                          $c["max_stretch"], $c["total_iterations"] / steps, budget,
                          $c["not_converged"], steps, $c["wall_ms"] }' \
            "$OUT/strain_ablation/verlet_$tau/summary.csv" >>"$table.part"
        runs=$((runs + 1))
    done
    mv "$table.part" "$table"
    render strain_ablation "$runs" "$t0"
}

fig_hanging
fig_strain_ablation

printf '\n%-28s %5s %9s\n' "figure" "runs" "wall"
printf '%s' "$TABLE"
printf 'total: %ss\n' "$(($(date +%s) - START))"
