# Figure 5 (energy_drift): the largest |energy drift| over ten periods of an undamped
# spring and chain, against the step h, log-log, for every kernel and scheme.
# Reads plots/data/energy_drift_{spring,chain}_<series>.dat (h, max |drift|, status);
# diverged runs are left out (their drift is not a drift but a blow-up).
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
series(f, system) = substr(f, strstrt(f, system . "_") + strlen(system) + 1, strlen(f) - 4)

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1200,640 enhanced font ",11"
        set output outdir . "/energy_drift.png"
    } else {
        set terminal svg size 1200,640 enhanced font ",11"
        set output outdir . "/energy_drift.svg"
    }
    set multiplot layout 1,2 title "Energy drift against the step: largest |drift| over ten periods (diverged runs left out)"
    set logscale xy
    set format y "10^{%L}"
    set xlabel "step h (s)"
    set ylabel "max |drift|  (|E − E_0| / E_{scale})"
    set grid
    set key outside below center maxrows 5 font ",9"
    do for [system in "spring chain"] {
        files = system("ls " . datadir . "/energy_drift_" . system . "_*.dat 2>/dev/null")
        set title (system eq "spring" ? "one spring (ω = 10 rad/s)" : "chain of 5 free vertices")
        plot for [f in files] f using 1:(strcol(3) ne "diverged" ? $2 : 1/0) with linespoints lw 2 title series(f, system), \
             1e-1 * (x / 1e-2) with lines dt 2 lc rgb "gray40" title "slope 1 (h^1)", \
             1e-3 * (x / 1e-2)**2 with lines dt 3 lc rgb "gray40" title "slope 2 (h^2)", \
             1e-6 * (x / 1e-2)**5 with lines dt 4 lc rgb "gray40" title "slope 5 (h^5)"
    }
    unset multiplot
    set output
}
