#!/bin/sh
# Wall time of one sweep through each engine of experiments/sweep.sh (docs/outputs.md,
# engines), and whether they agree: local and GNU parallel always, Slurm when a Slurm is
# up (squeue answers), e.g. the single-node one of tests/engines/check_slurm.sh:
#
#   experiments/engine_times.sh CLOTH SCENE OUT JOBS
#   tests/engines/check_slurm.sh CLOTH experiments/engine_times.sh CLOTH SCENE OUT JOBS
#
# Each engine sweeps into OUT/ENGINE from nothing (an OUT/ENGINE left from before is
# removed first).  Prints one line per engine: its wall time from the first command to
# sweep.csv (Slurm: from submitting to the collect job leaving the queue), the runs, and
# whether its sweep.csv equals local's apart from wall_ms.  Exits 1 if one differs.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 CLOTH SCENE OUT JOBS" >&2; exit 2; }
cloth=$1 scene=$2 out=$3 jobs=$4
mkdir -p "$out"
strip() {   # sweep.csv without its wall_ms column (as tests/engines/check_engines.sh)
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ms") w = i }
             { o = ""; for (i = 1; i <= NF; i++) if (i != w) o = o (o == "" ? "" : ",") $i
               print o }' "$1"
}
engines="local parallel"
squeue -h >/dev/null 2>&1 && engines="$engines slurm"
differ=0
for engine in $engines; do
    rm -rf "${out:?}/$engine"
    t0=$(date +%s.%N)
    experiments/sweep.sh "$engine" "$cloth" "$scene" "$out/$engine" "$jobs" \
        >"$out/$engine.log" 2>&1 || true
    if [ "$engine" = slurm ]; then
        while [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 1; done
    fi
    t1=$(date +%s.%N)
    csv=$out/$engine/sweep.csv
    if [ ! -f "$csv" ]; then
        echo "$engine: no sweep.csv (see $out/$engine.log)"
        differ=1
        continue
    fi
    strip "$csv" >"$out/$engine.stripped"
    same=same
    cmp -s "$out/local.stripped" "$out/$engine.stripped" || { same=DIFFERENT; differ=1; }
    printf '%-8s %8.1f s  %d runs  sweep.csv vs local: %s  (load %s)\n' "$engine" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" $(($(wc -l <"$csv") - 1)) "$same" \
        "$(cut -d' ' -f1 /proc/loadavg)"
done
exit $differ
