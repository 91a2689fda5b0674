#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libprofil's "make install PREFIX=/usr", staged under a DESTDIR: nothing
# may land in linux-libc-dev's include/linux, and a program built with
# nothing but pkg-config's flags must find <profil.h> and <linux/profil.h>
# in the staged tree, link against the staged library and run.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d /tmp/profil-install.XXXXXX)
trap 'rm -rf "$stage"' EXIT
fail() { echo "not ok - $*"; exit 1; }

make -s -C "$top/libprofil" install PREFIX=/usr DESTDIR="$stage" >/dev/null
echo "ok - staged install"

inc=$stage/usr/include
[ -f "$inc/profil/linux/profil.h" ] || fail "no include/profil/linux/profil.h"
[ ! -e "$inc/linux" ] || fail "include/linux is installed into"
cmp -s "$inc/profil/linux/profil.h" "$top/include/uapi/linux/profil.h" ||
	fail "the UAPI header differs from the source's"
echo "ok - the UAPI header is in include/profil/linux, not include/linux"

export PKG_CONFIG_PATH=$stage/usr/lib/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$stage
cflags=$(pkg-config --cflags libprofil)
libs=$(pkg-config --libs libprofil)
case " $cflags " in
*" -I$inc/profil "*) ;;
*) fail "pkg-config --cflags lacks -I$inc/profil: $cflags" ;;
esac
echo "ok - pkg-config --cflags: $cflags"

cat >"$stage/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <linux/profil.h>
#include <profil.h>

int main(void)
{
	static const unsigned short bins[2] = { 1, 2 };
	const struct profil_gmon_hist h = {
		.low_pc = 0x1000, .high_pc = 0x1008, .hist_size = 2,
		.prof_rate = 100, .counts = bins, .width = sizeof(bins[0]),
	};
	FILE *f = tmpfile();

	/* Symbols of both version nodes, a constant of the UAPI header. */
	return !(f && profil_gmon_write(f, &h) == 0 && profil_strerror() &&
		 strcmp(PROFIL_GENL_NAME, "profil") == 0);
}
PROG
# shellcheck disable=SC2086 # word splitting of the flags is wanted
${CC:-cc} -std=c11 -Wall -Werror $cflags -M "$stage/prog.c" >"$stage/deps"
grep -q "$inc/profil/linux/profil.h" "$stage/deps" ||
	fail "<linux/profil.h> did not come from the staged tree"
grep -q "$inc/profil.h" "$stage/deps" ||
	fail "<profil.h> did not come from the staged tree"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Werror $cflags -o "$stage/prog" "$stage/prog.c" $libs
LD_LIBRARY_PATH=$stage/usr/lib "$stage/prog" || fail "the program failed"
objdump -T "$stage/prog" | grep -Eq 'PROFIL_1\.1\)? +profil_gmon_write$' ||
	fail "profil_gmon_write is not bound to PROFIL_1.1"
echo "ok - built with pkg-config against the staged tree, and ran"
