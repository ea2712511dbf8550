#!/bin/sh
# Work-precision diagrams (issue 49): references, sweeps and their errors.
#   wp.sh reference SCENE DIR [--set k=v]...   reference positions of SCENE at t_k = T/2
#                                               and T into DIR/ref_1.obj, DIR/ref_2.obj
#   wp.sh sweep SCENE REFDIR DIR [METHOD]...    every method's cost-knob sweep against the
#                                               reference: DIR/points.csv (+ wall_ms)
# Environment: CLOTH (build/cloth), WP_FRAMES (T in frames: the scene's run.frames),
# WP_SETS (--set options added to every run, e.g. the
# mesh size), WP_REPEAT (timed runs of each point, the least kept: 3), WP_TOL (1e-9: the
# reference agreement RMS, m), WP_MID_TOL (1e-6: newton midpoint's), WP_VALUES (replaces
# every swept method's knob values: the tests' short sweeps), WP_METHODS (replaces the
# method table below: the report card's kernel).
#
# The positions at t_k come from final.obj (%.17g) of runs of T/2 and T (run.frames of the
# scene and half of it): no new output.  A reference is RK4 at 512 substeps a frame.  It
# is checked every time, at both times, and not written unless every check passes:
#  - RK4's own error at 512 substeps, estimated as |x_256 - x_512| / 15 (Richardson: a
#    fourth-order error halves 16-fold), is at most WP_TOL / 10 RMS;
#  - on the plain spring ODE (no air: world.air_density = 0, no wind), velocity Verlet at
#    256, 512 and 1024 substeps, Richardson-extrapolated twice (a symmetric method: its
#    global error is an even series in h), agrees with it to WP_TOL RMS (a second method);
#  - there too, newton's implicit midpoint (another kernel, another force code) at 32, 64
#    and 128 substeps, extrapolated the same way, agrees to WP_MID_TOL (1e-6) RMS: newton's
#    midpoint keeps an error of first order in h at the 1e-9 m level (docs/figures.md,
#    work-precision), so it cannot meet WP_TOL; it checks the force model across kernels.
# With wind or drag both second-order methods lag a velocity (newton takes the wind's
# force at the step's start, velocity Verlet the drag at the half-step velocity): they
# are first order there, and only the RK4 check applies (docs/figures.md says so).
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

# combine OUT A.obj B.obj C: OUT's vertices = (C * B - A) / (C - 1) (one Richardson step)
combine() {
    awk -v c="$4" 'FNR == 1 { f++ } $1 == "v" { n[f]++; i = n[f]
        if (f == 1) { a[i] = $2; b[i] = $3; d[i] = $4 }
        else printf "v %.17g %.17g %.17g\n", (c * $2 - a[i]) / (c - 1),
                    (c * $3 - b[i]) / (c - 1), (c * $4 - d[i]) / (c - 1) }' "$2" "$3" >"$1"
}

# agree A B TOL WHAT: 0 when RMS(A, B) <= TOL; prints the distances
agree() {
    ag=$(awk -f "$DIST" "$1" "$2")
    printf '  %s: RMS %s m, max %s m (at most %s)\n' "$4" "$(echo "$ag" | cut -d' ' -f1)" \
        "$(echo "$ag" | cut -d' ' -f2)" "$3"
    echo "$ag" | awk -v tol="$3" '{ exit !($1 <= tol) }'
}

# romberg DIR/NAME K S1 S2 S3: DIR/NAME-K.obj from the runs DIR/NAME-S-K at substeps
# S1 < S2 = 2 S1 < S3 = 2 S2 of a method whose error is an even series in h: two
# Richardson steps (factors 4 and 16) take out its h^2 and h^4 terms
romberg() {
    rp=$1 rk=$2
    combine "$rp-a-$rk.obj" "$rp-$3-$rk/final.obj" "$rp-$4-$rk/final.obj" 4
    combine "$rp-b-$rk.obj" "$rp-$4-$rk/final.obj" "$rp-$5-$rk/final.obj" 4
    combine "$rp-$rk.obj" "$rp-a-$rk.obj" "$rp-b-$rk.obj" 16
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
    # the second methods need the plain spring ODE: no air (air_density = 0) and no wind
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
        [ $plain = 1 ] || continue
        for s in 256 512 1024; do
            st=$(one "$r/vv-$s-$k" "$scene" "$fr" --set run.kernel=explicit \
                --set explicit.scheme=velocity-verlet --set run.substeps=$s)
            [ "$st" = ok ] || { echo "reference: velocity-verlet at $s substeps: $st" >&2; exit 1; }
        done
        romberg "$r/vv" $k 256 512 1024
        agree "$r/rk4-512-$k/final.obj" "$r/vv-$k.obj" "$WP_TOL" \
            "t_$k: rk4 512 vs extrapolated velocity-verlet 256/512/1024" || bad=1
        for s in 32 64 128; do
            st=$(one "$r/mid-$s-$k" "$scene" "$fr" $NEWTON --set newton.integrator=midpoint \
                --set newton.tol=1e-7 --set run.substeps=$s)
            [ "$st" = ok ] || { echo "reference: midpoint at $s substeps: $st" >&2; exit 1; }
        done
        romberg "$r/mid" $k 32 64 128
        agree "$r/rk4-512-$k/final.obj" "$r/mid-$k.obj" "$WP_MID_TOL" \
            "t_$k: rk4 512 vs extrapolated newton midpoint 32/64/128" || bad=1
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
