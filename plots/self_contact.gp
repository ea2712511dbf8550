# Figure 8 (self_contact): the cloth-cloth contact scenes, every run of each
# scene's [sweep], per frame.  Columns: the five scenes
# (experiments/self_contact_{stack,drape3,spin,pile}.ini and flat_sheet_drop.ini); rows:
# crossing triangles (intersections), pairs that passed through between two frames
# (tunnelled), smallest gap (min_gap: to the sphere or floor, and newton's cloth-cloth
# d - thickness), Newton iterations, condition number of Newton's matrix (cond_max),
# kernel wall time (wall_ms) and the collision stage's share of it (collide_ms).
# Reads plots/data/self_contact_<scene>_<label>.csv (series.csv of each run, columns by
# name; the label is the sweep's, a kernel's name or KERNEL-variant, e.g. newton-mu0.4);
# the two timing rows (wall_ms, collide_ms) read each run's own
# build/figures/self_contact/<scene>/<label>/series.csv (builddir): timings are not kept
# in plots/data (copy_data in make_figures.sh drops both columns).  Colour says the kernel, the dash the run.self_collision mode (on solid,
# proximity dashed, particles dotted, another variant dash-dotted).  Writes
# self_contact.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
scenes = "stack drape3 spin pile flat"
array titles[5] = [ \
    "(a) stack: two 5×5 sheets 3 cm apart, half a cell shifted;\nthe upper falls onto the lower (hung by its corners)", \
    "(b) drape3: three 8×8 sheets 3 cm apart,\ndropped onto a sphere of radius 0.5 m", \
    "(c) spin: a 10×10 cloth dropped onto a sphere spinning at 2 rad/s;\nnewton-mu0.4: friction μ = 0.4; the other runs have none", \
    "(d) pile: a 9×13 cloth on the floor, held at one edge,\npushed together by a sphere moving at up to 0.9 m/s", \
    "(e) flat: a 5×5 sheet dropped flat onto\na pinned one 3 cm below, half a cell shifted"]

# the runs of a scene, as their labels (all, or those of one kernel)
runs(s) = system(sprintf("cd '%s' && ls self_contact_%s_*.csv 2>/dev/null | sed 's/^self_contact_%s_//; s/[.]csv$//' | tr '\\n' ' '", datadir, s, s))
runs_of(s, k) = system(sprintf("cd '%s' && ls self_contact_%s_%s*.csv 2>/dev/null | sed 's/^self_contact_%s_//; s/[.]csv$//' | tr '\\n' ' '", datadir, s, k, s))
kernel_of(l) = strstrt(l, "-") ? l[1:strstrt(l, "-") - 1] : l
colour(l) = kernel_of(l) eq "explicit" ? "#e69f00" : kernel_of(l) eq "verlet" ? "#9400d3" : \
            kernel_of(l) eq "pbd" ? "#009e73" : kernel_of(l) eq "bw" ? "#cc79a7" : \
            kernel_of(l) eq "pd" ? "#56b4e9" : "#0072b2"
