# Figure 8 (self_contact): the cloth-cloth contact scenes of issue 14, every kernel, per
# frame.  Columns: the four scenes (experiments/self_contact_{stack,drape3,spin,pile}.ini);
# rows: crossing triangles (intersections), smallest gap (min_gap), Newton iterations,
# condition number of Newton's matrix (cond_max), kernel wall time (wall_ms).
# Reads plots/data/self_contact_<scene>_<kernel>.csv (series.csv of each run of the
# scene's [sweep], columns by name); the wall-time row reads the same files with their
# wall_ms column from build/figures/self_contact/<scene>/<kernel>/series.csv (builddir):
# timings are not kept in plots/data.  Writes self_contact.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
scenes = "stack drape3 spin pile"
array titles[4] = [ \
    "(a) stack: two 5×5 sheets 3 cm apart, half a cell shifted;\nthe upper falls onto the lower (hung by its corners)", \
    "(b) drape3: three 8×8 sheets 3 cm apart,\ndropped onto a sphere of radius 0.5 m", \
    "(c) spin: a 10×10 cloth dropped onto a sphere spinning\nat 2 rad/s (no friction yet: the spin changes nothing)", \
    "(d) pile: a 9×13 cloth on the floor, held at one edge,\npushed together by a sphere moving at up to 0.9 m/s"]
kernels = "explicit verlet pbd newton"
colour(k) = k eq "explicit" ? "#e69f00" : k eq "verlet" ? "#9400d3" : k eq "pbd" ? "#009e73" : "#0072b2"
data(s, k) = datadir . "/self_contact_" . s . "_" . k . ".csv"
timing(s, k) = builddir . "/self_contact/" . s . "/" . k . "/series.csv"
# 1 when the file is there (a kernel this build lacks has no run)
have(f) = int(system("test -r '" . f . "' && echo 1 || echo 0"))
set datafile separator ","
set datafile missing ""

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 2000,2000 enhanced font ",11"
        set output outdir . "/self_contact.png"
    } else {
        set terminal svg size 2000,2000 enhanced font ",11"
        set output outdir . "/self_contact.svg"
    }
    set multiplot layout 5,4 columnsfirst title "Cloth–cloth contact scenes (issue 14), every kernel, per frame of 1/60 s.  Measured before point–triangle and edge–edge contact exist: newton has vertex–vertex self-contact only,\nexplicit, verlet and pbd have no self-collision yet (run.self\\_collision = on is set, and not yet read by them); material.thickness = 5 mm, newton ĝ = 5 mm, cubic barrier, dynamic κ" font ",13"
    set grid
    set xlabel "frame (1/60 s)"
    set key top right font ",9"
    set xrange [0:*]
    do for [i=1:words(scenes)] {
        s = word(scenes, i)
        set title titles[i] font ",11"

        set ylabel "crossing edge–triangle pairs (intersections)\n0: no part of the cloth passes through another"
        set yrange [0:*]
        set format y "%g"
        unset logscale y
        # the invisible line at 1 keeps the axis from collapsing when every count is 0
        plot for [k in kernels] (have(data(s, k)) ? data(s, k) : "< echo frame,intersections") \
            using "frame":"intersections" with lines lw 2 lc rgb colour(k) title k, \
            1 with lines lc rgb "#ff000000" notitle
        unset title

        set ylabel "smallest gap (mm, min\\_gap; cut at 10): sphere or floor;\nnewton also vertex pairs within thickness + ĝ"
        # the contact gaps are millimetres: the fall from up to 10 cm is cut off
        set yrange [-1:10]
        if (s eq "stack") {
            set label 1 "empty today: no obstacle in this scene,\nand no pair of newton's vertices came\nwithin thickness + ĝ = 1 cm" at graph 0.5, 0.8 center font ",10"
        }
        plot for [k in kernels] (have(data(s, k)) ? data(s, k) : "< echo frame,min_gap") \
            using "frame":(column("min_gap") * 1000) with lines lw 2 lc rgb colour(k) title k, \
            0 with lines lw 1 dt 2 lc rgb "black" notitle
        unset label 1

        set ylabel "Newton iterations in the frame\n(newton; the others do fixed passes)"
        set yrange [0:*]
        plot (have(data(s, "newton")) ? data(s, "newton") : "< echo frame,iterations") \
            using "frame":"iterations" with lines lw 2 lc rgb colour("newton") title "newton"

        set ylabel "largest cond(H) in the frame\n(newton; exact 2-norm λ_{max}/λ_{min})"
        set logscale y
        set yrange [*:*]
        set format y "10^{%T}"
        plot (have(data(s, "newton")) ? data(s, "newton") : "< echo frame,cond_max") \
            using "frame":"cond_max" with lines lw 2 lc rgb colour("newton") title "newton"

        set ylabel "kernel wall time of the frame (ms)\n(this machine, one thread)"
        set format y "%g"
        plot for [k in kernels] (have(timing(s, k)) ? timing(s, k) : "< echo frame,wall_ms") \
            using "frame":(column("wall_ms") > 0 ? column("wall_ms") : 1/0) with lines lw 1.5 \
            lc rgb colour(k) title k
        unset logscale y
    }
    unset multiplot
    set output
}
