#!/bin/sh
# Work-precision diagrams (issue 49): references, sweeps and their errors.
#   wp.sh reference SCENE DIR [--set k=v]...   reference positions of SCENE at t_k = T/2
#                                               and T into DIR/ref_1.obj, DIR/ref_2.obj
#   wp.sh sweep SCENE REFDIR DIR [METHOD]...    every method's cost-knob sweep against the
#                                               reference: DIR/points.csv (+ wall_ms)
# Environment: CLOTH (build/cloth), WP_FRAMES (T in frames: the scene's run.frames),
# WP_SETS (--set options added to every run, e.g. the
# mesh size), WP_REPEAT (timed runs of each point, the least kept: 3), WP_TOL (1e-9: the
# reference agreement RMS, m), WP_MID_TOL (1e-6: newton midpoint's where it lags the
# wind), WP_VALUES (replaces every swept method's knob values: the tests' short sweeps),
# WP_METHODS (replaces the method table below: the report card's kernel).
#
# The positions at t_k come from final.obj (%.17g) of runs of T/2 and T (run.frames of the
# scene and half of it): no new output.  A reference is RK4 at 512 substeps a frame.  It
# is checked every time, at both times, and not written unless every check passes:
#  - RK4's own error at 512 substeps, estimated as |x_256 - x_512| / 15 (Richardson: a
#    fourth-order error halves 16-fold), is at most WP_TOL / 10 RMS;
#  - a second method, velocity Verlet, Richardson-extrapolated (extrapolate.awk) agrees
#    with it to WP_TOL RMS.  On the plain spring ODE (no air: world.air_density = 0, no
#    wind) it is symmetric, its global error an even series in h: 256, 512 and 1024
#    substeps, two steps (h^2, h^4 out).  With wind or drag its second kick takes the drag
#    at the half-step velocity, which makes it first order, a one-step method with a
#    smooth increment all the same, whose error is a series in every power of h: 256 ...
#    2048 substeps, three steps (h, h^2, h^3 out);
#  - a third, newton's implicit midpoint (another kernel, another force code) at 64, 128
#    and 256 substeps, extrapolated the same way (newton.last_step = full: with the
#    default, Armijo's test cuts a converged last Newton step at E's round-off and leaves
#    an error of first order in h at ~1e-9 m, docs/figures.md, work-precision), agrees to
#    WP_TOL on the plain ODE.  With wind newton takes the wind's force at the step's start
#    (first order); three levels then leave an h^3 term, 1e-8 m (wind) to 6e-7 m (flag,
#    the stiffer: its own 4th level at 32 substeps has steps not converged), so it must agree
#    to WP_MID_TOL: a check of the force model across kernels.
set -eu
CLOTH=${CLOTH:-build/cloth}
HERE=$(cd "$(dirname "$0")" && pwd)
DIST="$HERE/obj_distance.awk"
WP_SETS=${WP_SETS:-}
WP_REPEAT=${WP_REPEAT:-3}
WP_TOL=${WP_TOL:-1e-9}
WP_MID_TOL=${WP_MID_TOL:-1e-6}
export OPENBLAS_NUM_THREADS=1
# newton as a plain ODE integrator: no barrier, no strain limit, no condition numbers
NEWTON='--set run.kernel=newton --set newton.barrier=none --set newton.strain_limit=0 --set newton.cond=off --set newton.max_iters=50'
# the reference's second methods: velocity Verlet, and newton's implicit midpoint with its
# converged last Newton step taken whole (newton.last_step = full, see above)
VV='--set run.kernel=explicit --set explicit.scheme=velocity-verlet'
MID="$NEWTON --set newton.integrator=midpoint --set newton.tol=1e-7 --set newton.last_step=full"
MID_PLAIN='64 128 256' MID_LAGGED='64 128 256'

