#!/bin/sh
# Checks the layering of src/ (README, Layout): a file includes only headers of its own
# layer and the layers below it, and no chain of includes among src/ files comes back to
# where it started.  Layers, lowest first:
#   core < garment < linalg < body < terms < sim < kernels < harness < app
#   (cloth.h, the public header: any)
# Prints every offending include and exits 1; prints one line and exits 0 when all hold.
set -eu
cd "$(dirname "$0")/../src"
rank() {
    case "$1" in
        core) echo 1 ;; garment) echo 2 ;; linalg) echo 3 ;; body) echo 4 ;; terms) echo 5 ;;
        sim) echo 6 ;; kernels) echo 7 ;; harness) echo 8 ;; app) echo 9 ;; *) echo 0 ;;
    esac
}
bad=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $(find . -name '*.[ch]' | sed 's#^\./##' | sort); do
    layer=${f%%/*}
    [ "$layer" = "$f" ] && layer=public
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        echo "$f $inc" >>"$edges"
        to=${inc%%/*}
        [ "$to" = "$inc" ] && continue                    # cloth.h
        if [ "$layer" = public ] || [ "$(rank "$to")" -gt "$(rank "$layer")" ]; then
            echo "layers: $f ($layer) includes $inc ($to), a higher layer"
            bad=1
        fi
    done
done
# A header that includes itself through others is a cycle: tsort names it.
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
    echo "layers: include cycle:"; cat "$edges.err"; bad=1
fi
rm -f "$edges.err"
[ $bad = 0 ] && echo "layers: $(find . -name '*.[ch]' | wc -l) files, no include goes up a layer, no cycle"
exit $bad
