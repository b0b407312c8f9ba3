#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What wbgovd's children do at stop (over the fixture tree, as nobody when
# the test runs as root, a private dbus-daemon; syncfs and fsync made slow
# by tests/lib/hang.c, LD_PRELOADed):
# 1. a Sync child in a sync that a signal ends has TERM, INT and HUP
#    unblocked and not caught; at SIGTERM wbgovd ends it, reaps it (no
#    zombie, nothing left running) and answers its caller with an error,
#    and exits within a second with every knob back;
# 2. a Sync child deaf to signals (a sync in state D) is not waited for:
#    wbgovd exits within a second, names it in the log as left running,
#    and its caller is told;
# 3. device memory whose fsync takes seconds (a busy disk): wbgovd says
#    READY=1 and governs meanwhile, exits within a second of SIGTERM,
#    says the save was left running, and the save completes after it.
# Each SIGTERM-to-exit time is printed.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_fixture "$FX"
# a file system of the stick that Sync syncs: this test's own
mkdir "$tmp/mnt" "$tmp/mem"
grep -v " 8:17 " "$FX/proc/self/mountinfo" >"$tmp/mountinfo"
# the line names the mount $tmp/mnt is on by its id (the child checks it)
# and is the stick's as a btrfs mount is, by its source (dbus_api.sh)
mid=$(findmnt -n -o ID -T "$tmp/mnt") || fail "findmnt cannot tell the mount of $tmp/mnt"
printf '%s 22 0:999 / %s rw,nosuid shared:4 - btrfs /dev/sdb1 rw\n' "$mid" "$tmp/mnt" >>"$tmp/mountinfo"
cp "$tmp/mountinfo" "$FX/proc/self/mountinfo"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID= CPID= BPID=
trap 'for p in $PID $CPID $BPID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
knobs >"$tmp/before"
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
# polkit, which wbgovd asks about a caller that is not root (this test run
# as an ordinary user calls Sync as one), stood in for: it says yes
polkit_fake sys
# start ENV...: wbgovd with the shim and ENV, on the bus
start() {
	: >"$LOG"
	$AS env LD_PRELOAD="$HANG" "$@" "$D" --root "$FX" --state-dir "$ST" --no-memory \
		--bus "${A%%,guid=*}" >"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
}
# sync_child: a Sync called in the background ($BPID, its answer in
# $tmp/sync), and the pid of the child that runs it ($CPID)
child() { CPID=$(ps -o pid= --ppid "$PID" | tr -d ' '); [ -n "$CPID" ]; }
sync_child() {
	busctl --address="$A" call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 &
	BPID=$!
	wait_for 5 child || fail "no Sync child: $(tail -n 3 "$LOG")"
	wait_for 5 grep -q "sdb: Sync asked on D-Bus" "$LOG" || fail "no Sync in the log: $(tail -n 3 "$LOG")"
}
# gone PID: neither running nor a zombie
gone() { ! [ -d "/proc/$1" ]; }

# --- 1. a sync that a signal ends
start WBGOV_TEST_SYNCFS=pause
sync_child
mask() { sed -n "s/^$1:[[:space:]]*//p" "/proc/$CPID/status"; }
# SIGHUP 1, SIGINT 2, SIGTERM 15: bits 0x1, 0x2, 0x4000
for f in SigBlk SigIgn SigCgt; do
	[ $((0x$(mask $f) & 0x4003)) -eq 0 ] || fail "the Sync child has $f $(mask $f): TERM, INT or HUP blocked, ignored or caught"
done
stop_timed "a Sync child in a sync"
wait_for 1 gone "$CPID" || fail "the Sync child $CPID was left: $(ps -o pid,stat,comm -p "$CPID")"
CPID=
rc=0
wait "$BPID" || rc=$?
BPID=
[ "$rc" -ne 0 ] || fail "the Sync cut short was answered as a success"
grep -q "wbgovd stopped; the sync was cancelled" "$tmp/sync" || fail "the Sync's caller was told: $(cat "$tmp/sync")"

# --- 2. a sync deaf to signals, for 3 s
start WBGOV_TEST_SYNCFS=stuck:3
sync_child
stop_timed "a Sync child deaf to signals"
grep -q "^<4>Sync of sdb: pid $CPID still running at stop" "$LOG" || fail "the Sync left running is not named: $(tail -n 3 "$LOG")"
rc=0
wait "$BPID" || rc=$?
BPID=
[ "$rc" -ne 0 ] && grep -q "the sync goes on in process $CPID" "$tmp/sync" || fail "the Sync's caller was told: $(cat "$tmp/sync")"
# it ends by itself when its sync does
wait_for 5 exited "$CPID" || fail "the Sync child $CPID still runs 5 s later"
CPID=

# --- 3. device memory on a disk whose fsync takes 8 s: a file it cannot
# trust (a NUL inside) is replaced at once, by a save that then hangs
printf 'not\000device memory\n' >"$tmp/mem/devices"
[ -n "$AS" ] && chown -R nobody "$tmp/mem"
: >"$LOG"
t0=$(now_ms)
$AS env LD_PRELOAD="$HANG" WBGOV_TEST_FSYNC=devices.tmp:8 "$D" --root "$FX" --state-dir "$ST" \
	--memory "$tmp/mem/devices" --bus none >"$LOG" 2>&1 &
PID=$!
wait_for 5 test -s "$ST/status" || fail "wbgovd did not start: $(cat "$LOG")"
started=$(($(now_ms) - t0))
echo "$me: device memory's fsync hangs: status file after $started ms" >&2
# (a start that waited for the fsync would take its 8 s: 4 s of wall time
# tells that from a busy machine's slow start)
[ "$started" -lt 4000 ] || fail "the first decisions waited $started ms for device memory's fsync"
wait_for 2 child || fail "device memory is not saved in a child: $(tail -n 3 "$LOG")"
stop_timed "device memory's fsync hangs"
grep -q "^<4>$tmp/mem/devices: device memory still being written by pid $CPID" "$LOG" ||
	fail "the save left running is not said: $(tail -n 3 "$LOG")"
# the save completes after wbgovd (its fsync takes 8 s)
saved() { grep -q "^# wbgov: write bandwidth measured per device" "$tmp/mem/devices"; }
wait_for 10 saved || fail "device memory never saved: $(cat "$tmp/mem/devices")"
CPID=
exit 0