# ini_value SCENE SECTION KEY: a key of the scene file (empty when absent)
ini_value() {
    awk -v s="[$2]" -v k="$3" '/^\[/ { in_s = ($1 == s) }
        in_s && $1 == k && $2 == "=" { print $3; exit }' "$1"
}

# one DIR SCENE FRAMES [--set k=v]...: one run of FRAMES frames into DIR; prints its
# status (ok, diverged, ...).  Bad input (exit 2) stops wp.sh.
one() {
    od=$1 osc=$2 ofr=$3
    shift 3
    orc=0
    # shellcheck disable=SC2086
    "$CLOTH" run "$osc" $WP_SETS "$@" --set run.frames="$ofr" --out "$od" >"$od.log" 2>&1 || orc=$?
    if [ "$orc" -ge 2 ]; then cat "$od.log" >&2; exit 2; fi
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["status"] }' \
        "$od/summary.csv"
}

# field DIR NAME: a column of DIR/summary.csv
field() {
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c[n] }' \
        "$1/summary.csv"
}

# agree A B TOL WHAT: 0 when RMS(A, B) <= TOL; prints the distances
agree() {
    ag=$(awk -f "$DIST" "$1" "$2")
    printf '  %s: RMS %s m, max %s m (at most %s)\n' "$4" "$(echo "$ag" | cut -d' ' -f1)" \
        "$(echo "$ag" | cut -d' ' -f2)" "$3"
    echo "$ag" | awk -v tol="$3" '{ exit !($1 <= tol) }'
}

# second NAME DIR K SCENE FRAMES P S LEVELS -- SETS...: the runs DIR/NAME-L-K of SETS at
# each substep count L of LEVELS (h, h/2, h/4, ...) and DIR/NAME-K.obj, their Richardson
# extrapolation for a global error c_P h^P + c_(P+S) h^(P+S) + ... (extrapolate.awk)
second() {
    sn=$1 sd=$2 sk=$3 ssc=$4 sfr=$5 sp=$6 ss=$7 sl=$8
    shift 9
    files=""
    for s in $sl; do
        st=$(one "$sd/$sn-$s-$sk" "$ssc" "$sfr" "$@" --set run.substeps=$s)
        [ "$st" = ok ] || { echo "reference: $sn at $s substeps: $st" >&2; exit 1; }
        files="$files $sd/$sn-$s-$sk/final.obj"
    done
    # shellcheck disable=SC2086
    awk -v p="$sp" -v step="$ss" -f "$HERE/extrapolate.awk" $files >"$sd/$sn-$sk.obj"
}

