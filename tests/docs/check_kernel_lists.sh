#!/bin/sh
# "The tools read the table, never a list of names" (docs/architecture.md): fails when a
# tool or the docs' map lists the kernels by hand.  A hand list is a line naming four or
# more of the kernel table's names (`CLOTH list --kernels`), each a word of its own or with
# a suffix (newton_log, newton-euler).  Checked: the code of the figure scripts (plots/*.sh,
# plots/*.gp), of the benchmarks (tests/bench/*.c) and of the docs' generators
# (tests/docs/*.sh), their comments aside (prose that says which kernels an experiment
# runs), and every line of the docs' map (docs/README.md).  The pages about methods
# compare kernels by name on purpose and are not checked.  A line that names kernels for
# what they are, not to list them (a figure's legend of per-kernel meanings, an
# experiment's own schemes), follows a comment line saying "kernel names by design:" and
# why; the check prints how many such lines there are.
#   tests/docs/check_kernel_lists.sh CLOTH [FILE...]   (default: the files above)
set -eu
cloth=${1:?usage: check_kernel_lists.sh CLOTH [FILE...]}
shift
case $cloth in /*) ;; *) cloth=$(pwd)/$cloth ;; esac
cd "$(dirname "$0")/../.."
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
kernels=$("$cloth" list --kernels | awk -F, 'NR > 1 { printf "%s ", $1 }')
[ -n "$kernels" ] || { echo "kernel lists: $cloth list --kernels printed no kernel" >&2; exit 1; }
[ $# -gt 0 ] || set -- plots/*.sh plots/*.gp tests/bench/*.c tests/docs/*.sh docs/README.md
awk -v kernels="$kernels" '
    BEGIN { nk = split(kernels, k, " ") }
    FNR == 1 { by_design = 0 }
    # comments: # in scripts, /* ... */ and * lines in C
    FILENAME ~ /\.(sh|gp)$/ && /^[ \t]*#/ { by_design = /kernel names by design:/; next }
    FILENAME ~ /\.c$/ && /^[ \t]*(\/\*|\*)/ { by_design = /kernel names by design:/; next }
    by_design { by_design = 0; exempt++; next }
    {
        n = 0; list = ""
        for (i = 1; i <= nk; i++)
            if (match(" " $0 " ", "[^A-Za-z0-9_]" k[i] "([^A-Za-z0-9]|$)")) { n++; list = list " " k[i] }
        if (n >= 4) {
            printf "%s:%d: lists kernels by hand (%s ): take them from `cloth list --kernels` or cloth_kernel_info\n",
                FILENAME, FNR, list > "/dev/stderr"
            bad = 1
        }
    }
    END { print exempt + 0 > "/dev/stdout"; exit bad }' "$@" >"$tmp" ||
    { echo "kernel lists: a tool or page lists kernels by hand" >&2; exit 1; }
echo "kernel lists: no tool or page lists the $(echo $kernels | wc -w) kernels by hand" \
    "($(cat "$tmp") lines name kernels by design)"
