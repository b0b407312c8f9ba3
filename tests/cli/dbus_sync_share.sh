#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# D-Bus Sync of a share (over the fixture tree, wbgovd as nobody when the
# test runs as root, a private dbus-daemon as the system bus): the NFS
# share nas.local:/export (bdi 0:53, object _30_3a53) is mounted at
# $tmp/nas, a directory of this test's on the real mount it is on (the
# Sync child opens a mount point only if its mount id is the line's).
# tests/lib/hang.so holds the child's syncfs, deaf to every signal but
# SIGKILL, as a server that answers slowly, then never:
# 1. Sync of the share syncs it in a child, logged by the share's name, and
#    is answered when the child ends; meanwhile wbgovd answers (a property
#    read) and refuses a second Sync of the same share as Busy, naming the
#    pid that waits for the server;
# 2. a server that never answers: SIGTERM ends wbgovd within its second
#    all the same, every knob back, the call answered that the sync goes
#    on in its process, which is left (and killed by the test);
# 3. a share whose bdi is known but not its mount (the CIFS one, its
#    mount gone from this namespace's table) is refused, saying why.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
dbus_need_python
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
wbgovd_fixture
mkdir "$tmp/nas"
mid=$(findmnt -n -o ID -T "$tmp/nas") || fail "findmnt cannot tell the mount of $tmp/nas"
sed -i "s|^50 22 0:53 / /mnt/nas |$mid 22 0:53 / $tmp/nas |" "$FX/proc/self/mountinfo"
grep -q " $tmp/nas .* nfs4 nas.local:/export " "$FX/proc/self/mountinfo" || fail "the share is not at $tmp/nas"
as_nobody
LEFT=
trap 'for p in $PID $LEFT; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
knobs >"$tmp/before"
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
polkit_fake sys
bc() { busctl --address="$A" "$@"; }
NAS=$DEV/_30_3a53
start() { # SYNCFS_MODE
	: >"$LOG"
	$AS env LD_PRELOAD="$HANG" WBGOV_TEST_SYNCFS="$1" "$D" --root "$FX" --state-dir "$ST" --no-memory \
		--bus "${A%%,guid=*}" >"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
	wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
	wait_for 5 sh -c "busctl --address='$A' tree --list io.github.wbgov.Governor1 | grep -qx '$NAS'" ||
		fail "no object $NAS"
}

# --- 1. a Sync of the share, answered when its child ends
start stuck:3
bc call io.github.wbgov.Governor1 "$NAS" "$IFACE" Sync a{sv} 0 >"$tmp/sync1" 2>&1 &
S1=$!
wait_for 5 grep -q "^<6>share 0:53 (nas.local:/export): Sync asked on D-Bus by uid $(id -u) (:1\.[0-9]*): syncing 1 file system (pid [0-9]*)$" "$LOG" ||
	fail "no Sync of the share in the log: $(tail -n 3 "$LOG")"
child=$(sed -n 's/.*share 0:53 .*syncing 1 file system (pid \([0-9]*\))$/\1/p' "$LOG" | tail -n 1)
got=$(bc get-property io.github.wbgov.Governor1 "$NAS" "$IFACE" Kind) || fail "no answer while a share syncs"
[ "$got" = 's "share"' ] || fail "Kind: $got"
rc=0
bc call io.github.wbgov.Governor1 "$NAS" "$IFACE" Sync a{sv} 0 >"$tmp/sync2" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a second Sync of the share was taken while the first waits"
grep -q "a Sync of 0:53 (nas.local:/export) runs already (pid $child): its server has not taken everything yet" "$tmp/sync2" ||
	fail "the second Sync's error: $(cat "$tmp/sync2")"
rc=0
wait "$S1" || rc=$?
[ "$rc" -eq 0 ] || fail "Sync of the share failed: $(cat "$tmp/sync1")"
stop_timed "after a Sync of the share"

# --- 2. a server that never answers; 3. a share with no mount here
grep -v " cifs //fileserver/public " "$FX/proc/self/mountinfo" >"$tmp/mi"
cat "$tmp/mi" >"$FX/proc/self/mountinfo"
start stuck:120
rc=0
bc call io.github.wbgov.Governor1 "$DEV/cifs_2d3" "$IFACE" Sync a{sv} 0 >"$tmp/sync3" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "Sync of a share mounted nowhere here answered as done"
grep -q "cifs-3 is a share mounted where wbgovd does not see it (another mount namespace): it cannot be synced from here" "$tmp/sync3" ||
	fail "the unmounted share's Sync: $(cat "$tmp/sync3")"
bc call io.github.wbgov.Governor1 "$NAS" "$IFACE" Sync a{sv} 0 >"$tmp/sync1" 2>&1 &
S1=$!
wait_for 5 grep -q "share 0:53 (nas.local:/export): Sync asked on D-Bus" "$LOG" || fail "no Sync of the share: $(tail -n 3 "$LOG")"
LEFT=$(sed -n 's/.*share 0:53 .*syncing 1 file system (pid \([0-9]*\))$/\1/p' "$LOG" | tail -n 1)
stop_timed "a Sync of the share waiting for its server"
rc=0
wait "$S1" || rc=$?
[ "$rc" -ne 0 ] || fail "the waiting Sync was answered as done"
grep -q "wbgovd stopped; the sync goes on in process $LEFT" "$tmp/sync1" || fail "the waiting Sync's answer: $(cat "$tmp/sync1")"
grep -q "^<4>Sync of 0:53: pid $LEFT still running at stop" "$LOG" || fail "the child left is not said: $(tail -n 5 "$LOG")"
kill -KILL "$LEFT"
echo "$me: ok"
