# Figure garments: the three shipped garments (experiments/garments/*.json) sewn on the
# mannequin and tried on with verlet (each tryon_*.ini: T pose, gravity, no pins, 1.5 s),
# front (the arms cut at |x| = 0.62 m) and side, drawn from the try-on's final.obj (the
# garment, in colour) and body.obj (the mannequin, grey), each triangle shaded by a fixed light (obj_triangles.awk); and
# per garment a table: vertices, triangles, smallest angle and verlet's sewing steps to
# weld (plots/data/garments_meshes.csv, from cloth garment), and the deepest vertex
# inside the skin over the try-on per kernel (plots/data/garments_tryon.csv, from
# experiments/garments/tryon_table.sh: every row of it, so a newton row shows when added).
# Reads builddir/garments/*.dat (make_figures.sh); writes garments.png.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
names = "short_skirt long_skirt tshirt"
titles = "'short skirt' 'long skirt' 'T-shirt'"
# the table of one garment: the mesh's row, then one line per kernel of the try-on CSV
table(g) = system(sprintf("awk -F, -v g=%s 'FNR == 1 { f++; next } \
    f == 1 && $1 == g && $2 == \"\" { printf \"sewing %%s (verlet):\\n%%s\\n\", ($7 == \"air\" ? \"in the air\" : \"on the body\"), $5 } \
    f == 1 && $1 == g && $2 != \"\" { printf \"%%s vertices, %%s triangles\\nsmallest angle %%s°\\nsewn %%s (verlet): %%s steps to weld\\n\\nmax body depth over 1.5 s (offset/2 = 5 mm),\\nstretch_max at frame 1 → at 1.5 s, per kernel:\\n\", $2, $3, $4, ($7 == \"air\" ? \"in the air\" : \"on the body\"), $6 } \
    f == 2 && $1 == g { printf \"  %%-8s %%5.2f mm   stretch %%.2f → %%.2f%%s\\n\", $2, $4, $7, $8, \
                        ($13 < 0.9 ? \"   fell off the body\" : \"\") }' \
    %s/garments_meshes.csv %s/garments_tryon.csv", g, datadir, datadir))

set view equal xyz
unset border; unset tics; unset key; unset colorbox
set pm3d depthorder noborder
# grey shades for the body (0 to 0.45), red ones for the garment (0.55 to 1)
set palette defined (0 "#404040", 0.45 "#e6e6e6", 0.55 "#5a0f0f", 1 "#f08070")
set cbrange [0:1]
set xrange [-0.95:0.95]; set yrange [-0.95:0.95]; set zrange [0.25:1.8]

# PNG only: the SVG of some 20 000 shaded triangles a view is 28 MB
do for [term in "pngcairo"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1500,1000 enhanced font ",11"
        set output outdir . "/garments.png"
    } else {
        set terminal svg size 1500,1000 enhanced font ",11"
        set output outdir . "/garments.svg"
    }
    set multiplot title "Garments sewn from patterns and tried on the mannequin (verlet, T pose, 1.5 s after dressing; front and side)"
    do for [i = 1:3] {
        g = word(names, i)
        do for [side = 0:1] {
            # front: the arms' span across; side: the body's depth only
            set origin (i - 1) / 3.0 + side * 0.19, 0.30
            set size (side == 0 ? 0.19 : 0.14), 0.66
            set view 90, (side == 0 ? 0 : 90), 1.6
            if (side == 0) { set xrange [-0.62:0.62]; set yrange [-0.3:0.3] } \
            else { set xrange [-0.3:0.3]; set yrange [-0.35:0.35] }
            set title (side == 0 ? word(titles, i) . ": front" : "side") offset 0, 4
            f = builddir . "/garments/" . g . ".dat"
            if (system("[ -f '" . f . "' ] && echo 1 || echo 0") + 0) {
                splot builddir . "/garments/body.dat" using 1:2:3:4 with pm3d, \
                      f using 1:2:3:4 with pm3d
            } else {
                set label 99 "did not weld\non the body" at 0, 0, 0.2 center
                splot builddir . "/garments/body.dat" using 1:2:3:4 with pm3d
                unset label 99
            }
        }
    }
    # the tables: an empty plot carrying each garment's text
    unset title
    set origin 0, 0
    set size 1, 0.30
    unset label
    do for [i = 1:3] {
        set label i table(word(names, i)) at screen (i - 1) / 3.0 + 0.02, 0.27 left front \
            font "Mono,10" noenhanced
    }
    unset xrange; unset yrange
    set xrange [0:1]; set yrange [0:1]
    plot NaN notitle
    unset label
    set xrange [-0.95:0.95]; set yrange [-0.95:0.95]
    unset multiplot
    set output
}
