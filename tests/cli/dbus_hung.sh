#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No bus can stall wbgovd (over the fixture tree, as nobody when the test
# runs as root, a private dbus-daemon playing the system bus):
# 1. started while the bus daemon is stopped (SIGSTOP), wbgovd says READY=1
#    at once (NOTIFY_SOCKET, a datagram listener of the test's), governs,
#    drops the connection that does not answer, and SIGTERM ends it within
#    a second with every knob back;
# 2. on the bus, then the bus daemon killed and a new one started and
#    stopped at the same address (a restarted bus that hangs): once wbgovd
#    has tried it, it governs on (its metrics file is rewritten each
#    second, a reload that changes the start cap reaches the fixture's
#    knobs), and SIGTERM ends it within a second with every knob back.
# Each SIGTERM-to-exit time is printed.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
CONF=$tmp/wbgov.conf
BDI=$FX/sys/class/bdi/8:16
cli_fixture "$FX"
printf '[global]\ninitial = 4M\n' >"$CONF"
mkdir "$tmp/metrics"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID= LPID= STOPPED=
trap 'for p in $PID $LPID; do kill -KILL "$p" 2>/dev/null || true; done
	[ -z "$STOPPED" ] || kill -CONT "$STOPPED" 2>/dev/null || true
	dbus_stop_all; rm -rf "$tmp"' EXIT
knobs >"$tmp/before"
bus_pid() { sed -n 2p "$tmp/dbus-$1.out"; }

# --- 1. start-up with a stopped bus
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
STOPPED=$(bus_pid sys)
kill -STOP "$STOPPED"
# the service manager's side of sd_notify: each datagram with the time it came
cat >"$tmp/notify.py" <<'PY'
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o666)
print("listening", flush=True)
while True:
    m = s.recv(4096).decode(errors="replace").replace("\n", " ")
    print("%d %s" % (time.time_ns() // 1000000, m), flush=True)
PY
"$PY" "$tmp/notify.py" "$tmp/notify.sock" >"$tmp/notify" 2>&1 &
LPID=$!
wait_for 5 grep -q listening "$tmp/notify" || fail "the notify listener did not start: $(cat "$tmp/notify")"
t0=$(now_ms)
NOTIFY_SOCKET=$tmp/notify.sock $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" \
	--bus "${A%%,guid=*}" >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "READY=1" "$tmp/notify" || fail "no READY=1 within 5 s with the bus stopped: $(cat "$LOG")"
ready=$(($(sed -n 's/^\([0-9]*\) READY=1.*/\1/p' "$tmp/notify" | head -n 1) - t0))
echo "$me: start-up, bus stopped: READY=1 after $ready ms" >&2
# (one that waited for the bus would take its 5 s: 3 s of wall time tells
# that from a busy machine's slow start)
[ "$ready" -lt 3000 ] || fail "READY=1 came $ready ms after the start"
[ "$(cat "$BDI/strict_limit")" = 1 ] && [ "$(cat "$BDI/max_bytes")" = 4194304 ] ||
	fail "8:16 not governed with the bus stopped"
# the connection that does not answer is dropped (and tried again later)
wait_for 8 grep -q "^<4>D-Bus: connecting (no answer from the bus): Connection timed out" "$LOG" ||
	fail "a bus that does not answer is not given up: $(tail -n 3 "$LOG")"
stop_timed "start-up, bus stopped"
grep -q "STOPPING=1" "$tmp/notify" || fail "no STOPPING=1: $(cat "$tmp/notify")"
kill -CONT "$STOPPED"
STOPPED=
dbus_stop sys

# --- 2. a bus restarted, its new daemon stopped
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
$AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" --bus "${A%%,guid=*}" -v \
	--metrics-file "$tmp/metrics/wbgov.prom" --metrics-interval 1 >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
dbus_stop sys
wait_for 5 grep -q "^<4>D-Bus: the connection was lost" "$LOG" || fail "the loss is not logged: $(tail -n 3 "$LOG")"
lost_ms=$(now_ms)
dbus_private sys system "$OWNER"
STOPPED=$(bus_pid sys)
kill -STOP "$STOPPED"
# wbgovd tries again 10 s after the loss, to the stopped daemon, and
# gives up 5 s later: what follows happens while it tries
sleep "$(awk "BEGIN { print ($lost_ms + 10500 - $(now_ms)) / 1000 }")"
m1=$(stat -c %y "$tmp/metrics/wbgov.prom")
sleep 1.5
m2=$(stat -c %y "$tmp/metrics/wbgov.prom")
[ "$m1" != "$m2" ] || fail "the metrics file stood still while the bus hung ($m1)"
printf '[global]\ninitial = 8M\n' >"$CONF"
kill -HUP "$PID"
wait_for 3 grep -q "configuration reloaded" "$LOG" || fail "a reload is not acted on while the bus hangs: $(tail -n 3 "$LOG")"
cap8m() { [ "$(cat "$BDI/max_bytes")" = 8388608 ]; }
wait_for 3 cap8m ||
	fail "8:16 not decided anew while the bus hangs: max_bytes $(cat "$BDI/max_bytes")"
# it did try the stopped daemon (-v logs each attempt)
[ "$(grep -c "D-Bus: connecting$" "$LOG")" -ge 2 ] || fail "wbgovd did not try the new bus: $(tail -n 3 "$LOG")"
stop_timed "restarted bus, stopped"
kill -CONT "$STOPPED"
STOPPED=
exit 0
