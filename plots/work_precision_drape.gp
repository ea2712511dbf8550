# Work-precision on scene (d), the drape onto the sphere (issue 49; docs/figures.md,
# work-precision, "(d) the drape onto the sphere"): contact, so not the smooth ODE, and
# each kernel meets the sphere by its own contact model (newton: a cubic barrier within
# newton.dhat = 1 cm, fixed kappa; explicit, xpbd, pd: the contact stage's projection onto
# the sphere).  Reference: newton BDF2 at 256 substeps a frame, checked by self-convergence
# (wp.sh ownref drape).  A method of the other model converges to its own limit, a model
# gap away from the reference: an error floor there is that gap, not the integrator.
# Reads plots/data/work_precision_drape.csv and ..._check.csv, and for the CPU panel
# build/figures/work_precision/drape-drape/points.csv (least of 3 timed runs).  Crosses at
# 1 m: diverged; open squares: steps not converged.  Writes work_precision_drape.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
if (!exists("figname")) figname = "work_precision_drape"
set datafile separator ","
f = datadir . "/work_precision_drape.csv"
b = builddir . "/work_precision/drape-drape/points.csv"
check = datadir . "/work_precision_drape_check.csv"
tail = system(sprintf("awk -F, '$1 == 2 { printf \"%%.1e\", $7 }' %s", check))
# kernel names by design: the methods of the ODE diagram, newton with its barrier
methods = "symplectic velocity-verlet rk4 newton-euler newton-bdf2 newton-midpoint newton-euler-tol xpbd xpbd-substeps pd"
# kernel names by design: the legend of the curves above
labels = "'explicit symplectic, substeps (projection)' 'velocity Verlet, substeps (projection)' 'RK4, substeps (projection)' 'newton implicit Euler, substeps (barrier)' 'newton BDF2, substeps (barrier)' 'newton midpoint, substeps (barrier)' 'newton implicit Euler, tol (barrier)' 'xpbd, iterations (projection)' 'xpbd, substeps (projection)' 'pd, iterations (projection)'"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf"
ok(m) = strcol(1) eq m && strcol(6) eq "ok" && strcol(8) ne ""
bad(m) = strcol(1) eq m && strcol(8) eq ""
odd(m) = strcol(1) eq m && strcol(6) ne "ok" && strcol(8) ne ""
TOP = 1.0

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1800,600 enhanced font ",10"
        set output outdir . "/" . figname . ".png"
    } else {
        set terminal svg size 1800,600 enhanced font ",10"
        set output outdir . "/" . figname . ".svg"
    }
    set multiplot layout 1,3 title "(d) the drape onto the sphere (8×8 pinned at its corners, 1 s): contact is not smooth, every kernel with its own contact model\nreference: newton BDF2 (cubic barrier, d̂ = 1 cm) at 256 substeps a frame, its own error by self-convergence " . tail . " m RMS (dashed); the projection methods' floor at 8.8 mm is the gap between the two contact models, not their integrators"
    set logscale xy
    set grid
    set format y "10^{%L}"
    set format x "10^{%L}"
    set yrange [1e-7:3]
    set key at graph 0.99, 0.99 right top font ",8"
    set xlabel "work units (force evaluations, Newton iterations, XPBD passes, PD iterations)"
    do for [col in "8 9"] {
        c = col + 0
        set ylabel (c == 8 ? "max |x - x_{ref}| at T (m)" : "max |x - x_{ref}| over t_k = T/2, T (m)")
        plot for [mi = 1:words(methods)] f using (ok(word(methods, mi)) ? $12 : NaN):c \
                 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb word(colours, mi) \
                 title (c == 8 ? word(labels, mi) : ""), \
             for [mi = 1:words(methods)] f using (bad(word(methods, mi)) ? $12 : NaN):(TOP) \
                 with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
             for [mi = 1:words(methods)] f using (odd(word(methods, mi)) ? $12 : NaN):c \
                 with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle, \
             (tail + 0) with lines dt 2 lc rgb "black" notitle
        set key off
    }
    set key on
    set ylabel "max |x - x_{ref}| at T (m)"
    set xlabel "kernel CPU time, least of 3, one thread (ms)"
    if (system("test -f " . b . " && echo 1 || echo 0") eq "1") {
        plot for [mi = 1:words(methods)] b using (ok(word(methods, mi)) ? $13 : NaN):8 \
                 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb word(colours, mi) notitle, \
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
