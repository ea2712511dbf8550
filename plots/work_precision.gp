# Work-precision diagrams (issue 49; docs/figures.md, work-precision): the three smooth
# scenes of experiments/work_precision/ (swing, wind, flag), every method over its cost
# knob against the checked RK4 reference at t = T = 1 s.  Reads
# plots/data/work_precision_SCENE.csv (one row a run: method, knob, value, substeps, h,
# status, rms_T, max_T, max_tk, rms_ie, max_ie, work) and work_precision_orders.csv (the
# fitted orders), and, for the CPU-time column, build/figures/work_precision/SCENE/points.csv
# (the same rows with wall_ms: the least of WP_REPEAT runs, one thread; not in plots/data).
# A run that diverged or failed (no positions at T) is drawn as a cross at the top of its
# panel (1 m), and one that finished with steps not converged as an open square at its
# error: marked, not dropped.  Writes work_precision.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
if (!exists("figname")) figname = "work_precision"
set datafile separator ","
orders = datadir . "/work_precision_orders.csv"
scenes = "swing wind flag"
titles = "'(a) swing: released from horizontal, 2 corners pinned' '(b) wind: (a) in turbulent wind, seed 1' '(c) flag: pinned pole, steady wind, drag'"
methods = "symplectic velocity-verlet rk4 newton-euler newton-bdf2 newton-midpoint newton-euler-tol xpbd xpbd-substeps pd"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf"
# observed (expected) order of a method on a scene, from the orders file
order(s, m) = system(sprintf("awk -F, '$1 == \"%s\" && $2 == \"%s\" && $4 != \"\" { printf \" p = %%s (%%s)\", $4, $3 }' %s", s, m, orders))
ok(m) = strcol(1) eq m && strcol(6) eq "ok" && strcol(8) ne ""
bad(m) = strcol(1) eq m && strcol(8) eq ""
odd(m) = strcol(1) eq m && strcol(6) ne "ok" && strcol(8) ne ""
TOP = 1.0

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1800,1500 enhanced font ",10"
        set output outdir . "/" . figname . ".png"
    } else {
        set terminal svg size 1800,1500 enhanced font ",10"
        set output outdir . "/" . figname . ".svg"
    }
    set multiplot layout 3,3 title "Work-precision: max vertex distance to the RK4 reference at T = 1 s, 8×8 cloth (× at 1 m: diverged or failed; □: steps not converged)"
    set logscale xy
    set grid
    set format y "10^{%L}"
    set format x "10^{%L}"
    set yrange [1e-13:3]
    do for [si = 1:3] {
        s = word(scenes, si)
        f = datadir . "/work_precision_" . s . ".csv"
        b = builddir . "/work_precision/" . s . "/points.csv"
        set title word(titles, si)
        set xlabel "work units (force evaluations, Newton iterations, XPBD passes, PD iterations)"
        set ylabel "max |x - x_{ref}| at T (m)"
        set key inside bottom left font ",8" spacing 0.9 maxrows 10
        plot for [mi = 1:words(methods)] f using (ok(word(methods, mi)) ? $12 : NaN):8 \
                 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb word(colours, mi) \
                 title word(methods, mi) . order(s, word(methods, mi)), \
             for [mi = 1:words(methods)] f using (bad(word(methods, mi)) ? $12 : NaN):(TOP) \
                 with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
             for [mi = 1:words(methods)] f using (odd(word(methods, mi)) ? $12 : NaN):8 \
                 with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle
        set xlabel "kernel CPU time, least of 3, one thread (ms)"
        if (system("test -f " . b . " && echo 1 || echo 0") eq "1") {
            plot for [mi = 1:words(methods)] b using (ok(word(methods, mi)) ? $13 : NaN):8 \
                     with linespoints lw 1.5 pt 7 ps 0.6 lc rgb word(colours, mi) notitle, \
                 for [mi = 1:words(methods)] b using (bad(word(methods, mi)) ? $13 : NaN):(TOP) \
                     with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
                 for [mi = 1:words(methods)] b using (odd(word(methods, mi)) ? $13 : NaN):8 \
                     with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle
        } else {
            set label 1 "no timings here: FIGURES=work\\_precision make figures\nputs them in build/figures/work\\_precision/" at graph 0.1, 0.5
            set xrange [0.1:1000]
            plot 1e-20 notitle
            unset label 1
            set autoscale x
        }
        set xlabel "iterations per step (h = 1/60 s)"
        set ylabel "max distance at T (m)"
        set key inside bottom left font ",8"
        set xrange [0.8:1300]
        plot f using (strcol(1) eq "xpbd" ? $3 : NaN):11 with linespoints lw 2 pt 7 lc rgb "#7f7f7f" title "xpbd to implicit Euler (same h)", \
             f using (strcol(1) eq "pd" ? $3 : NaN):11 with linespoints lw 2 pt 7 lc rgb "#17becf" title "pd to implicit Euler (same h)", \
             f using (strcol(1) eq "xpbd" ? $3 : NaN):8 with linespoints lw 1 dt 2 pt 6 lc rgb "#7f7f7f" title "xpbd to the reference", \
             f using (strcol(1) eq "pd" ? $3 : NaN):8 with linespoints lw 1 dt 2 pt 6 lc rgb "#17becf" title "pd to the reference", \
             f using (strcol(1) eq "newton-euler" && $4 == 1 ? 1 : NaN):8 with points pt 4 ps 1.5 lc rgb "#d62728" title "implicit Euler (h = 1/60) to the reference"
        set autoscale x
    }
    unset multiplot
}
