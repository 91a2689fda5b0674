#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl top, on a terminal and off one. The terminal is a tmux pane
# (send-keys for the keys, capture-pane for the screen):
#   plain   stdout a file: a frame per second, then the last one, the
#           note of the program's own object (its first samples),
#           the command ended by --duration
#   screen  top -- CMD in a 100x30 pane: the frame, hot functions, the
#           note of a library dlopen()ed a while after the start; q ends
#           the command and top (0), the terminal settings as before,
#           the alternate screen left, the last frame left as text
#   attach  top -p PID in a 70x12 pane: the frame fits (no scrolling);
#           Ctrl-C ends top (0), the process runs on, traced by no one
# Skips (4) without tmux, or without profil.ko.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CTL=${PROFIL_CTL:-${TOP:-$here/../../..}/cli/profil-ctl}
WORK=$here/profil_ctl_work
SO=$here/profil_ctl_dso.so
W=$(mktemp -d /tmp/top_test.XXXXXX)
export TMUX_TMPDIR=$W
. "$here/ctl_tap.sh"
serve=

echo "TAP version 13"


cleanup()
{
	tmux kill-server 2>/dev/null
	[ -z "$serve" ] || { kill -KILL "$serve"; wait "$serve"; } 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

command -v tmux >/dev/null || skip_all "no tmux"
need_ctl "$CTL" "$WORK"
# The guest's /dev is a bare devtmpfs: tmux needs ptys.
if [ ! -e /dev/pts/ptmx ]; then
	mkdir -p /dev/pts
	mount -t devpts -o mode=620,ptmxmode=666 devpts /dev/pts ||
		skip_all "no devpts"
fi

echo "1..3"

# check DESC CONDITION...: one diagnostic line per failed condition.
fails=0
check()
{
	local what=$1

	shift
	if ! "$@"; then
		echo "# $what: failed"
		fails=$((fails + 1))
	fi
}

# Waits are bounds, not delays: they end as soon as the screen or file is
# there, and a slower kernel (make check-debug) multiplies them.
SCALE=${PROFIL_TIMEOUT_SCALE:-1}

# wait_screen SESSION SECS PATTERN: every capture appended to $W/SESSION.log
wait_screen()
{
	local s=$1 end=$((SECONDS + $2 * SCALE))

	while [ $SECONDS -lt $end ]; do
		tmux capture-pane -p -t "$s" >"$W/$s.now" 2>/dev/null || true
		cat "$W/$s.now" >>"$W/$s.log"
		grep -qE "$3" "$W/$s.now" && return 0
		sleep 0.2
	done
	return 1
}

wait_file() # FILE SECS
{
	local end=$((SECONDS + $2 * SCALE))

	while [ ! -s "$1" ] && [ $SECONDS -lt $end ]; do
		sleep 0.2
	done
	[ -s "$1" ]
}

dump() # FILE: as diagnostics
{
	sed 's/^/#   /' "$1" 2>/dev/null | tail -40
}

# 1. Not a terminal: plain frames.
fails=0
timeout $((60 * SCALE)) "$CTL" top -d 5 -- "$WORK" serve >"$W/plain" 2>"$W/plain.err"
rc=$?
check "exit status $rc" [ $rc -eq 0 ]
check "frames" [ "$(grep -c '^top: ' "$W/plain")" -ge 2 ]
check "last frame" grep -q '^top (end): ' "$W/plain"
check "samples/s" grep -q 'samples/s' "$W/plain"
# ld.so maps libc after the exec stop where the session starts.
check "object note" grep -qE '^note: new object: process [0-9]+, profil_ctl_work$' "$W/plain"
check "hot_a" grep -qE 'profil_ctl_work +hot_a$' "$W/plain"
check "no escape sequences" bash -c "! grep -q $'\033' '$W/plain'"
[ $fails -eq 0 ] || { dump "$W/plain"; dump "$W/plain.err"; }
result "$([ $fails -eq 0 ] && echo ok)" "top: plain output when stdout is no terminal"

# 2. top -- CMD on a terminal, ended by q.
fails=0
tmux new-session -d -s screen -x 100 -y 30 \
	"stty -a >$W/stty.before; $CTL top -- $WORK dlopen $SO 60 2.5 \
	 2>$W/screen.err; echo \$? >$W/screen.rc; stty -a >$W/stty.after; \
	 tmux display -p '#{alternate_on}' >$W/screen.alt; sleep 60"
check "frame" wait_screen screen 30 '^profil-ctl top: profil_ctl_work'
check "hot_dso" wait_screen screen 30 'hot_dso'
check "object note" grep -q 'note: new object: process [0-9]*, profil_ctl_dso.so' "$W/screen.log"
check "samples/s" grep -q 'samples/s' "$W/screen.now"
check "hot_a" grep -qE 'profil_ctl_work +hot_a' "$W/screen.log"
tmux send-keys -t screen q
check "exit" wait_file "$W/screen.rc" 30
check "exit status $(cat "$W/screen.rc" 2>/dev/null)" [ "$(cat "$W/screen.rc" 2>/dev/null)" = 0 ]
wait_file "$W/screen.alt" 30
check "terminal settings" cmp -s "$W/stty.before" "$W/stty.after"
check "alternate screen left" [ "$(cat "$W/screen.alt" 2>/dev/null)" = 0 ]
tmux capture-pane -p -t screen >"$W/screen.now"
check "last frame as text" grep -q '^top (end): profil_ctl_work' "$W/screen.now"
if [ $fails -ne 0 ]; then
	dump "$W/screen.now"
	dump "$W/screen.err"
	grep -a '^note' "$W/screen.log" | sort -u >"$W/screen.notes"
	dump "$W/screen.notes"
fi
result "$([ $fails -eq 0 ] && echo ok)" "top -- CMD under tmux: frame, object note, q"

# 3. top -p PID on a small terminal, ended by Ctrl-C.
fails=0
"$WORK" serve &
serve=$!
tmux new-session -d -s attach -x 70 -y 12 \
	"stty -a >$W/stty2.before; $CTL top -p $serve 2>$W/attach.err; \
	 echo \$? >$W/attach.rc; stty -a >$W/stty2.after; sleep 60"
check "hot_a" wait_screen attach 30 'hot_a'
check "frame fits: header on line 1" bash -c "head -1 '$W/attach.now' | grep -q '^profil-ctl top: pid $serve (profil_ctl_work)'"
tmux send-keys -t attach C-c
check "exit" wait_file "$W/attach.rc" 30
check "exit status $(cat "$W/attach.rc" 2>/dev/null)" [ "$(cat "$W/attach.rc" 2>/dev/null)" = 0 ]
wait_file "$W/stty2.after" 30
check "terminal settings" cmp -s "$W/stty2.before" "$W/stty2.after"
check "process lives on" kill -0 "$serve"
check "untraced" grep -q '^TracerPid:[[:space:]]*0$' "/proc/$serve/status"
[ $fails -eq 0 ] || { dump "$W/attach.now"; dump "$W/attach.err"; }
result "$([ $fails -eq 0 ] && echo ok)" "top -p PID under tmux: terminal size, Ctrl-C"

exit $failed
