# Work-precision of the strain-limited kernels at tau = 10 % (issue 49; docs/figures.md,
# work-precision, "The tau = 10 % set"): a different problem from the spring ODE's
# diagrams.  Every kernel with its own limit on the springs (Provot for explicit, verlet
# and bw, XPBD's unilateral constraints, pd's soft limit, newton's barrier) on the swing,
# against newton's barrier solution at its finest step (BDF2, 128 substeps a frame, cubic
# barrier on the springs, strain band 0.1: acting from 9 % on), checked by
# self-convergence (wp.sh ownref tau).  Reads plots/data/work_precision_tau_swing.csv and
# ..._check.csv, and for the CPU column build/figures/work_precision/tau-swing/points.csv
# (one timed run a point).  Crosses at 1 m: diverged or failed; open squares: steps not
# converged.  Writes work_precision_tau.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
if (!exists("figname")) figname = "work_precision_tau"
set datafile separator ","
f = datadir . "/work_precision_tau_swing.csv"
b = builddir . "/work_precision/tau-swing/points.csv"
check = datadir . "/work_precision_tau_swing_check.csv"
tail = system(sprintf("awk -F, '$1 == 2 { printf \"%%.1e\", $7 }' %s", check))
# kernel names by design: the set is one curve a kernel, each with its own strain limit
methods = "newton-barrier newton-barrier-bdf2 explicit-provot verlet-provot xpbd-limit xpbd-limit-substeps pd-limit bw-provot"
# kernel names by design: the legend of the curves above
labels = "'newton barrier, implicit Euler, substeps' 'newton barrier, BDF2, substeps' 'explicit symplectic + Provot, substeps (under verlet: the same runs to 1e-11 m)' 'verlet (Hooke) + Provot, substeps' 'xpbd + limit, iterations (1 step a frame)' 'xpbd + limit, substeps (1 iteration)' 'pd + soft limit, iterations (1 step a frame)' 'bw + Provot, substeps'"
colours = "#d62728 #9467bd #1f77b4 #ff7f0e #7f7f7f #bcbd22 #17becf #2ca02c"
ok(m) = strcol(1) eq m && strcol(6) eq "ok" && strcol(8) ne ""
bad(m) = strcol(1) eq m && strcol(8) eq ""
odd(m) = strcol(1) eq m && strcol(6) ne "ok" && strcol(8) ne ""
TOP = 1.0

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1400,600 enhanced font ",10"
        set output outdir . "/" . figname . ".png"
    } else {
        set terminal svg size 1400,600 enhanced font ",10"
        set output outdir . "/" . figname . ".svg"
    }
    set multiplot layout 1,2 title "A different problem: strain limit {/Symbol t} = 10 %, every limited kernel against newton's converged barrier solution (swing, 8×8, max vertex distance at T = 1 s)\nreference: newton BDF2 at 128 substeps a frame, cubic barrier on the springs, band 0.1 (from 9 %); its self-convergence estimates its own error at " . tail . " m RMS (dashed)"
    set logscale xy
    set grid
    set format y "10^{%L}"
    set format x "10^{%L}"
    set yrange [1e-5:3]
    set ylabel "max |x - x_{ref}| at T (m), against newton's barrier solution"
    set key at graph 0.99, 0.45 right top font ",8"
    set xlabel "work units (force evaluations, Newton iterations, XPBD passes, PD iterations, CG iterations)"
    plot for [mi = 1:words(methods)] f using (ok(word(methods, mi)) ? $12 : NaN):8 \
             with linespoints lw 1.5 pt 7 ps 0.7 lc rgb word(colours, mi) title word(labels, mi), \
         for [mi = 1:words(methods)] f using (bad(word(methods, mi)) ? $12 : NaN):(TOP) \
             with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
         for [mi = 1:words(methods)] f using (odd(word(methods, mi)) ? $12 : NaN):8 \
             with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle, \
         (tail + 0) with lines dt 2 lc rgb "black" title "the reference's own error (estimate, RMS)"
    set xlabel "kernel CPU time, one timed run, one thread (ms)"
    if (system("test -f " . b . " && echo 1 || echo 0") eq "1") {
        plot for [mi = 1:words(methods)] b using (ok(word(methods, mi)) ? $13 : NaN):8 \
                 with linespoints lw 1.5 pt 7 ps 0.7 lc rgb word(colours, mi) notitle, \
             for [mi = 1:words(methods)] b using (bad(word(methods, mi)) ? $13 : NaN):(TOP) \
                 with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
             for [mi = 1:words(methods)] b using (odd(word(methods, mi)) ? $13 : NaN):8 \
                 with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle, \
             (tail + 0) with lines dt 2 lc rgb "black" notitle
    } else {
        set label 1 "no timings here: FIGURES=work\\_precision make figures\nputs them in build/figures/work\\_precision/" at graph 0.1, 0.5
        set xrange [0.1:1000]
        plot 1e-20 notitle
        unset label 1
        set autoscale x
    }
    unset multiplot
}
