# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the unit tests' shell drivers: the head of a saved profile
# (Documentation/profil-ctl/whole-program.rst, "The saved profile") of
# one process of one object at 250 Hz, without accounting, up to its one
# count line.
#
# usage: saved_one_object PATH COMM PID NRANGES, then NRANGES ranges

saved_one_object()
{
	cat <<SAVED
profil-ctl-profile 1
rate 250
bin-bytes 4
acct - - - - - - - -
objects 1
object 0 - "$1"
processes 1
process 0 $3 1 "$2" "$1" - - - - - - - -
counts 1
count 0 0 0 $4
SAVED
}
