#!/bin/sh
# Runs one fuzz target for a while and prints one line of numbers:
#   tests/fuzz/run.sh TARGET SECONDS
# The corpus grows in build/fuzz/corpus/TARGET (seeded from experiments/, tests/fuzz/seeds/
# and tests/fuzz/regressions/); a crash or leak stops the run, is saved under
# build/fuzz/crashes/TARGET/ and fails this script.  The full log is build/fuzz/TARGET.log.
set -eu
t=$1
seconds=$2
cd "$(dirname "$0")/../.."
corpus=build/fuzz/corpus/$t
crashes=build/fuzz/crashes/$t
log=build/fuzz/$t.log
mkdir -p "$corpus" "$crashes"
case $t in
    obj) seeds="experiments/meshes" dict=tests/fuzz/obj.dict ;;
    commands) seeds="" dict=tests/fuzz/commands.dict ;;
    events) seeds="" dict=tests/fuzz/events.dict ;;
    bvh) seeds="" dict=tests/fuzz/bvh.dict ;;
    *) seeds="experiments" dict=build/fuzz/$t.dict ;;
esac
dirs="$corpus"
for d in $seeds tests/fuzz/seeds/$t tests/fuzz/regressions/$t; do
    [ -d "$d" ] && dirs="$dirs $d"
done
status=0
# -timeout: an input slower than 30 s is a hang.  The fuzzing build (ASan and UBSan at -O1)
# runs this code about 15 times slower than the normal one: a commands input found on
# 2026-12-06 (a vertex dragged 20 m in one frame, whose tunnelling metric's CCD advances
# in many small steps) takes 1.1 s in build/replay_commands and 16.7 s here, slow but not
# hung, and the 10 s this limit was before made it a failure.  -rss_limit_mb: over 2 GiB
# is a bug here.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
build/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 -dict="$dict" \
    -artifact_prefix="$crashes/" -timeout=30 -rss_limit_mb=2048 -max_len=4096 \
    $dirs >"$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
found=$(find "$crashes" -type f | wc -l)
echo "fuzz $t: ${runs:-?} executions in $seconds s, coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}, crash/leak/timeout files ${found}"
if [ "$status" != 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20
    echo "fuzz $t: FAILED (see $log); once fixed, copy the input into tests/fuzz/regressions/$t/"
    exit 1
fi
