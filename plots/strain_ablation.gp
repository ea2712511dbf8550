# Figure 3 (strain_ablation): one corner-pinned cloth under each kernel's strain limit
# tau.  Reads plots/data/strain_ablation_verlet.csv (Provot; tau = 0 is "off"),
# strain_ablation_pbd.csv (fewest plain-PBD iterations keeping the stretch within tau) and
# strain_ablation_newton_{triangle,edge}_{log,cubic}.csv (the strain barrier in ZOZO's band,
# beta = 0.5: it acts above tau/2); writes strain_ablation.png/svg.
# The wall time panel reads the same tables with their wall_ms column from
# build/figures/strain_ablation/ (builddir): timings are not kept in plots/data.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
if (!exists("builddir")) builddir = "build/figures"
verlet = datadir . "/strain_ablation_verlet.csv"
pbd = datadir . "/strain_ablation_pbd.csv"
nlog = datadir . "/strain_ablation_newton_triangle_log.csv"
ncub = datadir . "/strain_ablation_newton_triangle_cubic.csv"
elog = datadir . "/strain_ablation_newton_edge_log.csv"
ecub = datadir . "/strain_ablation_newton_edge_cubic.csv"
tverlet = builddir . "/strain_ablation/strain_ablation_verlet.csv"
tpbd = builddir . "/strain_ablation/strain_ablation_pbd.csv"
tnlog = builddir . "/strain_ablation/strain_ablation_newton_triangle_log.csv"
tncub = builddir . "/strain_ablation/strain_ablation_newton_triangle_cubic.csv"
telog = builddir . "/strain_ablation/strain_ablation_newton_edge_log.csv"
tecub = builddir . "/strain_ablation/strain_ablation_newton_edge_cubic.csv"
set datafile separator ","

stats verlet using ($2 == 0 ? $3 : NaN) nooutput
off_stretch = STATS_max
lim(col) = ($2 > 0 ? column(col) : NaN)

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1400,1000 enhanced font ",11"
        set output outdir . "/strain_ablation.png"
    } else {
        set terminal svg size 1400,1000 enhanced font ",11"
        set output outdir . "/strain_ablation.svg"
    }
    set multiplot layout 2,2 title "Strain-limit ablation: 16×16 cloth hung by two corners, 1.5 s (90 frames of 1/60 s)"
    set logscale x
    set xrange [0.0065:0.28]
    set xtics ("1 %%" 0.01, "2 %%" 0.02, "5 %%" 0.05, "10 %%" 0.1, "20 %%" 0.2)
    set xlabel "strain limit τ"
    set grid
    set logscale y
    set format y "%g"

    set title "max stretch over the run"
    set ylabel "max(l/l_0 − 1)"
    set key bottom right font ",9"
    plot x with lines lw 2 lc rgb "gray60" title "stretch = τ", \
         0.5 * x with lines dt 3 lw 2 lc rgb "gray60" title "newton's band starts: (1 − β)τ, β = 0.5", \
         off_stretch with lines dt 3 lw 2 lc rgb "black" title sprintf("no limit (%.3f)", off_stretch), \
         verlet using 2:(lim(3)) with linespoints lc rgb "#9400d3" pt 7 lw 2 title "verlet, Provot (10 substeps)", \
         pbd using 1:3 with linespoints lc rgb "#009e73" pt 5 lw 2 title "pbd, k_{pbd} = 1, fewest iterations", \
         nlog using 2:(lim(3)) with linespoints lc rgb "#0072b2" pt 9 lw 2 title "newton, log, triangles (σ)", \
         ncub using 2:(lim(3)) with linespoints lc rgb "#e69f00" pt 11 lw 2 title "newton, cubic, triangles (σ)", \
         elog using 2:(lim(3)) with linespoints lc rgb "#0072b2" pt 8 dt 2 lw 2 title "newton, log, edges", \
         ecub using 2:(lim(3)) with linespoints lc rgb "#e69f00" pt 10 dt 2 lw 2 title "newton, cubic, edges"

    set title "work per step"
    set ylabel "passes or iterations per step"
    set key top right font ",9"
    plot verlet using 2:(lim(4)) with linespoints lc rgb "#9400d3" pt 7 lw 2 title "verlet: Provot sweeps (budget 200)", \
         pbd using 1:2 with linespoints lc rgb "#009e73" pt 5 lw 2 title "pbd: iterations needed (1 substep)", \
         nlog using 2:(lim(4)) with linespoints lc rgb "#0072b2" pt 9 lw 2 title "newton log, triangles: Newton iterations", \
         ncub using 2:(lim(4)) with linespoints lc rgb "#e69f00" pt 11 lw 2 title "newton cubic, triangles", \
         elog using 2:(lim(4)) with linespoints lc rgb "#0072b2" pt 8 dt 2 lw 2 title "newton log, edges", \
         ecub using 2:(lim(4)) with linespoints lc rgb "#e69f00" pt 10 dt 2 lw 2 title "newton cubic, edges"

    set title "kernel wall time of the run"
    set ylabel "ms"
    plot tverlet using 2:(lim(8)) with linespoints lc rgb "#9400d3" pt 7 lw 2 title "verlet", \
         tpbd using 1:4 with linespoints lc rgb "#009e73" pt 5 lw 2 title "pbd", \
         tnlog using 2:(lim(8)) with linespoints lc rgb "#0072b2" pt 9 lw 2 title "newton, log, triangles", \
         tncub using 2:(lim(8)) with linespoints lc rgb "#e69f00" pt 11 lw 2 title "newton, cubic, triangles", \
         telog using 2:(lim(8)) with linespoints lc rgb "#0072b2" pt 8 dt 2 lw 2 title "newton, log, edges", \
         tecub using 2:(lim(8)) with linespoints lc rgb "#e69f00" pt 10 dt 2 lw 2 title "newton, cubic, edges"

    set title "newton: condition number of H (dpocon 1-norm estimate)"
    set ylabel "cond(H)"
    set key top right
    plot nlog using 2:(lim(7)) with linespoints lc rgb "#0072b2" pt 9 lw 2 title "log, triangles: mean over frames", \
         ncub using 2:(lim(7)) with linespoints lc rgb "#e69f00" pt 11 lw 2 title "cubic, triangles", \
         elog using 2:(lim(7)) with linespoints lc rgb "#0072b2" pt 8 dt 2 lw 2 title "log, edges", \
         ecub using 2:(lim(7)) with linespoints lc rgb "#e69f00" pt 10 dt 2 lw 2 title "cubic, edges"
    unset multiplot
    set output
}
