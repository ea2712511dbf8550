#!/bin/sh
# The try-on table (README, Garments, Try-on; figure garments): each shipped garment
# on the mannequin with explicit, verlet and pbd at each tryon_*.ini's [sweep] settings
# (90 frames, 1.5 s), measured by tryon_measure.py into plots/data/garments_tryon.csv.
#   experiments/garments/tryon_table.sh [RUNS_DIR] [CLOTH]
# A run whose RUNS_DIR/GARMENT_KERNEL/summary.csv exists is not run again.  Slow: about
# 25 min on the 2-core machine while it is quiet (explicit's 40 substeps dominate); a
# newton row can be appended to the CSV by hand or by adding it to KERNELS.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${1:-$ROOT/build/tryon}
CLOTH=${2:-$ROOT/build/cloth}
KERNELS=${KERNELS:-explicit verlet pbd}
CSV=$ROOT/plots/data/garments_tryon.csv
mkdir -p "$RUNS" "$ROOT/plots/data"
cd "$ROOT/experiments/garments"
python3 -c 'import tryon_measure; print(tryon_measure.CSV_HEADER)' >"$CSV.part"
for g in short_skirt long_skirt tshirt; do
    for k in $KERNELS; do
        case $k in
            explicit) set -- --set run.kernel=explicit --set run.substeps=40 ;;
            verlet) set -- --set run.kernel=verlet --set run.substeps=5 --set verlet.iterations=12 ;;
            pbd) set -- --set run.kernel=pbd --set run.substeps=5 --set pbd.iterations=10 ;;
            *) set -- --set run.kernel="$k" ;;
        esac
        if [ ! -f "$RUNS/${g}_$k/summary.csv" ]; then
            echo "tryon_table: $g with $k ..."
            "$CLOTH" run "tryon_$g.ini" "$@" --out "$RUNS/${g}_$k" >"$RUNS/${g}_$k.log" 2>&1 || true
        fi
        python3 tryon_measure.py --csv "$g,$k" "$RUNS/${g}_$k" "tryon_$g.ini" "$CLOTH" >>"$CSV.part"
    done
done
mv "$CSV.part" "$CSV"
echo "wrote $CSV"
