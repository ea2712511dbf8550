#!/bin/sh
# The work-precision machinery (issue 49) on a tiny scene, in seconds: the swing scene of
# experiments/work_precision/ at 4 x 4 for 16 frames (0.27 s).
#  1. wp.sh reference makes the reference and passes its checks (RK4 at 256 vs 512
#     substeps; velocity Verlet and newton's midpoint, each Richardson-extrapolated,
#     agree with it to 1e-9 m RMS), and writes both times' positions.  The midpoint check
#     is the one newton.last_step = full passes and the default (armijo) fails: 1.2e-11
#     against 7.0e-8 m at t_2 (docs/figures.md, work-precision);
#  2. the same with an agreement tolerance no two methods can meet (1e-15 m, below
#     rounding) fails, and writes nothing: the check can fail;
#  3. the observed orders of symplectic Euler and RK4 at 8 ... 64 substeps a frame are
#     1 and 4 within 0.2 (mathematics: the methods' orders, not this program's output);
#  4. a kernel's own reference (wp.sh ownref bw: its finest of three levels, checked by
#     self-convergence) passes at 8/16/32 substeps with the figure's 2e-3 m, and fails,
#     writing nothing, when the tolerance is below the tail it estimates (1e-6 m): the
#     check can fail;
#  5. verlet's reference, the rigid pendulum (wp.sh ownref verlet): its step-doubling
#     check passes, and fails (nothing written) at WP_TOL = 1e-17 m, below its rounding;
#     and verlet's relaxation approaches it: its max error at T falls at least 4-fold
#     from 8 to 256 substeps a frame (mathematics: the inextensible net's limit is the
#     rigid plate swinging about the pins' axis; 8.1-fold here, 5.2e-3 to 6.4e-4 m,
#     where first order would give 32: on this 4 x 4 cloth over 16 frames the error is
#     not monotone in h, docs/figures.md).  With gravity flipped in the pendulum the
#     errors stall at 0.1 m and this fails.
#  6. scene (d)'s reference, newton's finest step on the drape (wp.sh ownref drape, over
#     12 frames at 16/32/64 substeps: the cloth is within newton.dhat of the sphere from
#     frame 7 (t = 0.12 s), so the barrier acts in every level's last frames; checked below), passes
#     its self-convergence check at 1e-4 m (t_2 = 0.2 s is mid-bounce: its tail is
#     2.9e-5 m there, against the figure's 1e-5 m at 1 s); with WP_SELF_RATIO = 64 (the level differences must
#     fall 64-fold a halving: more than a second-order method's 4) and with a tolerance
#     below the tail it estimates (1e-9 m) it fails and writes nothing: the check can
#     fail both ways.
#   tests/work_precision/check.sh path/to/cloth
set -eu
NAME=work_precision
# shellcheck source=tests/work_precision/setup.sh
. "$(dirname "$0")/setup.sh"
wp=experiments/work_precision/wp.sh
scene=experiments/work_precision/swing.ini
export CLOTH WP_FRAMES=16 WP_SETS="--set mesh.nx=4 --set mesh.ny=4"

"$wp" reference "$scene" "$tmp/ref" >"$tmp/ref.log" 2>&1 ||
    { cat "$tmp/ref.log"; fail "the reference of the tiny swing failed its checks"; }
for k in 1 2; do
    [ "$(grep -c '^v ' "$tmp/ref/ref_$k.obj")" = 16 ] || fail "ref_$k.obj lacks its 16 vertices"
done

if WP_TOL=1e-15 "$wp" reference "$scene" "$tmp/bad" >"$tmp/bad.log" 2>&1; then
    fail "a reference passed an agreement of 1e-15 m"
fi
[ ! -f "$tmp/bad/ref_2.obj" ] || fail "a reference that failed its check was written"

WP_REPEAT=1 WP_VALUES="8 16 32 64" "$wp" sweep "$scene" "$tmp/ref" "$tmp/sweep" symplectic rk4 \
    >"$tmp/sweep.log" 2>&1 || { cat "$tmp/sweep.log"; fail "the sweep failed"; }
awk -v scene=tiny -f experiments/work_precision/orders.awk "$tmp/sweep/points.csv" >"$tmp/orders.csv"
awk -F, 'NR > 1 { d = $4 - $3; if ($4 == "" || $5 < 3 || d > 0.2 || d < -0.2) bad = 1 }
         END { exit bad }' "$tmp/orders.csv" ||
    { cat "$tmp/orders.csv"; fail "an observed order is not within 0.2 of the expected one"; }
echo "work_precision: the tiny reference passes its checks (midpoint at t_2: RMS" \
    "$(awk '/t_2: rk4 512 vs extrapolated newton midpoint/ { print $(NF - 7) }' "$tmp/ref.log") m)," \
    "an impossible one fails;" \
    "observed orders $(awk -F, 'NR > 1 { printf "%s%s %s (%s)", n++ ? ", " : "", $2, $4, $3 }' \
    "$tmp/orders.csv")"

