#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd on D-Bus, over the fixture tree (run as nobody when the test runs
# as root, as wbgovd_fixture.sh does) and a private dbus-daemon that plays
# the system bus: Debian's system policy with etc/dbus's file included.
# The object tree and the properties hold the fixture's values (the stick's
# remembered 5 MB/s, its cap, its mounts, its Latin-1 model as valid UTF-8;
# the disk's device number and udisks' object path, for sdb, nvme0n1 and a
# dm-0 added to the fixture, none for a btrfs or FUSE bdi);
# when the debugfs counters of the stick change, PropertiesChanged says so
# (the latency is printed), at most 4 times a second while they move; Sync
# syncs its file systems and answers when done, or says which one failed
# (one reached through a symbolic link, or another mount than mountinfo's,
# is not opened), root's without asking polkit; a user's FUSE mount naming
# the stick is not in Mounts; another user may read, and their Sync reaches
# wbgovd, which refuses it when polkit says no (tests/cli/dbus_sync_auth.sh
# has the rest); nobody may set a property; when the bus goes away wbgovd
# goes on governing and comes back on a new one.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
dbus_need_python
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_fixture "$FX"
# the stick's counters in debugfs, and the system's in /proc/vmstat
mkdir -p "$FX/sys/kernel/debug/bdi/8:16"
stats() { # WRITEBACK_KB RECLAIMABLE_KB
	printf 'BdiWriteback:       %10s kB\nBdiReclaimable:     %10s kB\nBdiDirtyThresh:         123456 kB\n' "$1" "$2" \
		>"$FX/sys/kernel/debug/bdi/8:16/stats.new"
	mv "$FX/sys/kernel/debug/bdi/8:16/stats.new" "$FX/sys/kernel/debug/bdi/8:16/stats"
}
stats 0 0
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
# a file system of the stick where one can be synced: this test's own.
# Sync's child opens a mount point only if it is the mount mountinfo names
# (its mount id), so the line carries the real id of the mount $tmp/mnt is
# on, and is a btrfs of the stick's partition: btrfs mounts have anonymous
# device numbers, and a mount of type btrfs is the disk's its source names
# (the fixture's other mounts are the stick's by their number, 8:17; its
# user's FUSE mount naming /dev/sdb1 is no one's)
mkdir "$tmp/mnt"
MOUNTS=$FX/proc/self/mountinfo
cp "$MOUNTS" "$tmp/mountinfo.fixture"
mid=$(findmnt -n -o ID -T "$tmp/mnt") || fail "findmnt cannot tell the mount of $tmp/mnt"
mnt_line() { printf '%s 22 0:999 / %s rw,nosuid shared:4 - btrfs /dev/sdb1 rw\n' "$mid" "$tmp/mnt"; }
mnt_line >>"$MOUNTS"
# dm-0, LUKS on the stick's partition (as tests/unit/test_sys.c's stacked
# fixture): a disk whose name udisks escapes (dm_2d0)
DM0=$FX/sys/devices/virtual/block/dm-0
mkdir -p "$DM0/queue" "$DM0/slaves" "$DM0/dm"
echo 254:0 >"$DM0/dev"
echo 2040000 >"$DM0/size"
echo 0 >"$DM0/removable"
echo 0 >"$DM0/queue/rotational"
cp "$FX/sys/block/sdb/stat" "$DM0/stat"
echo luks-stick >"$DM0/dm/name"
echo CRYPT-LUKS2-0a1b2c3d-luks-stick >"$DM0/dm/uuid"
ln -s "$(realpath --relative-to="$DM0/slaves" "$FX/sys/class/block/sdb1")" "$DM0/slaves/sdb1"
ln -s ../devices/virtual/block/dm-0 "$FX/sys/block/dm-0"
ln -s ../../devices/virtual/block/dm-0 "$FX/sys/class/block/dm-0"
ln -s ../../devices/virtual/block/dm-0 "$FX/sys/dev/block/254:0"
cp -r "$FX/sys/devices/virtual/bdi/8:16" "$FX/sys/devices/virtual/bdi/254:0"
ln -s ../../devices/virtual/bdi/254:0 "$FX/sys/class/bdi/254:0"
# the stick measured at 5 MB/s in an earlier run
mkdir "$tmp/mem"
echo "v1 5000000 m $(date +%s) serial:SanDisk_Cruzer___Blade:4C530001190823115393" >"$tmp/mem/devices"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID=
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
polkit_fake sys
bc() { busctl --address="$A" "$@"; }
get() { bc get-property io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" "$1"; }

# without the guid: the next dbus-daemon at that path has another
$AS "$D" --root "$FX" --state-dir "$ST" --memory "$tmp/mem/devices" --bus "${A%%,guid=*}" >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"

# --- the objects: one per device of the governor, under its kernel name
bc tree --list io.github.wbgov.Governor1 >"$tmp/tree" || fail "busctl tree: $(cat "$tmp/tree")"
for p in /io/github/wbgov/Governor1 "$DEV/sdb" "$DEV/nvme0n1" "$DEV/dm_2d0" "$DEV/btrfs_2d1" "$DEV/_38_3a16_2dfuseblk"; do
	grep -qx "$p" "$tmp/tree" || fail "no object $p: $(cat "$tmp/tree")"
done
bc get-property io.github.wbgov.Governor1 /io/github/wbgov/Governor1 io.github.wbgov.Governor1.Manager Devices >"$tmp/devices"
grep -q "\"$DEV/sdb\"" "$tmp/devices" || fail "Devices does not list sdb: $(cat "$tmp/devices")"
bc call io.github.wbgov.Governor1 /io/github/wbgov/Governor1 org.freedesktop.DBus.ObjectManager GetManagedObjects >"$tmp/managed"
grep -q "\"$DEV/sdb\" [0-9]* .*\"$IFACE\" [0-9]* \"Name\" s \"sdb\"" "$tmp/managed" || fail "GetManagedObjects lacks sdb: $(head -c 300 "$tmp/managed")"

# --- the properties hold the fixture's values
check() { # PROPERTY EXPECTED
	got=$(get "$1") || fail "Get $1 failed"
	[ "$got" = "$2" ] || fail "$1: got $got, want $2"
}
check Name 's "sdb"'
check Bdi 's "8:16"'
check Disk 's "sdb"'
check Bus 's "usb"'
check Kind 's "disk"'
check Model 's "SanDisk Cruzer \357\277\275 Blade"' # U+FFFD for the Latin-1 byte
check Mounts "as 3 \"/media/user/NO NAME\" \"/media/user/Caf\\303\\251\" \"$tmp/mnt\""
check BandwidthBytesPerSecond 't 5000000'
check BandwidthSource 's "remembered"'
# a second of 5 MB/s less 256 KiB of sync slack, as the status file says
grep -q "^bdi=8:16 bw=5000000 .*max_bytes=4737856 strict=1" "$ST/status" || fail "status: $(grep 8:16 "$ST/status")"
check CapBytes 't 4737856'
check State 's "capped"'
check Why 's "measured bandwidth x target, less 256 KiB of sync slack"'
check PendingKnown 'b true'
check PendingBytes 't 0'
check DrainSeconds 'd 0'
check_dev() { # OBJECT PROPERTY EXPECTED
	got=$(bc get-property io.github.wbgov.Governor1 "$DEV/$1" "$IFACE" "$2") || fail "Get $1 $2 failed"
	[ "$got" = "$3" ] || fail "$1 $2: got $got, want $3"
}
check_dev nvme0n1 PendingKnown 'b false' # no counters in debugfs for it
check_dev nvme0n1 DrainSeconds 'd -1'
check_dev nvme0n1 BandwidthSource 's "none"'
check_dev _38_3a16_2dfuseblk Name 's "8:16-fuseblk"'
# what a client matches with udisks' objects: the disk's dev_t as udisks'
# Block.DeviceNumber has it (makedev: 8:16 is 2064, 259:0 is 66304, 254:0
# 65024) and udisks' object path (dm-0: dm_2d0); none for a file system's bdi
UD=/org/freedesktop/UDisks2/block_devices
check DeviceNumber 't 2064'
check UDisksBlock "o \"$UD/sdb\""
check_dev nvme0n1 DeviceNumber 't 66304'
check_dev nvme0n1 UDisksBlock "o \"$UD/nvme0n1\""
check_dev dm_2d0 Name 's "dm-0"'
check_dev dm_2d0 DeviceNumber 't 65024'
check_dev dm_2d0 UDisksBlock "o \"$UD/dm_2d0\""
for o in btrfs_2d1 _38_3a16_2dfuseblk; do
	check_dev $o DeviceNumber 't 0'
	check_dev $o UDisksBlock 'o "/"'
done
# a share (the fixture's NFS mount at 0:53): its name and type, its mount
# point by its st_dev, no disk
check_dev _30_3a53 Kind 's "share"'
check_dev _30_3a53 Name 's "0:53"'
check_dev _30_3a53 Model 's "nas.local:/export"'
check_dev _30_3a53 Bus 's "nfs4"'
check_dev _30_3a53 Disk 's ""'
check_dev _30_3a53 Mounts 'as 1 "/mnt/nas"'
check_dev _30_3a53 DeviceNumber 't 0'

# --- PropertiesChanged as the stick's data comes and drains: 120 MiB at
# 5 MB/s is 25.2 s; then a burst of changes every 50 ms for 2 s (each 2 %
# of what is left): at most 4 signals a second; then clean
cat >"$tmp/watch.py" <<'PY'
import os, sys, time
import dbus, dbus.mainloop.glib
from gi.repository import GLib
addr, path, fx = sys.argv[1:4]
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(addr)
seen = []
bus.add_signal_receiver(lambda i, c, inv: seen.append((time.monotonic(), dict(c))),
                        "PropertiesChanged", "org.freedesktop.DBus.Properties",
                        "io.github.wbgov.Governor1", path)
bus.get_name_owner("io.github.wbgov.Governor1")  # the match is in place
ctx = GLib.MainContext.default()
def stats(wb_kb, rc_kb):
    p = fx + "/sys/kernel/debug/bdi/8:16/stats"
    with open(p + ".new", "w") as f:
        f.write("BdiWriteback: %d kB\nBdiReclaimable: %d kB\nBdiDirtyThresh: 123456 kB\n" % (wb_kb, rc_kb))
    os.rename(p + ".new", p)
def vmstat(kb):  # in place: wbgovd keeps it open
    with open(fx + "/proc/vmstat", "w") as f:
        f.write("nr_dirty %d\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n" % (kb // 4))
# the longest this client went between two turns of its loop: a signal
# can wait that long to be seen (a loaded machine), the scheduler's
# baseline for the spacing check below
gap = [0.0, None]
def run(seconds):
    end = time.monotonic() + seconds
    while True:
        now = time.monotonic()
        if gap[1] is not None:
            gap[0] = max(gap[0], now - gap[1])
        gap[1] = now
        if now >= end:
            break
        ctx.iteration(False) or time.sleep(0.005)
def until(pred, what, limit=5.0):
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        for t, c in seen:
            if pred(c):
                return t
        run(0.01)
    sys.exit("no PropertiesChanged with %s within %.0f s; seen: %s" % (what, limit, seen))
# 1. 120 MiB: 20 MiB under writeback, 100 MiB dirty
t0 = time.monotonic()
stats(20480, 102400)
vmstat(122880)
t = until(lambda c: c.get("PendingBytes") == 120 << 20, "PendingBytes 120 MiB")
c = [c for _, c in seen if c.get("PendingBytes") == 120 << 20][0]
if not (25.1 < c["DrainSeconds"] < 25.3) or c["PendingKnown"] != True:
    sys.exit("with 120 MiB: %s, want DrainSeconds 25.2" % c)
print("up %.3f" % (t - t0))
# 2. from 120 MiB, a change of 10 %
del seen[:]
t0 = time.monotonic()
stats(20480, 90112)
t = until(lambda c: c.get("PendingBytes") == 108 << 20, "PendingBytes 108 MiB")
print("moved %.3f" % (t - t0))
# 3. a change of less than 1 % (and of less than a second): no signal
del seen[:]
stats(20480, 90112 - 800)
run(1.0)
if any("PendingBytes" in c for _, c in seen):
    sys.exit("a change of 0.7 %% was signalled: %s" % seen)
# 4. 40 changes in 2 s, 2 % each: the signals follow, 4 a second at most
del seen[:]
kb = 110000
gap[:] = [0.0, None]
t0 = time.monotonic()
for i in range(40):
    kb = kb * 98 // 100
    stats(0, kb)
    run(0.05)
run(0.3)
n = len([1 for t, c in seen if "PendingBytes" in c and t - t0 < 2.0])
if n < 4 or n > 9:
    sys.exit("%d signals for 40 changes in 2 s, want 4 to 9" % n)
# k signals after one take at least k x 250 ms as wbgovd sends them; as
# this client sees them, a signal delivered late (a loaded machine) can
# sit closer to the next: 0.2 s of such jitter is allowed over any span,
# and the longest the client itself was kept from its loop
slack = 0.2 + gap[0]
times = [t for t, c in seen if "PendingBytes" in c]
for i in range(len(times)):
    for j in range(i + 1, len(times)):
        if times[j] - times[i] < 0.25 * (j - i) - slack:
            sys.exit("%d signals within %.3f s (the client's longest pause %.3f s)" % (j - i + 1, times[j] - times[i], gap[0]))
last = [c for _, c in seen if "PendingBytes" in c][-1]
if last["PendingBytes"] != kb * 1024:
    sys.exit("the last signal says %d, the counters %d" % (last["PendingBytes"], kb * 1024))
print("burst %d" % n)
# 5. clean
del seen[:]
t0 = time.monotonic()
stats(0, 0)
vmstat(0)
t = until(lambda c: c.get("PendingBytes") == 0 and c.get("DrainSeconds") == 0, "PendingBytes 0")
print("down %.3f" % (t - t0))
# 6. a little: 512 KiB on the stick, 600 KiB in the whole system (when the
# bus read a device only while the system held 1 MiB, this read 0)
del seen[:]
t0 = time.monotonic()
stats(0, 512)
vmstat(600)
t = until(lambda c: c.get("PendingBytes") == 512 << 10, "PendingBytes 512 KiB")
print("small %.3f" % (t - t0))
stats(0, 0)
vmstat(0)
until(lambda c: c.get("PendingBytes") == 0, "PendingBytes 0 again")
PY
/usr/bin/python3 "$tmp/watch.py" "$A" "$DEV/sdb" "$FX" >"$tmp/watch" 2>&1 || fail "PropertiesChanged: $(cat "$tmp/watch")"
echo "$me: change -> PropertiesChanged: $(tr '\n' ' ' <"$tmp/watch")" >&2
check PendingBytes 't 0'

# --- Sync: syncs the stick's file systems, answered when done; one that
# cannot be opened is named in the error
grep -v " 8:17 " "$tmp/mountinfo.fixture" >"$MOUNTS"
mnt_line >>"$MOUNTS"
bc call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 || fail "Sync (root, or polkit said yes): $(cat "$tmp/sync")"
wait_for 5 grep -q "sdb: Sync asked on D-Bus by uid $(id -u) (:1\.[0-9]*): syncing 1 file system " "$LOG" || fail "no Sync in the log: $(tail -n 3 "$LOG")"
# root is not asked about
if [ "$(id -u)" = 0 ]; then
	[ ! -s "$tmp/polkit.log" ] || fail "polkit was asked about root: $(cat "$tmp/polkit.log")"
else
	grep -q "^check system-bus-name :1\.[0-9]* io.github.wbgov.sync " "$tmp/polkit.log" || fail "polkit was not asked: $(cat "$tmp/polkit.log")"
fi
# the line's path with a link on the way (a user's directory renamed and
# a link left in its place), or another mount there than the line's id:
# the child opens neither, and says why
ln -s "$tmp" "$tmp/lnk"
grep -v " 8:17 " "$tmp/mountinfo.fixture" >"$MOUNTS"
printf '%s 22 0:999 / %s rw - btrfs /dev/sdb1 rw\n' "$mid" "$tmp/lnk/mnt" >>"$MOUNTS"
rc=0
bc call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "Sync opened a mount point through a symbolic link"
grep -q "$tmp/lnk/mnt: a symbolic link is on the way" "$tmp/sync" || fail "Sync's error: $(cat "$tmp/sync")"
grep -v " 8:17 " "$tmp/mountinfo.fixture" >"$MOUNTS"
printf '%s 22 0:999 / %s rw - btrfs /dev/sdb1 rw\n' "$((mid + 100000))" "$tmp/mnt" >>"$MOUNTS"
rc=0
bc call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "Sync opened another mount than mountinfo's"
grep -q "$tmp/mnt: another file system is there" "$tmp/sync" || fail "Sync's error: $(cat "$tmp/sync")"
cp "$tmp/mountinfo.fixture" "$MOUNTS"
rc=0
bc call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "Sync of a file system that is not there succeeded"
grep -q "/media/user/NO NAME: No such file or directory" "$tmp/sync" || fail "Sync's error: $(cat "$tmp/sync")"
# nothing mounted: nothing to do
bc call io.github.wbgov.Governor1 "$DEV/nvme1n1" "$IFACE" Sync a{sv} 0 >"$tmp/sync" 2>&1 || fail "Sync of an unmounted disk: $(cat "$tmp/sync")"
kill -0 "$PID" || fail "wbgovd died"
[ -z "$(ps -o pid= --ppid "$PID")" ] || fail "a Sync child was left: $(ps -o pid,comm --ppid "$PID")"

# --- the policy: no one sets a property; another user reads, and their
# Sync is wbgovd's to refuse (polkit says no)
rc=0
bc set-property io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" CapBytes t 0 >"$tmp/set" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a property could be set"
if [ -n "$AS" ]; then
	OTHER="setpriv --reuid=1 --regid=1 --clear-groups"
	got=$($OTHER busctl --address="$A" get-property io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Name 2>&1) ||
		fail "another user cannot Get: $got"
	[ "$got" = 's "sdb"' ] || fail "another user reads $got"
	$OTHER busctl --address="$A" tree --list io.github.wbgov.Governor1 2>&1 | grep -qx "$DEV/sdb" ||
		fail "another user cannot introspect"
	polkit_mode no
	rc=0
	$OTHER busctl --address="$A" call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/other" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "another user could Sync when polkit says no"
	grep -q "Sync of sdb refused: polkit says uid 1 is not authorized for io.github.wbgov.sync" "$tmp/other" ||
		fail "another user's Sync: $(cat "$tmp/other")"
else
	echo "$me: not root: the other user's part is not run" >&2
fi

# --- the bus goes away: wbgovd governs on, and comes back on a new one
dbus_stop sys
wait_for 5 grep -q "^<4>D-Bus: the connection was lost" "$LOG" || fail "the loss is not logged: $(tail -n 3 "$LOG")"
sleep 0.5
kill -0 "$PID" || fail "wbgovd died with the bus"
kill -HUP "$PID"
wait_for 5 grep -q "configuration reloaded" "$LOG" || fail "wbgovd does not answer after the bus went: $(tail -n 3 "$LOG")"
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
wait_for 15 bc get-property io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Name ||
	fail "wbgovd did not come back on a new bus: $(tail -n 3 "$LOG")"
[ "$(grep -c "D-Bus: io.github.wbgov.Governor1 on" "$LOG")" = 2 ] || fail "not logged once per connection"
[ "$(grep -c "connection was lost" "$LOG")" = 1 ] || fail "the loss logged more than once"

kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
[ "$rc" -eq 0 ] || fail "wbgovd exited $rc on SIGTERM: $(tail -n 5 "$LOG")"
exit 0
