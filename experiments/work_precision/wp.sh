#!/bin/sh
# Work-precision diagrams (issue 49): references, sweeps and their errors.
#   wp.sh reference SCENE DIR [--set k=v]...   reference positions of SCENE at t_k = T/2
#                                               and T into DIR/ref_1.obj, DIR/ref_2.obj
#   wp.sh sweep SCENE REFDIR DIR [METHOD]...    every method's cost-knob sweep against the
#                                               reference: DIR/points.csv (+ wall_ms)
#   wp.sh selfref SCENE DIR "L1 L2 L3" TOL [--set k=v]...
#                                               a kernel's own reference (its finest step,
#                                               L3 substeps a frame), checked by its
#                                               self-convergence (below): DIR/ref_1.obj,
#                                               DIR/ref_2.obj and DIR/selfref.csv
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
#
# A kernel that integrates another model (verlet's relaxation, bw's conditions, a strain
# limit) has no second method to agree with: its reference is its own run at the finest
# of three substep counts L1 < L2 < L3 (each twice the last), at t_1 and t_2, and the
# check is its self-convergence.  With d_a = RMS |x_L1 - x_L2| and d_b = RMS |x_L2 - x_L3|
# the differences must fall, r = d_a / d_b >= WP_SELF_RATIO (1.2; 2^p for a method of
# order p in its asymptotic range), and the error of x_L3 that this implies, the
# geometric tail d_b / (r - 1) (exact when the error is c h^p: d_b = c h_L3^p (2^p - 1)),
# must be at most TOL RMS.  The observed order log2 r is printed.  A failed check writes
# no reference and stops (exit 1).  WP_IE = 0 leaves a sweep's implicit-Euler columns
# (rms_ie, max_ie) empty: they belong to the spring ODE.
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

# the columns of an own reference's check (selfref.csv), and the frames of t_K (T/2, T)
CHECK_HEAD="t,levels,d_coarse,d_fine,ratio,order,tail,tol,pass"
frames_at() { if [ "$1" = 2 ]; then echo "$T"; else echo "$half"; fi; }

selfref() {
    scene=$1 dir=$2 levels=$3 tol=$4
    shift 4
    WP_SETS="$WP_SETS $*"
    T=${WP_FRAMES:-$(ini_value "$scene" run frames)}
    half=$((T / 2))
    ratio_min=${WP_SELF_RATIO:-1.2}
    mkdir -p "$dir/runs"
    rm -f "$dir"/ref_*.obj "$dir/selfref.csv"
    set -- $levels
    [ $# = 3 ] || { echo "selfref: three substep counts, not '$levels'" >&2; exit 2; }
    bad=0
    echo "$CHECK_HEAD" >"$dir/selfref.part"
    for k in 1 2; do
        fr=$(frames_at $k)
        for s in "$@"; do
            st=$(one "$dir/runs/own-$s-$k" "$scene" "$fr" --set run.substeps="$s")
            [ "$st" = ok ] || { echo "selfref: $s substeps: $st" >&2; exit 1; }
        done
        r=$dir/runs
        da=$(awk -f "$DIST" "$r/own-$1-$k/final.obj" "$r/own-$2-$k/final.obj" | cut -d' ' -f1)
        db=$(awk -f "$DIST" "$r/own-$2-$k/final.obj" "$r/own-$3-$k/final.obj" | cut -d' ' -f1)
        line=$(awk -v a="$da" -v b="$db" -v tol="$tol" -v rmin="$ratio_min" 'BEGIN {
            r = b > 0 ? a / b : 0
            ok = r >= rmin && b / (r - 1) <= tol
            o = r > 0 ? sprintf("%.3f", log(r) / log(2)) : ""
            t = r > 1 ? sprintf("%.6g", b / (r - 1)) : ""
            printf "%.6g,%.6g,%.4g,%s,%s,%g,%s", a, b, r, o, t, tol, (ok ? "yes" : "no") }')
        echo "$k,$(echo "$levels" | tr ' ' /),$line" >>"$dir/selfref.part"
        echo "$line" | awk -F, -v k=$k -v l="$levels" -v rmin="$ratio_min" '{
            printf "  t_%s: substeps %s: RMS differences %s then %s m, ratio %s (at least %s),", k, l, $1, $2, $3, rmin
            printf " order %s, the finest level'"'"'s error ~ %s m (at most %s): %s\n", $4, ($5 == "" ? "unbounded" : $5), $6, ($7 == "yes" ? "pass" : "FAIL") }'
        case $line in *,yes) ;; *) bad=1 ;; esac
    done
    if [ $bad = 1 ]; then
        rm -f "$dir/selfref.part"
        echo "selfref: a check failed; no reference written" >&2
        exit 1
    fi
    for k in 1 2; do
        grep '^v ' "$dir/runs/own-$3-$k/final.obj" >"$dir/ref_$k.obj"
    done
    mv "$dir/selfref.part" "$dir/selfref.csv"
    echo "selfref: $dir/ref_1.obj (t = $half frames), $dir/ref_2.obj (t = $T frames), $3 substeps"
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

