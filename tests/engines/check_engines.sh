#!/bin/sh
# The sweep engines (make sweep ENGINE=..., experiments/sweep.sh) on one 20-run sweep:
# local (-j 2), GNU parallel and Slurm must give the same sweep.csv apart from wall_ms.
# Slurm is not installed here: its engine runs through tests/engines/fake_sbatch.sh, which
# runs experiments/slurm/sweep.sbatch as an array task would, so the script, the array
# sizes (split at ARRAY_MAX) and the collect job's dependency are tested, Slurm itself not.
#   tests/engines/check_engines.sh CLOTH        (from the project folder)
set -eu
cloth=$1
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
scene=$tmp/engines.ini
cat >"$scene" <<'INI'
[mesh]
nx = 8
ny = 8
[run]
frames = 30
dt = 0.01
substeps = 4
[sweep]
run = sym: explicit.scheme=symplectic
run = fwd: explicit.scheme=forward; run.dt=0.3
vary = material.k_shear: 100, 200, 300, 400, 500
vary = material.k_bend: 10, 50
INI
# sweep.csv without wall_ms: the header names the columns; every field before wall_ms is
# free of commas, the message after it may hold some
strip() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ms") w = i }
             { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (out == "" ? "" : ",") $i
               print out }' "$1"
}
fail() { echo "engines: $*" >&2; exit 1; }

# REAL_SLURM=1 (tests/engines/check_slurm.sh): the real sbatch, Slurm already running
if [ -n "${REAL_SLURM:-}" ]; then
    sbatch=sbatch slurm_kind="a single-node Slurm"
else
    sbatch=tests/engines/fake_sbatch.sh slurm_kind="a stand-in sbatch"
fi
for engine in local parallel slurm; do
    status=0
    FAKE_SBATCH_LOG=$tmp/sbatch.log SBATCH=$sbatch ARRAY_MAX=8 \
        experiments/sweep.sh $engine "$cloth" "$scene" "$tmp/$engine" 2 \
        >"$tmp/$engine.out" 2>&1 || status=$?
    if [ $engine = slurm ] && [ -n "${REAL_SLURM:-}" ]; then
        # submitted: wait for the array and the collect job to leave the queue
        for i in $(seq 300); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            [ "$i" -lt 300 ] || fail "slurm: still queued after 300 s: $(squeue)"
            sleep 1
        done
        sed 's/^/  /' "$tmp/slurm/slurm/"collect-*.out
    fi
    [ -f "$tmp/$engine/sweep.csv" ] || { cat "$tmp/$engine.out"; fail "$engine: no sweep.csv"; }
    [ "$(wc -l <"$tmp/$engine/sweep.csv")" -eq 21 ] || fail "$engine: not 20 rows"
    strip "$tmp/$engine/sweep.csv" >"$tmp/$engine.csv"
    case $engine in
    local|parallel) # 10 forward runs diverge: the collect says so and exits 1
        [ $status -eq 1 ] || fail "$engine: exit $status, not 1"
        grep -q "10 ok, 0 not-converged, 10 diverged" "$tmp/$engine.out" || fail "$engine: $(cat "$tmp/$engine.out")" ;;
    slurm)
        [ $status -eq 0 ] || fail "slurm: exit $status"
        grep -q "sweep: 20 runs submitted (jobs:[0-9]*:[0-9]*:[0-9]*)" "$tmp/slurm.out" \
            || fail "slurm: not 3 arrays: $(cat "$tmp/slurm.out")"
        [ -z "${REAL_SLURM:-}" ] || continue
        [ "$(grep -c -- '--array=' "$tmp/sbatch.log")" -eq 3 ] || fail "slurm: not 3 arrays: $(cat "$tmp/sbatch.log")"
        grep -q -- "--array=1-8 .*sweep.sbatch $tmp/slurm 8$" "$tmp/sbatch.log" || fail "slurm: $(cat "$tmp/sbatch.log")"
        grep -q -- "--array=1-4 .*sweep.sbatch $tmp/slurm 16$" "$tmp/sbatch.log" || fail "slurm: $(cat "$tmp/sbatch.log")"
        grep -q -- "--dependency=afterany:101:102:103 .*--wrap=.* sweep --collect " "$tmp/sbatch.log" \
            || fail "slurm: no collect job: $(cat "$tmp/sbatch.log")" ;;
    esac
done
cmp -s "$tmp/local.csv" "$tmp/parallel.csv" || fail "local and parallel differ: $(diff "$tmp/local.csv" "$tmp/parallel.csv")"
cmp -s "$tmp/local.csv" "$tmp/slurm.csv" || fail "local and slurm differ: $(diff "$tmp/local.csv" "$tmp/slurm.csv")"
echo "engines: local, parallel and slurm ($slurm_kind) give the same 20-run sweep.csv"
