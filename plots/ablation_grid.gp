# Figure ablation_grid: the strain-limit grid of experiments/ablation_grid.ini, as heat maps.
# Reads plots/data/ablation_grid.csv (one row per run and cell: grid, row, x, y, kernel,
# tau, n, substeps, status, max_stretch, miss = max_stretch - tau, frames) for the left
# column, and the same table with its wall-time columns from builddir/ablation_grid/ for
# the right column (timings are not kept in plots/data).  Panel rows: explicit (Provot
# after symplectic Euler), verlet (Provot), pbd (XPBD with unilateral spring constraints),
# newton log, newton cubic (the newton tau = off run, barrier-independent, appears in
# both), bw (Provot after its implicit step), pd (its soft spring limit).  In a panel, x is tau's group
# (off, 20, 10, 5, 2, 1 %) and inside it the resolution (16^2, 32^2, 64^2); y is substeps
# (1, 4, 16).  Writes ablation_grid.png/svg; with figname = "ablation_grid_reduced" (make
# figures' reduced grid) it reads and writes that name instead, so the committed full
# grid's table and figure stay as they are.
if (!exists("figname")) figname = "ablation_grid"
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
data = datadir . "/" . figname . ".csv"
timed = builddir . "/ablation_grid/ablation_grid.csv"
set datafile separator ","

grid = system("awk -F, 'NR == 2 { print $1 }' " . data)
nruns = system("awk -F, 'NR > 1 && !($5 == \"newton\" && $2 == 4) && $9 != \"missing\"' " . data . " | wc -l") + 0

# the columns of a row: 2 row, 3 x, 4 y, 5 kernel, 6 tau, 7 n, 8 substeps, 9 status,
# 10 max_stretch, 11 miss, 12 frames, 13 max_sigma (sigma1 - 1), 14 iterations (solves for
# the zozo rows 7 and 8, ZOZO's configuration, not drawn), 15 not_converged; timed has
# 13 wall_ms, 14 wall_ms_per_s before those
good(s) = (s eq "ok" || s eq "not-converged")
cell(row, v) = (column(2) == row && good(strcol(9)) ? v : NaN)
bad(row) = (column(2) == row && !good(strcol(9)) ? column(3) : NaN)
badlabel(row) = (column(2) == row && !good(strcol(9)) ? \
    (strcol(9) eq "diverged" ? "div" : strcol(9) eq "step-failed" ? "fail" : strcol(9)) : "")
pp(v) = 100 * v                                  # strain in percentage points
misslabel(row) = (column(2) == row && good(strcol(9)) ? \
    sprintf(abs(pp(column(11))) >= 10 ? "%+.0f%s" : "%+.1f%s", pp(column(11)), \
            strcol(9) eq "not-converged" ? "*" : "") : "")
costlabel(row) = (column(2) == row && good(strcol(9)) ? sprintf("%.2g", column(14) / 1000) : "")

name(i) = (i == 0 ? "explicit, symplectic Euler + Provot" : i == 1 ? "verlet, Provot" : \
           i == 2 ? "pbd, XPBD 10 iterations, unilateral springs" : \
           i == 3 ? "newton, log barrier (IPC)" : i == 4 ? "newton, cubic barrier (ZOZO)" : \
           i == 5 ? "bw, Baraff–Witkin + Provot" : "pd, Projective Dynamics, soft spring limit")

set xrange [-0.6:22.6]
set yrange [-0.6:2.6]
set ytics ("1" 0, "4" 1, "16" 2)
set ylabel "substeps"
set xtics ("16²" 0, "32²" 1, "64²" 2, "16²" 4, "32²" 5, "64²" 6, "16²" 8, "32²" 9, "64²" 10, \
           "16²" 12, "32²" 13, "64²" 14, "16²" 16, "32²" 17, "64²" 18, "16²" 20, "32²" 21, "64²" 22) \
    font ",8" scale 0
set x2range [-0.6:22.6]
set x2tics ("τ off" 1, "τ = 20 %%" 5, "τ = 10 %%" 9, "τ = 5 %%" 13, "τ = 2 %%" 17, "τ = 1 %%" 21) \
    font ",9" scale 0
set tics front
unset key
set style fill solid 1.0 noborder
set colorbox vertical
set cbtics font ",8"

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1900,2550 enhanced font ",10"
        set output outdir . "/" . figname . ".png"
    } else {
        set terminal svg size 1900,2550 enhanced font ",10"
        set output outdir . "/" . figname . ".svg"
    }
    # kernel names by design: what "not converged" means for each kernel
    set multiplot layout 7,2 title sprintf("Strain-limit grid (%s grid, %d runs): a 1.5 m square cloth (1 kg/m², springs 500/200/50 N/m) hung by two corners, 1 s (60 frames of 1/60 s)\nx: strain limit τ and vertices per side; y: kernel steps (substeps) per frame.  Left: max stretch − τ over the run in percentage points (τ off: the max stretch itself; colours saturate at ±5 pp);\n* = not-converged (explicit, verlet: steps out of their 200 Provot sweeps; pbd, pd: steps ending past τ; bw: out of its sweeps; newton: unconverged steps).  Right: kernel wall time per simulated second (s/s, one thread).\nGray: diverged (div), a step failed (fail), or missing (a full grid stopped before the run ended); blank: not in the grid.", grid, nruns) font ",12"
    do for [row = 0:6] {
        # left: the miss, diverging colours (blue under the limit, red over it)
        set title name(row) . ": max stretch − τ (pp)" font ",10"
        set palette defined (-1 "#2166ac", -0.25 "#92c5de", 0 "#f7f7f7", 0.25 "#f4a582", 1 "#b2182b")
        unset logscale cb
        set cbrange [-5:5]
        set cblabel "pp" font ",8"
        set format cb "%+g"
        plot data using (cell(row, column(3))):4:(0.5):(0.5):(pp(column(11))) with boxxyerror fc palette, \
             data using (bad(row)):4:(0.5):(0.5) with boxxyerror fc rgb "gray70", \
             data using 3:4:(misslabel(row)) with labels font ",7", \
             data using 3:4:(badlabel(row)) with labels font ",7"
        # right: the cost, on a log scale
        set title name(row) . ": kernel wall time per simulated second (s/s)" font ",10"
        set palette defined (0 "#ffffcc", 1 "#fd8d3c", 2 "#800026")
        set cbrange [0.01:1000]
        set logscale cb
        set format cb "%g"
        set cblabel "s/s" font ",8"
        plot timed using (cell(row, column(3))):4:(0.5):(0.5):(column(14) / 1000) with boxxyerror fc palette, \
             timed using (bad(row)):4:(0.5):(0.5) with boxxyerror fc rgb "gray70", \
             timed using 3:4:(costlabel(row) ) with labels font ",7", \
             timed using 3:4:(badlabel(row)) with labels font ",7"
    }
    unset multiplot
    set output
}
