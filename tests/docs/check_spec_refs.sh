#!/bin/sh
# Every "SPEC n" or "SPEC n.m" cited in src/ and tests/ names a numbered heading of
# docs/spec.md ("## 4. Kernels", "### 4.4 newton ..."): "SPEC n" in the code means
# section n of that page.  Prints each citation with no section and exits 1.
set -eu
cd "$(dirname "$0")/../.."
sections=$(sed -n 's/^##* \([0-9][0-9]*\(\.[0-9][0-9]*\)*\)[. ].*/\1/p' docs/spec.md)
bad=0 n=0
for ref in $(grep -rhoE 'SPEC [0-9]+(\.[0-9]+)*' src tests | sed 's/^SPEC //' | sort -u); do
    n=$((n + 1))
    if ! printf '%s\n' $sections | grep -qx "$ref"; then
        echo "spec: SPEC $ref is cited here but docs/spec.md has no section $ref:"
        grep -rnE "SPEC $ref([^.0-9]|\$|\.[^0-9]|\.\$)" src tests | sed 's/^/  /'
        bad=1
    fi
done
[ $bad = 0 ] && echo "spec: the $n sections cited as SPEC n in src/ and tests/ are all in docs/spec.md"
exit $bad
