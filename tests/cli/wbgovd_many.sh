#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A machine with 70 bdis (a fake /sys of 70 disks, /proc from the fixture
# tests/unit/test_sys.c builds; as nobody when the test runs as root, on a
# private dbus-daemon): wbgovd governs every one (each gets the start cap
# and a record of its originals), says nothing of devices left alone, and
# every one has its line in the status file, its object on D-Bus, its
# samples in the metrics file, and its row in `wbgov status` and `wbgov
# status --json`. Then the bus daemon is stopped (SIGSTOP) while the 70
# devices change (a reload every 20 ms between two start caps): once the
# socket is full and the write queue has not moved for 5 s the connection
# is dropped, governing goes on, and SIGTERM gives every knob back within
# a second; and, on a new bus, SIGTERM the moment the queue stops moving
# ends wbgovd within a second too (no flush that waits). The times are
# printed.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
N=70
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_many_fixture "$FX" "$N"
S=$FX/sys
mkdir -p "$tmp/metrics"
[ "$(ls "$S/class/bdi" | wc -l)" -eq "$N" ] || fail "the fake /sys has $(ls "$S/class/bdi" | wc -l) bdis, want $N"
knobs() {
	for f in "$S"/devices/virtual/bdi/*/strict_limit "$S"/devices/virtual/bdi/*/max_ratio_fine; do
		echo "$f $(cat "$f")"
	done
}
knobs >"$tmp/before"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
G=$(cd "$(dirname "$W")" && pwd)/wbgov
PID= STOPPED=
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true
	[ -z "$STOPPED" ] || kill -CONT "$STOPPED" 2>/dev/null || true
	dbus_stop_all; rm -rf "$tmp"' EXIT
CONF=$tmp/wbgov.conf
printf '[global]\ninitial = 4M\n' >"$CONF"
# start BUS: a dbus-daemon BUS and wbgovd on it
start() {
	dbus_private "$1" system "$OWNER"
	A=$(dbus_addr "$1")
	BUSPID=$(sed -n 2p "$tmp/dbus-$1.out")
	: >"$LOG"
	$AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" --bus "${A%%,guid=*}" -v \
		--metrics-file "$tmp/metrics/wbgov.prom" >"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
}
# stopped WHAT: stop_timed, and the state file gone too
stopped() {
	stop_timed "$1"
	[ ! -e "$ST/state" ] || fail "$1: the state file stayed: $(head -n 3 "$ST/state")"
}
# reload_until TEXT: reloads as fast as wbgovd takes them, the start
# cap 4 and 8 MiB in turn (70 PropertiesChanged each), until the log has
# the text (60 s at most: a busy machine takes its time)
cat >"$tmp/reload.py" <<'PY'
import os, signal, sys, time
pid, conf, log, pattern = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].encode()
end, k, off = time.monotonic() + 60, 0, 0
with open(log, "rb") as f:
    while time.monotonic() < end:
        f.seek(max(off - 1000, 0))
        data = f.read()
        off += len(data) - min(off, 1000)
        if pattern in data:
            print(k)
            sys.exit(0)
        with open(conf + ".new", "w") as c:
            c.write("[global]\ninitial = %dM\n" % (8 if k % 2 == 0 else 4))
        os.rename(conf + ".new", conf)
        os.kill(pid, signal.SIGHUP)
        k += 1
        time.sleep(0.005)
sys.exit("no %s after %d reloads" % (sys.argv[4], k))
PY
reload_until() {
	"$PY" "$tmp/reload.py" "$PID" "$CONF" "$LOG" "$1" >"$tmp/reloads" 2>&1 ||
		fail "$(cat "$tmp/reloads"): $(grep "D-Bus" "$LOG" | tail -n 3)"
}
start sys
lines() { [ "$(grep -c '^bdi=' "$ST/status")" -eq "$N" ]; }
wait_for 5 lines || fail "the status file has $(grep -c '^bdi=' "$ST/status") device lines, want $N"

