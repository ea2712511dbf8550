#!/bin/sh
# make sweep: a scene's [sweep] through one engine (docs/outputs.md, engines).
#
#   experiments/sweep.sh ENGINE CLOTH SCENE OUT JOBS
#
#   local     cloth sweep --resume -j JOBS: the runs on JOBS threads of one process;
#             running it again goes on with the runs that have no result
#   parallel  cloth sweep --plan, GNU parallel runs OUT/jobs.tsv's commands JOBS at a time
#             (their output in OUT/parallel.out, one line a job in OUT/parallel.log), then
#             cloth sweep --collect
#   slurm     cloth sweep --plan, one Slurm array task per line of OUT/jobs.tsv
#             (experiments/slurm/sweep.sbatch; arrays of at most ARRAY_MAX tasks, default
#             1000, Slurm's default MaxArraySize being 1001) and a collect job that starts
#             when every task has ended (afterany); the output goes to OUT/slurm/.
#             SBATCH (default sbatch) is the submitting program, SLURM_ARGS more sbatch
#             options (a partition, a time limit).  Returns once submitted.
#
# Every command runs from the folder this is started in (make's: the project), where the
# plan is made: jobs.tsv's paths are relative to it.  Exits with the status of the collect
# (1 when a run is missing, failed or diverged) for local and parallel.
set -eu
[ $# -eq 5 ] || { echo "usage: $0 local|parallel|slurm CLOTH SCENE OUT JOBS" >&2; exit 2; }
engine=$1 cloth=$2 scene=$3 out=$4 jobs=$5
export OPENBLAS_NUM_THREADS=1      # one thread a run: the engines give the parallelism

case $engine in
local)
    exec "$cloth" sweep "$scene" --resume --out "$out" -j "$jobs" ;;
parallel)
    command -v parallel >/dev/null || { echo "sweep: GNU parallel is missing (make deps)" >&2; exit 2; }
    "$cloth" sweep "$scene" --plan --out "$out"
    # a job that fails (a diverged run exits 1) is reported by the collect, not here
    cut -f2- "$out/jobs.tsv" | parallel --will-cite -j "$jobs" --joblog "$out/parallel.log" \
        >"$out/parallel.out" 2>&1 || true
    exec "$cloth" sweep --collect "$out" ;;
slurm)
    sbatch=${SBATCH:-sbatch}
    "$cloth" sweep "$scene" --plan --out "$out"
    mkdir -p "$out/slurm"
    n=$(wc -l <"$out/jobs.tsv")
    max=${ARRAY_MAX:-1000}
    ids=""
    first=0
    while [ "$first" -lt "$n" ]; do
        count=$((n - first < max ? n - first : max))
        # task i of this array runs line first + i of jobs.tsv
        id=$($sbatch --parsable --chdir="$PWD" --array=1-"$count" ${SLURM_ARGS:-} \
                 --output="$out/slurm/run-%A_%a.out" experiments/slurm/sweep.sbatch "$out" "$first")
        ids="$ids:${id%%;*}"
        first=$((first + count))
    done
    $sbatch --parsable --chdir="$PWD" --dependency=afterany"$ids" ${SLURM_ARGS:-} \
        --job-name=cloth-collect --output="$out/slurm/collect-%j.out" \
        --wrap="\"$cloth\" sweep --collect \"$out\""
    echo "sweep: $n runs submitted (jobs${ids}); then $out/sweep.csv (see $out/slurm/)" ;;
*)
    echo "sweep: ENGINE is local, parallel or slurm, not '$engine'" >&2; exit 2 ;;
esac
