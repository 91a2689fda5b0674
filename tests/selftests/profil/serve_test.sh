#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl serve: the machine's profile over HTTP, as Go's
# net/http/pprof serves a program's, with basic authentication.
#   mode     an auth file others may read: serve refuses to start (1)
#   pprof    go tool pprof fetches user:pass@.../profile?seconds=2: a
#            spinner's comm, its cgroup's path and its pid are labels
#   headers  200, application/octet-stream, attachment "profile", gzip
#   noauth   no credentials, wrong ones: 401, WWW-Authenticate Basic
#            realm="profil"; the same for nobody, a local user
#   seconds  abc, 0, -1, 100000: 400 with a one-line reason
#   paths    an unknown path 404, POST 405
#   shared   two overlapping requests: both 200, each a profile
#   idle     between requests the kernel holds no profile: record -a
#            runs; while it runs, a request gets 503 with its message
#   stop     SIGTERM with a request waiting: that one 503, serve exits 0
#            and the kernel's profile is closed
# Skips (4) without profil.ko.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CTL=${PROFIL_CTL:-${TOP:-$here/../../..}/cli/profil-ctl}
WORK=$here/profil_ctl_work
GO=${GO:-$(command -v go || echo /usr/lib/go/bin/go)}
PY=/usr/bin/python3
W=$(mktemp -d /tmp/serve_test.XXXXXX)
PORT=16060
. "$here/ctl_tap.sh"
spinner=
server=
cgroot=/sys/fs/cgroup

echo "TAP version 13"

