#!/bin/sh
# `make check-install`: the library as a user who installed it sees it.
#  1. make install PREFIX=<tmp>/prefix; build tests/example/fall.c with only
#     `pkg-config --cflags --libs clothbench` against it, shared (run with
#     LD_LIBRARY_PATH) and static (`--static`, libcloth.a), and run both;
#  2. make install DESTDIR=<tmp>/stage (the default PREFIX): every file where PREFIX
#     says, the .pc naming PREFIX, not DESTDIR; make uninstall leaves no file behind.
# MAKE, BUILD and CC come from the Makefile.  Prints what it checks; exits 1 on a failure.
set -eu
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
tmp=$(pwd)/$BUILD/check-install
rm -rf "$tmp"
mkdir -p "$tmp"
fail() { echo "check-install: FAILED: $*"; exit 1; }

inst() { $MAKE --no-print-directory -s BUILD="$BUILD" "$@" >"$tmp/make.log" 2>&1 \
         || { cat "$tmp/make.log"; fail "make $*"; }; }

# 1. a prefix of our own, used as a user would
prefix=$tmp/prefix
inst install PREFIX="$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs clothbench) || fail "pkg-config does not find clothbench"
echo "pkg-config --cflags --libs clothbench: $flags"
soname=$(objdump -p "$prefix/lib/libcloth.so" | sed -n 's/^ *SONAME *//p')
[ "$soname" = libcloth.so.2 ] || fail "SONAME is '$soname', not libcloth.so.2"
echo "SONAME: $soname"

${CC:-cc} -std=c11 -Wall -Wextra -pedantic -Werror -o "$tmp/fall" tests/example/fall.c $flags -lm
LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/fall" | grep -q "libcloth.so.2 => $prefix/lib/" \
    || fail "fall (shared) does not load libcloth.so.2 from $prefix/lib"
echo "--- fall, shared (LD_LIBRARY_PATH=$prefix/lib)"
LD_LIBRARY_PATH="$prefix/lib" OPENBLAS_NUM_THREADS=1 "$tmp/fall" || fail "fall (shared)"

# static: the same flags with --static, and libcloth.a in place of -lcloth
static=$(pkg-config --static --libs clothbench | sed 's/-lcloth\b/-l:libcloth.a/')
${CC:-cc} -std=c11 -Wall -Wextra -pedantic -Werror -o "$tmp/fall-static" tests/example/fall.c \
    $(pkg-config --cflags clothbench) $static -lm || fail "fall (static) does not link"
! ldd "$tmp/fall-static" | grep -q libcloth || fail "fall (static) still needs libcloth.so"
echo "--- fall, static ($static)"
OPENBLAS_NUM_THREADS=1 "$tmp/fall-static" || fail "fall (static)"
"$prefix/bin/cloth" list >/dev/null || fail "the installed cloth does not run"
echo "installed cloth: runs"

# 2. a staged install under DESTDIR, then uninstall
stage=$tmp/stage
inst install DESTDIR="$stage"
for f in bin/cloth include/cloth.h lib/libcloth.a lib/libcloth.so.0.3.0 lib/libcloth.so.2 \
         lib/libcloth.so lib/pkgconfig/clothbench.pc; do
    [ -e "$stage/usr/local/$f" ] || fail "DESTDIR install has no /usr/local/$f"
done
grep -qx 'prefix=/usr/local' "$stage/usr/local/lib/pkgconfig/clothbench.pc" \
    || fail "the staged clothbench.pc does not say prefix=/usr/local"
echo "DESTDIR=$stage install:"
(cd "$stage" && find . ! -type d | sort | sed 's/^/  /')
inst uninstall DESTDIR="$stage"
left=$(find "$stage" ! -type d)
[ -z "$left" ] || fail "uninstall left $left"
echo "check-install: ok (shared, static, DESTDIR install and uninstall)"
