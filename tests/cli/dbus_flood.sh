#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A flood of calls from anyone the bus policy lets call (everyone may call
# the ObjectManager) does not stop the governor: clients keep 64
# GetManagedObjects in flight each, six of them, for 6 s while wbgovd
# writes its metrics file
# every second and answers. The bus gets a bounded share of each pass of
# wbgovd's loop (BUS_PASS_USEC): the metrics file is rewritten throughout
# (no gap beyond 2.5 s; handled until sd-bus had nothing left, a flood
# left 5 s here, 17 s elsewhere), the flood is answered, and SIGTERM in the
# midst of it stops wbgovd, every knob given back, within 3 s (it took 6 to
# 20: ppoll delivers a pending signal only when it waits, and a flood's bus
# is always ready). Over a machine of 70 disks (each of the
# ObjectManager's answers carries them all), as nobody when run as root,
# on a private dbus-daemon playing the system bus.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_many_fixture "$FX" 70
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID=
mkdir "$tmp/metrics"
chown "$OWNER" "$tmp/metrics"
MF=$tmp/metrics/wbgov.prom
FPID=
trap 'for p in $PID $FPID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus "${A%%,guid=*}" --metrics-file "$MF" \
	--metrics-interval 1
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on" "$LOG" || fail "not on the bus: $(cat "$LOG")"

# the flood, and a watch on the metrics file's rewrites (its inode: each
# write renames a new file over it)
cat >"$tmp/flood.py" <<'PY'
import dbus, sys, time
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
om = dbus.Interface(bus.get_object("io.github.wbgov.Governor1", "/io/github/wbgov/Governor1"),
                    "org.freedesktop.DBus.ObjectManager")
end = time.monotonic() + float(sys.argv[2])
state = {"out": 0, "done": 0, "err": 0}
def send():
    state["out"] += 1
    om.GetManagedObjects(reply_handler=ok, error_handler=bad)
def ok(_):
    state["out"] -= 1; state["done"] += 1
    if time.monotonic() < end: send()
def bad(_):
    state["out"] -= 1; state["err"] += 1
    if time.monotonic() < end: send()
for _ in range(64): send()
ctx = GLib.MainContext.default()
while time.monotonic() < end + 10 and (time.monotonic() < end or state["out"]):
    ctx.iteration(True)
print("answered %d, errors %d, left %d" % (state["done"], state["err"], state["out"]), flush=True)
PY
cat >"$tmp/gaps.py" <<'PY'
import os, sys, time
path, secs = sys.argv[1], float(sys.argv[2])
last, t_last, gap = None, time.monotonic(), 0.0
end = time.monotonic() + secs
while time.monotonic() < end:
    try:
        i = os.stat(path).st_ino
    except OSError:
        i = None
    now = time.monotonic()
    if i != last:
        gap = max(gap, now - t_last)
        last, t_last = i, now
    time.sleep(0.02)
print("%.2f" % max(gap, time.monotonic() - t_last))
PY
# flood SECONDS: six clients in the background, their pids in $FPID
flood() {
	FPID=
	for c in 1 2 3 4 5 6; do
		$AS "$PY" "$tmp/flood.py" "$A" "$1" >"$tmp/flood-$c.out" 2>&1 &
		FPID="$FPID $!"
	done
}
flood 5
"$PY" "$tmp/gaps.py" "$MF" 4 >"$tmp/gaps.out"
gap=$(cat "$tmp/gaps.out")
echo "$me: the metrics file's longest gap in a flood: $gap s" >&2
awk -v g="$gap" 'BEGIN { exit !(g <= 2.5) }' || fail "the metrics file was not rewritten for $gap s in a flood of calls"
for p in $FPID; do wait "$p" || fail "a flood client failed: $(cat "$tmp"/flood-*.out)"; done
FPID=
for c in 1 2 3 4 5 6; do
	grep -q "^answered [1-9][0-9]*, errors 0, left 0$" "$tmp/flood-$c.out" || fail "the flood: $(cat "$tmp/flood-$c.out")"
done
echo "$me: the flood: $(cat "$tmp"/flood-*.out | tr '\n' ' ')" >&2

# SIGTERM in the midst of a flood: the flood outlasts the bound by far (a
# signal left pending would wait for its end), and the time is the
# daemon's, from the signal to its last line, every knob given back (what
# follows is the process's end, where a sanitizer's leak scan took 0.5-3 s
# on a busy machine)
flood 12
sleep 2
t0=$(date +%s%N)
kill -TERM "$PID"
wait_for 30 grep -q "^<6>stopped:" "$LOG" || true
ms=$((($(date +%s%N) - t0) / 1000000))
reap "$PID" 30
PID=
for p in $FPID; do kill "$p" 2>/dev/null || true; done
FPID=
echo "$me: SIGTERM to the last line in a flood: $ms ms ($(grep "^<6>stopped:" "$LOG"))" >&2
[ "$rc" = 0 ] || fail "wbgovd exited $rc on SIGTERM in a flood"
grep -q "^<6>stopped:" "$LOG" || fail "wbgovd said nothing of its stop: $(tail -n 3 "$LOG")"
[ "$ms" -le 3000 ] || fail "SIGTERM took $ms ms to its stop in a flood of calls"
echo "$me: ok"
