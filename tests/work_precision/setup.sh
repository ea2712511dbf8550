# The set-up of the work-precision scripts (check.sh, report_check.sh), sourced after
# `set -eu` with NAME set: CLOTH made absolute from $1 (build/cloth), a temporary folder
# $tmp removed on exit, fail() naming the script, and the tree's top as the folder.
CLOTH=${1:-build/cloth}
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$NAME: $*" >&2; exit 1; }
cd "$top"
