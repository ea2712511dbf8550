# The report card's figure (report.sh): for each scene of the work-precision suite the
# committed curves of the built-in methods (plots/data/work_precision_SCENE.csv, thin;
# the drape onto the sphere's against newton's finest step, each kernel with its own
# contact model)
# and the reported kernel's runs (rdir/SCENE/points.csv, black; a diverged or failed run
# as a cross at 1 m, one with steps not converged as an open square): max vertex
# distance to the reference at T against work units.
# gnuplot -e "datadir='plots/data'; rdir='build/report/K'; kname='K'" report.gp
set datafile separator ","
scenes = "swing wind flag drape"
methods = "symplectic velocity-verlet rk4 newton-euler newton-bdf2 newton-midpoint newton-euler-tol xpbd xpbd-substeps pd"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf"
ok(m) = strcol(1) eq m && strcol(6) eq "ok" && strcol(8) ne ""
set terminal pngcairo size 2400,600 enhanced font ",10"
set output rdir . "/report.png"
set multiplot layout 1,4 title "Report card: " . kname . " (black) on the work-precision diagrams (8×8 cloth, T = 1 s; × at 1 m: diverged or failed; □: steps not converged)" noenhanced
set logscale xy
set grid
set format y "10^{%L}"
set format x "10^{%L}"
set yrange [1e-13:3]
set xlabel "work units (the method's own: force evaluations, iterations, passes)"
set ylabel "max |x - x_{ref}| at T (m)"
set key inside bottom left font ",7" spacing 0.8
do for [si = 1:words(scenes)] {
    s = word(scenes, si)
    f = datadir . "/work_precision_" . s . ".csv"
    r = rdir . "/" . s . "/points.csv"
    set title (s eq "drape" ? "drape (d): vs newton's finest step, own contact models" : s) noenhanced
    plot for [mi = 1:words(methods)] f using (ok(word(methods, mi)) ? $12 : NaN):8 \
             with linespoints lw 1 pt 7 ps 0.4 lc rgb word(colours, mi) title word(methods, mi), \
         r using ((strcol(1) eq kname && strcol(6) eq "ok" && strcol(8) ne "") ? $12 : NaN):8 with linespoints lw 2.5 pt 5 ps 1.0 lc rgb "black" title kname . ": substeps" noenhanced, \
         r using ((strcol(1) ne kname && strcol(6) eq "ok" && strcol(8) ne "") ? $12 : NaN):8 with linespoints lw 2.5 dt 2 pt 9 ps 1.2 lc rgb "black" title kname . ": iterations" noenhanced, \
         r using (strcol(8) eq "" ? $12 : NaN):(1.0) with points pt 2 ps 1.5 lc rgb "black" notitle, \
         r using ((strcol(6) ne "ok" && strcol(8) ne "") ? $12 : NaN):8 with points pt 4 ps 2 lc rgb "black" notitle
}
unset multiplot
