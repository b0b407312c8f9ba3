#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov eject on the real kernel, with throttled loop devices for sticks (a
# loop's power-off is its detach): the data a copy left dirty reaches the
# device with progress shown, every mount of the disk (one of them with a
# blank in its name, one on a partition's path) goes, and "safe to remove"
# comes only then; the data is all there when the image is attached again.
# A busy mount names the process and changes nothing; a process with the
# device node open is named and nothing is done; a stick mounted in another
# mount namespace too is unmounted here but kept; an exFAT (FUSE) stick,
# whose server holds the node until unmounted, is ejected; --no-power-off
# keeps the device; bad input and a normal user are refused with nothing
# done.
set -eu
cd "$(dirname "$0")/../.."
. tests/lib/system.sh
BUILD=${BUILD:-build}
G=$(pwd)/$BUILD/wbgov
sys_init
fail() { echo "wbgov_eject: FAIL: $*" >&2; cat "$SYS_TMP/err" >&2 2>/dev/null; exit 1; }
note() { echo "wbgov_eject: $*"; }
attached() { [ -n "$(cat "/sys/block/${1##*/}/loop/backing_file" 2>/dev/null)" ]; }
mounted() { grep -qF " $(printf '%s' "$1" | sed 's/ /\\040/g') " /proc/self/mountinfo; }

dd if=/dev/urandom of="$SYS_TMP/data" bs=1M count=6 status=none

# stick SPEED [LABEL]: a throttled loop with ext4, mounted at "…/NO NAME"
# (udisks' mount point for a stick without a label) -> "loop devnum
# mountpoint image"
stick() {
	img=$(mktemp "$SYS_TMP/stick.XXXXXX")
	truncate -s 64M "$img"
	l=$(sys_loop_attach "$img")
	dn=$(sys_devnum "$l")
	m=$(mktemp -d "$SYS_TMP/media.XXXXXX")/NO\ NAME
	mkdir "$m"
	mkfs.ext4 -q -F ${2:+-L "$2"} "$l" >/dev/null 2>&1 && mount "$l" "$m" || sys_die "cannot make and mount $l"
	{ printf '%s\n' "$m"; cat "$SYS_TMP/mounts"; } >"$SYS_TMP/mounts.new"
	mv "$SYS_TMP/mounts.new" "$SYS_TMP/mounts"
	sync
	sys_throttle "$dn" "$1"
	echo "$l $dn $img"
}

# --- refused, nothing done: no argument, no such path, a path on no disk,
# the root file system's disk, a normal user
rc=0; "$G" eject 2>"$SYS_TMP/err" || rc=$?
[ $rc = 64 ] || fail "no argument: exit $rc, want 64"
rc=0; "$G" eject /nonexistent/stick 2>"$SYS_TMP/err" || rc=$?
[ $rc = 69 ] && grep -q "/nonexistent/stick" "$SYS_TMP/err" || fail "no such path: exit $rc"
rc=0; "$G" eject "LABEL=no such label $$" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 69 ] && grep -q "LABEL=no such label" "$SYS_TMP/err" || fail "no such label: exit $rc"
rc=0; "$G" eject /proc 2>"$SYS_TMP/err" || rc=$?
[ $rc = 69 ] && grep -q "on no disk" "$SYS_TMP/err" || fail "/proc: exit $rc"
rc=0; "$G" eject / 2>"$SYS_TMP/err" || rc=$?
[ $rc = 69 ] && grep -q "root file system" "$SYS_TMP/err" || fail "/: exit $rc"

set -- $(stick 2000000)
L=$1 DN=$2 IMG=$3
M=$(sed -n 1p "$SYS_TMP/mounts")
rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups "$G" eject "$M" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 77 ] || fail "a normal user: exit $rc, want 77"
mounted "$M" && attached "$L" || fail "a normal user's eject changed something"

# --- busy: a shell sitting in the stick's directory is named, nothing done
(cd "$M" && exec sleep 60) &
bp=$!
SYS_PIDS="$SYS_PIDS $bp"
sleep 0.3
rc=0; "$G" eject "$M" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 75 ] || fail "busy: exit $rc, want 75"
grep -q "held by $bp (sleep)" "$SYS_TMP/err" || fail "busy: the holder was not named"
mounted "$M" && attached "$L" || fail "a busy eject changed something"
kill $bp
wait $bp 2>/dev/null || true
note "busy: $(cat "$SYS_TMP/err")"

