#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd where debugfs is not mounted (a system without systemd, a
# container). The run is in a mount namespace of its own without debugfs
# (sys_without_debugfs: the machine's own mount, if any, is untouched and
# nothing is to be put back). As root, wbgovd mounts a debugfs of its own
# that no other process sees, stays in its mount namespace, and reads a
# cold 1 MB/s throttled loop's own writeback through it. Without
# CAP_SYS_ADMIN (setpriv) it cannot, and a cold 1 and 2 MB/s loop behind
# the write throttle, whose backlog waits above the queue where
# /sys/block/X/stat does not count it, are bounded by the throttle itself.
# Each copy: sync within 1.2 s, dd + sync within 1.10 x size / speed.
# Every knob is put back and every loop device removed at the end.
set -eu
cd "$(dirname "$0")/../.."
. tests/lib/system.sh
sys_without_debugfs sh tests/system/wbgovd_nodebugfs.sh "$@"
BUILD=${BUILD:-build}
D=$(pwd)/$BUILD/wbgovd
sys_init
TMPFS=$(sys_tmpfs 400)
LOG=$SYS_TMP/d.log
: >"$LOG"
fail() { echo "wbgovd_nodebugfs: FAIL: $*" >&2; tail -n 30 "$LOG" >&2; exit 1; }
note() { echo "wbgovd_nodebugfs: $*"; }
NOCAP="setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin"

# start [PREFIX...]: a fresh wbgovd without device memory, started by PREFIX
start() {
	rm -rf "$SYS_TMP/st"
	: >"$LOG"
	"$@" "$D" -v -c /dev/null --state-dir "$SYS_TMP/st" --no-memory >>"$LOG" 2>&1 &
	DPID=$!
	SYS_PIDS="$SYS_PIDS $DPID"
	sys_wait_for grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start"
}
stop() {
	kill "$DPID"
	wait "$DPID" || fail "wbgovd exited $? on SIGTERM"
}

# copy SPEED MIB LABEL [PREFIX...]: a throttled tmpfs-backed loop made and
# formatted, wbgovd started (by PREFIX), 2 s, a copy in 128 KiB writes,
# sync. Leaves the device's bdi in $BDI.
copy() {
	speed=$1 mib=$2 label=$3
	shift 3
	set -- $(sys_slow_dev "$TMPFS" "$speed") "$@"
	l=$1 BDI=$2 m=$3
	shift 3
	start "$@"
	sleep 2
	sys_timed_copy "$m" "$mib"
	stop
	sys_slow_dev_done "$l" "$BDI" "$m"
	sys_copy_ok wbgovd_nodebugfs "$label" "$speed" "$mib" || fail "$label: sync or dd + sync out of bounds"
}

grep -q " /sys/kernel/debug " /proc/self/mountinfo && fail "debugfs is mounted for the test"

# --- root: a debugfs of its own, attached nowhere (a kernel without
# debugfs has none to mount: said, and the rest runs)
if grep -qw debugfs /proc/filesystems; then
	start
	grep -q "^<6>feature debugfs on: its own (none at /sys/kernel/debug)" "$LOG" ||
		fail "wbgovd did not mount a debugfs of its own"
	[ "$(readlink "/proc/$DPID/ns/mnt")" = "$(readlink /proc/self/ns/mnt)" ] ||
		fail "wbgovd left the mount namespace it was started in"
	! grep -q " debugfs " "/proc/$DPID/mountinfo" || fail "wbgovd's debugfs shows in its mount table"
	stop
	copy 1000000 6 "own debugfs, cold 1 MB/s"
	# its windows judged by the bdi's own writeback (the debugfs form of
	# the line: "queue empty at N of M polls")
	grep -q "^<7>$BDI: +[0-9.]* s: window .* queue empty at [0-9]* of [0-9]* polls" "$LOG" ||
		fail "no window of $BDI was judged by its own writeback"
	note "own debugfs: $(grep -c "^<7>$BDI: .* queue empty at" "$LOG") windows by the bdi's own writeback"
else
	note "this kernel has no debugfs: no mount of wbgovd's own to try"
fi

# --- no CAP_SYS_ADMIN: no debugfs; the write throttle bounds the device
start $NOCAP
grep -q "^<4>feature debugfs refused by the capability bounding set: none at /sys/kernel/debug, and none of its own (fsopen: Operation not permitted)" "$LOG" ||
	fail "no warning that wbgovd could not mount debugfs: $(grep feature "$LOG")"
stop
# under a unit whose system call filter refuses fsopen: the setting named
INVOCATION_ID=0123456789abcdef LD_PRELOAD=$(pwd)/$BUILD/tests/hang.so WBGOV_TEST_REFUSE=fsopen start
grep -q "^<4>feature debugfs refused by SystemCallFilter=: none at /sys/kernel/debug, and none of its own" "$LOG" ||
	fail "under a unit, the refusal of fsopen does not name SystemCallFilter=: $(grep feature "$LOG")"
stop
copy 1000000 6 "no debugfs, cold 1 MB/s" $NOCAP
grep -q "^<6>loop[0-9]* ($BDI): a cgroup's write throttle holds it at 1.0 MB/s" "$LOG" ||
	fail "the throttle of $BDI was not said"
! grep -q "^<7>$BDI: .* queue empty at" "$LOG" || fail "$BDI judged by debugfs, which is not there"
copy 2000000 12 "no debugfs, cold 2 MB/s" $NOCAP
echo "wbgovd_nodebugfs: ok ($(sys_throttle_kind) throttle)"
