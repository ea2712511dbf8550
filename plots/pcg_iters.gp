# Figure (pcg_iters): what a condition number costs an iterative solver.  The drape
# refined to 64 x 64 (experiments/pcg_iters.ini), its Newton systems solved by PCG with
# block Jacobi to |r| <= 1e-3 |b|, every matrix's exact 2-norm condition number beside.
# Log (solid) vs cubic (dashed) barrier, each kappa rule a colour.  Reads
# plots/data/pcg_iters_<label>.csv (newton.csv of each run: frame, iter, ..., cond,
# ..., lin_iters by name); writes pcg_iters.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
labels = "log-fixed log-ipc log-dynamic cubic-fixed cubic-ipc cubic-dynamic"
file(l) = datadir . "/pcg_iters_" . l . ".csv"
dash(l) = strstrt(l, "cubic-") == 1 ? 2 : 1
colour(i) = word("#0072b2 #e69f00 #d55e00 #0072b2 #e69f00 #d55e00", i)
set datafile separator ","
set datafile missing ""

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1800,560 enhanced font ",11"
        set output outdir . "/pcg_iters.png"
    } else {
        set terminal svg size 1800,560 enhanced font ",11"
        set output outdir . "/pcg_iters.svg"
    }
    set multiplot layout 1,3 title "Drape at 64×64 (12 288 unknowns): PCG (block Jacobi, tol 10^{-3}) iterations and the exact condition number of every Newton matrix; solid: log barrier, dashed: cubic"
    set grid
    set xlabel "frame (1/60 s)"
    set key top left font ",9"
    set ylabel "PCG iterations per Newton iteration (mean over the frame's)"
    plot for [i=1:words(labels)] file(word(labels, i)) using "frame":"lin_iters" smooth unique \
        with linespoints pt 7 ps 0.5 lw 2 dt dash(word(labels, i)) lc rgb colour(i) \
        title word(labels, i)
    set logscale y
    set format y "10^{%T}"
    set ylabel "cond(H), exact 2-norm λ_{max}/λ_{min} (mean over the frame's)"
    plot for [i=1:words(labels)] file(word(labels, i)) using "frame":"cond" smooth unique \
        with linespoints pt 7 ps 0.5 lw 2 dt dash(word(labels, i)) lc rgb colour(i) \
        title word(labels, i)
    set logscale x
    set format x "10^{%T}"
    set xlabel "cond(H) of the Newton matrix"
    set ylabel "PCG iterations of its solve"
    set key top left font ",9"
    # CG's bound: iterations to reduce the error by a factor e grow like sqrt(cond)
    plot for [i=1:words(labels)] file(word(labels, i)) using "cond":"lin_iters" \
            with points pt (i <= 3 ? 7 : 6) ps 0.6 lc rgb colour(i) title word(labels, i), \
         c0 = 1, 2 * sqrt(x) with lines lw 1.5 dt 3 lc rgb "gray40" title "2 √cond (slope 1/2)"
    unset multiplot
    set output
}
