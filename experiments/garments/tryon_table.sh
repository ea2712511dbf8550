#!/bin/sh
# The try-on table (docs/garments.md, Try-on; figure garments): each shipped garment
# on the mannequin with each kernel its tryon_*.ini's [sweep] has a line for, at that
# line's settings (90 frames, 1.5 s), measured by tryon_measure.py into
# plots/data/garments_tryon.csv.
#   experiments/garments/tryon_table.sh [RUNS_DIR] [CLOTH]
# A run whose RUNS_DIR/GARMENT_KERNEL/summary.csv exists is not run again.  GARMENTS
# picks the garments (GARMENTS="short_skirt long_skirt": the skirts alone, about 5 min
# at a load of 4 on 2 cores); KERNELS the kernels (default all four; the T-shirt's scene
# has no newton line: 32 min under load on the earlier pattern).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${1:-$ROOT/build/tryon}
CLOTH=${2:-$ROOT/build/cloth}
KERNELS=${KERNELS:-explicit verlet pbd newton}
GARMENTS=${GARMENTS:-short_skirt long_skirt tshirt}
CSV=$ROOT/plots/data/garments_tryon.csv
mkdir -p "$RUNS" "$ROOT/plots/data"
cd "$ROOT/experiments/garments"
python3 -c 'import tryon_measure; print(tryon_measure.CSV_HEADER)' >"$CSV.part"
for g in $GARMENTS; do
    for k in $KERNELS; do
        # the scene's [sweep] line for this kernel ("run = K: a=b; c=d"); none: not run
        if ! grep -q "^run = $k:" "tryon_$g.ini"; then
            echo "tryon_table: $g: no [sweep] line for $k, skipped"
            continue
        fi
        sweep=$(sed -n "s/^run = $k: *//p" "tryon_$g.ini" | tr -d ' ' | tr ';' ' ')
        set -- --set run.kernel="$k"
        for kv in $sweep; do set -- "$@" --set "$kv"; done
        if [ ! -f "$RUNS/${g}_$k/summary.csv" ]; then
            echo "tryon_table: $g with $k ..."
            "$CLOTH" run "tryon_$g.ini" "$@" --out "$RUNS/${g}_$k" >"$RUNS/${g}_$k.log" 2>&1 || true
        fi
        # a run refused at the start (exit 2: e.g. run.self_collision = on with a sewn pair
        # closer than material.thickness) has no row: say why
        if [ ! -f "$RUNS/${g}_$k/series.csv" ]; then
            echo "tryon_table: $g with $k: no run: $(tail -n 1 "$RUNS/${g}_$k.log")"
            continue
        fi
        python3 tryon_measure.py --csv "$g,$k" "$RUNS/${g}_$k" "tryon_$g.ini" "$CLOTH" >>"$CSV.part"
    done
done
mv "$CSV.part" "$CSV"
echo "wrote $CSV"
