#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Device memory's directory is held to what --state-dir is: an absolute
# path with no link on the way, a directory of the user wbgovd runs as,
# under directories no one else can change. A link on the way (its owner
# can point it anywhere between two saves) or a relative path turns memory
# off, said in one line naming the directory, and wbgovd governs on; a
# directory that passes is made and used. Over the fixture tree, as nobody
# when run as root.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
wbgovd_fixture
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/link"
[ -n "$AS" ] && chown -h nobody "$tmp/real" "$tmp/link"

# with MEMORY: started, stopped by SIGTERM (exit 0); its log in $LOG
run_with() {
	: >"$LOG"
	(cd "$tmp" && exec $AS "$D" --root "$FX" --state-dir "$ST" --memory "$1" -c /dev/null) \
		>>"$LOG" 2>&1 &
	PID=$!
	wait_for 5 grep -q "^<6>started:" "$LOG" || fail "--memory $1: no start: $(cat "$LOG")"
	kill -TERM "$PID"
	rc=0
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 0 ] || fail "--memory $1: exit $rc on SIGTERM: $(tail -n 5 "$LOG")"
}

# a link on the way to the directory, and a file there that cannot be
# trusted (a NUL inside) and would be replaced at once otherwise: left
mkdir -p "$tmp/real/mem"
printf 'not\000device memory\n' >"$tmp/real/mem/devices"
[ -n "$AS" ] && chown -R nobody "$tmp/real"
cp "$tmp/real/mem/devices" "$tmp/mem.before"
run_with "$tmp/link/mem/devices"
grep -qx "<4>$tmp/link/mem: not an absolute path free of links; device memory off" "$LOG" ||
	fail "a link on the way to device memory's directory: $(grep -i memory "$LOG")"
cmp -s "$tmp/real/mem/devices" "$tmp/mem.before" ||
	fail "device memory written through a link: $(cat "$tmp/real/mem/devices")"
rm -r "$tmp/real/mem"
# the directory itself a link (not a directory, to lstat)
run_with "$tmp/link/devices"
grep -qx "<4>$tmp/link: .*; device memory off" "$LOG" ||
	fail "device memory's directory a link: $(grep -i memory "$LOG")"
# a relative path (from wbgovd's working directory, $tmp)
run_with "rel/devices"
grep -qx "<4>rel: not an absolute path free of links; device memory off" "$LOG" ||
	fail "a relative device memory path: $(grep -i memory "$LOG")"
# a directory of ours, no link on the way: made, and memory stays on
run_with "$tmp/real/mem/devices"
! grep -q "device memory off" "$LOG" || fail "a directory of ours refused: $(grep -i memory "$LOG")"
[ -d "$tmp/real/mem" ] || fail "device memory's directory not made"
exit 0