reference() {
    scene=$1 dir=$2
    shift 2
    WP_SETS="$WP_SETS $*"
    T=${WP_FRAMES:-$(ini_value "$scene" run frames)}
    half=$((T / 2))
    mkdir -p "$dir/runs"
    rm -f "$dir"/ref_*.obj
    wind=$(ini_value "$scene" world wind) air=$(ini_value "$scene" world air_density)
    # the plain spring ODE (no air: air_density = 0, no wind): the symmetric methods keep
    # an even error series there
    plain=0
    [ "$air" = 0 ] && { [ -z "$wind" ] || [ "$wind" = "0 0 0" ]; } && plain=1
    bad=0
    for k in 1 2; do
        fr=$half
        [ $k = 2 ] && fr=$T
        for s in 256 512; do
            st=$(one "$dir/runs/rk4-$s-$k" "$scene" "$fr" --set run.kernel=explicit \
                --set explicit.scheme=rk4 --set run.substeps=$s)
            [ "$st" = ok ] || { echo "reference: rk4 at $s substeps: $st" >&2; exit 1; }
        done
        r=$dir/runs
        tight=$(awk -v t="$WP_TOL" 'BEGIN { print t / 10 * 15 }')
        agree "$r/rk4-256-$k/final.obj" "$r/rk4-512-$k/final.obj" "$tight" \
            "t_$k: rk4 256 vs 512 substeps (15 x WP_TOL/10: RK4 512's error estimate at most WP_TOL/10)" || bad=1
        if [ $plain = 1 ]; then # even series (symmetric methods), order 2
            second vv "$r" $k "$scene" "$fr" 2 2 "256 512 1024" -- $VV
            second mid "$r" $k "$scene" "$fr" 2 2 "$MID_PLAIN" -- $MID
            what="even series" midtol=$WP_TOL ml=$MID_PLAIN vl="256 512 1024"
        else # first order (a lagged velocity): every power of h
            second vv "$r" $k "$scene" "$fr" 1 1 "256 512 1024 2048" -- $VV
            second mid "$r" $k "$scene" "$fr" 1 1 "$MID_LAGGED" -- $MID
            what="every power of h" midtol=$WP_MID_TOL ml=$MID_LAGGED vl="256 512 1024 2048"
        fi
        agree "$r/rk4-512-$k/final.obj" "$r/vv-$k.obj" "$WP_TOL" \
            "t_$k: rk4 512 vs extrapolated velocity-verlet $(echo $vl | tr ' ' /), $what" || bad=1
        agree "$r/rk4-512-$k/final.obj" "$r/mid-$k.obj" "$midtol" \
            "t_$k: rk4 512 vs extrapolated newton midpoint $(echo $ml | tr ' ' /), $what" || bad=1
    done
    if [ $bad = 1 ]; then
        echo "reference: a check failed; no reference written" >&2
        exit 1
    fi
    for k in 1 2; do
        grep '^v ' "$dir/runs/rk4-512-$k/final.obj" >"$dir/ref_$k.obj"
    done
    echo "reference: $dir/ref_1.obj (t = $half frames), $dir/ref_2.obj (t = $T frames)"
}

# The methods and their cost knobs: NAME|KNOB|VALUES|SETS (VALUE replaces V in SETS).
# Work units: explicit force evaluations (symplectic 1 a step, velocity-verlet 2, rk4 4),
# newton's Newton iterations (one factorisation each), xpbd's constraint passes, pd's
# local/global iterations (one prefactored solve each).
METHODS='symplectic|substeps|1 2 4 8 16 32 64 128 256|--set run.kernel=explicit --set explicit.scheme=symplectic --set run.substeps=V
velocity-verlet|substeps|1 2 4 8 16 32 64 128 256|--set run.kernel=explicit --set explicit.scheme=velocity-verlet --set run.substeps=V
rk4|substeps|1 2 4 8 16 32 64 128 256|--set run.kernel=explicit --set explicit.scheme=rk4 --set run.substeps=V
newton-euler|substeps|1 2 4 8 16 32|NEWTON --set newton.integrator=euler --set newton.tol=1e-7 --set run.substeps=V
newton-bdf2|substeps|1 2 4 8 16 32|NEWTON --set newton.integrator=bdf2 --set newton.tol=1e-7 --set run.substeps=V
newton-midpoint|substeps|1 2 4 8 16 32|NEWTON --set newton.integrator=midpoint --set newton.tol=1e-7 --set run.substeps=V
newton-euler-tol|tol|1e-1 1e-2 1e-3 1e-4 1e-6|NEWTON --set newton.integrator=euler --set newton.tol=V --set run.substeps=1
xpbd|iterations|1 2 5 10 20 50 100 200 500 1000|--set run.kernel=pbd --set pbd.variant=xpbd --set pbd.strain_limit=0 --set run.substeps=1 --set pbd.iterations=V
xpbd-substeps|substeps|1 2 4 8 16 32 64|--set run.kernel=pbd --set pbd.variant=xpbd --set pbd.strain_limit=0 --set pbd.iterations=1 --set run.substeps=V
pd|iterations|1 2 5 10 20 50 100 200 500 1000|--set run.kernel=pd --set pd.strain_limit=0 --set run.substeps=1 --set pd.iterations=V'

