# Figure 3 (strain_ablation), verlet part: Provot's strain limit tau_c on a cloth hung by
# two corners.  Reads plots/data/strain_ablation_verlet.csv (one row per tau_c, "off"
# with tau = 0); writes strain_ablation.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
data = datadir . "/strain_ablation_verlet.csv"
set datafile separator ","

# the unlimited run (tau = 0) and the pass budget, as reference lines
stats data using ($2 == 0 ? $3 : NaN) nooutput
off_stretch = STATS_max
stats data using ($2 == 0 ? $8 : NaN) nooutput
off_wall = STATS_max
stats data using 5 nooutput
budget = STATS_max

# tau > 0 rows only (log axis)
lim(col) = ($2 > 0 ? column(col) : NaN)

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1500,480 enhanced font ",11"
        set output outdir . "/strain_ablation.png"
    } else {
        set terminal svg size 1500,480 enhanced font ",11"
        set output outdir . "/strain_ablation.svg"
    }
    set multiplot layout 1,3 title "Strain-limit ablation, verlet (Provot 1995): 16×16 cloth hung by two corners, 1.5 s, budget of ".sprintf("%d", budget)." sweeps per step"
    set logscale x
    set xrange [0.0065:0.28]
    set xtics ("1 %%" 0.01, "2 %%" 0.02, "5 %%" 0.05, "10 %%" 0.1, "20 %%" 0.2)
    set xlabel "strain limit τ_c"
    set grid
    set key top left

    set logscale y
    set ylabel "max stretch  max(l/l_0 − 1) over the run"
    set format y "%g"
    set key bottom right
    plot x with lines lw 2 lc rgb "gray60" title "the limit: stretch = τ_c", \
         off_stretch with lines dt 3 lw 2 lc rgb "black" title sprintf("no limit (%.3f)", off_stretch), \
         data using 2:(lim(3)) with points pt 7 ps 1.3 lc rgb "#1f77b4" title "verlet, Provot", \
         data using 2:(lim(3)):(sprintf("%.4g %%", 100 * $3)) with labels left offset 0.8,-0.6 font ",9" notitle

    set ylabel "Provot sweeps per step (mean)"
    set yrange [0.5:budget * 2]
    set key top right
    plot budget with lines dt 2 lw 2 lc rgb "red" title "budget (strain\\_passes)", \
         data using 2:(lim(4)) with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "sweeps used", \
         data using 2:($6 > 0 ? lim(4) : NaN):(sprintf("%d/%d steps\nnot conv.", $6, $7)) \
              with labels center offset 0,-2 font ",9" notitle
    unset yrange

    unset logscale y
    set ylabel "kernel wall time of the run (ms)"
    set yrange [0:*]
    plot off_wall with lines dt 3 lw 2 lc rgb "black" title sprintf("no limit (%.0f ms)", off_wall), \
         data using 2:(lim(8)) with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "verlet, Provot"
    unset yrange
    unset multiplot
    set output
}
