#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd's own settings in wbgov.conf's [global] (metrics, metrics_interval,
# bus), over the fixture tree, run as nobody when the test runs as root:
# - wbgovd -n: a bad value, a metrics directory that is not there, a
#   metrics file that is one of wbgovd's own: FILE:LINE and exit 78; a
#   metrics file outside the directories wbgovd.service may write: a
#   warning naming the ReadWritePaths= to add, exit 0; --metrics-interval
#   with metrics = in the file is no usage error, and reads 10s and 1500ms
#   as metrics_interval = does;
# - at start the file's metrics file is written every metrics_interval and
#   wbgovd is on the file's bus (a private dbus-daemon); --metrics-file and
#   --bus win over the file;
# - on SIGHUP a changed metrics file or bus is logged with its file and
#   line and not applied (the old file goes on, the new one never
#   appears, the name stays on the bus), a new interval and the rest of the
#   file apply; a bad value refuses the whole reload.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
FX=$tmp/fx
ST=$tmp/st
MD=$tmp/prom
CONF=$tmp/wbgov.conf
LOG=$tmp/log
cli_fixture "$FX"
mkdir "$MD" "$ST"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID=
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
conf() { printf '%s\n' "$@" >"$CONF"; chmod 644 "$CONF"; }
check() { # WANT_RC ARG...: wbgovd -n -c $CONF ARG... exits WANT_RC; stdout in $tmp/out, stderr in $tmp/err
	want=$1
	shift
	rc=0
	$AS "$D" -n -c "$CONF" --state-dir "$ST" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || fail "wbgovd -n $* with $(tr '\n' ' ' <"$CONF"): exit $rc, want $want: $(cat "$tmp/err")"
}
err_is() { [ "$(cat "$tmp/err")" = "$1" ] || fail "wbgovd -n said [$(cat "$tmp/err")], want [$1]"; }

# --- wbgovd -n
conf "[global]" "metrics = wbgov.prom"
check 78
err_is "$CONF:2: metrics = \"wbgov.prom\": want an absolute path to a file, without . or .. (or nothing: no metrics file)"
conf "metrics_interval = 0"
check 78
err_is "$CONF:1: metrics_interval = \"0\": want 1 to 3600 seconds (10, 10s, 1500ms)"
conf "target = 1s" "bus = systemd"
check 78
err_is "$CONF:2: bus = \"systemd\": want system, session, none or an address (unix:path=...; no other transport)"
# an address that would have root run a program, or try one after another
for a in "unixexec:path=/bin/sh" "unix:path=/nonexistent;unixexec:path=/bin/sh" "tcp:host=localhost,port=1"; do
	conf "bus = $a"
	check 78
	err_is "$CONF:1: bus = \"$a\": want system, session, none or an address (unix:path=...; no other transport)"
	rc=0
	$AS "$D" -n -c /dev/null --bus "$a" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 64 ] || fail "--bus $a: exit $rc, want 64: $(cat "$tmp/err")"
	err_is "wbgovd: --bus: want system, session, none or an address (unix:path=...; no other transport): $a"
done
conf "metrics = $tmp/nosuch/wbgov.prom"
check 78
grep -qx "$CONF:1: metrics = $tmp/nosuch/wbgov.prom: its directory $tmp/nosuch: No such file or directory" "$tmp/err" ||
	fail "a missing metrics directory: $(cat "$tmp/err")"
conf "" "metrics = $ST/status"
check 78
grep -qx "$CONF:2: metrics = $ST/status: that is wbgovd's own status file in its state directory" "$tmp/err" ||
	fail "a metrics file over wbgovd's status file: $(cat "$tmp/err")"
conf "metrics = $MD/wbgov.prom" "metrics_interval = 1" "bus = none"
check 0
[ "$(cat "$tmp/out")" = "configuration OK, 1 warning" ] || fail "wbgovd -n: $(cat "$tmp/out")"
err_is "$CONF:1: warning: metrics = $MD/wbgov.prom: wbgovd.service may write only under /run/wbgov and /var/lib/prometheus/node-exporter (ProtectSystem=strict): for another directory add a drop-in (systemctl edit wbgovd) with [Service] ReadWritePaths=$MD"
check 0 --metrics-interval 5
# the command line reads an interval as the file does (one parser)
for iv in 10s 1500ms 3600; do
	check 0 --metrics-interval "$iv"