# work METHOD DIR: the method's work units over the run
work() {
    steps=$(($(field "$2" substeps) * $(field "$2" frames)))
    case $1 in
    symplectic) echo "$steps" ;;
    velocity-verlet) echo $((2 * steps)) ;;
    rk4) echo $((4 * steps)) ;;
    newton-*) field "$2" total_iterations ;;
    xpbd* | pd) field "$2" total_iterations ;;
    *) # another kernel: its iterations, or its steps when it counts none
        it=$(field "$2" total_iterations)
        [ "${it:-0}" -gt 0 ] 2>/dev/null && echo "$it" || echo "$steps" ;;
    esac
}

# dist REF.obj DIR: "rms max" of DIR/final.obj from REF, or "," when there is none
dist() {
    if [ -f "$2/final.obj" ]; then awk -f "$DIST" "$1" "$2/final.obj" | awk '{ print $1 "," $2 }'
    else echo ","; fi
}

sweep() {
    scene=$1 ref=$2 dir=$3
    shift 3
    only=" $* "
    T=${WP_FRAMES:-$(ini_value "$scene" run frames)}
    half=$((T / 2))
    mkdir -p "$dir/runs"
    ie="$dir/runs/ie-1"  # implicit Euler at the frame step, tight: pd's limit
    st=$(one "$ie" "$scene" "$T" $NEWTON --set newton.integrator=euler --set newton.tol=1e-7 \
        --set run.substeps=1)
    [ "$st" = ok ] || { echo "sweep: implicit Euler at h = dt: $st" >&2; exit 1; }
    grep '^v ' "$ie/final.obj" >"$dir/ie_2.obj"
    out=$dir/points.csv
    echo "method,knob,value,substeps,h,status,rms_T,max_T,max_tk,rms_ie,max_ie,work,wall_ms" >"$out.part"
    echo "${WP_METHODS:-$METHODS}" | while IFS='|' read -r name knob values sets; do
        [ "$only" = "  " ] || case $only in *" $name "*) ;; *) continue ;; esac
        sets=$(echo "$sets" | sed "s|NEWTON|$NEWTON|")
        for v in ${WP_VALUES:-$values}; do
            # shellcheck disable=SC2086
            s=$(echo "$sets" | sed "s|=V\$|=$v|; s|=V |=$v |g")
            d="$dir/runs/$name-$v"
            # shellcheck disable=SC2086
            one "$d-half" "$scene" "$half" $s >/dev/null
            best=""
            i=0
            while [ $i -lt "$WP_REPEAT" ]; do
                # shellcheck disable=SC2086
                status=$(one "$d" "$scene" "$T" $s)
                w=$(field "$d" wall_ms)
                best=$(awk -v a="$best" -v b="$w" 'BEGIN { print (a == "" || b < a) ? b : a }')
                i=$((i + 1))
            done
            sub=$(field "$d" substeps)
            h=$(awk -v dt="$(field "$d" dt)" -v s="$sub" 'BEGIN { printf "%.10g", dt / s }')
            e2=$(dist "$ref/ref_2.obj" "$d") e1=$(dist "$ref/ref_1.obj" "$d-half")
            tk=$(echo "$e1,$e2" | awk -F, '$2 == "" || $4 == "" { print ""; next }
                { print ($2 > $4 ? $2 : $4) }')
            eie=$(dist "$dir/ie_2.obj" "$d")
            printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$name" "$knob" "$v" "$sub" "$h" \
                "$status" "$e2" "$tk" "$eie" "$(work "$name" "$d")" "$best" >>"$out.part"
            printf '  %s %s = %s: %s, error %s m, %s ms\n' "$name" "$knob" "$v" "$status" \
                "$(echo "$e2" | cut -d, -f2)" "$best" >&2
        done
    done
    mv "$out.part" "$out"
}

case ${1:-} in
reference) shift; reference "$@" ;;
sweep) shift; sweep "$@" ;;
*) echo "usage: wp.sh reference SCENE DIR [--set k=v]... | sweep SCENE REFDIR DIR [METHOD]..." >&2
   exit 2 ;;
esac
