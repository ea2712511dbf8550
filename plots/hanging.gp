# Figure 1 (hanging): the Verlet cloth web demo's cloth on its bar, wind and a moving
# sphere, every kernel.
# Reads plots/data/hanging_<kernel>.csv (series.csv of each run); writes hanging.png/svg.
if (!exists("outdir")) outdir = "plots"
if (!exists("datadir")) datadir = "plots/data"
files = system("ls " . datadir . "/hanging_*.csv 2>/dev/null")
kernel(f) = substr(f, strstrt(f, "hanging_") + 8, strlen(f) - 4)
set datafile separator ","
set key autotitle columnhead

do for [term in "pngcairo svg"] {
    if (term eq "pngcairo") {
        set terminal pngcairo size 1200,500 enhanced font ",11"
        set output outdir . "/hanging.png"
    } else {
        set terminal svg size 1200,500 enhanced font ",11"
        set output outdir . "/hanging.svg"
    }
    set multiplot layout 1,2 title "Hanging cloth (30×24, wind with turbulence, moving sphere): every kernel"
    set xlabel "time (s)"
    set ylabel "energy drift (total − total_0) / E_{scale}"
    set grid
    set key top left
    plot for [f in files] f using 2:8 with lines lw 2 title kernel(f)
    set ylabel "max stretch  max(l/l_0 − 1) over structural and shear"
    plot for [f in files] f using 2:9 with lines lw 2 title kernel(f)
    unset multiplot
    set output
}
