#!/bin/sh
# A stand-in for sbatch where no Slurm runs (tests/engines/check_engines.sh): it appends
# its arguments to $FAKE_SBATCH_LOG, runs what it is given at once, in order, and prints
# a job id as `sbatch --parsable` does.  An --array=1-N job runs its script N times with
# SLURM_ARRAY_TASK_ID = 1..N; --wrap runs the command with sh.  It checks what Slurm would
# refuse here: an unknown option, an array of more than 1000 tasks, a dependency on a job
# it did not hand out.
set -eu
echo "sbatch $*" >>"$FAKE_SBATCH_LOG"
count_file=$FAKE_SBATCH_LOG.id
id=$(( $(cat "$count_file" 2>/dev/null || echo 100) + 1 ))
echo "$id" >"$count_file"
array="" wrap="" chdir=.
while [ $# -gt 0 ]; do
    case $1 in
    --parsable|--output=*|--job-name=*) ;;
    --chdir=*) chdir=${1#--chdir=} ;;
    --array=1-*) array=${1#--array=1-} ;;
    --dependency=afterany:*)
        for dep in $(echo "${1#--dependency=afterany:}" | tr : ' '); do
            [ "$dep" -gt 100 ] && [ "$dep" -lt "$id" ] || { echo "fake sbatch: no job $dep" >&2; exit 1; }
        done ;;
    --wrap=*) wrap=${1#--wrap=} ;;
    -*) echo "fake sbatch: unknown option $1" >&2; exit 1 ;;
    *) break ;;
    esac
    shift
done
cd "$chdir"
if [ -n "$wrap" ]; then
    sh -c "$wrap" >/dev/null 2>&1 || true
elif [ -n "$array" ]; then
    [ "$array" -le 1000 ] || { echo "fake sbatch: array of $array tasks" >&2; exit 1; }
    i=1
    while [ "$i" -le "$array" ]; do
        SLURM_ARRAY_TASK_ID=$i sh "$@" >/dev/null 2>&1 || true
        i=$((i + 1))
    done
fi
echo "$id"
