# SPDX-License-Identifier: GPL-2.0
#
# TAP 13 helpers shared by the host unit-test runner and the guest runner.
# Source it from bash. Output follows tools/testing/selftests/kselftest/
# runner.sh: a program's own output is nested behind "# ", then one
# "ok N name" line. The counters hold leaf results: every "ok"/"not ok"
# line a program prints, plus one result for a program that printed none
# or that failed (crash, timeout) without a "not ok" of its own.

TAP_N=0
TAP_PASS=0
TAP_FAIL=0
TAP_SKIP=0
TAP_PREFIX=${TAP_PREFIX-# }

tap_plan()
{
	echo "TAP version 13"
	echo "1..$1"
}

# tap_result ok|fail|skip DESCRIPTION [DIRECTIVE]: one harness step.
tap_result()
{
	TAP_N=$((TAP_N + 1))
	case $1 in
	ok)	echo "ok $TAP_N $2"
		TAP_PASS=$((TAP_PASS + 1)) ;;
	skip)	echo "ok $TAP_N $2 # SKIP${3:+ $3}"
		TAP_SKIP=$((TAP_SKIP + 1)) ;;
	*)	echo "not ok $TAP_N $2${3:+ # $3}"
		TAP_FAIL=$((TAP_FAIL + 1)) ;;
	esac
}

# tap_run NAME TIMEOUT CMD [ARG...]: run a TAP (or plain) program with a
# timeout, nest its output, count its results. Returns 0 unless it failed.
tap_run()
{
	local name=$1 secs=$2 log rcf rc p f s pid
	shift 2

	log=$(mktemp)
	rcf=$(mktemp)
	echo "# $name"
	# timeout leads a process group of its own: whatever the program left
	# behind (a stopped, traced child) is killed once it exits, or it
	# would hold the pipe open and hang the run.
	{
		timeout -k 5 "$secs" "$@" </dev/null 2>&1 &
		pid=$!
		wait "$pid"
		echo $? >"$rcf"
		kill -KILL -- "-$pid" 2>/dev/null
	} | tee "$log" | sed -u "s/^/$TAP_PREFIX/"
	rc=$(cat "$rcf")
	s=$(grep -ciE '^(not )?ok\b.*#[[:space:]]*skip' "$log") || true
	p=$(grep -E '^ok\b' "$log" | grep -civE '#[[:space:]]*skip') || true
	f=$(grep -E '^not ok\b' "$log" | grep -civE '#[[:space:]]*(skip|todo)') || true
	rm -f "$log" "$rcf"
	TAP_PASS=$((TAP_PASS + p))
	TAP_SKIP=$((TAP_SKIP + s))
	TAP_FAIL=$((TAP_FAIL + f))
	TAP_N=$((TAP_N + 1))
	case $rc in
	0)	echo "ok $TAP_N $name"
		[ $((p + s + f)) -gt 0 ] || TAP_PASS=$((TAP_PASS + 1))
		[ "$f" -eq 0 ] || return 1 ;;
	4)	echo "ok $TAP_N $name # SKIP"
		[ $((p + s + f)) -gt 0 ] || TAP_SKIP=$((TAP_SKIP + 1)) ;;
	124|137)
		echo "not ok $TAP_N $name # TIMEOUT $secs seconds"
		TAP_FAIL=$((TAP_FAIL + 1))
		return 1 ;;
	*)	echo "not ok $TAP_N $name # exit=$rc"
		[ "$f" -gt 0 ] || TAP_FAIL=$((TAP_FAIL + 1))
		return 1 ;;
	esac
	return 0
}

# tap_counts FILE: record "pass fail skip" for scripts/totals.sh.
tap_counts()
{
	echo "$TAP_PASS $TAP_FAIL $TAP_SKIP" >"$1"
}