# --- a copy left dirty at 2 MB/s, a second mount of the same file system
# (a bind mount, as a desktop might have), then eject: progress, durable,
# both unmounted, detached, and every byte on the image
cp "$SYS_TMP/data" "$M/data"
B="$SYS_TMP/second mount"
sys_bind_mount "$M" "$B"
t0=$(sys_now)
rc=0; "$G" eject "$M" 2>"$SYS_TMP/err" || rc=$?
t1=$(sys_now)
[ $rc = 0 ] || fail "eject: exit $rc"
grep -q "left" "$SYS_TMP/err" || fail "eject showed no progress"
grep -q "durable after" "$SYS_TMP/err" || fail "eject did not say durable"
grep -q "unmounted $B" "$SYS_TMP/err" && grep -q "unmounted $M" "$SYS_TMP/err" ||
	fail "eject did not unmount both mounts"
tail -n 1 "$SYS_TMP/err" | grep -q "${L##*/} is detached: safe to remove" || fail "no safe to remove last"
mounted "$M" && fail "still mounted"
mounted "$B" && fail "the second mount is still there"
attached "$L" && fail "the loop device is still attached"
note "6 MiB at 2 MB/s: ejected in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; $(grep -c left "$SYS_TMP/err") progress lines; last: $(tail -n 1 "$SYS_TMP/err")"
sys_throttle "$DN" 0
losetup "$L" "$IMG"
C=$SYS_TMP/check
mkdir "$C"
mount -o ro "$L" "$C"
echo "$C" >>"$SYS_TMP/mounts"
cmp -s "$SYS_TMP/data" "$C/data" || fail "the data on the ejected stick differs"
umount "$C"
losetup -d "$L"

# --- --no-power-off, the stick named by its label as in fstab (a blank
# in it): unmounted and flushed, the device stays
set -- $(stick 20000000 "WB STICK")
L=$1
M=$(sed -n 1p "$SYS_TMP/mounts")
cp "$SYS_TMP/data" "$M/data"
rc=0; "$G" eject --no-power-off "LABEL=WB STICK" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 0 ] || fail "--no-power-off: exit $rc"
mounted "$M" && fail "--no-power-off: still mounted"
attached "$L" || fail "--no-power-off detached the device"
grep -q "unmounted and flushed: safe to remove" "$SYS_TMP/err" || fail "--no-power-off: $(cat "$SYS_TMP/err")"
# --- the device node open in a process (a dd to it): the process named,
# and nothing done (looked at before the sync and the unmount)
set -- $(stick 20000000)
L=$1
M=$(sed -n 1p "$SYS_TMP/mounts")
sh -c 'exec 3<"$1"; exec sleep 60' _ "$L" &
hp=$!
SYS_PIDS="$SYS_PIDS $hp"
sleep 0.3
rc=0; "$G" eject "$M" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 75 ] || fail "the node held open: exit $rc, want 75"
grep -q "is open in $hp (sleep): not safe to remove" "$SYS_TMP/err" || fail "the node's holder was not named"
grep -q "safe to remove$" "$SYS_TMP/err" && fail "the node held open, yet safe to remove"
attached "$L" || fail "a loop held open was detached"
mounted "$M" || fail "the node held open, yet unmounted"
kill $hp
wait $hp 2>/dev/null || true

# --- mounted in another mount namespace as well (a container's, which
# ours does not show): unmounted here, but the kernel still holds the
# device (the flush opens it O_EXCL, as udisks does), so not detached and
# not called safe to remove
set -- $(stick 20000000)
L=$1
M=$(sed -n 1p "$SYS_TMP/mounts")
o=$(mktemp -d "$SYS_TMP/other.XXXXXX")
unshare -m --propagation private sh -c 'mount "$1" "$2" && exec sleep 60' _ "$L" "$o" &
np=$!
SYS_PIDS="$SYS_PIDS $np"
sleep 0.3
rc=0; "$G" eject "$M" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 75 ] || fail "mounted in another namespace: exit $rc, want 75"
grep -q "${L##*/} is unmounted, but the kernel still holds it" "$SYS_TMP/err" ||
	fail "mounted in another namespace: $(cat "$SYS_TMP/err")"
attached "$L" || fail "a loop mounted in another namespace was detached"
kill $np
wait $np 2>/dev/null || true

# --- exFAT (FUSE): its server holds the node until its mount goes, then
# exits; eject waits for it
l=$(sys_loop 64)
m=$(sys_mkfs_mount "$l" exfat)
cp "$SYS_TMP/data" "$m/data"
rc=0; "$G" eject "$m" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 0 ] || fail "eject of an exFAT stick: exit $rc: $(cat "$SYS_TMP/err")"
attached "$l" && fail "the exFAT stick is still attached"
note "exFAT: $(tail -n 1 "$SYS_TMP/err")"
echo "wbgov_eject: ok"
