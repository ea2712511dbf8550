#!/bin/sh
# Prints a libFuzzer dictionary of scene tokens from `cloth list`: every [section],
# key, "section.key=", default value, kernel name and every choice a key's help lists
# ("a | b | c"), then the extra tokens given.  Usage: make_dict.sh CLOTH_BIN [TOKEN...]
set -eu
bin=$1
shift
"$bin" list | awk '
    /^kernels:/ { kernels = 1; next }
    /^$/ { kernels = 0 }
    kernels && NF > 1 { print $1; next }
    /^  [a-z_]+\.[a-z_0-9]+ = / {
        line = substr($0, 3)
        split(line, lr, /  +/)               # "section.key = default", help
        eq = index(lr[1] " ", " = ")
        name = substr(lr[1], 1, eq - 1)
        dot = index(name, ".")
        print "[" substr(name, 1, dot - 1) "]"
        print substr(name, dot + 1)
        print name "="
        if (length(lr[1]) > eq + 2) print substr(lr[1], eq + 3)
        if (lr[2] ~ /^[a-z-]+ \|/) {
            n = split(lr[2], choice, / *\| */)
            for (i = 1; i <= n; i++) print choice[i]
        }
    }' | { cat; for t in "$@"; do echo "$t"; done; } |
    awk 'NF && !seen[$0]++' | sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&"/'