# the mode a run's label names: on (no suffix) solid, proximity dashed, particles dotted
mode_dash(l) = strstrt(l, "proximity") ? 2 : strstrt(l, "particles") ? 3 : strstrt(l, "-") ? 4 : 1
dash(ls, i) = mode_dash(word(ls, i))
data(s, l) = datadir . "/self_contact_" . s . "_" . l . ".csv"
timing(s, l) = builddir . "/self_contact/" . s . "/" . l . "/series.csv"
# how many frames of a run's file have a value in the column
valued(f, col) = int(system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i } NR > 1 && c && $c != \"\" { n++ } END { print n + 0 }' '%s' 2>/dev/null", col, f)))
set datafile separator ","
set datafile missing ""

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 2500,2700 enhanced font ",11"
        set output outdir . "/self_contact.png"
    } else {
        set terminal svg size 2500,2700 enhanced font ",11"
        set output outdir . "/self_contact.svg"
    }
    set multiplot layout 7,5 columnsfirst title "Cloth–cloth contact scenes, every kernel, per frame of 1/60 s: run.self\\_collision = on (solid: Bridson's collision stage; newton: its IPC contact), proximity (dashed), particles (dotted); material.thickness = 5 mm;\nnewton: cubic barrier, dynamic κ, ĝ = 5 mm, one step a frame, exact condition numbers.  What each kernel does about cloth–cloth contact: README.\nmin\\_gap: the smallest gap to the sphere or the floor (every kernel) and, for newton, d − thickness of its point–triangle and edge–edge pairs closer than thickness + ĝ.\n(c): how fast the cloth turns with the sphere needs its velocities, which a run does not write; notebook 05 measures it" font ",13"
    set grid
    set xlabel "frame (1/60 s)"
    set key top right font ",9" opaque
    set xrange [0:*]
    do for [i=1:words(scenes)] {
        s = word(scenes, i)
        ls = runs(s)
        nls = runs_of(s, "newton")
        set title titles[i] font ",11"

        set ylabel "crossing edge–triangle pairs\n(intersections; 0: none crosses)"
        set yrange [0:*]
        set format y "%g"
        unset logscale y
        # the invisible line at 1 keeps the axis from collapsing when every count is 0;
        # the room above the largest count is the key's, which would hide a peak
        set offsets 0, 0, graph 0.35, 0
        plot for [j=1:words(ls)] data(s, word(ls, j)) using "frame":"intersections" \
                 with lines lw 2 dt dash(ls, j) lc rgb colour(word(ls, j)) title word(ls, j), \
             1 with lines lc rgb "#ff000000" notitle
        set offsets 0, 0, 0, 0
        unset title

        set ylabel "pairs passed through between frames\n(tunnelled; 0: none)"
        set offsets 0, 0, graph 0.35, 0
        plot for [j=1:words(ls)] data(s, word(ls, j)) using "frame":"tunnelled" \
                 with lines lw 2 dt dash(ls, j) lc rgb colour(word(ls, j)) title word(ls, j), \
             1 with lines lc rgb "#ff000000" notitle
        set offsets 0, 0, 0, 0

        set ylabel "smallest gap (mm; min\\_gap, cut at 10)\nobstacles; newton: also cloth–cloth"
        # the contact gaps are millimetres: the fall from up to 10 cm is cut off
        set yrange [-1:10]
        n = 0
        do for [j=1:words(ls)] { n = n + valued(data(s, word(ls, j)), "min_gap") }
        if (n == 0) {
            set label 1 "no value in any frame: no obstacle in this scene,\nand no contact pair came within thickness + ĝ" \
                at graph 0.5, 0.8 center font ",10"
        }
        plot for [j=1:words(ls)] data(s, word(ls, j)) using "frame":(column("min_gap") * 1000) \
                 with lines lw 2 dt dash(ls, j) lc rgb colour(word(ls, j)) title word(ls, j), \
             0 with lines lw 1 dt 2 lc rgb "black" notitle
        unset label 1

        set ylabel "Newton iterations in the frame\n(newton; the others do fixed passes)"
        set yrange [0:*]
        if (words(nls) == 0) {
            set label 2 "no newton run in this scene" at graph 0.5, 0.5 center font ",10"
            plot 1 with lines lc rgb "#ff000000" notitle
        } else {
            plot for [j=1:words(nls)] data(s, word(nls, j)) using "frame":"iterations" \
                with lines lw 2 dt dash(nls, j) lc rgb colour(word(nls, j)) title word(nls, j)
        }

        set ylabel "largest cond(H) in the frame\n(newton; exact 2-norm λ_{max}/λ_{min})"
        set logscale y
        set yrange [*:*]
        set format y "10^{%T}"
        if (words(nls) == 0) {
            plot 1 with lines lc rgb "#ff000000" notitle
            unset label 2
        } else {
            plot for [j=1:words(nls)] data(s, word(nls, j)) using "frame":"cond_max" \
                with lines lw 2 dt dash(nls, j) lc rgb colour(word(nls, j)) title word(nls, j)
        }

        set ylabel "kernel wall time of the frame (ms)\n(this machine, one thread)"
        set format y "%g"
        plot for [j=1:words(ls)] timing(s, word(ls, j)) \
            using "frame":(column("wall_ms") > 0 ? column("wall_ms") : 1/0) with lines lw 1.5 \
            dt dash(ls, j) lc rgb colour(word(ls, j)) title word(ls, j)

        set ylabel "collision stage's time of the frame (ms)\n(collide\\_ms; run.self\\_collision = on)"
        plot for [j=1:words(ls)] timing(s, word(ls, j)) \
            using "frame":(column("collide_ms") > 0 ? column("collide_ms") : 1/0) with lines lw 1.5 \
            dt dash(ls, j) lc rgb colour(word(ls, j)) title word(ls, j)
        unset logscale y
    }
    unset multiplot
    set output
}
