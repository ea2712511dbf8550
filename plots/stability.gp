# Figure 4 (stability): explicit schemes against the step bound h < 2/omega_max (and RK4's
# h < 2 sqrt 2 / omega_max, where its amplification factor leaves the unit circle), and
# newton's implicit integrators (euler, bdf2, midpoint), bw's linearised implicit Euler
# step and pd's local/global iterations, which the search finds stable at its cap of 4 x 2/omega_max.
# Left: energy drift against time at k = 500 N/m for steps around the bound
# (plots/data/stability_energy_<scheme>-<h/h_bound>.csv).  Right: the largest stable h
# found by bisection (no divergence, |drift| < 1 over 400 steps) against the stiffness,
# beside 2/omega_max from LAPACKE (plots/data/stability_h.csv).
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
explicit = system("ls " . datadir . "/stability_energy_*.csv 2>/dev/null | grep -v 'newton\\|_bw\\|_pd'")
implicit = system("ls " . datadir . "/stability_energy_*.csv 2>/dev/null | grep 'newton\\|_bw\\|_pd'")
label(f) = substr(f, strstrt(f, "energy_") + 7, strlen(f) - 4)
set datafile separator ","
colors = "#9400d3 #009e73 #0072b2 #e69f00 #d55e00 #56b4e9 #e51e10 #000000 #8b4513 #999999 #cc79a7 #004488"

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1200,520 enhanced font ",11"
        set output outdir . "/stability.png"
    } else {
        set terminal svg size 1200,520 enhanced font ",11"
        set output outdir . "/stability.svg"
    }
    # kernel names by design: the experiment's schemes
    set multiplot layout 1,2 title "Stability of explicit schemes, and of newton's implicit integrators, bw and pd at 4 × the bound (their markers coincide): 8×8 cloth hanging from its top row (no air)"
    set title "energy at k = 500 N/m, h as a fraction of 2/ω_{max}"
    set xlabel "time (s)"
    set ylabel "energy drift (total − total_0) / E_{scale}"
    set yrange [-0.1:1]
    set grid
    set key top left font ",9" title "scheme-h·ω_{max}/2"
    # a colour each (the default cycle has eight); newton's runs dashed
    plot for [i = 1:words(explicit)] word(explicit, i) using 2:8 with lines lw 2 \
             lc rgb word(colors, i) title label(word(explicit, i)), \
         for [i = 1:words(implicit)] word(implicit, i) using 2:8 with lines lw 2 dt 2 \
             lc rgb word(colors, words(explicit) + i) title label(word(implicit, i))
    unset yrange
    set title "largest stable step against stiffness"
    set logscale xy
    set xlabel "k_{structural} (N/m)  (shear 0.4 k, bend 0.1 k)"
    set ylabel "h (s)"
    set key bottom left title ""
    plot datadir . "/stability_h.csv" using 1:3 with lines lw 2 dt 2 lc rgb "black" title "bound 2/ω_{max} (LAPACKE)", \
         "" using 1:(sqrt(8) / $2) with lines lw 2 dt 3 lc rgb "#009e73" title "RK4's bound 2√2/ω_{max}", \
         "" using 1:5 with points pt 7 ps 1.4 title "symplectic Euler (measured)", \
         "" using 1:6 with points pt 6 ps 2 title "verlet (measured)", \
         "" using 1:7 with points pt 4 ps 1.6 title "velocity Verlet (measured)", \
         "" using 1:8 with points pt 9 ps 1.4 lc rgb "#009e73" title "RK4 (measured)", \
         "" using 1:4 with points pt 5 title "forward Euler (|drift| < 1 for 400 steps)", \
         "" using 1:9 with points pt 12 ps 2.2 lc rgb "#0072b2" title "newton euler (stable at the cap 4 × bound)", \
         "" using 1:10 with points pt 10 ps 1.8 lc rgb "#e69f00" title "newton bdf2", \
         "" using 1:11 with points pt 3 ps 1.4 lc rgb "#d55e00" title "newton midpoint", \
         "" using 1:12 with points pt 8 ps 1.4 lc rgb "#cc79a7" title "bw (one linearised implicit step)", \
         "" using 1:13 with points pt 1 ps 1.6 lc rgb "#56b4e9" title "pd (10 local/global iterations)"
    unset logscale
    unset multiplot
    set output
}
