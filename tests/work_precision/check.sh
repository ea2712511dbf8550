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
#     1 and 4 within 0.2 (mathematics: the methods' orders, not this program's output).
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
