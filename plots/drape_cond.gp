# Figure 2 (drape_cond): the cubic-barrier article's drape test, five barrier/stiffness
# combinations of the newton kernel.  Reads plots/data/drape_<label>.csv (series.csv of
# each run of the [sweep] in experiments/drape.ini); writes drape_cond.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
labels = "log-fixed log-ipc cubic-fixed cubic-dynamic-step cubic-dynamic-iteration"
file(l) = datadir . "/drape_" . l . ".csv"
set datafile separator ","
set datafile missing ""

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1500,480 enhanced font ",11"
        set output outdir . "/drape_cond.png"
    } else {
        set terminal svg size 1500,480 enhanced font ",11"
        set output outdir . "/drape_cond.svg"
    }
    set multiplot layout 1,3 title "Drape: 16×16 cloth dropped on a sphere, 2 % strain limit, self-contact (newton kernel, h = 1/60 s)"
    set grid
    set xlabel "frame (1/60 s)"
    set key bottom right
    set logscale y
    set format y "10^{%T}"
    set ylabel "largest condition number of H in the frame"
    plot for [l in labels] file(l) using 1:14 every ::1 with lines lw 2 title l
    unset logscale y
    set format y "%g"
    set ylabel "Newton iterations per frame"
    set key top right
    # a step that stops at newton.max_iters (50, one step a frame) did not converge
    plot for [l in labels] file(l) using 1:13 every ::1 with lines lw 1.5 title l, \
         for [i=1:words(labels)] file(word(labels, i)) using 1:($13 >= 50 ? $13 : 1/0) every ::1 \
             with points pt 2 ps 2 lw 2 lc rgb "black" title (i == 1 ? "not converged (50 = max\\_iters)" : "")
    set ylabel "smallest gap: sphere or self-contact (mm)"
    set logscale y
    set format y "%g"
    plot for [l in labels] file(l) using 1:($11*1000) every ::1 with lines lw 1.5 title l
    unset multiplot
    set output
}
