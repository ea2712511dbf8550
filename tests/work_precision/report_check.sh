#!/bin/sh
# The report card (`make report`, experiments/work_precision/report.sh), reduced to seconds:
# the built-in explicit kernel with --set explicit.scheme=symplectic at 8 and 16 substeps
# a frame (WP_REPORT_SUBSTEPS), one timed run a point, into a temporary folder
# (WP_REPORT_OUT), with a synthetic timed sweep of the built-in methods (WP_BASE).  The
# invariants runs are the report's own (self-contact stack, strain limit, swing drift).
# It asserts, from sources other than the report itself:
#  1. report.md has its sections: the invariants table with its four rows, and for each
#     scene (swing, wind, flag, drape) a row per run and the cost-at-equal-error table;
#  2. each run's max and RMS error at T and max over t_k are the committed symplectic
#     curve's (plots/data/work_precision_SCENE.csv: the same runs, made by
#     FIGURES=work_precision; to 1e-12 relative, the report prints them with 17 digits);
#  3. h = (1/60)/substeps and the work = substeps x 60 frames (explicit counts no
#     iterations, so its steps): closed forms;
#  4. the cost table: the synthetic method's time is t = 0.1/e ms exactly (two points,
#     (1e-1 m, 1 ms) and (1e-6 m, 1e5 ms), on one line in log-log), so at the run's error
#     e its cell must be 0.1/e and the ratio the run's time over it;
#  5. no intersections and no tunnelling with self_collision = on (the contact stage
#     runs after every kernel's step, issue 43).
#   tests/work_precision/report_check.sh path/to/cloth
set -eu
NAME=report_check
# shellcheck source=tests/work_precision/setup.sh
. "$(dirname "$0")/setup.sh"
for s in swing wind flag drape; do
    d=$s
    [ "$s" = drape ] && d=drape-drape # the drape's timed sweep, as make_figures.sh names it
    mkdir -p "$tmp/base/$d"
    printf 'method,knob,value,substeps,h,status,rms_T,max_T,max_tk,rms_ie,max_ie,work,wall_ms\n%s\n%s\n' \
        'line,substeps,1,1,1,ok,0.1,0.1,0.1,,,1,1' 'line,substeps,2,2,0.5,ok,1e-6,1e-6,1e-6,,,2,100000' \
        >"$tmp/base/$d/points.csv"
done
out=$tmp/report
WP_REPORT_OUT=$out WP_REPORT_SUBSTEPS="8 16" WP_REPEAT=1 WP_BASE=$tmp/base \
    experiments/work_precision/report.sh "$CLOTH" explicit --set explicit.scheme=symplectic \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "report.sh failed"; }
md=$out/report.md
[ -f "$md" ] && [ -s "$out/report.png" ] || fail "no report.md or report.png in $out"

# 1. the sections
grep -q '^## Invariants$' "$md" || fail "no Invariants section"
for row in 'intersections, tunnelling' 'strain with explicit.strain_limit = 0.10' \
    'energy drift on the conservative scene' 'steps not converged'; do
    grep -q "^| $row" "$md" || fail "the invariants table lacks its row '$row'"
done
for s in swing wind flag drape; do
    grep -q "^## $s$" "$md" || fail "no section for $s"
done

# 2-4: each scene's run rows against the committed curve and the closed forms
for s in swing wind flag drape; do
    awk -v s="$s" '/^## / { in_s = ($2 == s) } in_s' "$md" >"$tmp/$s.md"
    awk -F'|' -v s="$s" -v data="plots/data/work_precision_$s.csv" '
        function rel(a, b) { return (a - b) / (b == 0 ? 1 : b) }
        BEGIN { FS = ","
                while ((getline line < data) > 0) {
                    split(line, f, ",")
                    if (f[1] == "symplectic") { mx[f[3]] = f[8]; rm[f[3]] = f[7]; tk[f[3]] = f[9] }
                }
                FS = "|" }
        NF == 10 && $2 ~ /^ explicit substeps = / {
            split($2, w, " "); v = w[4] + 0; rows++
            if ($3 != " ok ") { print s ": run " v " is " $3; bad = 1; next }
            h = 1 / 60 / v
            if (rel($4 + 0, h) > 1e-9 || rel($4 + 0, h) < -1e-9) { print s ": h " $4 " is not " h; bad = 1 }
            if ($8 + 0 != 60 * v) { print s ": work " $8 " is not " 60 * v; bad = 1 }
            if (!(v in mx)) { print s ": no committed symplectic run at " v; bad = 1; next }
            d1 = rel($5 + 0, mx[v]); d2 = rel($6 + 0, rm[v]); d3 = rel($7 + 0, tk[v])
            if (d1 * d1 > 1e-24 || d2 * d2 > 1e-24 || d3 * d3 > 1e-24) {
                print s ": run " v ": errors " $5 $6 $7 " are not the committed " mx[v] ", " rm[v] ", " tk[v]; bad = 1 }
        }
        END { if (rows != 2) { print s ": " rows + 0 " run rows, not 2"; bad = 1 }; exit bad }' \
        "$tmp/$s.md" || fail "the $s rows disagree with the committed data or the closed forms"
    # run rows: 8 columns (NF 10); the cost table: | run | error | its ms | line ms (ratio) |
    # (NF 6)
    awk -F'|' -v s="$s" '
        NF == 6 && $2 ~ /^ explicit substeps = / && $5 ~ /x\)/ {
            n++; e = $3 + 0; me = $4 + 0; want = 0.1 / e
            split($5, c, /[ (x)]+/); got = c[2] + 0; ratio = c[3] + 0
            if ((got - want) / want > 5e-3 || (want - got) / want > 5e-3) {
                print s ": line ms " got " at error " e ", not 0.1/e = " want; bad = 1 }
            if ((ratio - me / want) / ratio > 0.05 || (me / want - ratio) / ratio > 0.05) {
                print s ": ratio " ratio ", not " me / want; bad = 1 }
        }
        END { if (n != 2) { print s ": " n + 0 " rows of the cost table, not 2"; bad = 1 }; exit bad }' \
        "$tmp/$s.md" || fail "the $s cost table disagrees with the closed form t = 0.1/e"
done

# 5. contact: 0 intersections, 0 tunnelled
grep '^| intersections, tunnelling' "$md" | grep -q '| 0 in every frame |' ||
    { grep '^| intersections' "$md"; fail "intersections or tunnelling with self_collision = on"; }
echo "report_check: the reduced report of explicit/symplectic has its sections; its errors are" \
    "the committed curve's, h, work and the equal-error costs the closed forms'"
