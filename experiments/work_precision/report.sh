#!/bin/sh
# The report card of one kernel (issue 49; docs/figures.md, "The report card"):
#   experiments/work_precision/report.sh CLOTH KERNEL [--set k=v]...   (make report KERNEL=)
# writes build/report/KERNEL/report.md and its figure report.png:
#  - the work-precision suite (experiments/work_precision/: swing, wind, flag and the
#    drape onto the sphere) with the kernel over its substeps (1 ... 64 a frame) and, when
#    its table entry's iteration key is "iterations", over its iterations (1 ... 100, one
#    step a frame), every run with the --set options given; errors against the committed
#    references (plots/data/work_precision_ref_*.obj; the drape's, newton's finest step,
#    plots/data/work_precision_drape_ref_*.obj), its points beside the committed curves;
#  - invariants: intersections and tunnelling with run.self_collision = on
#    (experiments/self_contact_stack.ini), strain within tau = 10 % when the kernel has a
#    strain_limit key (experiments/strain_ablation.ini), energy drift on the conservative
#    scene (swing), steps not converged over every run of the report;
#  - its CPU time against each built-in method's at equal error (when
#    build/figures/work_precision/ holds the timed sweep of FIGURES=work_precision: the
#    CLOTH's build folder's, else this tree's, or WP_BASE).
# The four scenes run two at a time (WP_JOBS); WP_REPEAT timed runs a point (3).
# A reduced report (tests/work_precision/report_check.sh): WP_REPORT_SUBSTEPS and
# WP_REPORT_ITERATIONS replace the swept values, WP_REPORT_OUT the output folder.
# Nothing in it names a kernel: a kernel added as docs/architecture.md says gets a report.
set -eu
CLOTH=${1:?usage: report.sh CLOTH KERNEL [--set k=v]...}
K=${2:?usage: report.sh CLOTH KERNEL [--set k=v]...}
shift 2
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
HERE=experiments/work_precision
SETS="$*"
OUT=${WP_REPORT_OUT:-$(dirname "$CLOTH")/report/$K}
SUBSTEPS=${WP_REPORT_SUBSTEPS:-1 2 4 8 16 32 64}
ITERATIONS=${WP_REPORT_ITERATIONS:-1 2 5 10 20 50 100}
JOBS=${WP_JOBS:-2}
SCENES="swing wind flag drape"
export CLOTH WP_REPEAT="${WP_REPEAT:-3}" OPENBLAS_NUM_THREADS=1
fail() { echo "report: $*" >&2; exit 1; }

row=$("$CLOTH" list --kernels | awk -F, -v k="$K" 'NR > 1 && $1 == k')
[ -n "$row" ] || fail "no kernel '$K' in this build (cloth list --kernels)"
iter_key=$(echo "$row" | cut -d, -f4)
sub=$(echo "$row" | awk -F, '{ print $NF }')
rm -rf "$OUT"
mkdir -p "$OUT"

# the kernel's method table for wp.sh sweep (user sets first: the sweep's knob wins)
methods="$K|substeps|$SUBSTEPS|--set run.kernel=$K $SETS --set run.substeps=V"
[ "$iter_key" = iterations ] && methods="$methods
$K-iterations|iterations|$ITERATIONS|--set run.kernel=$K $SETS --set run.substeps=1 --set $K.iterations=V"
nv=$(echo "$methods" | awk -F'|' '{ n += split($3, a, " ") } END { print n }')

# a scene's committed reference at t_K, and the folder of its timed sweep under a
# FIGURES=work_precision build (the drape is a part of its own there, make_figures.sh's
# work_precision_own)
ref_file() { [ "$1" = drape ] && echo "plots/data/work_precision_drape_ref_$2.obj" ||
    echo "plots/data/work_precision_ref_$1_$2.obj"; }
base_dir() { [ "$1" = drape ] && echo "$base/drape-drape" || echo "$base/$1"; }

