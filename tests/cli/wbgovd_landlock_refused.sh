#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Landlock's calls refused by a seccomp filter (a unit whose
# SystemCallFilter= does not name them; tests/lib/hang.c's
# WBGOV_TEST_LANDLOCK=eperm, LD_PRELOADed, plays the filter): wbgovd says
# so as a warning that names the calls, not "no Landlock in this kernel",
# and governs unconfined; where Landlock is there and allowed it says which
# ABI confines it.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
wbgovd_fixture
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$tmp"' EXIT

LD_PRELOAD=$HANG WBGOV_TEST_LANDLOCK=eperm wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none -v
grep -q "^<4>Landlock's calls are refused (EPERM: a seccomp filter.*landlock_create_ruleset" "$LOG" ||
	fail "no warning of Landlock's refused calls: $(grep -i landlock "$LOG")"
grep -q "no Landlock in this kernel" "$LOG" && fail "a refused call taken for a kernel without Landlock"
[ "$(cat "$FX/sys/class/bdi/8:16/strict_limit")" = 1 ] || fail "not governing with Landlock refused"
wbgovd_stop

# without the filter: the ABI in force, or no Landlock in this kernel
wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none -v
grep -q "^<7>Landlock ABI [0-9]*: writes confined\|no Landlock in this kernel" "$LOG" ||
	fail "no word of Landlock: $(cat "$LOG")"
grep -q "refused (EPERM" "$LOG" && fail "Landlock said refused without a filter"
wbgovd_stop
echo "$me: ok"