# 4. a kernel's own reference, and that its check can fail
WP_OWN_LEVELS="8 16 32" "$wp" ownref bw "$scene" "$tmp/bw" >"$tmp/bw.log" 2>&1 ||
    { cat "$tmp/bw.log"; fail "bw's own reference failed its self-convergence check"; }
[ "$(grep -c '^v ' "$tmp/bw/ref_2.obj")" = 16 ] || fail "bw's ref_2.obj lacks its 16 vertices"
[ "$(grep -c ',yes$' "$tmp/bw/selfref.csv")" = 2 ] || fail "bw's selfref.csv lacks its two passes"
if WP_OWN_LEVELS="8 16 32" WP_OWN_TOL=1e-6 "$wp" ownref bw "$scene" "$tmp/bw-bad" \
    >"$tmp/bw-bad.log" 2>&1; then
    fail "a self-convergence reference passed a tolerance below its own tail"
fi
[ ! -f "$tmp/bw-bad/ref_2.obj" ] || fail "a self-convergence reference that failed was written"

# 5. the rigid pendulum, its check, and verlet's relaxation converging to it
"$wp" ownref verlet "$scene" "$tmp/rigid" >"$tmp/rigid.log" 2>&1 ||
    { cat "$tmp/rigid.log"; fail "the rigid pendulum reference failed its check"; }
if WP_TOL=1e-17 "$wp" ownref verlet "$scene" "$tmp/rigid-bad" >"$tmp/rigid-bad.log" 2>&1; then
    fail "the rigid pendulum passed a step-doubling check of 1e-17 m"
fi
[ ! -f "$tmp/rigid-bad/ref_2.obj" ] || fail "a rigid reference that failed was written"
WP_REPEAT=1 WP_IE=0 WP_TABLE=verlet WP_VALUES="8 256" "$wp" sweep "$scene" "$tmp/rigid" \
    "$tmp/vsweep" verlet-relax >"$tmp/vsweep.log" 2>&1 || { cat "$tmp/vsweep.log"; fail "verlet's sweep failed"; }
p=$(awk -F, 'NR > 1 { e[++n] = $8 } END { printf "%.3g", e[1] / e[2] }' "$tmp/vsweep/points.csv")
awk -v p="$p" 'BEGIN { exit !(p >= 4) }' ||
    fail "verlet's relaxation against the rigid pendulum: its max error at T falls $p-fold from 8 to 256 substeps, not 4-fold or more"
# 6. scene (d)'s reference (the full 8 x 8 drape, 12 frames), and that its check fails
drape=experiments/work_precision/drape.ini
WP_SETS="" WP_FRAMES=12 WP_OWN_LEVELS="16 32 64" WP_OWN_TOL=1e-4 "$wp" ownref drape "$drape" "$tmp/drape" \
    >"$tmp/drape.log" 2>&1 || { cat "$tmp/drape.log"; fail "the drape's reference failed its self-convergence check"; }
[ "$(grep -c '^v ' "$tmp/drape/ref_2.obj")" = 64 ] || fail "the drape's ref_2.obj lacks its 64 vertices"
[ "$(grep -c ',yes$' "$tmp/drape/selfref.csv")" = 2 ] || fail "the drape's selfref.csv lacks its two passes"
gap=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } END { print $c["min_gap"] }' \
    "$tmp/drape/runs/own-64-2/series.csv")
awk -v g="$gap" 'BEGIN { exit !(g > 0 && g < 0.01) }' ||
    fail "the drape's finest level ends with a gap of $gap m to the sphere, not in contact (0 < gap < dhat = 0.01 m)"
if WP_SETS="" WP_FRAMES=12 WP_OWN_LEVELS="16 32 64" WP_OWN_TOL=1e-4 WP_SELF_RATIO=64 "$wp" ownref drape "$drape" \
    "$tmp/drape-ratio" >"$tmp/drape-ratio.log" 2>&1; then
    fail "the drape's reference passed a self-convergence check that asks a 64-fold fall"
fi
if WP_SETS="" WP_FRAMES=12 WP_OWN_LEVELS="16 32 64" WP_OWN_TOL=1e-9 "$wp" ownref drape "$drape" \
    "$tmp/drape-tol" >"$tmp/drape-tol.log" 2>&1; then
    fail "the drape's reference passed a tolerance below its own tail"
fi
if [ -f "$tmp/drape-ratio/ref_2.obj" ] || [ -f "$tmp/drape-tol/ref_2.obj" ]; then
    fail "a drape reference that failed its check was written"
fi
echo "work_precision: bw's own reference passes its self-convergence check" \
    "(t_2: order $(awk -F, '$1 == 2 { print $6 }' "$tmp/bw/selfref.csv")), one below its tail fails;" \
    "the rigid pendulum passes its check, a 1e-17 m one fails; verlet's relaxation's error to it falls $p-fold from 8 to 256 substeps;" \
    "the drape's reference passes (t_2: order $(awk -F, '$1 == 2 { print $6 }' "$tmp/drape/selfref.csv"), tail $(awk -F, '$1 == 2 { print $7 }' "$tmp/drape/selfref.csv") m, gap $gap m), a 64-fold ratio and a 1e-9 m tolerance fail"
