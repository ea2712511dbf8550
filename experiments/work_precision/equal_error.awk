# equal_error.awk -v me=KERNEL BASE.csv KERNEL.csv: a markdown table, one row per run of
# the kernel (status ok) and one column per built-in method of BASE (the timed sweep of
# wp.sh: points.csv with wall_ms): the method's CPU time at the kernel run's max error at
# T, by linear interpolation of log time against log error between the two neighbouring
# runs of the method (status ok) whose errors bracket it, and the ratio kernel / method.
# "-" when no two runs of the method bracket the error.
BEGIN { FS = "," }
FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; file++; next }
file == 1 && $c["status"] == "ok" && $c["max_T"] != "" && $c["wall_ms"] + 0 > 0 {
    m = $c["method"]
    if (!(m in n)) order[++nm] = m
    k = ++n[m]; e[m, k] = log($c["max_T"]); t[m, k] = log($c["wall_ms"])
}
file == 2 && !head {
    head = 1
    printf "| run of %s | max error at T (m) | its CPU ms |", me
    for (j = 1; j <= nm; j++) printf " %s ms (ratio) |", order[j]
    printf "\n|---|---|---|"
    for (j = 1; j <= nm; j++) printf "---|"
    printf "\n"
}
file == 2 {
    printf "| %s %s = %s | %s | %.3g |", $c["method"], $c["knob"], $c["value"], $c["max_T"], $c["wall_ms"]
    ok = $c["status"] == "ok" && $c["max_T"] != ""
    x = ok ? log($c["max_T"]) : 0
    for (j = 1; j <= nm; j++) {
        m = order[j]; cell = "-"
        for (k = 1; ok && k < n[m]; k++) {
            a = e[m, k]; b = e[m, k + 1]
            if ((x - a) * (x - b) <= 0 && a != b) {
                tm = exp(t[m, k] + (t[m, k + 1] - t[m, k]) * (x - a) / (b - a))
                cell = sprintf("%.3g (%.2gx)", tm, $c["wall_ms"] / tm)
                break
            }
        }
        printf " %s |", cell
    }
    printf "\n"
}
