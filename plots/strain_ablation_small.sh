#!/bin/sh
# The reduced strain_ablation measurement (docs/figures.md, issue 33): every family's strain
# limit, on both measures where it has them, at tau in {20, 10, 5, 2, 1} % on the scene of
# the strain_ablation figure (experiments/strain_ablation.ini: 16 x 16 hung by two corners,
# 10 substeps) for FRAMES frames (default 30, 0.5 s) instead of 90.  Prints one Markdown
# table row a run: the run's largest stretch on both measures (series.csv's stretch_max,
# the springs' l/l0 - 1, and stretch_sigma_max, the triangles' sigma1 - 1), the kernel's
# work per step (sweeps, passes or Newton iterations), its unconverged steps and its
# kernel wall time.  Runs go to build/strain_small/.
# Usage: plots/strain_ablation_small.sh [path/to/cloth] [FRAMES]
set -eu
CLOTH=${1:-build/cloth}
FRAMES=${2:-30}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
cd "$ROOT"
OUT=build/strain_small
mkdir -p "$OUT"
export OPENBLAS_NUM_THREADS=1
scene=experiments/strain_ablation.ini

# row LABEL TAU DIR: the table row of one run (the largest of each measure over its frames)
row() {
    awk -F, -v label="$1" -v tau="$2" '
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        FILENAME ~ /series/ { e = fmax(e, $c["stretch_max"]); s = fmax(s, $c["stretch_sigma_max"]) }
        FILENAME ~ /summary/ { steps = $c["substeps"] * $c["frames"]
            printf "| %s | %g %% | %.5f | %.5f | %.1f | %d / %d | %.0f |\n", label, 100 * tau, e, s,
                $c["total_iterations"] / steps, $c["not_converged"], steps, $c["wall_ms"] }
        function fmax(a, b) { return a == "" || b > a ? b : a }' "$3/series.csv" "$3/summary.csv"
}

# run LABEL TAU [--set k=v]...
run() {
    label=$1 tau=$2
    shift 2
    dir="$OUT/$(echo "$label" | tr ' ,=' '___')_$tau"
    rc=0
    "$CLOTH" run "$scene" --set run.frames="$FRAMES" "$@" --out "$dir" >"$dir.log" 2>&1 || rc=$?
    if [ "$rc" -ge 2 ]; then cat "$dir.log"; exit 1; fi
    row "$label" "$tau" "$dir"
}

echo "| kernel, limit | tau | max stretch_max (edges) | max stretch_sigma_max (triangles) | work per step | not-converged steps | wall ms |"
echo "|---|---|---|---|---|---|---|"
run "none (verlet, provot)" 0 --set verlet.strain_limit=0
for tau in 0.20 0.10 0.05 0.02 0.01; do
    run "explicit, Provot edge" "$tau" --set run.kernel=explicit \
        --set explicit.strain_limit="$tau" --set explicit.strain_passes=200
done
for m in edge triangle; do
    for tau in 0.20 0.10 0.05 0.02 0.01; do
        run "verlet, $m" "$tau" --set verlet.strain_limit="$tau" --set verlet.strain_measure="$m"
    done
done
for m in edge triangle; do
    for tau in 0.20 0.10 0.05 0.02 0.01; do
        run "pbd xpbd 50 passes, $m" "$tau" --set run.kernel=pbd --set pbd.iterations=50 \
            --set pbd.strain_limit="$tau" --set pbd.strain_measure="$m"
    done
done
if [ "${NEWTON:-1}" = 1 ]; then
    for m in edge triangle; do
        for tau in 0.20 0.10 0.05 0.02 0.01; do
            run "newton cubic barrier, $m" "$tau" --set run.kernel=newton --set run.substeps=1 \
                --set newton.barrier=cubic --set newton.strain_band=0.5 \
                --set newton.strain_limit="$tau" --set newton.strain_measure="$m"
        done
    done
fi
