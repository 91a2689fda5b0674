#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# yama_test raises kernel.yama.ptrace_scope up to 3, which holds until
# reboot: it is the last of TEST_PROGS, so the last program of a boot.
exec "$(dirname "$0")/yama_test" "$@"
