# Figure 6 (convergence): PBD and XPBD at equal work on experiments/convergence.ini.
# Reads plots/data/convergence_{xpbd,pbd}.csv (passes per frame; final max stretch with
# the passes spent as iterations or as substeps; the kernel wall time per frame of each is
# in build/figures/convergence/, not plotted),
# convergence_reference.csv (converged XPBD) and convergence_series_*_{i,s}16.csv (the
# runs at 16 passes a frame, over time); writes convergence.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
set datafile separator ","
xp = datadir . "/convergence_xpbd.csv"
pb = datadir . "/convergence_pbd.csv"
pd = datadir . "/convergence_pd.csv"
# the pd lines, when make_figures.sh ran pd (a build with the kernel): plot clauses
has_pd = system("test -f " . pd . " && echo 1 || echo 0") eq "1"
pd_rest = !has_pd ? "" : sprintf("'%s' using 1:2 with linespoints ls 6 title 'pd: 1 step, N local/global iterations', '%s' using 1:3 with linespoints ls 7 title 'pd: N steps, 1 iteration',", pd, pd)
pd_time = !has_pd ? "" : sprintf("'%s' using 2:9 with lines ls 6 title 'pd: 1 step, 16 iterations', '%s' using 2:9 with lines ls 7 title 'pd: 16 steps, 1 iteration',", datadir . "/convergence_series_pd_i16.csv", datadir . "/convergence_series_pd_s16.csv")
stats datadir . "/convergence_reference.csv" using 4 nooutput
ref = STATS_max

set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.0
set style line 2 lc rgb "#1f77b4" lw 2 pt 5 ps 1.0 dt 2
set style line 3 lc rgb "#d62728" lw 2 pt 7 ps 1.0
set style line 4 lc rgb "#d62728" lw 2 pt 5 ps 1.0 dt 2
set style line 5 lc rgb "#555555" lw 1.5 dt 3
set style line 6 lc rgb "#2ca02c" lw 2 pt 7 ps 1.0
set style line 7 lc rgb "#2ca02c" lw 2 pt 5 ps 1.0 dt 2

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1200,520 enhanced font ",11"
        set output outdir . "/convergence.png"
    } else {
        set terminal svg size 1200,520 enhanced font ",11"
        set output outdir . "/convergence.svg"
    }
    set multiplot layout 1,2 title "Convergence of PBD and XPBD at equal work: 16×16 cloth hanging from its top row, dt = 1/60 s"
    set logscale xy
    set grid
    set format y "10^{%L}"
    set ylabel "max stretch  max(l/l_0 − 1)  (dimensionless)"
    set key bottom left Left reverse
    set xlabel "constraint passes per frame  (iterations × substeps)"
    set title "at rest (t = 2 s)"
    set xrange [0.8:80]
    plot xp using 1:2 with linespoints ls 1 title "xpbd: 1 substep, N iterations", \
         xp using 1:3 with linespoints ls 2 title "xpbd: N substeps, 1 iteration", \
         pb using 1:2 with linespoints ls 3 title "pbd (k_{pbd} = 1): 1 substep, N iterations", \
         pb using 1:3 with linespoints ls 4 title "pbd (k_{pbd} = 1): N substeps, 1 iteration", \
         @pd_rest \
         ref with lines ls 5 title "xpbd converged (static equilibrium)"
    set title "over time, 16 passes per frame"
    set xlabel "time (s)"
    unset logscale x
    set xrange [0:2]
    set key top right
    series(v, m) = datadir . "/convergence_series_" . v . "_" . m . "16.csv"
    plot series("xpbd", "i") using 2:9 with lines ls 1 title "xpbd: 1 substep, 16 iterations", \
         series("xpbd", "s") using 2:9 with lines ls 2 title "xpbd: 16 substeps, 1 iteration", \
         series("pbd", "i") using 2:9 with lines ls 3 title "pbd: 1 substep, 16 iterations", \
         series("pbd", "s") using 2:9 with lines ls 4 title "pbd: 16 substeps, 1 iteration", \
         @pd_time \
         ref with lines ls 5 title "xpbd converged (static equilibrium)"
    unset multiplot
    set output
}
