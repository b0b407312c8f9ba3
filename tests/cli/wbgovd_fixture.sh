#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd's start, lock, reload and restore without root, over a fake /sys
# and /proc (the fixture tests/unit/test_sys.c builds, written out with
# WBGOV_FIXTURE_OUT), run as nobody when the test runs as root: started, it
# caps a device it has not measured and records the original values; a
# second instance on the same state dir is refused (75) and names the
# first and the lock file; another user can neither hold the lock nor lead
# its writes with a state directory of its own making; SIGHUP rereads the
# file, and keeps the running configuration when the file has gone;
# SIGTERM gives every knob back and leaves no pid or status file; knobs a
# killed run left are given back by the next start, and one that refuses
# the write is named, kept recorded and its device left alone while the
# others are governed; a state file it cannot read stops it (70) with
# nothing changed; a bad configuration stops it (78); under Landlock it
# cannot write a knob outside the kernel's bdi directory. wbgov apply
# --once and restore, over the same tree, change and give back the same
# knobs, under the state directory's lock: refused while another holds it
# (wbgovd waits for it), and many applies at once record only the values
# found. Device memory with a malformed line keeps the other lines and is
# not rewritten at stop.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
ST=$tmp/st
CONF=$tmp/wbgov.conf
LOG=$tmp/log
cli_fixture "$FX"
BDI=$FX/sys/class/bdi/8:16
[ -f "$BDI/strict_limit" ] || fail "no bdi 8:16 in the fixture"
printf '[global]\ninitial = 4M\n' >"$CONF"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
# whatever happens, no daemon of ours outlives the test: a failure exits
# with wbgovd (and the other user's flock) still running
PID= HPID=
trap '[ -z "$HPID" ] || pkill -P "$HPID" 2>/dev/null; for p in $PID $HPID; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
daemon() { $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" "$@"; }
# the values wbgovd restores, of every bdi
start() { wbgovd_start --root "$FX" --state-dir "$ST" --no-memory -c "$CONF"; }
stop() { wbgovd_stop; }
# start_stop ARG...: wbgovd with ARG... started, then stopped; its log in $LOG
start_stop() {
	: >"$LOG"
	$AS "$D" --root "$FX" --state-dir "$ST" -c "$CONF" "$@" >>"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
	stop
}
# a bdi whose directory is not where the kernel keeps bdis (a link planted
# in the tree): under Landlock wbgovd cannot write there
mkdir "$tmp/outside"
cp -r "$FX/sys/devices/virtual/bdi/8:32" "$tmp/outside/"
rm "$FX/sys/class/bdi/8:32"
ln -s "$tmp/outside/8:32" "$FX/sys/class/bdi/8:32"
[ -n "$AS" ] && chown -R nobody "$tmp/outside"
knobs >"$tmp/before"
grep -q "8:16/strict_limit 0$" "$tmp/before" || fail "the fixture's 8:16 is strict already"

# --- start: an unmeasured device gets the start cap, its originals recorded
start
[ "$(cat "$BDI/strict_limit")" = 1 ] || fail "8:16 not made strict"
[ "$(cat "$BDI/max_bytes")" = 4194304 ] || fail "8:16 max_bytes $(cat "$BDI/max_bytes"), want the 4 MiB start cap"
grep -q "8:16" "$ST/state" || fail "8:16's original values not in the state file"
if grep -q "feature landlock off: not in this kernel" "$LOG"; then
	echo "$me: no Landlock here: confinement not tested" >&2
else
	wait_for 5 grep -q "^<4>sdc bdi 8:32 .*refused: max_bytes Permission denied" "$LOG" ||
		fail "a knob outside the bdi directory was not refused: $(grep 8:32 "$LOG")"
	[ "$(cat "$tmp/outside/8:32/strict_limit")" = 0 ] && [ "$(cat "$tmp/outside/8:32/max_bytes")" = "$(cat "$FX/sys/devices/virtual/bdi/8:32/max_bytes")" ] ||
		fail "wbgovd wrote outside the bdi directory"
fi
[ "$(cat "$ST/wbgovd.pid")" = "$PID" ] || fail "pid file: $(cat "$ST/wbgovd.pid"), want $PID"

# --- lock: one instance per state dir
rc=0
daemon >"$tmp/second" 2>&1 || rc=$?
[ "$rc" -eq 75 ] || fail "a second wbgovd exited $rc, want 75"
grep -q "^<3>already running: pid $PID (wbgovd) holds the lock $ST/wbgovd.lock$" "$tmp/second" ||
	fail "the second did not name the first and the lock: $(cat "$tmp/second")"
kill -0 "$PID" || fail "the first died"

# --- another user can neither hold the lock (0600) nor fake it: a shared
# flock on the pid file, readable by all, does not keep wbgovd from coming
# back; nor can a state directory another user made lead its writes
if [ -n "$AS" ]; then
	HOSTILE="setpriv --reuid=1 --regid=1 --clear-groups"
	[ "$(stat -c %a "$ST/wbgovd.lock")" = 600 ] || fail "the lock file is $(stat -c %a "$ST/wbgovd.lock"), want 600"
	$HOSTILE sh -c "exec 3<'$ST/wbgovd.lock'" 2>/dev/null && fail "another user opened the lock file"
	# held before wbgovd stops: the pid file goes with it, and an open
	# after that (a slow start under load) would find none
	: >"$tmp/held"
	chmod 666 "$tmp/held"
	$HOSTILE /usr/bin/python3 -c 'import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_SH)
open(sys.argv[2], "w").write("held")
time.sleep(30)' "$ST/wbgovd.pid" "$tmp/held" &
	HPID=$!
	wait_for 5 test -s "$tmp/held" || fail "the other user could not take its flock"
	stop
	start
	kill "$HPID" 2>/dev/null || fail "the other user's flock did not last"
	mkdir "$tmp/theirs"
	chown 1 "$tmp/theirs"
	rc=0
	$AS "$D" --root "$FX" --state-dir "$tmp/theirs" --no-memory -c "$CONF" >"$tmp/theirs.log" 2>&1 || rc=$?
	[ "$rc" -eq 73 ] || fail "over another user's state directory wbgovd exited $rc, want 73"
	grep -q "not a directory of ours" "$tmp/theirs.log" || fail "no reason given: $(cat "$tmp/theirs.log")"
	[ -z "$(ls "$tmp/theirs")" ] || fail "wbgovd wrote into another user's directory: $(ls "$tmp/theirs")"
else
	echo "$me: not root: the other user's part is not run" >&2
fi

# --- reload: the new start cap applies; a file gone keeps the running one
printf '[global]\ninitial = 8M\n' >"$CONF"
kill -HUP "$PID"
wait_for 5 grep -q "configuration reloaded" "$LOG" || fail "no reload: $(tail -n 3 "$LOG")"
wait_for 5 sh -c "[ \$(cat '$BDI/max_bytes') = 8388608 ]" ||
	fail "after reload 8:16 max_bytes $(cat "$BDI/max_bytes"), want 8 MiB"
rm "$CONF"
kill -HUP "$PID"
wait_for 5 grep -q "reload refused, keeping the running configuration: .*wbgov.conf" "$LOG" ||
	fail "a reload of a file gone was not refused: $(tail -n 3 "$LOG")"
# a FIFO in its place: refused at once, never read (a read would block
# with the signals held, and only SIGKILL would end it)
mkfifo "$CONF"
[ -n "$AS" ] && chown nobody "$CONF"
kill -HUP "$PID"
wait_for 5 grep -q "reload refused, keeping the running configuration: .*wbgov.conf: not a regular file" "$LOG" ||
	fail "a reload of a FIFO was not refused: $(tail -n 3 "$LOG")"
rm "$CONF"
sleep 1.2
kill -0 "$PID" || fail "wbgovd died on a refused reload"
[ "$(cat "$BDI/max_bytes")" = 8388608 ] || fail "a refused reload changed the cap"
printf '[global]\ninitial = 8M\n' >"$CONF"

# --- stop: every knob back, no pid or status file
stop
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back on SIGTERM"
[ ! -e "$ST/wbgovd.pid" ] && [ ! -e "$ST/status" ] || fail "pid or status file left: $(ls "$ST")"
grep -qs "8:16" "$ST/state" && fail "the state file still holds 8:16"

# --- a run killed: the next start gives its knobs back first
start
kill -KILL "$PID"
wait "$PID" 2>/dev/null || true
[ "$(cat "$BDI/strict_limit")" = 1 ] || fail "the killed run left nothing to restore"
start
grep -q "a previous run did not finish; giving its knobs back" "$LOG" || fail "leftovers not noticed"
stop
knobs | diff "$tmp/before" - >&2 || fail "knobs a killed run left not given back"

# --- a run killed, and one knob it left changed refuses writes (8:16's
# strict_limit, read-only): the next start says so in one line naming the
# bdi, the knob and the error, keeps 8:16's record with its original values
# and leaves 8:16 alone (never recorded anew with what the killed run left),
# governs the others, and does not exit 70; at stop it tries again and
# exits 71; once the knob takes writes, wbgov restore gives it back
start
kill -KILL "$PID"
wait "$PID" 2>/dev/null || true
grep -q "^bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0$" "$ST/state" || fail "the killed run recorded no 8:16"
[ "$(cat "$BDI/strict_limit")" = 1 ] || fail "the killed run left 8:16 as found"
chmod 444 "$BDI/strict_limit"
start
kill -0 "$PID" || fail "wbgovd stopped over a knob it could not give back"
grep -q "^<3>8:16: could not give back strict_limit, left changed by a previous run: Permission denied; the device is left alone, its original values kept in $ST/state" "$LOG" ||
	fail "the knob that could not be given back is not named: $(cat "$LOG")"
[ "$(grep -c "could not give back" "$LOG")" = 1 ] || fail "more than one line for it: $(grep "could not give back" "$LOG")"
grep -q "original values are unknown" "$LOG" && fail "known originals said to be unknown: $(cat "$LOG")"
wait_for 5 env LC_ALL=C grep -aq "^<4>sdb bdi 8:16 .*: left as it is: a previous run left its knobs changed and they could not be given back; its original values stay in $ST/state$" "$LOG" ||
	fail "8:16 not said to be left alone: $(grep -a 8:16 "$LOG")"
LC_ALL=C grep -aq "^<5>sdb (8:16): .* before wbgovd: set by another rule" "$LOG" &&
	fail "what a previous run left taken for another rule's: $(grep -a 8:16 "$LOG")"
grep -q "^bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0$" "$ST/state" || fail "8:16's record lost or changed: $(cat "$ST/state")"
[ "$(grep -c "^bdi 8:16 " "$ST/state")" = 1 ] || fail "8:16 recorded twice: $(cat "$ST/state")"
# the others given back, then governed again (strict over a cap)
[ "$(cat "$FX/sys/class/bdi/259:0/strict_limit")" = 1 ] || fail "the NVMe disk is not governed"
grep -q "^bdi 259:0 strict_limit 0 " "$ST/state" || fail "the NVMe disk recorded wrong: $(cat "$ST/state")"
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
[ "$rc" -eq 71 ] || fail "wbgovd stopped with 8:16 still changed: exit $rc, want 71"
grep -q "^bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0$" "$ST/state" ||
	fail "at stop 8:16's record was lost: $(cat "$ST/state")"
chmod 644 "$BDI/strict_limit"
$AS "${W%/*}/wbgov" --root "$FX" --state-dir "$ST" restore >"$tmp/restore" 2>&1 || fail "wbgov restore exited $?: $(cat "$tmp/restore")"
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back after the read-only knob took writes"

# --- the same, but at stop 8:16's knob takes writes again while the NVMe
# disk's (governed this run) refuses them: every record is tried whatever
# the others did, so 8:16 is given back, 259:0 stays recorded (71)
start
kill -KILL "$PID"
wait "$PID" 2>/dev/null || true
chmod 444 "$BDI/strict_limit"
start
NV=$FX/sys/class/bdi/259:0
wait_for 5 grep -q "could not give back strict_limit, left changed by a previous run" "$LOG" ||
	fail "8:16's leftover not refused: $(cat "$LOG")"
wait_for 5 sh -c "[ \$(cat '$NV/strict_limit') = 1 ]" || fail "the NVMe disk is not governed"
chmod 644 "$BDI/strict_limit"
chmod 444 "$NV/strict_limit"
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
[ "$rc" -eq 71 ] || fail "wbgovd stopped with 259:0 still changed: exit $rc, want 71"
[ "$(cat "$BDI/strict_limit")" = 0 ] || fail "8:16's leftover not tried again at stop (another knob failed first)"
grep -q "^bdi 8:16 " "$ST/state" && fail "8:16 given back but still recorded: $(cat "$ST/state")"
grep -q "^bdi 259:0 strict_limit 0 " "$ST/state" || fail "259:0's record lost: $(cat "$ST/state")"
chmod 644 "$NV/strict_limit"
$AS "${W%/*}/wbgov" --root "$FX" --state-dir "$ST" restore >"$tmp/restore" 2>&1 || fail "wbgov restore exited $?: $(cat "$tmp/restore")"
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back after 259:0 took writes"

# --- wbgov apply --once and restore, as nobody over the same tree: the
# start cap and the originals recorded, then every knob back; both refused
# (75) while wbgovd runs
W=${W%/*}/wbgov
wbgov() { $AS "$W" --root "$FX" --state-dir "$ST" -c "$CONF" "$@"; }
start
for c in "apply --once" restore; do
	rc=0
	wbgov $c >"$tmp/busy" 2>&1 || rc=$?
	[ "$rc" -eq 75 ] || fail "wbgov $c while wbgovd runs exited $rc, want 75"
done
stop
wbgov apply --once >"$tmp/apply" 2>&1 || fail "wbgov apply --once exited $?: $(cat "$tmp/apply")"
grep -q "^sdb (8:16): max_bytes 8.0 MiB, strict" "$tmp/apply" || fail "apply: $(cat "$tmp/apply")"
[ "$(cat "$BDI/strict_limit")" = 1 ] || fail "apply did not make 8:16 strict"
grep -q "8:16" "$ST/state" || fail "apply recorded no originals"
wbgov restore >"$tmp/restore" 2>&1 || fail "wbgov restore exited $?: $(cat "$tmp/restore")"
grep -q "^restored [1-9][0-9]* of [1-9]" "$tmp/restore" || fail "restore: $(cat "$tmp/restore")"
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back by wbgov restore"
[ "$(wbgov restore)" = "nothing to restore" ] || fail "a second restore found something"

# --- apply leaves the global knobs alone: wbgovd lowers the background
# threshold while a capped device holds dirty data and gives it back once
# none does, which one pass cannot (it recorded nothing of it, so restore
# could not either); here the stick holds 4 MiB
mkdir -p "$FX/proc/sys/vm" "$FX/sys/kernel/debug/bdi/8:16"
for k in dirty_ratio:20 dirty_background_ratio:10 dirty_bytes:0 dirty_background_bytes:0 \
	dirty_expire_centisecs:3000 dirty_writeback_centisecs:500; do
	echo "${k#*:}" >"$FX/proc/sys/vm/${k%%:*}"
done
printf 'BdiWriteback:            0 kB\nBdiReclaimable:       4096 kB\nBdiDirtyThresh:       8192 kB\n' \
	>"$FX/sys/kernel/debug/bdi/8:16/stats"
printf 'nr_dirty 1024\nnr_writeback 0\nnr_dirtied 5000\nnr_written 4000\n' >"$FX/proc/vmstat"
[ -n "$AS" ] && chown -R nobody "$FX/proc/sys/vm"
wbgov apply --once >"$tmp/apply" 2>&1 || fail "wbgov apply --once with dirty data exited $?: $(cat "$tmp/apply")"
[ "$(cat "$FX/proc/sys/vm/dirty_background_ratio")" = 10 ] ||
	fail "apply changed vm.dirty_background_ratio to $(cat "$FX/proc/sys/vm/dirty_background_ratio") while the stick held dirty data"
wbgov restore >/dev/null 2>&1 || fail "wbgov restore after the dirty apply exited $?"
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back after the dirty apply"
rm -rf "$FX/proc/sys/vm" "$FX/sys/kernel/debug" "$FX/proc/vmstat"

# --- the state directory's lock, held by another process of the same user
# (flock(1) here): apply and restore refuse at once (75) in one line naming
# the holder and the lock file, and write nothing; wbgovd waits for it to
# be free (until flock(1) is stopped here: a fixed time ran out under a
# loaded sanitized build before the refusals had all been tried; -o: the
# lock is flock's alone, not its command's, and goes with it)
$AS flock -o "$ST/wbgovd.lock" sleep 60 &
HPID=$!
wait_for 5 grep -q "FLOCK .* $HPID " /proc/locks || fail "flock(1) did not take the lock"
for c in "apply --once" restore; do
	[ "$c" = restore ] && { printf 'bdi 8:16 strict_limit 0 max_ratio_fine 1000000\n' >"$ST/state"
		[ -n "$AS" ] && chown nobody "$ST/state"; }
	[ -e "$ST/state" ] && cp "$ST/state" "$tmp/state.before"
	rc=0
	wbgov $c >"$tmp/locked" 2>&1 || rc=$?
	[ "$rc" -eq 75 ] || fail "wbgov $c under another's lock exited $rc, want 75: $(cat "$tmp/locked")"
	[ "$(wc -l <"$tmp/locked")" -eq 1 ] &&
		grep -q "^wbgov ${c% *}: the lock $ST/wbgovd.lock is held by pid $HPID (flock)" "$tmp/locked" ||
		fail "wbgov $c under another's lock: $(cat "$tmp/locked")"
	knobs | diff "$tmp/before" - >&2 || fail "wbgov $c under another's lock changed knobs"
	if [ "$c" = restore ]; then
		cmp -s "$ST/state" "$tmp/state.before" || fail "wbgov restore under another's lock changed the state file"
	else
		[ ! -e "$ST/state" ] || fail "wbgov apply under another's lock wrote a state file"
	fi
done
rm "$ST/state"
: >"$LOG"
$AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" >>"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<5>the lock $ST/wbgovd.lock is held by pid $HPID (flock) (wbgov apply or restore?): waiting for it up to 10 s" "$LOG" ||
	fail "wbgovd did not wait for another's lock: $(cat "$LOG")"
grep -q "started" "$LOG" && fail "wbgovd started under another's lock"
pkill -P "$HPID" sleep
wait "$HPID" 2>/dev/null || :
HPID=
wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start once the lock was free: $(cat "$LOG")"
stop
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back on SIGTERM"

# --- a run killed in the middle of a save left its temporary file: the
# next start removes it, and says so
$AS sh -c ": >'$ST/state.tmp.Ab3dE9'"
start
grep -q "^<6>$ST/state: 1 temporary file of a save cut short removed$" "$LOG" ||
	fail "the temporary left by a save cut short is not said: $(cat "$LOG")"
[ ! -e "$ST/state.tmp.Ab3dE9" ] || fail "the temporary left by a save cut short stayed"
stop

# --- SIGTERM while wbgovd waits for another's lock: it stops waiting and
# exits 0 at once (TERM is blocked until its loop: not kept for 10 s),
# nothing changed
# -o: the lock is flock(1)'s own, gone when it is killed
$AS flock -o "$ST/wbgovd.lock" sleep 8 &
HPID=$!
wait_for 5 grep -q "FLOCK .* $HPID " /proc/locks || fail "flock(1) did not take the lock"
: >"$LOG"
$AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$CONF" >>"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<5>the lock $ST/wbgovd.lock is held by pid $HPID (flock)" "$LOG" ||
	fail "wbgovd did not wait for another's lock: $(cat "$LOG")"
t0=$(now_ms)
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
ms=$(($(now_ms) - t0))
PID=
echo "$me: SIGTERM while waiting for the lock: exit after $ms ms" >&2
[ "$rc" -eq 0 ] || fail "SIGTERM while waiting for the lock: exit $rc, want 0: $(cat "$LOG")"
# (it waits 10 s for the lock: 5 s of wall time tells a wait that SIGTERM
# did not end from a busy machine's slowness)
[ "$ms" -lt 5000 ] || fail "SIGTERM while waiting for the lock took $ms ms"
grep -q "^<5>stopped while waiting for the lock $ST/wbgovd.lock: nothing was changed$" "$LOG" ||
	fail "no word of the stop: $(cat "$LOG")"
grep -q "started" "$LOG" && fail "wbgovd started after SIGTERM: $(cat "$LOG")"
[ ! -e "$ST/wbgovd.pid" ] || fail "a pid file was left"
knobs | diff "$tmp/before" - >&2 || fail "knobs changed by a wbgovd stopped while waiting"
pkill -P "$HPID" sleep 2>/dev/null || true
wait "$HPID" 2>/dev/null || true
HPID=

# --- a lock file that cannot be opened (a link in its place): the error
# names the lock file, not the pid file; nothing changed
mv "$ST/wbgovd.lock" "$tmp/lock.real"
ln -s "$tmp/lock.real" "$ST/wbgovd.lock"
rc=0
daemon >"$LOG" 2>&1 || rc=$?
[ "$rc" -eq 73 ] || fail "over a linked lock file wbgovd exited $rc, want 73: $(cat "$LOG")"
grep -q "^<3>the lock $ST/wbgovd.lock: Too many levels of symbolic links$" "$LOG" ||
	fail "the lock error does not name the lock file: $(cat "$LOG")"
rc=0
wbgov apply --once >"$tmp/linked" 2>&1 || rc=$?
[ "$rc" -eq 73 ] && [ "$(cat "$tmp/linked")" = "wbgov apply: the lock $ST/wbgovd.lock: Too many levels of symbolic links" ] ||
	fail "apply over a linked lock file: exit $rc: $(cat "$tmp/linked")"
knobs | diff "$tmp/before" - >&2 || fail "knobs changed over a linked lock file"
[ ! -e "$ST/wbgovd.pid" ] && [ ! -e "$ST/state" ] || fail "files written over a linked lock file: $(ls "$ST")"
rm "$ST/wbgovd.lock"
mv "$tmp/lock.real" "$ST/wbgovd.lock"

# --- many wbgov apply --once at once: each runs whole or is refused (75),
# the originals recorded are the ones found (never a value another apply
# set), and restore gives every knob back
i=0
while [ $i -lt 16 ]; do
	(rc=0; wbgov apply --once >/dev/null 2>"$tmp/many.$i" || rc=$?; echo $rc >"$tmp/rc.$i") &
	i=$((i + 1))
done
wait
cat "$tmp"/rc.* | sort | uniq -c >"$tmp/rcs"
grep -qv " \(0\|75\)$" "$tmp/rcs" && fail "concurrent applies exited: $(cat "$tmp/rcs") $(cat "$tmp"/many.*)"
grep -q " 0$" "$tmp/rcs" || fail "no concurrent apply ran: $(cat "$tmp/rcs")"
grep '^bdi' "$ST/state" | while read -r _ b _ sl _ mr _ mn; do
	grep -qx "$FX/sys/class/bdi/$b/strict_limit $sl" "$tmp/before" &&
		grep -qx "$FX/sys/class/bdi/$b/max_ratio_fine $mr" "$tmp/before" &&
		grep -qx "$FX/sys/class/bdi/$b/min_ratio_fine $mn" "$tmp/before" ||
		{ echo "$b recorded as strict_limit $sl max_ratio_fine $mr min_ratio_fine $mn" >&2; exit 1; }
done || fail "concurrent applies recorded a value they set as an original"
wbgov restore >"$tmp/restore" 2>&1 || fail "wbgov restore after concurrent applies exited $?: $(cat "$tmp/restore")"
knobs | diff "$tmp/before" - >&2 || fail "knobs not given back after concurrent applies"

# --- device memory with a malformed line: that line is dropped, named by
# its number in one warning, the other devices' figures kept, and the file
# is not rewritten at stop (nothing new was measured)
MEM=$tmp/mem/devices
mkdir "$tmp/mem"
printf '# wbgov\nv1 5100000 m 1764756000 serial:Other:1\nv1 5100000 q 1764756000 serial:Bad:1\nv1 9000000 f 1764756100 wwid:other\n' >"$MEM"
[ -n "$AS" ] && chown -R nobody "$tmp/mem"
cp "$MEM" "$tmp/mem.before"
start_stop --memory "$MEM"
grep -q "^<4>$MEM: 1 line dropped (line 3: .*); the other 2 kept$" "$LOG" ||
	fail "a malformed line of device memory: $(grep "$MEM" "$LOG")"
[ "$(grep "$MEM" "$LOG" | grep -vc "^<6>feature device-memory on: ")" = 1 ] ||
	fail "device memory: $(grep "$MEM" "$LOG")"
cmp -s "$MEM" "$tmp/mem.before" || fail "device memory rewritten at stop: $(cat "$MEM")"

# --- a state file whose bdi name leaves /sys/class/bdi (a link planted
# where it leads): wbgov restore refuses it (65), writes nothing
echo 7 >"$tmp/target"
ln -s "$tmp/target" "$FX/sys/class/evil"
echo "bdi ../evil strict_limit 1 max_ratio_fine 1" >"$ST/state"
[ "$(id -u)" = 0 ] && chown nobody "$ST/state" "$tmp/target"
rc=0
wbgov restore >"$tmp/evil" 2>&1 || rc=$?
[ "$rc" -eq 65 ] || fail "restore of a bdi ../evil exited $rc, want 65: $(cat "$tmp/evil")"
grep -q "malformed" "$tmp/evil" || fail "restore of a bdi ../evil: $(cat "$tmp/evil")"
[ "$(cat "$tmp/target")" = 7 ] || fail "restore wrote through ../evil"
rm "$ST/state" "$FX/sys/class/evil"

# --- a state file it cannot read: exit 70, nothing changed
printf 'garbage\n' >"$ST/state"
rc=0
daemon >"$LOG" 2>&1 || rc=$?
[ "$rc" -eq 70 ] || fail "over an unreadable state file wbgovd exited $rc, want 70: $(cat "$LOG")"
grep -q "refusing to start" "$LOG" || fail "no reason given: $(cat "$LOG")"
knobs | diff "$tmp/before" - >&2 || fail "knobs changed by a refused start"
[ ! -e "$ST/wbgovd.pid" ] || fail "a refused start left its pid file"
rm "$ST/state"

# --- /dev/zero or a FIFO as the configuration: 78 at once
for f in /dev/zero "$tmp/fifo"; do
	[ "$f" = /dev/zero ] || mkfifo "$f"
	rc=0
	timeout 5 $AS "$D" -n -c "$f" >"$LOG" 2>&1 || rc=$?
	[ "$rc" -eq 78 ] || fail "wbgovd -n -c $f exited $rc, want 78 at once"
	grep -q "not a regular file" "$LOG" || fail "wbgovd -n -c $f: $(cat "$LOG")"
done

# --- a bad configuration: exit 78, named
printf '[global]\ntarget = 0\n' >"$CONF"
rc=0
daemon >"$LOG" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "with target = 0 wbgovd exited $rc, want 78"
grep -q "target" "$LOG" || fail "the bad key is not named: $(cat "$LOG")"
knobs | diff "$tmp/before" - >&2 || fail "knobs changed by a bad configuration"
exit 0
