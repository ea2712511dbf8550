#!/bin/sh
# The manual's checks (make check): docs/keys.md is what `make docs` writes now and
# documents every key `cloth list` prints; every "SPEC n" of the code is a section of
# docs/spec.md; every relative link and anchor of README.md and docs/ resolves; no tool
# or page lists the kernels by hand (check_kernel_lists.sh).
# Usage: check_docs.sh CLOTH   (CLOTH: the built CLI)
set -eu
cloth=${1:?usage: check_docs.sh CLOTH}
here=$(dirname "$0")
root=$here/../..
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
bad=0
"$here/make_keys.sh" "$cloth" >"$fresh"
if ! diff -u "$root/docs/keys.md" "$fresh" >"$fresh.diff"; then
    echo "docs: docs/keys.md is stale: run make docs and commit it; the difference:"
    cat "$fresh.diff"
    bad=1
fi
rm -f "$fresh.diff"
# staleness covers this too; it also catches a generator that drops a line
missing=0 keys=0
for key in $("$cloth" list | sed -n 's/^  \([a-z_]*\.[a-z_0-9]*\) = .*/\1/p'); do
    keys=$((keys + 1))
    if ! grep -qF "| \`$key\` |" "$root/docs/keys.md"; then
        echo "docs: key $key of cloth list is not in docs/keys.md"
        missing=1
    fi
done
[ $missing = 1 ] && bad=1
[ $bad = 0 ] && echo "docs: docs/keys.md is up to date and documents the $keys keys of cloth list"
"$here/check_spec_refs.sh" || bad=1
/usr/bin/python3 "$here/check_links.py" "$root" || bad=1
"$here/check_kernel_lists.sh" "$cloth" || bad=1
exit $bad
