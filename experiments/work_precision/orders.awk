# orders.awk -v scene=NAME points.csv: the observed order of every method swept over its
# substeps, printed as "scene,method,expected,observed,points,h_min,h_max".  The order is
# the least-squares slope of log(max_T) against log(h) over the method's asymptotic range:
# its runs with status ok and 1e-10 m < max_T < 1e-2 m (above the reference's own error,
# below where the motion is lost), at most the four smallest such h.  The expected orders
# are the methods' (mathematics, not this program's output): 1 for symplectic Euler,
# implicit Euler and XPBD's small steps, 2 for velocity Verlet, BDF2 and implicit midpoint,
# 4 for RK4.  Fewer than two points: observed is empty.  -v lo=, -v hi= replace the range
# (against a kernel's own reference: above the reference's own error).  The other
# problems' methods: verlet's relaxation (position Verlet with its constraints projected:
# first order, as XPBD's small steps) and bw (one linearised implicit Euler step) 1.
BEGIN {
    FS = ","
    exp_order["symplectic"] = 1; exp_order["velocity-verlet"] = 2; exp_order["rk4"] = 4
    exp_order["newton-euler"] = 1; exp_order["newton-bdf2"] = 2; exp_order["newton-midpoint"] = 2
    exp_order["xpbd-substeps"] = 1
    exp_order["verlet-relax"] = 1; exp_order["bw"] = 1; exp_order["bw-tight"] = 1
    if (lo == "") lo = 1e-10
    if (hi == "") hi = 1e-2
}
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["knob"] == "substeps" && ($c["method"] in exp_order) {
    m = $c["method"]
    if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
    e = $c["max_T"]
    if ($c["status"] == "ok" && e != "" && e + 0 > lo + 0 && e + 0 < hi + 0) {
        k = ++np[m]; hh[m, k] = $c["h"] + 0; ee[m, k] = e + 0
    }
}
END {
    print "scene,method,expected,observed,points,h_min,h_max"
    for (j = 1; j <= nm; j++) {
        m = order[j]; n = np[m]; first = n > 4 ? n - 3 : 1
        sx = sy = sxx = sxy = 0; k = 0
        for (i = first; i <= n; i++) {
            x = log(hh[m, i]); y = log(ee[m, i]); k++
            sx += x; sy += y; sxx += x * x; sxy += x * y
        }
        slope = k >= 2 ? sprintf("%.3f", (k * sxy - sx * sy) / (k * sxx - sx * sx)) : ""
        printf "%s,%s,%d,%s,%d,%s,%s\n", scene, m, exp_order[m], slope, k,
            k ? sprintf("%.6g", hh[m, n]) : "", k ? sprintf("%.6g", hh[m, first]) : ""
    }
}
