#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A machine with 70 bdis (a fake /sys of 70 disks, /proc from the fixture
# tests/unit/test_sys.c builds; as nobody when the test runs as root, on a
# private dbus-daemon): wbgovd governs every one (each gets the start cap
# and a record of its originals), says nothing of devices left alone, and
# every one has its line in the status file, its object on D-Bus, its
# samples in the metrics file, and its row in `wbgov status` and `wbgov
# status --json`; SIGTERM gives every knob back within a second (the time
# is printed).
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
command -v busctl >/dev/null 2>&1 || { echo "$me: no busctl (scripts/deps.sh)" >&2; exit 77; }
N=70
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_fixture "$tmp/full"
mkdir -p "$FX" "$tmp/metrics"
cp -r "$tmp/full/proc" "$FX/proc"
printf '22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n' >"$FX/proc/self/mountinfo"
# disk I, as the kernel lays out a Xen disk: xdI, 202:16*I, its bdi
S=$FX/sys
i=0
while [ "$i" -lt "$N" ]; do
	name=xd$i dev=202:$((i * 16))
	dp=devices/vbd-$i/block/$name
	mkdir -p "$S/$dp/queue" "$S/$dp/slaves" "$S/block" "$S/class/block" "$S/dev/block" \
		"$S/devices/virtual/bdi/$dev" "$S/class/bdi"
	echo "$dev" >"$S/$dp/dev"
	echo 41943040 >"$S/$dp/size"
	echo 0 >"$S/$dp/removable"
	echo 0 >"$S/$dp/queue/rotational"
	echo "    1234        0    56789     1000     4321       17   987654     5000        0     3000     6000        0        0        0        0      100      200" >"$S/$dp/stat"
	ln -s "../$dp" "$S/block/$name"
	ln -s "../../$dp" "$S/class/block/$name"
	ln -s "../../$dp" "$S/dev/block/$dev"
	b=$S/devices/virtual/bdi/$dev
	echo 128 >"$b/read_ahead_kb"
	echo 100 >"$b/max_ratio"
	echo 0 >"$b/min_ratio"
	echo 0 >"$b/strict_limit"
	echo 3355443200 >"$b/max_bytes"
	echo 0 >"$b/min_bytes"
	echo 1000000 >"$b/max_ratio_fine"
	echo 0 >"$b/min_ratio_fine"
	ln -s "../../devices/virtual/bdi/$dev" "$S/class/bdi/$dev"
	i=$((i + 1))
done
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
PID=
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
$AS "$D" --root "$FX" --state-dir "$ST" --no-memory --bus "${A%%,guid=*}" \
	--metrics-file "$tmp/metrics/wbgov.prom" >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>D-Bus: org.wbgov.Governor1 on" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
lines() { [ "$(wc -l <"$ST/status")" -eq "$N" ]; }
wait_for 5 lines || fail "the status file has $(wc -l <"$ST/status") lines, want $N"

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
objects() { [ "$(busctl --address="$A" tree --list org.wbgov.Governor1 | grep -c "^/org/wbgov/Governor1/device/")" -eq "$N" ]; }
wait_for 5 objects || fail "$(busctl --address="$A" tree --list org.wbgov.Governor1 | grep -c /device/) of $N objects on D-Bus"
wait_for 12 test -s "$tmp/metrics/wbgov.prom" || fail "no metrics file"
[ "$(grep -c "^wbgov_device_strict_limit{" "$tmp/metrics/wbgov.prom")" -eq "$N" ] ||
	fail "$(grep -c "^wbgov_device_strict_limit{" "$tmp/metrics/wbgov.prom") of $N devices in the metrics file"
"$G" --root "$FX" --state-dir "$ST" status >"$tmp/status" 2>&1 || fail "wbgov status: $(cat "$tmp/status")"
[ "$(grep -c "^xd[0-9]* " "$tmp/status")" -eq "$N" ] || fail "wbgov status shows $(grep -c "^xd" "$tmp/status") of $N devices"
"$G" --root "$FX" --state-dir "$ST" status --json >"$tmp/json" 2>&1 || fail "wbgov status --json: $(cat "$tmp/json")"
[ "$(grep -o '"bdi": "202:[0-9]*"' "$tmp/json" | wc -l)" -eq "$N" ] || fail "wbgov status --json lists $(grep -o '"bdi": "202:' "$tmp/json" | wc -l) of $N"
"$G" --root "$FX" --state-dir "$ST" explain xd69 >"$tmp/explain" 2>&1 || fail "wbgov explain xd69: $(cat "$tmp/explain")"

# --- every knob back, at once
t0=$(($(date +%s%N) / 1000000))
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
ms=$(($(date +%s%N) / 1000000 - t0))
PID=
echo "$me: $N bdis: SIGTERM to exit $ms ms" >&2
[ "$rc" -eq 0 ] || fail "wbgovd exited $rc on SIGTERM: $(tail -n 5 "$LOG")"
[ "$ms" -lt 1000 ] || fail "SIGTERM took $ms ms"
knobs >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "knobs not given back: $(diff "$tmp/before" "$tmp/after" | head -n 5)"
[ ! -e "$ST/state" ] || fail "the state file stayed: $(head -n 3 "$ST/state")"
exit 0