# --- every one governed: the start cap, its originals recorded
capped=$(grep -c "max_bytes=4194304 strict=1 err=0" "$ST/status")
[ "$capped" -eq "$N" ] || fail "$capped of $N bdis capped: $(grep -v "strict=1" "$ST/status" | head -n 3)"
n=0
for f in "$S"/devices/virtual/bdi/*/max_bytes; do
	[ "$(cat "$f")" = 4194304 ] && [ "$(cat "${f%/*}/strict_limit")" = 1 ] && n=$((n + 1))
done
[ "$n" -eq "$N" ] || fail "$n of $N bdis have the start cap in the fake /sys"
[ "$(grep -c "^bdi " "$ST/state")" -eq "$N" ] || fail "$(grep -c "^bdi " "$ST/state") of $N originals recorded"
! grep -q "left as they are\|more than" "$LOG" || fail "devices left alone: $(grep "left as they are\|more than" "$LOG")"

# --- and seen: D-Bus, the metrics file, wbgov status
objects() { [ "$(busctl --address="$A" tree --list io.github.wbgov.Governor1 | grep -c "^/io/github/wbgov/Governor1/device/")" -eq "$N" ]; }
wait_for 5 objects || fail "$(busctl --address="$A" tree --list io.github.wbgov.Governor1 | grep -c /device/) of $N objects on D-Bus"
wait_for 12 test -s "$tmp/metrics/wbgov.prom" || fail "no metrics file"
[ "$(grep -c "^wbgov_device_strict_limit{" "$tmp/metrics/wbgov.prom")" -eq "$N" ] ||
	fail "$(grep -c "^wbgov_device_strict_limit{" "$tmp/metrics/wbgov.prom") of $N devices in the metrics file"
"$G" --root "$FX" --state-dir "$ST" status >"$tmp/status" 2>&1 || fail "wbgov status: $(cat "$tmp/status")"
[ "$(grep -c "^xd[0-9]* " "$tmp/status")" -eq "$N" ] || fail "wbgov status shows $(grep -c "^xd" "$tmp/status") of $N devices"
"$G" --root "$FX" --state-dir "$ST" status --json >"$tmp/json" 2>&1 || fail "wbgov status --json: $(cat "$tmp/json")"
[ "$(grep -o '"bdi": "202:[0-9]*"' "$tmp/json" | wc -l)" -eq "$N" ] || fail "wbgov status --json lists $(grep -o '"bdi": "202:' "$tmp/json" | wc -l) of $N"
"$G" --root "$FX" --state-dir "$ST" explain xd69 >"$tmp/explain" 2>&1 || fail "wbgov explain xd69: $(cat "$tmp/explain")"

# --- the bus daemon stops reading while the devices change
kill -STOP "$BUSPID"
STOPPED=$BUSPID
reload_until "<4>D-Bus: the bus takes no more messages (stopped?)"
grep -q "^<7>D-Bus: the write queue stopped moving" "$LOG" || fail "the queue was dropped before it stopped moving"
# governing goes on: the next reload reaches the knobs
printf '[global]\ninitial = 2M\n' >"$CONF"
kill -HUP "$PID"
cap2m() { [ "$(cat "$S/devices/virtual/bdi/202:1104/max_bytes")" = 2097152 ]; }
wait_for 3 cap2m || fail "no decision after the bus was dropped: $(tail -n 3 "$LOG")"
stopped "$N bdis, the bus dropped"
kill -CONT "$STOPPED"
STOPPED=
dbus_stop sys

# --- SIGTERM the moment the write queue stops moving
printf '[global]\ninitial = 4M\n' >"$CONF"
start sys2
kill -STOP "$BUSPID"
STOPPED=$BUSPID
reload_until "<7>D-Bus: the write queue stopped moving"
stopped "$N bdis, the write queue stuck"
kill -CONT "$STOPPED"
STOPPED=
exit 0
