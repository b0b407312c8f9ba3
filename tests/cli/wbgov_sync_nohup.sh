#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov sync under nohup (SIGHUP ignored, as nohup and a shell's background
# jobs may leave it): the child that syncs keeps HUP ignored, so a hangup
# sent to it (a shell that exits resends SIGHUP to its jobs) does not end
# the sync the command waits for; it completes and wbgov sync exits 0.
# The path synced is a FIFO, whose open blocks the child until a writer
# comes: the hangup reaches it mid-sync. Over the fixture tree.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
cli_fixture "$FX"
mkfifo "$tmp/fifo"

env --ignore-signal=HUP "$W" --root "$FX" sync "$tmp/fifo" >"$tmp/out" 2>&1 &
parent=$!
# the child: the process whose parent is wbgov
child_of() {
	for s in /proc/[0-9]*/stat; do
		awk -v p="$1" '$4 == p { print $1 }' "$s" 2>/dev/null || true
	done
}
child=
n=100
while [ -z "$child" ] && [ "$n" -gt 0 ]; do
	child=$(child_of "$parent")
	n=$((n - 1))
	[ -n "$child" ] || sleep 0.05
done
[ -n "$child" ] || { : >"$tmp/fifo"; wait "$parent" || true; fail "wbgov sync started no child"; }
# the child ignores HUP as its parent does (bit 0 of SigIgn: signal 1)
wait_for 5 sh -c "grep -q '^SigIgn:.*[13579bdf]\$' /proc/$child/status" ||
	{ ign=$(grep SigIgn "/proc/$child/status" 2>/dev/null || true)
	  kill "$child" 2>/dev/null || true; wait "$parent" || true
	  fail "the sync child does not ignore SIGHUP as wbgov under nohup does ($ign)"; }
kill -HUP "$child"
sleep 0.2
: >"$tmp/fifo" # a writer: the child's open returns, and it syncs
rc=0
wait "$parent" || rc=$?
[ "$rc" -eq 0 ] || fail "wbgov sync under nohup, its child sent SIGHUP, exited $rc: $(cat "$tmp/out")"
grep -q "wbgov sync: durable after" "$tmp/out" || fail "no \"durable\" line: $(cat "$tmp/out")"
echo "wbgov_sync_nohup: ok"
