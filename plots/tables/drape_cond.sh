#!/bin/sh
# The paired tables of docs/figures.md's drape_cond section (issue 45), printed as
# markdown from plots/data alone: plots/data/drape_sweep.csv (one row a run of
# experiments/drape.ini's [sweep]) and plots/data/drape_LABEL.csv (each run's series).
# After `FIGURES=drape_cond make figures` (or a full one) run it and paste its output
# over the tables it names:  plots/tables/drape_cond.sh [DATADIR]
# Per run: cond before contact (frame 1), its peak and the rise in orders of magnitude,
# the range over frames 40-90, Newton iterations (solves for loop = zozo) a frame (mean,
# max), steps not converged / stalled, the smallest gap, and two strains: the largest
# edge stretch l/l0 - 1 (stretch_max) and the largest sigma1 - 1 over triangles
# (stretch_sigma_max, what newton.strain_measure = triangle limits).
set -eu
data=${1:-plots/data}
sweep=$data/drape_sweep.csv
[ -f "$sweep" ] || { echo "drape_cond.sh: no $sweep" >&2; exit 1; }

# stats LABEL: c1 peak lo hi itmean itmax sigma over the run's series
stats() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["frame"] == 1 { c1 = $c["cond_max"] }
        $c["frame"] >= 1 { if ($c["cond_max"] != "" && $c["cond_max"] + 0 > peak) peak = $c["cond_max"] + 0
                           it += $c["iterations"]; n++; if ($c["iterations"] + 0 > itmax) itmax = $c["iterations"] + 0 }
        $c["frame"] >= 40 && $c["cond_max"] != "" { v = $c["cond_max"] + 0
                           if (lo == "" || v < lo) lo = v; if (v > hi) hi = v }
        $c["frame"] >= 0 { s = $c["stretch_sigma_max"] + 0; if (s > sig) sig = s }
        END { printf "%s %s %s %s %s %s %s\n", c1, peak, lo, hi, it / n, itmax, sig }' \
        "$data/drape_$1.csv"
}

# field LABEL COLUMN: a column of the run's drape_sweep.csv row
field() {
    awk -F, -v l="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == l { print $c[k] }' "$sweep"
}

has() { [ -f "$data/drape_$1.csv" ] && [ -n "$(field "$1" status)" ]; }

# cell LABEL: "peak (orders)" of one run
peak_cell() {
    set -- $(stats "$1")
    awk -v c1="$1" -v p="$2" 'BEGIN { printf "%.2g (%.1f)", p, log(p / c1) / log(10) }'
}

echo "Table 1: the strain barrier on (2 %), condition number from before contact to its"
echo "peak, log against cubic in the same configuration (plots/tables/drape_cond.sh)"
echo
echo "| loop | κ rule | β | springs | solver | log: peak (orders) | cubic: peak (orders) | log / cubic peak | iterations log, cubic | runs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row() { # loop rule beta springs solver LOG CUBIC
    has "$6" && has "$7" || return 0
    set -- "$@" "$(stats "$6")" "$(stats "$7")"
    awk -v loop="$1" -v rule="$2" -v beta="$3" -v spr="$4" -v sol="$5" -v l="$6" -v cu="$7" \
        -v sl="$8" -v sc="$9" -v il="$(field "$6" total_iterations)" \
        -v ic="$(field "$7" total_iterations)" 'BEGIN {
        split(sl, a, " "); split(sc, b, " ")
        printf "| %s | %s | %s | %s | %s | %.2g (%.1f) | %.2g (%.1f) | %.1f× | %d, %d (%.2f×) | `%s`, `%s` |\n",
            loop, rule, beta, spr, sol, a[2], log(a[2] / a[1]) / log(10), b[2],
            log(b[2] / b[1]) / log(10), a[2] / b[2], il, ic, ic / il, l, cu }'
}
row converge fixed 0.5 adaptive cholmod log-fixed cubic-fixed
row converge fixed 1 adaptive cholmod beta1-log-fixed beta1-cubic-fixed
row converge "dynamic, monotone" 0.5 adaptive cholmod log-dynamic-monotone cubic-dynamic-monotone
row zozo "dynamic, monotone" 0.5 adaptive cholmod log-dynamic-zozo cubic-dynamic-zozo
row zozo "dynamic, monotone" 1 project "pcg 1e-3" zozo-log-monotone zozo-cubic-monotone
row "**zozo (ZOZO's)**" "**dynamic, iteration (ZOZO's)**" "**1**" "**project**" "**pcg 1e-3**" zozo-log zozo-cubic

echo
echo "Table 2: every run of the sweep (plots/tables/drape_cond.sh); iterations are solves"
echo "for loop = zozo; strain: the largest edge stretch and the largest σ1 − 1"
echo
echo "| run | cond: before, peak | cond: frames 40–90 | iterations / frame (max) | not converged | stalled | min gap | edge stretch | σ1 − 1 | status |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for l in $(awk -F, 'NR > 1 { print $1 }' "$sweep"); do
    has "$l" || continue
    set -- $(stats "$l")
    awk -v l="$l" -v c1="$1" -v p="$2" -v lo="$3" -v hi="$4" -v im="$5" -v ix="$6" -v sg="$7" \
        -v nc="$(field "$l" not_converged)" -v st="$(field "$l" stalled)" \
        -v gap="$(field "$l" min_gap)" -v es="$(field "$l" max_stretch)" \
        -v status="$(field "$l" status)" 'BEGIN {
        printf "| `%s` | %.3g, %.2g | %.2g – %.2g | %.1f (%d) | %s | %s | %.1f mm | %.2f %% | %.2f %% | %s |\n",
            l, c1, p, lo, hi, im, ix, nc, st, 1000 * gap, 100 * es, 100 * sg, status }'
done
