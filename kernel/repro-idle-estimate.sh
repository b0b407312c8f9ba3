#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 0001's bug on the running kernel, as anyone can see it: a strict_limit
# bdi's write-bandwidth estimate after the device idled. A loop device over
# a file in /dev/shm, its writes throttled to SPEED bytes/s (as the
# project's real-kernel tests do, tests/lib/throttle.sh: cgroup v1's
# blkio.throttle.write_bps_device in the root group, or v2's io.max in a
# group of the script's own, which the writeback of its dirty pages is
# charged to), ext4 on it, strict_limit 1 and max_bytes one second
# of SPEED (as wbgovd sets them: the writer is throttled, so
# balance_dirty_pages() updates the estimate):
#   1. 32 MiB written and synced: the estimate learns the device's speed;
#   2. IDLE seconds of nothing;
#   3. one write of MIB MiB (dd, 1 MiB blocks) and its sync.
# The root wb's estimate, avg_write_bandwidth, is read after 1, then every
# 0.25 s through 3: WbWriteBandwidth of debugfs's wb_stats (6.10 and later;
# their BdiWriteBandwidth sums only the wbs with dirty inodes, 0 while
# clean), else BdiWriteBandwidth of its stats. A kernel with the bug prints
# a collapse at step 3: the estimate falls from the device's speed to a
# few kB/s (the first update after the idle time divides the few pages
# written since by the whole idle gap) and climbs back over seconds; with
# 0001, the period restarts and the estimate stays near the device's
# speed.
# Prints "kernel K: before idle X kB/s, lowest after Y kB/s (Z of it)".
# Root. Gives everything back however it ends: the throttle rule, the
# bdi's strict_limit and max_ratio_fine (max_bytes is a share of it; a loop
# device's bdi keeps its knobs after detach),
# the mount, the loop device and the file.
#   kernel/repro-idle-estimate.sh [SPEED [IDLE [MIB]]]   (default 2000000, 5 and 4)
set -eu
SPEED=${1:-2000000}
IDLE=${2:-5}
MIB=${3:-4}
case $SPEED in *[!0-9]* | '') echo "$0: SPEED '$SPEED': bytes a second" >&2; exit 64 ;; esac
case $IDLE in *[!0-9]* | '') echo "$0: IDLE '$IDLE': whole seconds" >&2; exit 64 ;; esac
case $MIB in *[!0-9]* | '' | 0) echo "$0: MIB '$MIB': MiB to write, 1 or more" >&2; exit 64 ;; esac
[ "$(id -u)" = 0 ] || { echo "$0: needs root (a loop device, a throttle, debugfs)" >&2; exit 77; }
[ -d /sys/kernel/debug/bdi ] || { echo "$0: debugfs is not mounted at /sys/kernel/debug" >&2; exit 77; }
# shellcheck source=tests/lib/throttle.sh
. "$(dirname "$0")/../tests/lib/throttle.sh"
for c in losetup mkfs.ext4 dd; do
	command -v $c >/dev/null || { echo "$0: no $c" >&2; exit 77; }
done
img=$(mktemp /dev/shm/repro-idle.XXXXXX)
mnt=$(mktemp -d /tmp/repro-idle.XXXXXX)
loop="" throttled="" bdi="" strict="" fine=""
cleanup() {
	set +e
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$throttled" ] && sys_throttle "$throttled" 0
	sys_throttle_done
	[ -n "$bdi" ] && [ -n "$fine" ] && echo "$fine" >"/sys/class/bdi/$bdi/max_ratio_fine"
	[ -n "$bdi" ] && [ -n "$strict" ] && echo "$strict" >"/sys/class/bdi/$bdi/strict_limit"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -f "$img" "$mnt.dd" "$mnt.sync"
	rmdir "$mnt"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
truncate -s 256M "$img"
loop=$(losetup -f --show "$img")
mm=$(cat "/sys/class/block/${loop#/dev/}/dev")
bdi=$mm
mkfs.ext4 -q -F "$loop"
# the throttle (v2: this shell and every writer it starts in a group of
# its own)
sys_throttle_init || exit 77
sys_throttle "$mm" "$SPEED"
throttled=$mm
mount "$loop" "$mnt"
strict=$(cat "/sys/class/bdi/$bdi/strict_limit")
echo 1 >"/sys/class/bdi/$bdi/strict_limit"
if [ -f "/sys/class/bdi/$bdi/max_bytes" ]; then
	fine=$(cat "/sys/class/bdi/$bdi/max_ratio_fine")
	echo "$SPEED" >"/sys/class/bdi/$bdi/max_bytes"
fi
if [ -f "/sys/kernel/debug/bdi/$bdi/wb_stats" ]; then
	what="WbWriteBandwidth (wb_stats, the root wb)"
	bw() { awk '/^WbWriteBandwidth:/ { print $2; exit }' "/sys/kernel/debug/bdi/$bdi/wb_stats"; }
else
	what="BdiWriteBandwidth (stats)"
	bw() { awk '/^BdiWriteBandwidth:/ { print $2 }' "/sys/kernel/debug/bdi/$bdi/stats"; }
fi
dd if=/dev/zero of="$mnt/warm" bs=1M count=32 conv=fsync status=none
before=$(bw)
sleep "$IDLE"
echo "t_s kBps: $what after ${IDLE} s idle: dd $MIB MiB, then sync"
now() { awk '{ print $1 }' /proc/uptime; }
t0=$(now)
(dd if=/dev/zero of="$mnt/after" bs=1M count="$MIB" status=none && now >"$mnt.dd" && sync &&
	now >"$mnt.sync") &
job=$!
low=$before
i=0
while kill -0 $job 2>/dev/null; do
	v=$(bw)
	[ "$v" -lt "$low" ] && low=$v
	[ $((i % 4)) = 0 ] && printf '%s %s\n' "$(awk -v i=$i 'BEGIN { printf "%.2f", i / 4 }')" "$v"
	sleep 0.25
	i=$((i + 1))
done
wait $job
after=$(bw)
echo "kernel $(uname -r): before idle $before kB/s, lowest after $low kB/s" \
	"($(awk -v a="$low" -v b="$before" 'BEGIN { printf "%.3f", b ? a / b : 0 }') of it), at the end $after kB/s;" \
	"dd $(awk -v a="$t0" -v b="$(cat "$mnt.dd")" 'BEGIN { printf "%.2f", b - a }') s," \
	"sync $(awk -v a="$(cat "$mnt.dd")" -v b="$(cat "$mnt.sync")" 'BEGIN { printf "%.2f", b - a }') s" \
	"($MIB MiB at $SPEED B/s: $(awk -v s="$SPEED" -v m="$MIB" 'BEGIN { printf "%.2f", m * 1048576 / s }') s)"
