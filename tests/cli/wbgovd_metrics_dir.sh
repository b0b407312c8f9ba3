#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The metrics file's directory is not wbgovd's to make (node_exporter's,
# whose parent another user may own): it is checked and opened once at
# start, and the file is written through that descriptor. A directory
# swapped for a link after start (where Landlock is not there to refuse,
# root would write where the link leads) keeps getting the file, and the
# link's target nothing; at start, a link on the way, a directory of
# another user's or one others may write are refused (exit 73; -n: 78),
# naming why. Over the fixture tree, as nobody when run as root.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
ST=$tmp/st
MD=$tmp/prom
LOG=$tmp/log
cli_fixture "$FX"
mkdir "$MD" "$tmp/victim" "$tmp/open"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID=
trap '[ -n "$PID" ] && kill -KILL "$PID" 2>/dev/null; rm -rf "$tmp"' EXIT
# (a refusal at start: one that starts instead is stopped after 10 s)
daemon() { timeout 10 $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c /dev/null --bus none "$@"; }

# --- refused at start: a link on the way, others may write it
ln -s "$MD" "$tmp/link"
chmod 777 "$tmp/open"
for dir in "$tmp/link" "$tmp/open"; do
	case $dir in *link) why="a link on its way" ;; *) why="owned by another user, or writable by others" ;; esac
	rc=0
	daemon --metrics-file "$dir/wbgov.prom" >"$LOG" 2>&1 || rc=$?
	[ $rc = 73 ] || fail "metrics in $dir: exit $rc, want 73: $(cat "$LOG")"
	grep -q "metrics-file $dir/wbgov.prom: its directory $dir: $why" "$LOG" ||
		fail "metrics in $dir: not said why: $(cat "$LOG")"
	rc=0
	daemon -n --metrics-file "$dir/wbgov.prom" >"$LOG" 2>&1 || rc=$?
	[ $rc = 78 ] || fail "-n, metrics in $dir: exit $rc, want 78: $(cat "$LOG")"
done
# another user's (as root: root's own is the daemon's user's, nobody's is not)
if [ "$(id -u)" = 0 ]; then
	mkdir "$tmp/roots"
	chown root "$tmp/roots"
	rc=0
	daemon --metrics-file "$tmp/roots/wbgov.prom" >"$LOG" 2>&1 || rc=$?
	[ $rc = 73 ] && grep -q "owned by another user" "$LOG" ||
		fail "metrics in a directory of root's, wbgovd as nobody: exit $rc: $(cat "$LOG")"
fi

# --- started; the directory then swapped for a link to another
# (a subshell that execs: $! is wbgovd itself)
(exec $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c /dev/null --bus none \
	--metrics-file "$MD/wbgov.prom" --metrics-interval 1) >"$LOG" 2>&1 &
PID=$!
wait_for 5 test -s "$MD/wbgov.prom" || fail "no metrics file: $(cat "$LOG")"
$AS mv "$MD" "$tmp/prom.moved"
$AS ln -s "$tmp/victim" "$MD"
rm -f "$tmp/prom.moved/wbgov.prom"
wait_for 5 test -s "$tmp/prom.moved/wbgov.prom" ||
	fail "the file did not come back in the directory wbgovd opened: $(ls -la "$tmp/prom.moved" "$tmp/victim")"
sleep 1.2
[ -z "$(ls -A "$tmp/victim")" ] || fail "wbgovd wrote where the link leads: $(ls -la "$tmp/victim")"
kill -TERM "$PID"
wait "$PID" || fail "wbgovd exited $? on SIGTERM"
PID=
[ -z "$(ls -A "$tmp/victim")" ] || fail "wbgovd wrote where the link leads at stop: $(ls -la "$tmp/victim")"
grep -q "wbgov_daemon_up 0" "$tmp/prom.moved/wbgov.prom" || fail "the stop's metrics not in the directory opened"
echo "$me: ok"
