# Figure 2 (drape_cond): the cubic-barrier article's drape test, barrier/stiffness
# combinations and kappa schedules of the newton kernel with the published kappa (paper
# form, solid; ZOZO's step loop dash-dotted) and two with the unit-consistent form (si,
# dashed); zozo-log and zozo-cubic are ZOZO's own configuration (newton.preset = zozo,
# beta = 1: its band starts at 0, not at the 1 % line).  Reads plots/data/drape_<label>.csv
# (series.csv of each run of the [sweep] in experiments/drape.ini, columns by name);
# writes drape_cond.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
labels = "log-fixed log-ipc cubic-fixed cubic-dynamic-step cubic-dynamic-iteration log-dynamic-monotone cubic-dynamic-monotone cubic-dynamic-zozo si-log-fixed si-cubic-dynamic-step zozo-log zozo-cubic"
file(l) = datadir . "/drape_" . l . ".csv"
dash(l) = strstrt(l, "si-") == 1 ? 2 : strstrt(l, "zozo-") == 1 ? 1 : strstrt(l, "zozo") ? 4 : 1
colour(i) = word("#0072b2 #56b4e9 #e69f00 #d55e00 #cc79a7 #004488 #994400 #000000 #0072b2 #d55e00 #009e73 #66cc99", i)
set datafile separator ","
set datafile missing ""

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1500,960 enhanced font ",11"
        set output outdir . "/drape_cond.png"
    } else {
        set terminal svg size 1500,960 enhanced font ",11"
        set output outdir . "/drape_cond.svg"
    }
    set multiplot layout 2,2 title "Drape: 16×16 cloth dropped on a sphere, 2 % strain limit on triangles (band from 1 %; zozo-*: ZOZO's configuration, from 0), self-contact (newton, h = 1/60 s); solid: paper κ, dashed: si κ"
    set grid
    set xlabel "frame (1/60 s)"
    set key bottom right font ",9"
    set logscale y
    set format y "10^{%T}"
    set ylabel "largest cond(H) in the frame (exact 2-norm, λ_{max}/λ_{min})"
    plot for [i=1:words(labels)] file(word(labels, i)) using "frame":"cond_max" with lines \
        lw 2 dt dash(word(labels, i)) lc rgb colour(i) title word(labels, i)
    unset logscale y
    set format y "%g"
    set ylabel "Newton iterations per frame"
    set key top right font ",9"
    # a step that stops at newton.max_iters (50, one step a frame) did not converge
    plot for [i=1:words(labels)] file(word(labels, i)) using "frame":"iterations" with lines \
             lw 1.5 dt dash(word(labels, i)) lc rgb colour(i) title word(labels, i), \
         for [i=1:words(labels)] file(word(labels, i)) \
             using "frame":(column("iterations") >= 50 ? column("iterations") : 1/0) \
             with points pt 2 ps 2 lw 2 lc rgb "black" title (i == 1 ? "not converged (50 = max\\_iters)" : "")
    set ylabel "largest σ_1 − 1 over triangles (the limited strain)"
    set key bottom right font ",9"
    plot 0.02 with lines lw 2 lc rgb "gray50" title "limit τ = 2 %", \
         0.01 with lines dt 3 lw 2 lc rgb "gray50" title "band starts (1 − β)τ = 1 %", \
         for [i=1:words(labels)] file(word(labels, i)) using "frame":"stretch_sigma_max" with lines \
             lw 1.5 dt dash(word(labels, i)) lc rgb colour(i) title word(labels, i)
    set ylabel "smallest gap: sphere or self-contact (mm)"
    set logscale y
    set format y "%g"
    set key bottom left font ",9"
    plot for [i=1:words(labels)] file(word(labels, i)) using "frame":(column("min_gap")*1000) \
        with lines lw 1.5 dt dash(word(labels, i)) lc rgb colour(i) title word(labels, i)
    unset multiplot
    set output
}
