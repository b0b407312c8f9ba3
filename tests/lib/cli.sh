# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the black-box tests (tests/cli/*.sh): the program ($PROG, default
# wbsim) in $W, fail(), a temporary directory $tmp removed on exit, and ok().
W="${BUILD:-build}/${PROG:-wbsim}"
me=${0##*/}
fail() {
	printf '%s: FAIL: %s\n' "$me" "$*" >&2
	exit 1
}
[ -x "$W" ] || fail "no executable at $W (build it first: make)"
tmp=$(mktemp -d)
# a test that fails while its wbgovd runs (wbgovd_start's $PID) leaves
# none behind
PID=
trap '[ -z "$PID" ] || kill -TERM "$PID" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
. "$(dirname "$0")/../lib/proc.sh"

# the python3 of the tests' scripts: Debian's, whose dbus and gi modules
# they import (another first on PATH may lack them)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# wait_for SECONDS COMMAND...: until COMMAND succeeds (its output
# dropped), polled every 50 ms; 1 if it never does
wait_for() {
	n=$(($1 * 20))
	shift
	while ! "$@" >/dev/null 2>&1; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 0.05
	done
}

# as_nobody: as root, $tmp becomes nobody's (readable by all, as /run
# is) and $AS the command prefix that runs a program as nobody, so a
# daemon under test holds no privilege the real one would lack; $OWNER
# names who runs it. Otherwise both say the caller.
as_nobody() {
	AS=
	OWNER=$(id -un)
	if [ "$(id -u)" = 0 ]; then
		chown -R nobody "$tmp"
		chmod 755 "$tmp"
		AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		OWNER=nobody
	fi
}

# ok NAME ARG...: wbsim ARG... must exit 0; stdout goes to $tmp/NAME
ok() {
	name=$1
	shift
	rc=0
	"$W" "$@" >"$tmp/$name" 2>"$tmp/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || fail "${W##*/} $* exited $rc: $(head -n 3 "$tmp/$name.err")"
	[ -s "$tmp/$name" ] || fail "${W##*/} $* wrote nothing to stdout"
}

# wbgovd_start ARG...: wbgovd ($D) started as $AS with ARG..., its output
# in $LOG, its pid in $PID; back once it has said it started and written
# its status file in $ST
wbgovd_start() {
	: >"$LOG"
	$AS "$D" "$@" >>"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"
	wait_for 5 test -s "$ST/status" || fail "no status file"
}

# wbgovd_stop: SIGTERM to $PID, which must exit 0
wbgovd_stop() {
	kill -TERM "$PID"
	rc=0
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 0 ] || fail "wbgovd exited $rc on SIGTERM: $(tail -n 5 "$LOG")"
}

# knobs: every bdi's strict_limit, max_ratio_fine and min_ratio_fine in the
# fixture at $FX, a line each (compared before and after a daemon or a
# command ran)
knobs() {
	for f in "$FX"/sys/class/bdi/*/strict_limit "$FX"/sys/class/bdi/*/max_ratio_fine \
		"$FX"/sys/class/bdi/*/min_ratio_fine; do
		[ -f "$f" ] && echo "$f $(cat "$f")"
	done
}

# cli_fixture DIR: the fake /proc and /sys tree tests/unit/test_sys.c
# builds (a USB stick with two mount points, NVMe, SATA, btrfs, FUSE...),
# written out at DIR
cli_fixture() {
	ts=${BUILD:-build}/tests/test_sys
	[ -x "$ts" ] || fail "no $ts (make $ts)"
	WBGOV_FIXTURE_OUT=$1 "$ts" >/dev/null 2>&1 || fail "$ts could not write the fixture"
	[ -f "$1/proc/self/mountinfo" ] || fail "no fixture at $1"
}

# cli_many_fixture DIR N: a machine of N disks in DIR, a fake /sys of them
# as the kernel lays out Xen disks (xdI, 202:16*I, a bdi each), /proc from
# cli_fixture's (the root on another disk)
cli_many_fixture() {
	cli_fixture "$tmp/full"
	mkdir -p "$1"
	cp -r "$tmp/full/proc" "$1/proc"
	rm -rf "$tmp/full"
	printf '22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n' >"$1/proc/self/mountinfo"
	_s=$1/sys
	_i=0
	while [ "$_i" -lt "$2" ]; do
		_name=xd$_i _dev=202:$((_i * 16))
		_dp=devices/vbd-$_i/block/$_name
		mkdir -p "$_s/$_dp/queue" "$_s/$_dp/slaves" "$_s/block" "$_s/class/block" "$_s/dev/block" \
			"$_s/devices/virtual/bdi/$_dev" "$_s/class/bdi"
		echo "$_dev" >"$_s/$_dp/dev"
		echo 41943040 >"$_s/$_dp/size"
		echo 0 >"$_s/$_dp/removable"
		echo 0 >"$_s/$_dp/queue/rotational"
		echo "    1234        0    56789     1000     4321       17   987654     5000        0     3000     6000        0        0        0        0      100      200" >"$_s/$_dp/stat"
		ln -s "../$_dp" "$_s/block/$_name"
		ln -s "../../$_dp" "$_s/class/block/$_name"
		ln -s "../../$_dp" "$_s/dev/block/$_dev"
		_b=$_s/devices/virtual/bdi/$_dev
		echo 128 >"$_b/read_ahead_kb"
		echo 100 >"$_b/max_ratio"
		echo 0 >"$_b/min_ratio"
		echo 0 >"$_b/strict_limit"
		echo 3355443200 >"$_b/max_bytes"
		echo 0 >"$_b/min_bytes"
		echo 1000000 >"$_b/max_ratio_fine"
		echo 0 >"$_b/min_ratio_fine"
		ln -s "../../devices/virtual/bdi/$_dev" "$_s/class/bdi/$_dev"
		_i=$((_i + 1))
	done
}

# wbgovd_fixture: the daemon tests' start: a fixture tree in $FX, a state
# directory $ST and a log $LOG under $tmp, the daemon run as nobody where
# it can be ($AS), $D its absolute path, $PID empty (wbgovd_start fills it)
wbgovd_fixture() {
	FX=$tmp/fx
	ST=$tmp/st
	LOG=$tmp/log
	cli_fixture "$FX"
	as_nobody
	D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
	PID=
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# stop_timed WHAT: SIGTERM to the wbgovd $PID under test; it must exit 0,
# its way out within a second by its own clock ("stopped: N ms from the
# signal", which a busy machine does not stretch as it does wall time: CI
# beside other work measured 1027 ms of wall time for 400 of wbgovd's),
# and within 5 s of wall time (it is killed after 10 s: a hung one must not
# hang the test) with every knob as it was ($tmp/before, written by the
# test's own `knobs`); both times are printed. $PID is emptied; $LOG is
# its log.
stop_timed() {
	t0=$(now_ms)
	kill -TERM "$PID"
	reap "$PID" 10
	ms=$(($(now_ms) - t0))
	PID=
	own=$(sed -n 's/^<6>stopped: \([0-9]*\) ms from the signal to every knob given back$/\1/p' "$LOG" | tail -n 1)
	echo "$me: $1: SIGTERM to exit $ms ms (wbgovd's own: ${own:-?} ms)" >&2
	[ "$rc" -eq 0 ] || fail "$1: wbgovd exited $rc on SIGTERM ($ms ms): $(tail -n 5 "$LOG")"
	[ -n "$own" ] || fail "$1: wbgovd did not say how long its stop took: $(tail -n 5 "$LOG")"
	[ "$own" -lt 1000 ] || fail "$1: SIGTERM took $own ms of wbgovd's to end it: $(tail -n 5 "$LOG")"
	[ "$ms" -lt 5000 ] || fail "$1: SIGTERM took $ms ms to end wbgovd: $(tail -n 5 "$LOG")"
	knobs >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || fail "$1: knobs not given back: $(diff "$tmp/before" "$tmp/after" | head -n 5)"
}
