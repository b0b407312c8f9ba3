#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd --metrics-file over the fixture tree (tests/unit/test_sys.c's), run
# as nobody when the test runs as root, under its Landlock sandbox, with a
# umask of 077: the file appears in a directory of its own (not the state
# directory), mode 0644, and holds what `wbgov status --prometheus` shows
# for the same tree, byte for byte; it is replaced every interval by a
# rename (a new inode), and a reader polling it all the while never sees
# it half-written, nor the temporary file's name left behind, nor stopped
# by a directory in the way of the fixed name an older wbgovd used for
# it; a directory it cannot write is said once, and the return said when
# it comes back; on SIGTERM it says wbgov_daemon_up 0 and nothing else. A
# directory that is not there, a bad interval, an interval alone: refused
# before anything is changed.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
CHECK=$(cd "$(dirname "$0")/../lib" && pwd)/prom_check.py
FX=$tmp/fx
ST=$tmp/st
MD=$tmp/prom
MF=$MD/wbgov.prom
LOG=$tmp/log
cli_fixture "$FX"
printf '[global]\ninitial = 4M\n' >"$tmp/wbgov.conf"
mkdir "$MD"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
G=$(cd "$(dirname "$W")" && pwd)/wbgov
PID=
trap '[ -n "$PID" ] && kill -KILL "$PID" 2>/dev/null; rm -rf "$tmp"' EXIT
daemon() { (umask 077 && exec $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$tmp/wbgov.conf" "$@"); }
knobs() { cat "$FX"/sys/devices/virtual/bdi/*/strict_limit "$FX"/sys/devices/virtual/bdi/*/max_ratio_fine; }
knobs >"$tmp/before"

# --- refused at once, nothing changed
for bad in "--metrics-interval 0.5" "--metrics-interval 3601" "--metrics-interval x" \
	"--metrics-interval 5" "--metrics-file ''" "--metrics-file wbgov.prom" \
	"--metrics-file $tmp/../wbgov.prom" "--metrics-file $tmp/metrics/"; do
	rc=0
	eval "daemon $bad" >"$LOG" 2>&1 || rc=$?
	[ $rc = 64 ] || fail "wbgovd $bad: exit $rc, want 64: $(cat "$LOG")"
	[ -s "$LOG" ] || fail "wbgovd $bad: no message"
done
rc=0
daemon --metrics-file "$tmp/nosuch/wbgov.prom" >"$LOG" 2>&1 || rc=$?
[ $rc = 73 ] || fail "a metrics directory that is not there: exit $rc, want 73: $(cat "$LOG")"
grep -q "metrics-file $tmp/nosuch/wbgov.prom: its directory $tmp/nosuch: No such file or directory" "$LOG" ||
	fail "the missing directory is not named: $(cat "$LOG")"
[ ! -e "$ST/wbgovd.pid" ] || fail "a refused start left a pid file"
knobs | cmp -s "$tmp/before" - || fail "a refused start changed knobs"

# --- the file, every second
# (a subshell that execs: $! is wbgovd itself)
(umask 077 && exec $AS "$D" --root "$FX" --state-dir "$ST" --no-memory -c "$tmp/wbgov.conf" \
	--metrics-file "$MF" --metrics-interval 1) >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
wait_for 5 test -s "$MF" || fail "no metrics file: $(cat "$LOG")"
landlock=yes
grep -q "feature landlock off: not in this kernel" "$LOG" && landlock=no
[ "$(stat -c %a "$MF")" = 644 ] || fail "$MF is mode $(stat -c %a "$MF") under umask 077, want 644"
$PY "$CHECK" "$MF" >"$tmp/samples" || fail "the metrics file does not parse: $(head -n 20 "$MF")"
grep -qxF 'wbgov_daemon_up{} 1.0' "$tmp/samples" || fail "wbgov_daemon_up is not 1"
# the cap wbgovd set on the fixture's stick, read back from the kernel's side
grep -qxF 'wbgov_device_dirty_limit_bytes{bdi="8:16",device="sdb"} 4194304.0' "$tmp/samples" ||
	fail "no 4 MiB limit for sdb: $(grep limit "$tmp/samples")"
grep -qE '^wbgov_device_decisions_total\{bdi="8:16",device="sdb"\} [1-9]' "$tmp/samples" ||
	fail "no decision counted for sdb: $(grep decisions "$tmp/samples")"
# the same text as wbgov's, from the daemon's status file (once both have
# settled: the status file is written after the decisions)
same() {
	$AS "$G" --root "$FX" --state-dir "$ST" status --prometheus >"$tmp/cli" &&
		cp "$MF" "$tmp/file" && cmp -s "$tmp/cli" "$tmp/file"
}
wait_for 5 same || { diff "$tmp/cli" "$tmp/file" >&2; fail "the metrics file is not what wbgov status --prometheus shows"; }

# a reader polling it for 3.5 s: whole every time, replaced by rename
$PY - "$MF" "$CHECK" <<'PY' || fail "the metrics file was seen half-written, or not replaced"
import os, subprocess, sys, time
path, check = sys.argv[1], sys.argv[2]
# count replacements, not distinct inodes: a file system may give a freed
# inode number to the next temporary file (two numbers in turn)
changes, ino, reads, end = 0, None, 0, time.time() + 3.5
last = None
while time.time() < end:
    with open(path, "rb") as f:
        i = os.fstat(f.fileno()).st_ino
        changes += ino is not None and i != ino
        ino = i
        data = f.read()
    reads += 1
    if not data.startswith(b"# HELP wbgov_daemon_up ") or not data.endswith(b"\n"):
        sys.exit("read %d: not whole: %r" % (reads, data[-80:]))
    if data != last:  # each new version through the parser
        open(path + ".seen", "wb").write(data)
        r = subprocess.run([sys.executable, check, path + ".seen"], capture_output=True, text=True)
        if r.returncode:
            sys.exit("read %d: %s" % (reads, r.stderr))
        last = data
    time.sleep(0.002)
os.unlink(path + ".seen")
if changes < 2:
    sys.exit("replaced %d times in 3.5 s at a 1 s interval: not replaced by rename" % changes)
print("%d reads, replaced %d times" % (reads, changes), file=sys.stderr)
PY
# while it runs a temporary file is there for the moment of a write: none
# may stay
only_prom() { [ "$(ls "$MD")" = wbgov.prom ]; }
wait_for 2 only_prom || fail "left in the metrics directory: $(ls "$MD")"

# --- a directory in the way, with the fixed name an older wbgovd used for
# its temporary file (and not its to remove): the file is still replaced
mkdir "$MF.tmp"
t0=$(stat -c %y "$MF")
sleep 2.5
[ "$(stat -c %y "$MF")" != "$t0" ] || fail "not replaced with $MF.tmp in the way: $(tail -n 3 "$LOG")"
grep -q "cannot write the metrics" "$LOG" && fail "$MF.tmp in the way: $(grep "cannot write" "$LOG")"
rmdir "$MF.tmp"
wait_for 2 only_prom || fail "left in the metrics directory: $(ls "$MD")"

# --- a directory it cannot write: said once, and tried again
if [ "$landlock" = yes ] || [ -n "$AS" ] || [ "$(id -u)" != 0 ]; then
	chmod 555 "$MD"
	wait_for 5 grep -q "^<4>$MF: cannot write the metrics: Permission denied; trying again every 1 s" "$LOG" ||
		fail "a failed write is not said: $(tail -n 3 "$LOG")"
	sleep 2.2
	[ "$(grep -c "cannot write the metrics" "$LOG")" = 1 ] || fail "the failure is said more than once"
	chmod 755 "$MD"
	wait_for 5 grep -q "^<6>$MF: metrics written again" "$LOG" || fail "the recovery is not said"
fi

# --- stop: the file says the daemon is down, and nothing more
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
[ $rc = 0 ] || fail "wbgovd exited $rc on SIGTERM: $(tail -n 5 "$LOG")"
$PY "$CHECK" "$MF" >"$tmp/samples" || fail "the metrics file at exit does not parse"
[ "$(cat "$tmp/samples")" = 'wbgov_daemon_up{} 0.0' ] || fail "at exit: $(cat "$tmp/samples")"
[ "$(ls "$MD")" = wbgov.prom ] || fail "left in the metrics directory: $(ls "$MD")"
knobs | cmp -s "$tmp/before" - || fail "knobs not given back"
[ "$landlock" = yes ] || echo "$me: no Landlock here: the sandbox's part not tested" >&2
echo "$me: ok"
