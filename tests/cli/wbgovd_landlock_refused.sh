#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Landlock's calls refused by a seccomp filter (a unit whose
# SystemCallFilter= does not name them; tests/lib/hang.c's
# WBGOV_TEST_REFUSE=landlock, LD_PRELOADed, plays the filter): wbgovd says
# so as a warning that names the calls, not "not in this kernel", and
# governs unconfined; under a unit (INVOCATION_ID) the warning names the
# setting; where Landlock is there and allowed it says which ABI confines
# it.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
wbgovd_fixture
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$tmp"' EXIT

LD_PRELOAD=$HANG WBGOV_TEST_REFUSE=landlock wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none -v
grep -q "^<4>feature landlock refused by a seccomp filter: its calls refused (EPERM: a seccomp filter.*landlock_create_ruleset" "$LOG" ||
	fail "no warning of Landlock's refused calls: $(grep -i landlock "$LOG")"
grep -q "not in this kernel" "$LOG" && fail "a refused call taken for a kernel without Landlock"
[ "$(cat "$FX/sys/class/bdi/8:16/strict_limit")" = 1 ] || fail "not governing with Landlock refused"
wbgovd_stop

# under a unit: the setting named
INVOCATION_ID=0123456789abcdef LD_PRELOAD=$HANG WBGOV_TEST_REFUSE=landlock wbgovd_start --root "$FX" \
	--state-dir "$ST" --no-memory --bus none
grep -q "^<4>feature landlock refused by SystemCallFilter=: its calls refused" "$LOG" ||
	fail "under a unit, the refusal does not name SystemCallFilter=: $(grep -i landlock "$LOG")"
wbgovd_stop

# without the filter: the ABI in force, or no Landlock in this kernel
wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none -v
grep -q "^<6>feature landlock on: ABI [0-9]*: writes confined\|^<6>feature landlock off: not in this kernel" "$LOG" ||
	fail "no word of Landlock: $(cat "$LOG")"
grep -q "refused" "$LOG" && fail "Landlock said refused without a filter"
wbgovd_stop
echo "$me: ok"
