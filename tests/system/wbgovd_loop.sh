#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd and wbgov on the real kernel, with throttled loop devices: a device
# that appears gets its limit within 1 s; a slow copy is paced to the device
# and its sync is short; SIGHUP applies a new config; a detached loop gets its
# knobs back; SIGTERM gives every knob back; after SIGKILL `wbgov restore`
# and the next start do; a bad config touches nothing. Every knob is put back
# and every loop device detached at the end, whatever happens.
set -eu
cd "$(dirname "$0")/../.."
. tests/lib/system.sh
BUILD=${BUILD:-build}
D=$(pwd)/$BUILD/wbgovd
G=$(pwd)/$BUILD/wbgov
sys_init
ST=$SYS_TMP/state
fail() { echo "wbgovd_loop: FAIL: $*" >&2; [ -f "$SYS_TMP/d.log" ] && cat "$SYS_TMP/d.log" >&2; exit 1; }
knob() { cat "/sys/class/bdi/$1/$2"; }
strict_is() { [ "$(knob "$1" strict_limit)" = "$2" ]; }

touch "$SYS_TMP/d.log"
nstarted() { grep -c "started:" "$SYS_TMP/d.log" || true; }
started_more() { [ "$(nstarted)" -gt "$n0" ]; }
start() {
	n0=$(nstarted)
	"$D" --state-dir "$ST" --memory "$SYS_TMP/devices" "$@" >>"$SYS_TMP/d.log" 2>&1 &
	DPID=$!
	SYS_PIDS="$SYS_PIDS $DPID"
	sys_wait_for started_more || fail "wbgovd did not start"
}

# --- a bad configuration touches nothing
printf '[global]\ntarget = 1s\n[device a]\nmode = fixed\n' >"$SYS_TMP/bad.conf"
sys_snapshot >"$SYS_TMP/s0"
if "$D" -n -c "$SYS_TMP/bad.conf" 2>"$SYS_TMP/err"; then fail "-n accepted a bad config"; fi
grep -q "bad.conf:3:" "$SYS_TMP/err" || fail "-n did not say FILE:LINE: $(cat "$SYS_TMP/err")"
rc=0; "$D" -c "$SYS_TMP/bad.conf" --state-dir "$ST" 2>/dev/null || rc=$?
[ $rc = 78 ] || fail "a bad config: exit $rc, want 78"
sys_snapshot >"$SYS_TMP/s1"
cmp -s "$SYS_TMP/s0" "$SYS_TMP/s1" || fail "a bad config changed knobs"
"$D" -n -c /dev/null | grep -qx "configuration OK" || fail "an empty config is not OK"

# --- a device that appears gets its limit within 1 s
start
L1=$(sys_loop 300)
B1=$(sys_devnum "$L1")
t0=$(sys_now)
sys_wait_for strict_is "$B1" 1 || fail "$L1 ($B1) got no limit within 2 s"
t1=$(sys_now)
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a <= 1.0) }' || fail "limit after $t0..$t1 s (> 1 s)"
sys_max_bytes_near "$B1" $((4 * 1048576)) ||
	fail "unmeasured loop: max_bytes $(knob "$B1" max_bytes), want the 4 MiB start cap"

# --- a slow copy: paced to the device, a short sync
sys_throttle "$B1" 5000000
M1=$(sys_mkfs_mount "$L1" ext4)
t0=$(sys_now)
dd if=/dev/zero of="$M1/f" bs=1M count=80 status=none
t1=$(sys_now)
sync
t2=$(sys_now)
# 83.9 MB at 5 MB/s: 16.8 s of device time
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
	printf "wbgovd_loop: 80 MiB at 5 MB/s: dd %.2f s, sync %.2f s\n", b - a, c - b
	exit !((b - a) >= 0.9 * 16.78 && (c - b) <= 1.5) }' || fail "dd or sync out of bounds"
"$G" --state-dir "$ST" explain "$L1" | grep -q "measured:    [0-9.]* MiB/s" || fail "explain shows no measurement"
"$G" --state-dir "$ST" status | grep -q "^${L1##*/} " || fail "status does not list ${L1##*/}"

