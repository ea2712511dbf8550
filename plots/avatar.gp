# Figure avatar: the cape on the turning mannequin and the tube skirt on the walking one
# (experiments/avatar_cape.ini, avatar_skirt.ini), every kernel with the field through
# the back-transform (sdf), and verlet with the two comparison methods, the exact
# capsules and the ellipsoid bounds with point-triangle tests; bw and pd (5 substeps:
# at one step a frame the turning body pushes the cape 43-45 mm into the skin) with the
# field as explicit; newton with the field
# (its gap the union of the body's rigidly moved parts' fields: docs/avatar.md).  Top: the deepest vertex inside the skin per frame, offset - d with d
# the exact distance to the skinned surface, against the target offset/2 = 5 mm.
# Bottom: each run's kernel wall time a frame (sweep.csv: wall_ms / frames), the body's
# collision included (the stage alone is timed by avatar_bench, README Avatar).
# Reads plots/data/avatar_<scene>_<label>.csv (series.csv without timings) and, for the
# times, builddir/avatar/<scene>/sweep.csv (make_figures.sh); writes avatar.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
set datafile separator ","
set key autotitle columnhead
# The kernels come from the table (make_figures.sh passes `cloth list --kernels`' names in
# `kernels`), one run each; verlet's two comparison methods follow the fourth kernel, where
# they stood before the later kernels came, so that every run keeps its colour.
if (!exists("kernels")) kernels = system("build/cloth list --kernels | awk -F, 'NR > 1 { printf \"%s \", $1 }'")
labels_all = ""
do for [i = 1:words(kernels)] {
    labels_all = labels_all . word(kernels, i) . (i == 4 ? " capsules ellipsoids " : " ")
}
labels(scene) = labels_all
# how a run differs from the scene's default (experiments/avatar_*.ini [sweep])
note(l) = l eq "newton" ? ", parts" : (l eq "bw" || l eq "pd") ? ", 5 substeps" : ""
title_of(scene, i) = word(labels(scene), i) eq "capsules" ? "verlet, exact capsules" : \
    word(labels(scene), i) eq "ellipsoids" ? "verlet, ellipsoids" : \
    word(labels(scene), i) . " (sdf" . note(word(labels(scene), i)) . ")"

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1300,900 enhanced font ",11"
        set output outdir . "/avatar.png"
    } else {
        set terminal svg size 1300,900 enhanced font ",11"
        set output outdir . "/avatar.svg"
    }
    set multiplot layout 2,2 title "Cloth on the mannequin: deepest vertex inside the 1 cm skin (exact distance to the skinned surface), and what the collision costs"
    set xlabel "time (s)"
    set grid
    set key top right opaque
    do for [scene in "cape skirt"] {
        set title (scene eq "cape" ? "cape pinned behind the neck, body turning" : "tube skirt, body walking")
        set ylabel "body depth  offset − d  (mm)"
        set yrange [0:*]
        unset logscale y
        plot for [i = 1:words(labels(scene))] datadir . "/avatar_" . scene . "_" . word(labels(scene), i) . ".csv" \
                 using "time":(1000 * column("body_depth")) with lines lw 2 lc i \
                 title title_of(scene, i), \
             5 with lines dt 2 lc rgb "black" title "offset/2"
    }
    do for [scene in "cape skirt"] {
        set title (scene eq "cape" ? "cape: kernel time a frame (the body's collision included)" : "skirt: kernel time a frame (the body's collision included)")
        set ylabel "kernel wall time a frame (ms)"
        set xlabel ""
        set logscale y
        set yrange [*:*]
        set style fill solid 0.6
        set boxwidth 0.6
        unset key
        set xtics rotate by -25 noenhanced
        plot builddir . "/avatar/" . scene . "/sweep.csv" \
             using 0:(column("wall_ms") / column("frames")):xtic(1) with boxes lc rgb "#4070a0"
        unset xtics; set xtics
        set key top right opaque
        set xlabel "time (s)"
    }
    unset multiplot
    set output
}
