#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job in one screen. First the USB-stick stall of the seeds in the
# simulator (a 4 GiB ISO to a 5 MB/s stick on a 16 GiB machine, then sync)
# under today's kernel and under wbgov, as a table and a plot. Then, run as
# root where a write throttle exists, the real thing on this kernel: a
# 5 MB/s loop "stick", 80 MiB copied to it under the kernel's defaults and
# then under wbgovd, with what the copy had written against what had
# reached the stick every second, and the sync after (about a minute);
# every knob and device is given back. Elsewhere it says why it did not.
set -eu
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
cd "$(dirname "$0")/.."
. tests/lib/throttle.sh
out="$BUILD/usb-iso.png"
echo "== in the simulator: wbsim run usb-iso --policy linux-64 --policy wbgov --plot $out"
echo
"$BUILD/wbsim" run usb-iso --policy linux-64 --policy wbgov --plot "$out"
echo
echo "write_s: when cp's last write() returned (the progress bar); durable_s: when the"
echo "last byte reached the stick; sync_s: how long the sync after it hung."
echo "The plot is $out."
echo

why=
if [ "$(id -u)" -ne 0 ]; then
	why="not root (run it as root to see it on this kernel)"
elif [ -z "$(sys_throttle_kind)" ]; then
	why="no write throttle here to make a slow stick with (cgroup v1 blkio, or v2 with io and memory)"
elif [ ! -e /dev/loop-control ] || ! command -v mkfs.ext4 >/dev/null; then
	why="no loop devices or no mkfs.ext4 (scripts/deps.sh)"
elif ! ls /sys/class/bdi/*/strict_limit >/dev/null 2>&1; then
	why="this kernel has no per-device strict_limit (Linux before 6.2)"
fi
if [ -n "$why" ]; then
	echo "== on this kernel: skipped: $why."
	exit 0
fi

. tests/lib/system.sh
D=$BUILD/wbgovd
sys_init
MIB=80
SPEED=5000000
# the 5 MB/s stick: ext4 on a loop over a file, throttled, new for each run
stick() {
	set -- $(SIZE_MIB=200 sys_slow_dev "$SYS_TMP" "$SPEED")
	L=$1 DN=$2 M=$3
}
# watch_pid PID: while it runs, a line a second of what the copy had
# written and what had reached the stick
watch_pid() {
	while kill -0 "$1" 2>/dev/null; do
		sleep 1
		kill -0 "$1" 2>/dev/null || break
		w=$(awk '{ print $7 }' "/sys/block/${L##*/}/stat")
		f=$(stat -c %s "$M/big.iso" 2>/dev/null || echo 0)
		awk -v t="$(sys_now)" -v t0="$t0" -v f="$f" -v w="$w" -v w0="$w0" -v n="$MIB" -v l="$label" \
			'BEGIN { printf "  %-9s %4.0fs  %5.1f of %d MiB %s  %5.1f MiB\n", l, t - t0, f / 1048576, n,
				(f >= n * 1048576 ? "(done)" : "      "), (w - w0) * 512 / 1048576 }'
	done
}
# copy LABEL: MIB in 128 KiB writes, as cp does, with a line a second of
# what the copy had written and what had reached the stick; then sync
copy() {
	label=$1
	w0=$(awk '{ print $7 }' "/sys/block/${L##*/}/stat")
	t0=$(sys_now)
	dd if=/dev/zero of="$M/big.iso" bs=128K count=$((MIB * 8)) status=none &
	dp=$!
	printf '  %-9s %5s  %-22s %s\n' "$1" "time" "the copy has written" "reached the stick"
	watch_pid $dp
	wait $dp
	t1=$(sys_now)
	echo "  $1: the copy is done after $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; sync ..."
	sync &
	sp=$!
	watch_pid $sp
	wait $sp
	t2=$(sys_now)
	awk -v a="$t0" -v b="$t1" -v c="$t2" -v l="$1" 'BEGIN {
		printf "  %s: copy %.1f s, then sync %.1f s: %.1f s in all\n", l, b - a, c - b, c - a }' |
		tee -a "$SYS_TMP/summary"
	echo
	rm -f "$M/big.iso"
	sync
}

echo "== on this kernel ($(uname -r)): $MIB MiB to a $((SPEED / 1000000)) MB/s loop stick"
echo
stick
echo "-- the kernel's defaults (dirty_ratio $(cat /proc/sys/vm/dirty_ratio) % of memory)"
copy defaults
sys_slow_dev_done "$L" "$DN" "$M"
stick
echo "-- under wbgovd (started now; it has never seen this stick)"
"$D" -c /dev/null --state-dir "$SYS_TMP/st" --memory "$SYS_TMP/devices" >"$SYS_TMP/d.log" 2>&1 &
DP=$!
SYS_PIDS="$SYS_PIDS $DP"
sleep 2
copy wbgovd
kill -TERM $DP
wait $DP || echo "wbgovd exited $? on SIGTERM: $(tail -n 3 "$SYS_TMP/d.log")"
sys_slow_dev_done "$L" "$DN" "$M"
echo "== side by side"
cat "$SYS_TMP/summary"
echo "Under the defaults the copy 'finishes' at memory speed and sync hangs for the rest;"
echo "under wbgovd the copy runs at the stick's speed and sync is short. Every knob and"
echo "loop device is given back now."
