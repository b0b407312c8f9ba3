#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd's wake-up at a slow device's first write before Linux 6.2 (the
# global pair route: fanotify), on a fixture tree whose bdis have no
# per-device knobs and whose USB stick is mounted at a real tmpfs, at
# "stick a" (a space in the path):
# - wbgovd runs in a mount namespace of its own, as under its unit
#   (PrivateMounts=): a write through the test's mount, outside that
#   namespace, wakes it (a file system mark; a mount mark sees none);
# - a local user's write lease on the file written does not hold it
#   (reading a fanotify event opens the file, and that open waits
#   lease-break-time, 45 s, for the lease): it wakes and SIGTERM ends it
#   within 10 s;
# - CAP_SYS_ADMIN is permitted but not effective while it waits;
# - it says the wake-up is in force, and, under a unit whose
#   SystemCallFilter= refuses fanotify_init (tests/lib/hang.c plays it),
#   warns that the unit setting refused it.
set -eu
cd "$(dirname "$0")/../.."
. tests/lib/system.sh
sys_init
BUILD=${BUILD:-build}
D=$(pwd)/$BUILD/wbgovd
LOG=$SYS_TMP/d.log
FX=$SYS_TMP/fx
me=wbgovd_fanwatch
fail() { echo "$me: FAIL: $*" >&2; tail -n 20 "$LOG" >&2; exit 1; }
note() { echo "$me: $*"; }

WBGOV_FIXTURE_OUT=$FX "$BUILD/tests/test_sys" >/dev/null 2>&1 || fail "no fixture from $BUILD/tests/test_sys"
# Linux 6.1's bdis, a clean system
find "$FX/sys" \( -name strict_limit -o -name max_bytes -o -name min_bytes -o -name '*_fine' \) -delete
sed -i 's/^\(Dirty\|Writeback\): .*/\1: 0 kB/' "$FX/proc/meminfo"
STICK="$SYS_TMP/stick a"
mkdir -p "$STICK"
chmod 755 "$SYS_TMP" # the user's way to the stick
mount -t tmpfs -o size=8m,mode=1777 tmpfs "$STICK" || fail "cannot mount a tmpfs"
printf '%s\n' "$STICK" >>"$SYS_TMP/mounts"
# the stick (sdb1, 8:17) mounted there, and nowhere else
M=$(printf '%s' "$STICK" | sed 's/ /\\040/g') awk '$3 == "8:17" { if (done++) next; $5 = ENVIRON["M"] } { print }' \
	"$FX/proc/self/mountinfo" \
		>"$FX/mountinfo.new" && mv "$FX/mountinfo.new" "$FX/proc/self/mountinfo"

unshare -m --propagation slave "$D" -v -c /dev/null --root "$FX" --state-dir "$SYS_TMP/st" \
	--no-memory --bus none >"$LOG" 2>&1 &
DPID=$!
SYS_PIDS="$SYS_PIDS $DPID"
sys_wait_for grep -q "wakes the loop" "$LOG" || fail "wbgovd watched no file system for writes"
grep -q "^<6>feature write-wakeup on: fanotify" "$LOG" || fail "the wake-up not said: $(grep feature "$LOG")"
[ "$(readlink "/proc/$DPID/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] ||
	fail "wbgovd shares the test's mount namespace"
caps() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$DPID/status"; }
# bit 21: CAP_SYS_ADMIN
has_admin() { [ $((0x$1 >> 21 & 1)) = 1 ]; }
has_admin "$(caps CapPrm)" || fail "CAP_SYS_ADMIN not permitted (CapPrm $(caps CapPrm))"
has_admin "$(caps CapEff)" && fail "CAP_SYS_ADMIN effective while waiting (CapEff $(caps CapEff))"

# a write through this namespace's mount
echo x >"$STICK/outside"
sys_wait_for grep -q "a write to its file systems: a full poll" "$LOG" ||
	fail "a write from outside wbgovd's mount namespace did not wake it"
note "a write from another mount namespace woke wbgovd"

# armed again after the wake-up (a write while it is not, in the 0.1 s
# after a wake-up, is the polls' to find: the user writes a byte every 0.2 s
# while it holds its lease on the file, until wbgovd has woken)
wakes=$(grep -c 'a write to its file systems: a full poll' "$LOG")
sys_wait_for sh -c "[ \$(grep -c 'wakes the loop' '$LOG') -gt $wakes ]" || fail "the watch was not armed again"
setpriv --reuid nobody --regid nogroup --clear-groups /usr/bin/python3 -c '
import fcntl, os, signal, sys, time
signal.signal(signal.SIGIO, signal.SIG_IGN)  # the lease is never given up
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
print("leased", flush=True)
for i in range(300):
    os.write(fd, b"x")
    time.sleep(0.2)
' "$STICK/leased" >"$SYS_TMP/lease.out" 2>&1 &
LPID=$!
SYS_PIDS="$SYS_PIDS $LPID"
sys_wait_for grep -qx leased "$SYS_TMP/lease.out" || fail "no lease: $(cat "$SYS_TMP/lease.out")"
sys_wait_for sh -c "[ \$(grep -c 'a write to its file systems: a full poll' '$LOG') -gt $wakes ]" ||
	fail "a write to a leased file did not wake wbgovd"
sleep 0.5 # the writes go on, the lease held
t0=$(sys_now)
kill -TERM "$DPID"
reap "$DPID" 60
secs=$(awk -v a="$t0" -v b="$(sys_now)" 'BEGIN { printf "%.2f", b - a }')
note "a lease held on the file written: SIGTERM to exit $secs s"
[ "$rc" = 0 ] || fail "wbgovd exited $rc on SIGTERM"
awk -v s="$secs" 'BEGIN { exit !(s < 10) }' || fail "SIGTERM took $secs s with a user's lease held"
kill "$LPID" 2>/dev/null || true

INVOCATION_ID=0123456789abcdef LD_PRELOAD=$(pwd)/$BUILD/tests/hang.so WBGOV_TEST_REFUSE=fanotify \
	"$D" -c /dev/null --root "$FX" --state-dir "$SYS_TMP/st" --no-memory --bus none >"$LOG" 2>&1 &
DPID=$!
SYS_PIDS="$SYS_PIDS $DPID"
sys_wait_for grep -q "^<4>feature write-wakeup refused by SystemCallFilter=: no fanotify" "$LOG" ||
	fail "a refused fanotify_init not said as the unit's refusal: $(grep feature "$LOG")"
kill -TERM "$DPID"
wait "$DPID" || fail "wbgovd exited $? on SIGTERM"
echo "$me: ok"