# The other problems (docs/figures.md, work-precision), each a table of the same form
# (WP_TABLE = NAME picks it for sweep) and its own reference (ownref NAME):
#  - verlet: verlet's relaxation (verlet.mode = relax, no damping: verlet.damping = 1, no
#    limit), an inextensible material by design, not the spring ODE; over its substeps
#    at its 12 passes a step and over its passes at 16 substeps, against the rigid
#    pendulum (rigidref: its limit; its own finest steps fail selfref, verlet-self);
#  - bw: Baraff and Witkin's linearised implicit Euler on its own conditions (bw.stiffness
#    = springs, its damping beta = 1e-3 s), over its substeps at its default cg_tol 1e-4
#    and at the reference's 1e-8, and over its CG tolerance at one step a frame;
#  - tau: the strain-limited kernels at tau = 10 %, every one with its own limit on the
#    springs, against newton's barrier (BARRIER: cubic, on the springs as theirs,
#    newton.strain_measure = edge, acting from 9 % on, strain band 0.1, so that its
#    solution is near the hard limit they project to; dynamic kappa) at its finest step.
BARRIER='--set run.kernel=newton --set newton.barrier=cubic --set newton.strain_limit=0.1 --set newton.strain_measure=edge --set newton.strain_band=0.1 --set newton.cond=off --set newton.max_iters=50 --set newton.tol=1e-7'
RELAX='--set run.kernel=verlet --set verlet.mode=relax --set verlet.damping=1 --set verlet.strain_limit=0'
TABLE_verlet="verlet-relax|substeps|1 2 4 8 16 32 64 128 256 512|$RELAX --set run.substeps=V
verlet-relax-passes|iterations|1 2 5 10 20 50 100|$RELAX --set run.substeps=16 --set verlet.iterations=V"
TABLE_bw='bw|substeps|1 2 4 8 16 32 64 128|--set run.kernel=bw --set run.substeps=V
bw-tight|substeps|1 2 4 8 16 32 64 128|--set run.kernel=bw --set bw.cg_tol=1e-8 --set run.substeps=V
bw-cg|cg_tol|1e-1 1e-2 1e-3 1e-4 1e-6 1e-8|--set run.kernel=bw --set run.substeps=1 --set bw.cg_tol=V'
TABLE_tau='newton-barrier|substeps|1 2 4 8 16|BARRIER --set newton.integrator=euler --set run.substeps=V
newton-barrier-bdf2|substeps|1 2 4 8 16|BARRIER --set newton.integrator=bdf2 --set run.substeps=V
explicit-provot|substeps|8 16 32 64 128 256|--set run.kernel=explicit --set explicit.scheme=symplectic --set explicit.strain_limit=0.1 --set run.substeps=V
verlet-provot|substeps|8 16 32 64 128 256|--set run.kernel=verlet --set verlet.mode=provot --set verlet.damping=1 --set verlet.strain_limit=0.1 --set run.substeps=V
xpbd-limit|iterations|1 2 5 10 20 50 100|--set run.kernel=pbd --set pbd.variant=xpbd --set pbd.strain_limit=0.1 --set run.substeps=1 --set pbd.iterations=V
xpbd-limit-substeps|substeps|1 2 4 8 16 32 64|--set run.kernel=pbd --set pbd.variant=xpbd --set pbd.strain_limit=0.1 --set pbd.iterations=1 --set run.substeps=V
pd-limit|iterations|1 2 5 10 20 50 100|--set run.kernel=pd --set pd.strain_limit=0.1 --set run.substeps=1 --set pd.iterations=V
bw-provot|substeps|1 2 4 8 16 32 64|--set run.kernel=bw --set bw.strain_limit=0.1 --set run.substeps=V'
#  - drape: scene (d), the drape onto the sphere (drape.ini): contact, so not the smooth
#    ODE.  The ODE table's methods, each with its own contact model: the explicit ones,
#    xpbd and pd through the contact stage (the sphere's projection), newton with its
#    barrier (CONTACT: cubic, within newton.dhat of the sphere), against newton's BDF2 at
#    its finest step (ownref drape: 64/128/256 substeps, self-convergence).
CONTACT='--set run.kernel=newton --set newton.barrier=cubic --set newton.kappa=fixed --set newton.strain_limit=0 --set newton.cond=off --set newton.max_iters=50'
TABLE_drape=$(echo "$METHODS" | sed '/^newton-/s/NEWTON/CONTACT/')
# rigidref SCENE DIR: verlet's relaxation's reference on a scene of two pins, no air, equal
# vertex masses: the limit of an inextensible net (the cloth rigid), the compound pendulum
# about the pins' axis (rigid.awk), at t_1 and t_2.  The rest shape and the pins come from
# two runs of one frame (gravity off: nothing moves; gravity on: the pins alone stay
# where they were).  Checked: the pendulum's RK4 at 20,000 and 40,000 steps agree to
# WP_TOL (max distance); a failed check writes nothing and stops.
rigidref() {
    scene=$1 dir=$2
    T=${WP_FRAMES:-$(ini_value "$scene" run frames)}
    half=$((T / 2))
    mkdir -p "$dir/runs"
    rm -f "$dir"/ref_*.obj "$dir/selfref.csv"
    wind=$(ini_value "$scene" world wind) air=$(ini_value "$scene" world air_density)
    { [ "$air" = 0 ] && { [ -z "$wind" ] || [ "$wind" = "0 0 0" ]; } &&
        [ -n "$(ini_value "$scene" material vertex_mass)" ] &&
        [ -z "$(ini_value "$scene" material density)" ]; } || {
        echo "rigidref: $scene: needs no air, no wind and material.vertex_mass" >&2; exit 2; }
    g=$(awk '/^\[/ { w = ($1 == "[world]") } w && $1 == "gravity" && $2 == "=" { print $3, $4, $5; exit }' "$scene")
    g=${g:-0 -9.81 0}
    dt=$(ini_value "$scene" run dt)
    one "$dir/runs/rest" "$scene" 1 --set run.kernel=explicit --set world.gravity="0 0 0" >/dev/null
    one "$dir/runs/fall" "$scene" 1 --set run.kernel=explicit >/dev/null
    pins=$(awk '$1 == "v" { n[FILENAME]++ }
        FNR == 1 { f++ } f == 1 && $1 == "v" { p[n[FILENAME]] = $0 }
        f == 2 && $1 == "v" && p[n[FILENAME]] == $0 { printf "%s%d", s, n[FILENAME]; s = " " }' \
        "$dir/runs/rest/final.obj" "$dir/runs/fall/final.obj")
    set -- $pins
    [ $# = 2 ] || { echo "rigidref: $scene: two pinned vertices, not $#" >&2; exit 2; }
    bad=0
    echo "$CHECK_HEAD" >"$dir/selfref.part"
    for k in 1 2; do
        fr=$(frames_at $k)
        for n in 20000 40000; do
            awk -v a="$1" -v b="$2" -v g="$g" -v t="$(awk -v f="$fr" -v dt="$dt" 'BEGIN { printf "%.17g", f * dt }')" \
                -v n=$n -f "$HERE/rigid.awk" "$dir/runs/rest/final.obj" >"$dir/runs/rigid-$n-$k.obj" 2>/dev/null
        done
        dd=$(awk -f "$DIST" "$dir/runs/rigid-20000-$k.obj" "$dir/runs/rigid-40000-$k.obj" | cut -d' ' -f2)
        pass=$(awk -v d="$dd" -v tol="$WP_TOL" 'BEGIN { print d <= tol ? "yes" : "no" }')
        printf '  t_%s: the rigid pendulum (pins %s and %s) at 20,000 vs 40,000 RK4 steps: max %s m (at most %s): %s\n' \
            $k "$1" "$2" "$dd" "$WP_TOL" "$pass"
        echo "$k,rigid 20000/40000,,$dd,,,,$WP_TOL,$pass" >>"$dir/selfref.part"
        [ "$pass" = yes ] || bad=1
    done
    if [ $bad = 1 ]; then
        rm -f "$dir/selfref.part"
        echo "rigidref: a check failed; no reference written" >&2
        exit 1
    fi
    for k in 1 2; do cp "$dir/runs/rigid-40000-$k.obj" "$dir/ref_$k.obj"; done
    mv "$dir/selfref.part" "$dir/selfref.csv"
    echo "rigidref: $dir/ref_1.obj (t = $half frames), $dir/ref_2.obj (t = $T frames)"
}

# ownref NAME SCENE DIR: the problem's reference (selfref above): its finest levels, the
# tolerance of their check, and its sets
ownref() {
    case $1 in
    verlet) rigidref "$2" "$3" ;;
    verlet-self) selfref "$2" "$3" "${WP_OWN_LEVELS:-256 512 1024}" "${WP_OWN_TOL:-2e-3}" $RELAX ;;
    bw) selfref "$2" "$3" "${WP_OWN_LEVELS:-256 512 1024}" "${WP_OWN_TOL:-2e-3}" --set run.kernel=bw --set bw.cg_tol=1e-8 ;;
    tau) selfref "$2" "$3" "${WP_OWN_LEVELS:-32 64 128}" "${WP_OWN_TOL:-1e-3}" $BARRIER --set newton.integrator=bdf2 --set newton.last_step=full ;;
    drape) selfref "$2" "$3" "${WP_OWN_LEVELS:-64 128 256}" "${WP_OWN_TOL:-1e-5}" $CONTACT --set newton.integrator=bdf2 --set newton.tol=1e-7 --set newton.last_step=full ;;
    *) echo "ownref: no problem $1 (verlet, bw, tau, drape)" >&2; exit 2 ;;
    esac
}

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
    if [ "${WP_IE:-1}" != 0 ]; then
        ie="$dir/runs/ie-1"  # implicit Euler at the frame step, tight: pd's limit
        st=$(one "$ie" "$scene" "$T" $NEWTON --set newton.integrator=euler --set newton.tol=1e-7 \
            --set run.substeps=1)
        [ "$st" = ok ] || { echo "sweep: implicit Euler at h = dt: $st" >&2; exit 1; }
        grep '^v ' "$ie/final.obj" >"$dir/ie_2.obj"
    fi
    out=$dir/points.csv
    echo "method,knob,value,substeps,h,status,rms_T,max_T,max_tk,rms_ie,max_ie,work,wall_ms" >"$out.part"
    table=$METHODS
    case ${WP_TABLE:-} in
    '') ;;
    verlet) table=$TABLE_verlet ;;
    bw) table=$TABLE_bw ;;
    tau) table=$TABLE_tau ;;
    drape) table=$TABLE_drape ;;
    *) echo "sweep: no table $WP_TABLE (verlet, bw, tau, drape)" >&2; exit 2 ;;
    esac
    echo "${WP_METHODS:-$table}" | while IFS='|' read -r name knob values sets; do
        [ "$only" = "  " ] || case $only in *" $name "*) ;; *) continue ;; esac
        sets=$(echo "$sets" | sed "s|NEWTON|$NEWTON|; s|BARRIER|$BARRIER|; s|CONTACT|$CONTACT|")
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
            eie=","
            [ "${WP_IE:-1}" = 0 ] || eie=$(dist "$dir/ie_2.obj" "$d")
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
selfref) shift; selfref "$@" ;;
ownref) shift; ownref "$@" ;;
sweep) shift; sweep "$@" ;;
*) echo "usage: wp.sh reference SCENE DIR [--set k=v]... | sweep SCENE REFDIR DIR [METHOD]..." \
       "| selfref SCENE DIR \"L1 L2 L3\" TOL [--set k=v]..." >&2
   exit 2 ;;
esac
