# cheapest.awk -v scene=NAME points.csv (with wall_ms): one markdown row per error target
# (1 cm, 1 mm, 0.1 mm): of all runs with status ok and max error at T within the target,
# the one of least kernel CPU time, and the runner-up method's cheapest run.
BEGIN { FS = ","; split("1e-2 1e-3 1e-4", target, " "); split("1 cm,1 mm,0.1 mm", tname, ",") }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["status"] == "ok" && $c["max_T"] != "" {
    for (j = 1; j <= 3; j++) if ($c["max_T"] + 0 <= target[j] + 0) {
        m = $c["method"]; t = $c["wall_ms"] + 0
        if (!((j, m) in best) || t < best[j, m]) {
            best[j, m] = t; what[j, m] = sprintf("%s %s = %s (%.2g m, %.3g ms)", m, $c["knob"], $c["value"], $c["max_T"], t)
        }
        methods[m] = 1
    }
}
END {
    for (j = 1; j <= 3; j++) {
        first = second = ""
        for (m in methods) if ((j, m) in best) {
            if (first == "" || best[j, m] < best[j, first]) { second = first; first = m }
            else if (second == "" || best[j, m] < best[j, second]) second = m
        }
        printf "| %s | %s | %s | %s |\n", scene, tname[j], first == "" ? "none" : what[j, first],
            second == "" ? "-" : what[j, second]
    }
}
