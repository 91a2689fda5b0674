#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl and libprofil compile for another architecture: every
# source the Makefiles pick for aarch64 (no mcount
# assembly) compiled, not linked, with Debian's cross compiler
# (gcc-aarch64-linux-gnu; no arm64 libraries are needed: the headers of
# libelf, libdw and libmnl are the host's, taken after the cross libc's).
# pprof's protobuf-c sources (cli/gen/) are generated with the host's
# protoc-c first. Usage: check-portable.sh [BUILD_DIR]; CROSS_CC
# overrides the compiler.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build}/portable
cc=${CROSS_CC:-aarch64-linux-gnu-gcc}

if ! command -v "$cc" >/dev/null; then
	echo "check-portable: no $cc (make deps installs it)" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
flags=(-std=gnu11 -O2 -Wall -Wextra -Werror -idirafter /usr/include
       -I"$top/include/uapi" -I"$top/libprofil")
for l in . format symbols target profile util gen; do
	flags+=(-I"$top/cli/$l")
done
srcs() {	# the SRCS (or OBJS) a Makefile computes for $cc
	make -s -C "$1" CC="$cc" --eval="print-$2: ; @echo \$($2)" "print-$2"
}
make -s -C "$top/cli" gen/profile.pb-c.c >/dev/null
rc=0 n=0
for f in $(srcs "$top/cli" SRCS) gen/profile.pb-c.c; do
	"$cc" "${flags[@]}" -std=c11 -DPROFIL_CTL_VERSION='"check"' -c \
		"$top/cli/$f" -o "$out/cli_$(basename "$f" .c).o" || rc=1
	n=$((n + 1))
done
for o in $(srcs "$top/libprofil" OBJS); do
	"$cc" "${flags[@]}" -fPIC -fvisibility=hidden -c \
		"$top/libprofil/${o%.o}.c" -o "$out/lib_$o" || rc=1
	n=$((n + 1))
done
echo "check-portable: $n files for $("$cc" -dumpmachine): $([ $rc = 0 ] && echo ok || echo FAILED)"
exit $rc