done
for iv in 0.5 999ms 3601 1h x; do
	check 64 --metrics-interval "$iv"
	err_is "wbgovd: --metrics-interval wants 1 to 3600 seconds (10, 10s, 1500ms): $iv"
done
conf "target = 1s"
check 64 --metrics-interval 5
grep -q "^--metrics-interval goes with --metrics-file, or metrics = in the configuration$" "$tmp/err" ||
	fail "--metrics-interval alone: $(cat "$tmp/err")"

# --- the file's settings at start
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
A=${A%%,guid=*}
on_bus() { busctl --address="$A" status io.github.wbgov.Governor1 >/dev/null 2>&1; }
conf "[global]" "metrics = $MD/wbgov.prom" "metrics_interval = 1" "bus = $A"
wbgovd_start -c "$CONF" --root "$FX" --state-dir "$ST" --no-memory
wait_for 5 test -s "$MD/wbgov.prom" || fail "no metrics file from metrics =: $(cat "$LOG")"
grep -q "^wbgov_daemon_up 1$" "$MD/wbgov.prom" || fail "the metrics file: $(head -n 3 "$MD/wbgov.prom")"
wait_for 5 on_bus || fail "wbgovd is not on bus = $A: $(cat "$LOG")"
# rewritten every second
t1=$(stat -c %Y.%i "$MD/wbgov.prom")
wait_for 3 sh -c "[ \"\$(stat -c %Y.%i '$MD/wbgov.prom')\" != '$t1' ]" || fail "metrics_interval = 1: not rewritten"

# --- reload: a new file and bus are said and not applied; the rest is
conf "[global]" "target = 2s" "metrics = $MD/other.prom" "metrics_interval = 2" "bus = none"
kill -HUP "$PID"
wait_for 5 grep -q "configuration reloaded" "$LOG" || fail "the rest of the file was not applied: $(tail -n 5 "$LOG")"
grep -qF "<4>$CONF:3: metrics = $MD/other.prom: not applied until wbgovd restarts (its writes are confined to the directories it had at start); the metrics file stays $MD/wbgov.prom" "$LOG" ||
	fail "a new metrics file on reload is not said: $(tail -n 5 "$LOG")"
grep -qF "<4>$CONF:5: bus = none: not applied until wbgovd restarts (its clients and their Sync calls keep the bus it is on); D-Bus stays $A" "$LOG" ||
	fail "a new bus on reload is not said: $(tail -n 5 "$LOG")"
grep -qF "<6>metrics file $MD/wbgov.prom: written every 2 s from now on" "$LOG" ||
	fail "a new metrics_interval is not applied: $(tail -n 5 "$LOG")"
t1=$(stat -c %Y.%i "$MD/wbgov.prom")
wait_for 4 sh -c "[ \"\$(stat -c %Y.%i '$MD/wbgov.prom')\" != '$t1' ]" || fail "the metrics file stopped after the reload"
[ ! -e "$MD/other.prom" ] || fail "the reload's metrics file was written"
on_bus || fail "wbgovd left the bus on reload"
# a bad value: the whole reload refused
conf "[global]" "target = 3s" "metrics = not/absolute"
: >"$LOG.mark"
kill -HUP "$PID"
wait_for 5 grep -q "reload refused, keeping the running configuration: $CONF:3: metrics = \"not/absolute\"" "$LOG" ||
	fail "a bad metrics value on reload: $(tail -n 3 "$LOG")"
wbgovd_stop
grep -q "^wbgov_daemon_up 0$" "$MD/wbgov.prom" || fail "at exit the metrics file says: $(cat "$MD/wbgov.prom")"

# --- the command line wins over the file
conf "[global]" "metrics = $MD/wbgov.prom" "metrics_interval = 1" "bus = $A"
rm -f "$MD"/*
wbgovd_start -c "$CONF" --root "$FX" --state-dir "$ST" --no-memory --metrics-file "$MD/cli.prom" --bus none
wait_for 5 test -s "$MD/cli.prom" || fail "no --metrics-file: $(cat "$LOG")"
sleep 1.2
[ ! -e "$MD/wbgov.prom" ] || fail "metrics = was written despite --metrics-file"
on_bus && fail "wbgovd is on bus = $A despite --bus none"
grep -q "D-Bus" "$LOG" && fail "--bus none, yet: $(grep D-Bus "$LOG")"
wbgovd_stop
echo "$me: ok"