# one scene's sweep; its log and points in OUT/SCENE
scene_sweep() {
    s=$1
    mkdir -p "$OUT/$s/ref"
    for k in 1 2; do
        ref=$(ref_file "$s" "$k")
        [ -f "$ref" ] || { echo "no committed reference $ref" >"$OUT/$s.failed"; return; }
        cp "$ref" "$OUT/$s/ref/ref_$k.obj"
    done
    WP_METHODS=$methods "$HERE/wp.sh" sweep "$HERE/$s.ini" "$OUT/$s/ref" "$OUT/$s" \
        >"$OUT/$s.log" 2>&1 || cp "$OUT/$s.log" "$OUT/$s.failed"
}

# progress: the run folders with a summary.csv (a point has two: T/2 and T; its timed
# repeats reuse the folder of T) against all of them
total=$((4 * (1 + 2 * nv)))
progress() {
    n=$(find "$OUT" -name summary.csv 2>/dev/null | wc -l)
    printf '\r[report %s] %d/%d runs of the suite' "$K" "$n" "$total"
}
pids=""
for s in $SCENES; do
    while [ "$(echo $pids | wc -w)" -ge "$JOBS" ]; do
        left=""
        for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
        pids=$left
        progress
        sleep 1
    done
    scene_sweep "$s" &
    pids="$pids $!"
done
while [ -n "$(for p in $pids; do kill -0 "$p" 2>/dev/null && echo x; done)" ]; do
    progress; sleep 1
done
wait
progress
echo
for s in $SCENES; do
    [ ! -f "$OUT/$s.failed" ] || { cat "$OUT/$s.failed" >&2; fail "the $s sweep failed"; }
done

# invariants
run_inv() { # NAME SCENE [--set]...: one run into OUT/inv/NAME; its summary's fields
    name=$1 sc=$2
    shift 2
    mkdir -p "$OUT/inv"
    # shellcheck disable=SC2086
    "$CLOTH" run "$sc" --set run.kernel="$K" --set run.substeps="$sub" $SETS "$@" \
        --out "$OUT/inv/$name" >"$OUT/inv/$name.log" 2>&1 || true
}
sfield() { # DIR NAME: a column of DIR/summary.csv, "-" without one
    [ -f "$1/summary.csv" ] || { echo "-"; return; }
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                       NR == 2 { print $c[n] }' "$1/summary.csv"
}
echo "[report $K] invariants: self-contact, strain limit, energy drift ..."
run_inv contact experiments/self_contact_stack.ini --set run.self_collision=on
inter=$(sfield "$OUT/inv/contact" max_intersections) tun=$(sfield "$OUT/inv/contact" max_tunnelled)
cst=$(sfield "$OUT/inv/contact" status)
[ -f "$OUT/inv/contact/summary.csv" ] || cst="no result: $(tail -n 1 "$OUT/inv/contact.log")"
if "$CLOTH" list | grep -q "^  $K\.strain_limit "; then
    run_inv strain experiments/strain_ablation.ini --set "$K.strain_limit=0.10"
    smax=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { if ($c["stretch_max"] > a) a = $c["stretch_max"]; if ($c["stretch_sigma_max"] > b) b = $c["stretch_sigma_max"] }
        END { printf "%.4g,%.4g", a, b }' "$OUT/inv/strain/series.csv" 2>/dev/null || echo "-,-")
    sst=$(sfield "$OUT/inv/strain" status)
    # within tau (to the kernels' strain_tol, 1e-6) on the springs or on the triangles
    verdict=$(echo "$smax" | awk -F, -v st="$sst" '{
        if ($1 <= 0.100001) print "within tau on springs"
        else if ($2 <= 0.100001) print "within tau on triangles"
        else print "**above tau on both measures** (status " st ")" }')
    strain_row="| strain with $K.strain_limit = 0.10 (strain_ablation.ini, 1.5 s) |\
 springs $(echo "$smax" | cut -d, -f1), triangles $(echo "$smax" | cut -d, -f2) (status $sst) |\
 $verdict |"
else
    strain_row="| strain limit | the kernel has no $K.strain_limit key | not applicable |"