# --- a mount point with a blank, as udisks mounts a FAT stick labelled "NO
# NAME": wbgov sync of it waits until what was written there is on the
# device (its stat's written sectors), and status --json lists it whole
NN="$SYS_TMP/media/NO NAME"
sys_bind_mount "$M1" "$NN"
w0=$(awk '{ print $7 }' "/sys/block/${L1##*/}/stat")
dd if=/dev/zero of="$NN/g" bs=1M count=8 status=none
rc=0; "$G" --state-dir "$ST" sync "$NN" 2>"$SYS_TMP/sync.err" || rc=$?
w1=$(awk '{ print $7 }' "/sys/block/${L1##*/}/stat")
[ $rc = 0 ] || fail "wbgov sync '$NN': exit $rc: $(cat "$SYS_TMP/sync.err")"
grep -q "durable after" "$SYS_TMP/sync.err" || fail "wbgov sync '$NN' said: $(cat "$SYS_TMP/sync.err")"
[ $((w1 - w0)) -ge $((8 * 2048)) ] ||
	fail "wbgov sync '$NN' returned with $(((w1 - w0) / 2)) KiB of 8 MiB on the device"
"$G" --state-dir "$ST" status --json | grep -qF "\"$NN\"" ||
	fail "status --json does not list '$NN': $("$G" --state-dir "$ST" status --json | grep -F "${L1##*/}")"
# "." is a path, not a name in /sys/class/block
mkdir "$NN/sub"
(cd "$NN/sub" && "$G" --state-dir "$ST" explain .) | head -n 1 | grep -q "^${L1##*/} (bdi $B1)" ||
	fail "explain . in '$NN/sub': $(cd "$NN/sub" && "$G" --state-dir "$ST" explain . 2>&1 | head -n 1)"
(cd "$NN/sub" && "$G" --state-dir "$ST" explain ..) | head -n 1 | grep -q "^${L1##*/} (bdi $B1)" ||
	fail "explain .. in '$NN/sub': $(cd "$NN/sub" && "$G" --state-dir "$ST" explain .. 2>&1 | head -n 1)"

# --- SIGHUP: a [device] section by MAJ:MIN, mode fixed
printf '[device loop]\ndevnum = %s\nmode = fixed\nmax_bytes = 8M\n' "$B1" >"$SYS_TMP/fixed.conf"
kill "$DPID"
wait "$DPID" || fail "wbgovd exited $? on SIGTERM"
start -c "$SYS_TMP/fixed.conf"
sys_wait_for sys_max_bytes_near "$B1" $((8 * 1048576)) || fail "fixed 8M not applied: max_bytes $(knob "$B1" max_bytes)"
printf '[device loop]\ndevnum = %s\nmode = off\n' "$B1" >"$SYS_TMP/fixed.conf"
kill -HUP "$DPID"
sys_wait_for strict_is "$B1" 0 || fail "mode off after SIGHUP did not give the knobs back"
# the file named with -c gone at SIGHUP: refused, the running config stays
printf '[device loop]\ndevnum = %s\nmode = fixed\nmax_bytes = 8M\n' "$B1" >"$SYS_TMP/fixed.conf"
kill -HUP "$DPID"
sys_wait_for strict_is "$B1" 1 || fail "mode fixed after SIGHUP not applied"
rm "$SYS_TMP/fixed.conf"
kill -HUP "$DPID"
sys_wait_for grep -q "reload refused.*fixed.conf" "$SYS_TMP/d.log" || fail "a config gone at SIGHUP was not refused"
sleep 0.5
strict_is "$B1" 1 && sys_max_bytes_near "$B1" $((8 * 1048576)) ||
	fail "a config gone at SIGHUP changed the knobs: strict_limit $(knob "$B1" strict_limit), max_bytes $(knob "$B1" max_bytes)"

# --- a loop device detached: its bdi stays, its knobs come back
L2=$(sys_loop 100)
B2=$(sys_devnum "$L2")
sys_wait_for strict_is "$B2" 1 || fail "$L2 got no limit"
losetup -d "$L2"
sys_wait_for strict_is "$B2" 0 || fail "$L2 detached, its strict_limit stayed"
# a loop made for the test: its bdi is new, with the kernel's 100 %
[ "$(knob "$B2" max_ratio_fine)" = 1000000 ] ||
	fail "$L2 detached, its max_ratio_fine was not given back"

# --- SIGTERM gives every knob back, byte for byte
kill "$DPID"
wait "$DPID" || fail "wbgovd exited $? on SIGTERM"
sys_snapshot >"$SYS_TMP/s2"
sys_as_found "$SYS_TMP/s2" >&2 || fail "knobs differ after SIGTERM"
[ ! -f "$ST/state" ] || fail "state file left after a clean exit"

# --- SIGKILL, then wbgov restore
start
sys_wait_for strict_is "$B1" 1 || fail "no limit after restart"
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
[ -f "$ST/state" ] || fail "no state file after SIGKILL"
strict_is "$B1" 1 || fail "SIGKILL already restored?"
"$G" --state-dir "$ST" restore >/dev/null || fail "wbgov restore failed"
sys_snapshot >"$SYS_TMP/s3"
sys_as_found "$SYS_TMP/s3" >&2 || fail "knobs differ after SIGKILL + wbgov restore"
"$G" --state-dir "$ST" restore | grep -q "nothing to restore" || fail "second restore not empty"

# --- SIGKILL, then the next start gives the leftovers back first
start
sys_wait_for strict_is "$B1" 1 || fail "no limit after restart"
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
start
grep -q "did not finish; giving its knobs back" "$SYS_TMP/d.log" || fail "leftovers not restored at start"
kill "$DPID"
wait "$DPID" || fail "wbgovd exited $?"
sys_snapshot >"$SYS_TMP/s4"
sys_as_found "$SYS_TMP/s4" >&2 || fail "knobs differ after kill + restart + stop"

# --- wbgov apply --once where its state file cannot be written (a
# read-only file system): it names the file, and changes nothing; first
# with no lock file there (it cannot be made: refused, 73), then with one
# made before (the lock is taken, the state file cannot be written)
RO=$SYS_TMP/ro-state
mkdir -p "$SYS_TMP/ro-src"
sys_bind_mount "$SYS_TMP/ro-src" "$RO"
mount -o remount,ro,bind "$RO" || fail "cannot make $RO read-only"
sys_snapshot >"$SYS_TMP/s6"
rc=0; "$G" --state-dir "$RO" apply --once >/dev/null 2>"$SYS_TMP/err" || rc=$?
[ $rc = 73 ] || fail "apply with a read-only state dir and no lock file: exit $rc, want 73"
grep -qx "wbgov apply: the lock $RO/wbgovd.lock: Read-only file system" "$SYS_TMP/err" ||
	fail "apply with a read-only state dir and no lock file: $(head -n 2 "$SYS_TMP/err")"
mount -o remount,rw,bind "$RO" || fail "cannot make $RO writable"
( umask 077 && : >"$RO/wbgovd.lock" )
mount -o remount,ro,bind "$RO" || fail "cannot make $RO read-only"
rc=0; "$G" --state-dir "$RO" apply --once >/dev/null 2>"$SYS_TMP/err" || rc=$?
[ $rc = 77 ] || fail "apply with a read-only state file: exit $rc, want 77"
grep -q "its knobs could not be recorded in $RO/state (Read-only file system); left as they are" \
	"$SYS_TMP/err" || fail "apply with a read-only state file: $(head -n 2 "$SYS_TMP/err")"
sys_snapshot >"$SYS_TMP/s7"
cmp -s "$SYS_TMP/s6" "$SYS_TMP/s7" || fail "apply that could not record changed knobs"

# --- wbgov apply --once, then restore
"$G" --state-dir "$ST" apply --once >/dev/null || fail "apply --once failed"
strict_is "$B1" 1 || fail "apply --once did not apply"
"$G" --state-dir "$ST" restore >/dev/null || fail "restore after apply failed"
sys_snapshot >"$SYS_TMP/s5"
sys_as_found "$SYS_TMP/s5" >&2 || fail "knobs differ after apply + restore"

# --- one line per decision, with journald priorities
grep -q "^<6>${L1##*/} bdi $B1 (loop on .*, loop): .* MB/s -> max_bytes .* MiB, strict" "$SYS_TMP/d.log" ||
	fail "no decision line for the measured loop device"
echo "wbgovd_loop: ok"
