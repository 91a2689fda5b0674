#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-load: the suite on a loaded machine. A busy loop on every
# host core; under it, LOAD_RUNS times, `make check` in a fresh clone of
# HEAD inside a new mode-0700 directory (and, with LOAD_DEBUG=1, `make
# check-debug` in the same clone). Prints each run's totals and minutes,
# then a summary; fails if any run failed or skipped anything. The loops
# are killed on every way out (failure, Ctrl-C, TERM), and each one also
# stops by itself once this script is gone (SIGKILL).
#
# usage: check-load.sh                  the runs above
#        check-load.sh -- CMD [ARG...]  CMD under the same load (a single
#                                       T= program, say)
#
# Environment:
#   LOAD_RUNS   runs (3)
#   LOAD_DEBUG  1: make check-debug after each make check (0)
#   LOAD_CPUS   busy loops (nproc)
#   LOAD_DIR    where the clones go (~/.cache/profil/load); a passing run's
#               clone is removed, a failing one's kept with its logs
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${LOAD_RUNS:-3}
DEBUG=${LOAD_DEBUG:-0}
CPUS=${LOAD_CPUS:-$(nproc)}
# Not under /tmp: the guest mounts a fresh tmpfs there and recreates the
# path to the tree with mkdir -p (mode 0755), so a clone under /tmp would
# not show the guest its 0700 directory. Under $HOME (0700 for root and
# Debian's users) the guest sees the real modes through its 9p share.
LOAD_DIR=${LOAD_DIR:-${PROFIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profil}/load}

die() { echo "check-load: $*" >&2; exit 1; }

loads=()
# The busy loops: plain shell arithmetic, with a look every few
# hundredths of a second at whether this script still lives.
load_start()
{
	local i

	for ((i = 0; i < CPUS; i++)); do
		sh -c 'while kill -0 "$1" 2>/dev/null; do
			i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done
		       done' busy-loop "$$" &
		loads+=("$!")
	done
	echo "# load: $CPUS busy loops (pids ${loads[*]})"
}

load_stop()
{
	[ "${#loads[@]}" -gt 0 ] || return 0
	kill "${loads[@]}" 2>/dev/null
	wait "${loads[@]}" 2>/dev/null
	loads=()
}
trap load_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if [ "${1:-}" = -- ]; then
	shift
	[ $# -gt 0 ] || die "no command after --"
	load_start
	"$@"
	exit
fi

case $RUNS in
'' | *[!0-9]* | 0) die "LOAD_RUNS=$RUNS: a count of runs, at least 1" ;;
esac
sha=$(git -C "$TOP" rev-parse HEAD) || die "$TOP: not a git tree"
[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no)" ] ||
	echo "# check-load: uncommitted changes are not tested, only HEAD"
targets=(check)
[ "$DEBUG" != 1 ] || targets+=(check-debug)
mkdir -p "$LOAD_DIR" || die "$LOAD_DIR: cannot create"

summary=()
bad=0
# run_target DIR TARGET LABEL: make TARGET in the clone DIR, as a run of
# its own: the calling make's state (MAKEFLAGS, RUN_ID, CHECK_T0) stays
# out; the environment, with the variables given to make check-load
# (KFLAVOUR=, T=), goes in.
run_target()
{
	local dir=$1 target=$2 label=$3 log=$1/$2.log t0 secs rc totals
	local p f s line

	echo "# $label: make $target in $dir/profil (log $log)"
	t0=$(date +%s)
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u RUN_ID -u CHECK_T0 \
		make -C "$dir/profil" "$target" </dev/null >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' \
		 "$log" | tail -1)
	read -r p _ f _ s _ <<<"${totals:-x - x - x -}"
	if [ "$rc" -ne 0 ] || [ -z "$totals" ] || [ "$f" != 0 ] ||
	   [ "$s" != 0 ]; then
		grep -E '^(# )*not ok|^# .*: no results|^# build failed' \
			"$log" | head -20 | sed 's/^/#   /'
		tail -n 5 "$log" | sed 's/^/#   | /'
		totals="${totals:-no totals line} (exit $rc) FAILED"
		bad=$((bad + 1))
	fi
	line="$label: make $target: $totals in $((secs / 60)).$((secs % 60 * 10 / 60)) minutes ($secs s)"
	echo "# $line"
	summary+=("$line")
	[ "$rc" -eq 0 ] && [ "$f" = 0 ] && [ "$s" = 0 ]
}

echo "# check-load: $RUNS run(s) of make ${targets[*]} at $sha, $(nproc) cores"
load_start
t_all=$(date +%s)
for ((r = 1; r <= RUNS; r++)); do
	dir=$(mktemp -d -p "$LOAD_DIR" profil-load.XXXXXX) ||
		die "mktemp in $LOAD_DIR failed"
	chmod 0700 "$dir"
	if ! git clone -q --no-checkout "$TOP" "$dir/profil" ||
	   ! git -C "$dir/profil" checkout -q --detach "$sha"; then
		summary+=("run $r/$RUNS: clone of $sha failed FAILED")
		bad=$((bad + 1))
		continue
	fi
	ok=1
	for t in "${targets[@]}"; do
		run_target "$dir" "$t" "run $r/$RUNS" || ok=0
	done
	if [ "$ok" = 1 ]; then
		rm -rf "$dir"
	else
		echo "# run $r/$RUNS: kept $dir"
	fi
done
secs=$(($(date +%s) - t_all))
load_stop

echo "# check-load summary ($sha, $CPUS busy loops, $((secs / 60)) minutes):"
printf '#   %s\n' "${summary[@]}"
if [ "$bad" -eq 0 ]; then
	echo "# check-load: every run passed, nothing skipped"
else
	echo "# check-load: $bad run(s) failed or skipped"
fi
[ "$bad" -eq 0 ]
