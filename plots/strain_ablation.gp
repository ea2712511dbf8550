# Figure 3 (strain_ablation): one corner-pinned cloth under each family's strain limit tau,
# on each measure the family has.  Reads every plots/data/strain_ablation_NAME.csv that
# make_figures.sh wrote (NAME = kernel_measure or newton_measure_barrier; columns label,
# tau, max_stretch, max_sigma, work_per_step, not_converged_steps, steps, cond_mean; tau = 0
# is "off"), and the same tables with wall_ms from build/figures/strain_ablation/
# (builddir) for the wall-time panel: timings are not kept in plots/data.
# Writes strain_ablation.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
set datafile separator ","

names = system("ls " . datadir . "/strain_ablation_*.csv | sed 's|.*/strain_ablation_||; s|\\.csv$||' | tr '\\n' ' '")
n = words(names)
file(s) = datadir . "/strain_ablation_" . s . ".csv"
tfile(s) = builddir . "/strain_ablation/strain_ablation_" . s . ".csv"
# a colour a family, a dash a measure (springs solid, triangles dashed)
colour(s) = strstrt(s, "explicit") ? "#d55e00" : strstrt(s, "verlet") ? "#9400d3" : \
            strstrt(s, "pbd") ? "#009e73" : strstrt(s, "_log") ? "#0072b2" : \
            strstrt(s, "_cubic") ? "#e69f00" : strstrt(s, "bw") ? "#cc79a7" : \
            strstrt(s, "pd_") ? "#56b4e9" : "#000000"
dash(s) = strstrt(s, "triangle") ? 2 : 1
point(i) = 4 + 2 * i
label(s) = system("echo " . s . " | sed 's/_default$/, its own measure/; s/_/, /g; s/edge/springs/; s/triangle/triangles (σ)/'")

stats file("verlet_edge") using ($2 == 0 ? $3 : NaN) nooutput
off_edge = STATS_max
stats file("verlet_edge") using ($2 == 0 ? $4 : NaN) nooutput
off_sigma = STATS_max
lim(col) = ($2 > 0 ? column(col) : NaN)

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1800,1100 enhanced font ",11"
        set output outdir . "/strain_ablation.png"
    } else {
        set terminal svg size 1800,1100 enhanced font ",11"
        set output outdir . "/strain_ablation.svg"
    }
    set multiplot layout 2,3 title "Strain-limit ablation, every family on both measures: 16×16 cloth hung by two corners, 1.5 s (90 frames of 1/60 s)"
    set logscale x
    set xrange [0.0065:0.28]
    set xtics ("1 %%" 0.01, "2 %%" 0.02, "5 %%" 0.05, "10 %%" 0.1, "20 %%" 0.2)
    set xlabel "strain limit τ"
    set grid
    set logscale y
    set format y "%g"

    set title "springs: max (l/l_0 − 1) over the run"
    set ylabel "max stretch on springs"
    set key top left font ",8"
    plot x with lines lw 2 lc rgb "gray60" title "= τ", \
         off_edge with lines dt 3 lw 2 lc rgb "black" title sprintf("no limit (%.3f)", off_edge), \
         for [i = 1:n] file(word(names, i)) using 2:(lim(3)) with linespoints \
             lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) lw 2 \
             title label(word(names, i))

    set title "triangles: max (σ_1 − 1) over the run"
    set ylabel "max stretch on triangles"
    set key top left font ",8"
    plot x with lines lw 2 lc rgb "gray60" title "= τ", \
         off_sigma with lines dt 3 lw 2 lc rgb "black" title sprintf("no limit (%.3f)", off_sigma), \
         for [i = 1:n] file(word(names, i)) using 2:(lim(4)) with linespoints \
             lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) lw 2 notitle

    set title "work per step (sweeps, passes or Newton iterations)"
    set ylabel "per step"
    plot for [i = 1:n] file(word(names, i)) using 2:(lim(5)) with linespoints \
             lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) lw 2 notitle

    set title "steps reported not converged (out of budget)"
    set ylabel "fraction of steps"
    unset logscale y
    set yrange [-0.02:1.02]
    plot for [i = 1:n] file(word(names, i)) using 2:(lim(6) / column(7)) with linespoints \
             lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) lw 2 notitle
    set autoscale y
    set logscale y

    set title "kernel wall time of the run"
    set ylabel "ms"
    plot for [i = 1:n] tfile(word(names, i)) using 2:(lim(9)) with linespoints \
             lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) lw 2 notitle

    set title "newton: condition number of H (dpocon estimate, mean over frames)"
    set ylabel "cond(H)"
    plot for [i = 1:n] file(word(names, i)) using 2:(strstrt(word(names, i), "newton") ? lim(8) : NaN) \
             with linespoints lc rgb colour(word(names, i)) dt dash(word(names, i)) pt point(i) \
             lw 2 notitle
    unset multiplot
    set output
}