cleanup()
{
	[ -n "$server" ] && kill -KILL "$server" 2>/dev/null
	[ -n "$spinner" ] && kill -KILL "$spinner" 2>/dev/null
	wait 2>/dev/null
	rmdir "$cgroot/serve_t" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

need_ctl "$CTL" "$WORK"
echo "1..10"

# The loopback interface, which a fresh guest may have down.
ip link set lo up 2>/dev/null

chmod 755 "$W"
cp "$WORK" "$W/serve_spin" || skip_all "cannot copy the workload"
mkdir -p "$W/home" "$W/pprof"

# get.py PATH [METHOD] [USER:PASS] [BODY]: one request to the server;
# prints "STATUS|WWW-Authenticate|Content-Type|Content-Disposition",
# the body to BODY (else to $W/body.<pid>).
cat >"$W/get.py" <<'PY'
import base64, http.client, sys
port, path = int(sys.argv[1]), sys.argv[2]
method = sys.argv[3] if len(sys.argv) > 3 else 'GET'
auth = sys.argv[4] if len(sys.argv) > 4 else ''
out = sys.argv[5] if len(sys.argv) > 5 else '/dev/null'
c = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
h = {}
if auth:
    h['Authorization'] = 'Basic ' + base64.b64encode(auth.encode()).decode()
c.request(method, path, headers=h)
r = c.getresponse()
body = r.read()
with open(out, 'wb') as f:
    f.write(body)
print('%d|%s|%s|%s' % (r.status, r.getheader('WWW-Authenticate') or '',
                       r.getheader('Content-Type') or '',
                       r.getheader('Content-Disposition') or ''))
PY
chmod 644 "$W/get.py"

get() # PATH [METHOD] [USER:PASS] [BODY]
{
	"$PY" "$W/get.py" "$PORT" "$@" 2>&1 | tail -1
}

# wait_port: until the server answers, 10 s at most.
wait_port()
{
	local i

	for i in $(seq 50); do
		"$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" \
			2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# The spinner, in a cgroup of its own.
"$W/serve_spin" spin 600 >/dev/null 2>&1 &
spinner=$!
grep -q "^[^ ]* $cgroot cgroup2 " /proc/mounts ||
	mount -t cgroup2 none "$cgroot" 2>/dev/null
mkdir -p "$cgroot/serve_t" && echo "$spinner" >"$cgroot/serve_t/cgroup.procs" ||
	echo "# cannot move the spinner into $cgroot/serve_t"

# mode: an auth file others may read is refused.
printf 'user:pass\n' >"$W/auth"
chmod 644 "$W/auth"
timeout 10 "$CTL" serve --listen=127.0.0.1:$PORT --auth-file="$W/auth" \
	>"$W/mode.out" 2>&1
st=$?
if [ "$st" -eq 1 ] && grep -q "chmod o=" "$W/mode.out" &&
   ! grep -q pass "$W/mode.out"; then
	result ok "mode: an auth file others may read is refused"
else
	echo "# mode: status $st"
	sed 's/^/# /' "$W/mode.out"
	result fail "mode: an auth file others may read is refused"
fi
chmod 600 "$W/auth"

"$CTL" serve --listen=127.0.0.1:$PORT --auth-file="$W/auth" --max-seconds=60 \
	>"$W/serve.log" 2>&1 &
server=$!
if ! wait_port; then
	sed 's/^/# /' "$W/serve.log"
	echo "Bail out! serve does not listen on 127.0.0.1:$PORT"
	exit 1
fi

# pprof: the real client, its labels.
url="http://user:pass@127.0.0.1:$PORT/debug/pprof/profile?seconds=2"
HOME=$W/home PPROF_TMPDIR=$W/pprof GOCACHE=$W/home/cache GOTOOLCHAIN=local \
	timeout 60 "$GO" tool pprof -traces "$url" >"$W/traces" 2>"$W/pprof.err"
st=$?
echo "# pprof: status $st, $(grep -c -- '-----' "$W/traces") traces"
if [ "$st" -eq 0 ] && grep -q "comm:.*serve_spin" "$W/traces" &&
   grep -q "cgroup:.*/serve_t" "$W/traces" &&
   grep -q "pid:.*$spinner" "$W/traces" &&
   grep -q "executable:.*serve_spin" "$W/traces"; then
	result ok "pprof: go tool pprof, the spinner's comm, cgroup, pid"
else
	sed 's/^/# /' "$W/pprof.err"
	head -40 "$W/traces" | sed 's/^/# /'
	result fail "pprof: go tool pprof, the spinner's comm, cgroup, pid"
fi

# headers: as Go's net/http/pprof answers.
r=$(get "/debug/pprof/profile?seconds=1" GET user:pass "$W/one.pb.gz")
echo "# headers: $r, $(stat -c %s "$W/one.pb.gz" 2>/dev/null) bytes"
if [ "$r" = '200||application/octet-stream|attachment; filename="profile"' ] &&
   "$PY" -c "import gzip, sys; sys.exit(len(gzip.open(sys.argv[1]).read()) == 0)" \
	"$W/one.pb.gz"; then
	result ok "headers: 200, octet-stream, attachment, gzip"
else
	result fail "headers: 200, octet-stream, attachment, gzip"
fi

# noauth: no credentials, wrong ones; and a local user without any.
fails=
r=$(get "/debug/pprof/profile?seconds=1")
echo "# noauth: none: $r"
[ "$r" = '401|Basic realm="profil"|text/plain; charset=utf-8|' ] || fails=1
r=$(get "/debug/pprof/profile?seconds=1" GET user:wrong)
echo "# noauth: wrong password: $r"
[ "${r%%|*}" = 401 ] || fails=1
r=$(get "/debug/pprof/profile?seconds=1" GET nobody:pass)
echo "# noauth: wrong user: $r"
[ "${r%%|*}" = 401 ] || fails=1
r=$(get "/nowhere" GET)
echo "# noauth: another path: $r"
[ "${r%%|*}" = 401 ] || fails=1
if [ -z "$fails" ]; then
	result ok "noauth: 401 and Basic realm=\"profil\" without credentials"
else
	result fail "noauth: 401 and Basic realm=\"profil\" without credentials"
fi
r=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$PY" "$W/get.py" "$PORT" "/debug/pprof/profile?seconds=1" 2>&1 | tail -1)
echo "# nobody: $r"
if [ "${r%%|*}" = 401 ]; then
	result ok "nobody: a local user without credentials gets 401"
else
	result fail "nobody: a local user without credentials gets 401"
fi

# seconds: refused with a reason of one line.
fails=
for s in abc 0 -1 100000 ""; do
	r=$(get "/debug/pprof/profile?seconds=$s" GET user:pass "$W/bad.txt")
	echo "# seconds '$s': ${r%%|*}: $(cat "$W/bad.txt")"
	[ "${r%%|*}" = 400 ] && [ "$(wc -l <"$W/bad.txt")" -eq 1 ] || fails=1
done
if [ -z "$fails" ]; then
	result ok "seconds: abc, 0, -1, 100000, empty: 400, one line"
else
	result fail "seconds: abc, 0, -1, 100000, empty: 400, one line"
fi

# paths: 404 elsewhere, 405 for another method.
a=$(get "/debug/pprof/heap" GET user:pass)
b=$(get "/debug/pprof/profile?seconds=1" POST user:pass)
echo "# paths: /debug/pprof/heap ${a%%|*}, POST ${b%%|*}"
if [ "${a%%|*}" = 404 ] && [ "${b%%|*}" = 405 ]; then
	result ok "paths: unknown path 404, POST 405"
else
	result fail "paths: unknown path 404, POST 405"
fi

# shared: two overlapping requests, each its own profile.
get "/debug/pprof/profile?seconds=3" GET user:pass "$W/a.pb.gz" >"$W/a.st" &
pa=$!
sleep 1
get "/debug/pprof/profile?seconds=2" GET user:pass "$W/b.pb.gz" >"$W/b.st" &
pb=$!
wait $pa $pb
cat >"$W/has.py" <<'PY'
import gzip, sys
d = gzip.open(sys.argv[1]).read()
sys.exit(0 if len(d) > 0 and b'serve_spin' in d else 1)
PY
echo "# shared: $(cut -d'|' -f1 "$W/a.st") $(cut -d'|' -f1 "$W/b.st")"
if [ "$(cut -d'|' -f1 "$W/a.st")" = 200 ] && [ "$(cut -d'|' -f1 "$W/b.st")" = 200 ] &&
   "$PY" "$W/has.py" "$W/a.pb.gz" && "$PY" "$W/has.py" "$W/b.pb.gz"; then
	result ok "shared: two overlapping requests, both 200 with a profile"
else
	result fail "shared: two overlapping requests, both 200 with a profile"
fi

# idle: no request, no profile in the kernel: record -a runs; and while
# it runs, serve answers 503 with the kernel's message.
"$CTL" record -a --duration 3 --format=csv -o "$W/rec.csv" >"$W/rec.out" 2>&1 &
rec=$!
sleep 1
r=$(get "/debug/pprof/profile?seconds=1" GET user:pass "$W/busy.txt")
wait $rec
st=$?
echo "# idle: record -a status $st; during it: ${r%%|*}: $(cat "$W/busy.txt")"
if [ "$st" -eq 0 ] && [ "${r%%|*}" = 503 ] &&
   grep -q "machine-wide profile" "$W/busy.txt"; then
	result ok "idle: record -a between requests; 503 during it"
else
	sed 's/^/# /' "$W/rec.out"
	result fail "idle: record -a between requests; 503 during it"
fi

# established: whether a connection to the server's port is up (its
# side of it in /proc/net/tcp, state 01).
established()
{
	awk -v port="$(printf ':%04X' "$PORT")" \
		'NR > 1 && substr($2, length($2) - 4) == port && $4 == "01" \
		 { found = 1 } END { exit !found }' /proc/net/tcp
}

# stop: SIGTERM ends a waiting request and the server. The request must
# be under way first: python's start can take seconds in a loaded guest.
get "/debug/pprof/profile?seconds=30" GET user:pass "$W/stop.txt" >"$W/stop.st" &
pw=$!
i=0
while ! established && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
# And its handler waiting in its seconds.
sleep 2
kill -TERM "$server"
t0=$(date +%s)
wait "$server"
st=$?
server=
wait $pw
t1=$(date +%s)
"$CTL" record -a --duration 1 --format=csv -o "$W/rec2.csv" >"$W/rec2.out" 2>&1
rst=$?
echo "# stop: status $st in $((t1 - t0)) s, request $(cut -d'|' -f1 "$W/stop.st"), record -a after: $rst"
if [ "$st" -eq 0 ] && [ "$((t1 - t0))" -lt 10 ] &&
   [ "$(cut -d'|' -f1 "$W/stop.st")" = 503 ] && [ "$rst" -eq 0 ]; then
	result ok "stop: SIGTERM, the waiting request 503, the profile closed"
else
	sed 's/^/# /' "$W/serve.log" "$W/rec2.out"
	result fail "stop: SIGTERM, the waiting request 503, the profile closed"
fi

exit $failed
