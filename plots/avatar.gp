# Figure avatar: the cape on the turning mannequin and the tube skirt on the walking one
# (experiments/avatar_cape.ini, avatar_skirt.ini), every kernel that collides with a body
# (field through the back-transform) and verlet with the exact capsules: the deepest
# vertex inside the skin per frame, offset - d with d the exact distance to the skinned
# surface, against the target offset/2 = 5 mm.
# Reads plots/data/avatar_<scene>_<label>.csv (series.csv); writes avatar.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
set datafile separator ","
set key autotitle columnhead
labels = "explicit verlet pbd capsules"
col = "body_depth"

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1200,500 enhanced font ",11"
        set output outdir . "/avatar.png"
    } else {
        set terminal svg size 1200,500 enhanced font ",11"
        set output outdir . "/avatar.svg"
    }
    set multiplot layout 1,2 title "Cloth on the mannequin: deepest vertex inside the 1 cm skin (exact distance to the skinned surface)"
    set xlabel "time (s)"
    set ylabel "body depth  offset − d  (mm)"
    set grid
    set key top right
    set yrange [0:*]
    do for [scene in "cape skirt"] {
        set title (scene eq "cape" ? "cape pinned behind the neck, body turning" : "tube skirt, body walking")
        plot for [i = 1:4] datadir . "/avatar_" . scene . "_" . word(labels, i) . ".csv" \
                 using "time":(1000 * column(col)) with lines lw 2 \
                 title (i == 4 ? "verlet, exact capsules" : word(labels, i) . " (sdf)"), \
             5 with lines dt 2 lc rgb "black" title "offset/2"
    }
    unset multiplot
    set output
}
