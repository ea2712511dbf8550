# Work-precision against a kernel's own reference (issue 49; docs/figures.md,
# work-precision, "Against their own references"): two kernels that do not integrate the
# spring ODE, on the swing.  Top: verlet's relaxation (an inextensible material by design)
# against its limit, the rigid plate swinging about the pins' axis (the compound
# pendulum, wp.sh rigidref; exact to 1e-13 m).  Bottom: bw (Baraff and Witkin's
# linearised implicit Euler on its own conditions, another elastic model) against its own
# finest step (1024 substeps a frame, cg_tol 1e-8), checked by self-convergence (wp.sh
# ownref bw).  Reads plots/data/work_precision_own_PROBLEM_swing.csv (the sweep's rows),
# ..._check.csv (the reference's check) and ..._orders.csv, and for the CPU column
# build/figures/work_precision/PROBLEM-swing/points.csv (one timed run a point).
# Crosses at 1 m: diverged or failed; open squares: steps not converged.  Writes
# work_precision_own.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
if (!exists("figname")) figname = "work_precision_own"
set datafile separator ","
problems = "verlet bw"
rtitles = "'verlet (relaxation, 12 passes, no damping) against the rigid pendulum, its h → 0 limit' 'bw against its own reference: bw at 1024 substeps a frame, cg\\_tol 1e-8'"
# the curves of each problem: methods and legends
m_verlet = "verlet-relax verlet-relax-passes"
l_verlet = "'verlet relaxation over substeps (12 passes)' 'verlet relaxation over passes (16 substeps)'"
m_bw = "bw bw-tight bw-cg"
l_bw = "'bw over substeps (cg\\_tol 1e-4)' 'bw over substeps (cg\\_tol 1e-8)' 'bw over cg\\_tol (1 step a frame)'"
colours = "#1f77b4 #d62728 #2ca02c"
ok(m) = strcol(1) eq m && strcol(6) eq "ok" && strcol(8) ne ""
bad(m) = strcol(1) eq m && strcol(8) eq ""
odd(m) = strcol(1) eq m && strcol(6) ne "ok" && strcol(8) ne ""
TOP = 1.0

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1400,1000 enhanced font ",10"
        set output outdir . "/" . figname . ".png"
    } else {
        set terminal svg size 1400,1000 enhanced font ",10"
        set output outdir . "/" . figname . ".svg"
    }
    set multiplot layout 2,2 title "Against their own references (not the spring ODE's RK4 reference): swing, 8×8, max vertex distance at T = 1 s"
    set logscale xy
    set grid
    set format y "10^{%L}"
    set format x "10^{%L}"
    set yrange [1e-4:3]
    do for [pi = 1:words(problems)] {
        p = word(problems, pi)
        f = datadir . "/work_precision_own_" . p . "_swing.csv"
        b = builddir . "/work_precision/" . p . "-swing/points.csv"
        orders = datadir . "/work_precision_own_" . p . "_orders.csv"
        check = datadir . "/work_precision_own_" . p . "_swing_check.csv"
        ms = value("m_" . p)
        ls = value("l_" . p)
        # the reference's own error at T: bw's self-convergence tail (RMS); the pendulum's
        # step-doubling difference (max)
        tail = system(sprintf("awk -F, '$1 == 2 { printf \"%%.1e\", $7 != \"\" ? $7 : $4 }' %s", check))
        order(m) = system(sprintf("awk -F, '$2 == \"%s\" && $4 != \"\" { printf \" (p = %%s, expected %%s)\", $4, $3 }' %s", m, orders))
        set title word(rtitles, pi) . "\nthe reference's own error: " . tail . " m (bw: its self-convergence estimate, RMS; dashed)"
        set ylabel "max |x - x_{ref}| at T (m), against its own reference"
        set key inside bottom left font ",9"
        set xlabel "work units (relaxation passes; CG iterations)"
        plot for [mi = 1:words(ms)] f using (ok(word(ms, mi)) ? $12 : NaN):8 \
                 with linespoints lw 1.5 pt 7 ps 0.7 lc rgb word(colours, mi) \
                 title word(ls, mi) . order(word(ms, mi)), \
             for [mi = 1:words(ms)] f using (bad(word(ms, mi)) ? $12 : NaN):(TOP) \
                 with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
             for [mi = 1:words(ms)] f using (odd(word(ms, mi)) ? $12 : NaN):8 \
                 with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle, \
             (tail + 0) with lines dt 2 lc rgb "black" notitle
        set xlabel "kernel CPU time, one timed run, one thread (ms)"
        set title word(rtitles, pi)
        if (system("test -f " . b . " && echo 1 || echo 0") eq "1") {
            plot for [mi = 1:words(ms)] b using (ok(word(ms, mi)) ? $13 : NaN):8 \
                     with linespoints lw 1.5 pt 7 ps 0.7 lc rgb word(colours, mi) notitle, \
                 for [mi = 1:words(ms)] b using (bad(word(ms, mi)) ? $13 : NaN):(TOP) \
                     with points pt 2 ps 1.2 lc rgb word(colours, mi) notitle, \
                 for [mi = 1:words(ms)] b using (odd(word(ms, mi)) ? $13 : NaN):8 \
                     with points pt 4 ps 1.6 lc rgb word(colours, mi) notitle, \
                 (tail + 0) with lines dt 2 lc rgb "black" notitle
        } else {
            set label 1 "no timings here: FIGURES=work\\_precision make figures\nputs them in build/figures/work\\_precision/" at graph 0.1, 0.5
            set xrange [0.1:1000]
            plot 1e-20 notitle
            unset label 1
            set autoscale x
        }
    }
    unset multiplot
}