fi
run_inv drift "$HERE/swing.ini"
drift=$(sfield "$OUT/inv/drift" max_abs_drift)
notconv=$(find "$OUT" -name summary.csv -exec awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["not_converged"] }' {} \; |
    awk '{ s += $1 } END { print s + 0 }')

# cost at equal error against every built-in method (timed sweep in build/figures)
# (that of this CLOTH's build folder, else this tree's build/, else WP_BASE)
base=${WP_BASE:-$(dirname "$CLOTH")/figures/work_precision}
[ -d "$base" ] || base=$ROOT/build/figures/work_precision
{
    echo "# Report card: $K"
    echo
    echo "\`make report KERNEL=$K${SETS:+ SETS=\"$SETS\"}\` on $(date -u +%Y-%m-%d), $("$CLOTH" list --kernels >/dev/null && git rev-parse --short HEAD 2>/dev/null || echo '?')."
    echo "Scenes: experiments/work_precision/ (8 x 8 cloth, T = 1 s); errors against the committed RK4"
    echo "references (plots/data/work_precision_ref_*.obj; the drape onto the sphere: newton's finest"
    echo "step, plots/data/work_precision_drape_ref_*.obj); docs/figures.md, work-precision, says how"
    echo "they are made and checked.  Figure: report.png (the kernel's points, black, beside the"
    echo "committed curves)."
    echo
    echo "## Invariants"
    echo
    echo "| invariant | measured | verdict |"
    echo "|---|---|---|"
    echo "| intersections, tunnelling with run.self_collision = on (self_contact_stack.ini, 1 s) | max intersections $inter, max tunnelled $tun (status $cst) | $( [ "$inter" = 0 ] && [ "$tun" = 0 ] && echo "0 in every frame" || echo "**not 0, or no result**") |"
    echo "$strain_row"
    echo "| energy drift on the conservative scene (swing, $sub substeps a frame) | max abs drift $drift | (the undamped ODE conserves it: explicit symplectic and midpoint stay near 0, implicit Euler loses energy) |"
    echo "| steps not converged, all runs of this report | $notconv | $( [ "$notconv" = 0 ] && echo ok || echo "**reported**") |"
    echo
    for s in $SCENES; do
        echo "## $s"
        echo
        echo "| run | status | h (s) | max error at T (m) | RMS at T (m) | max over t_k (m) | work | CPU ms (least of $WP_REPEAT) |"
        echo "|---|---|---|---|---|---|---|---|"
        awk -F, 'NR > 1 { printf "| %s %s = %s | %s | %s | %s | %s | %s | %s | %.3g |\n", $1, $2, $3, $6, $5, $8, $7, $9, $12, $13 }' "$OUT/$s/points.csv"
        echo
        if [ "$s" = drape ]; then
            echo "Contact is not smooth: the reference is newton's finest step (BDF2, cubic barrier, fixed kappa), checked by its own self-convergence, and every kernel meets the sphere by its own contact model, so an error that stops falling may be the gap between the two models, not the integrator (8.8 mm for the contact stage's projection; docs/figures.md, work-precision (d))."
            echo
        fi
        if [ -f "$(base_dir "$s")/points.csv" ]; then
            echo "CPU time of each built-in method at the kernel's error (log-log interpolation along its curve; ratio = $K / method; - = the error is outside the method's curve):"
            echo
            awk -F, -v me="$K" -f "$HERE/equal_error.awk" "$(base_dir "$s")/points.csv" "$OUT/$s/points.csv"
        else
            echo "No timed sweep of the built-in methods in $(base_dir "$s") (FIGURES=work_precision make figures makes it): no cost comparison."
        fi
        echo
    done
} >"$OUT/report.md"
gnuplot -e "datadir='plots/data'; rdir='$OUT'; kname='$K'" "$HERE/report.gp" 2>"$OUT/gnuplot.log" ||
    { cat "$OUT/gnuplot.log"; fail "the figure failed"; }
echo "[report $K] $OUT/report.md, $OUT/report.png"
