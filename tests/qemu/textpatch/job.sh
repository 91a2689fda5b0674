#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make textpatch's guest job: textpatch_load, built next to the module
# the harness loaded (pk_nop.ko), for 420 s, with tracefs mounted and
# perf open to every user. See textpatch_load.c.
set -eu
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T
echo -1 >/proc/sys/kernel/perf_event_paranoid
exec "$(dirname "$MODULE")/textpatch_load" 420 $T
