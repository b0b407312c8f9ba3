#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every unit test binary (cmocka) and every black-box test script, then
# prints one line: `tests: N passed, N failed`. Exit status 1 on any failure.
BUILD=${BUILD:-build}
export BUILD
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	"$t" >"$log" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log")
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log")
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed before cmocka could count
	fi
	[ "$f" -ne 0 ] && cat "$log"
	echo "$(basename "$t"): $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
done

# The real-kernel tests (tests/system) change this machine for a while:
# loop devices, write throttles, every bdi's knobs (all given back, even
# when they fail). SYSTEM=auto (make check) runs them where they can run:
# as root with a write throttle (cgroup v1 blkio, or v2 with io and
# memory); SYSTEM=yes (make check-system, and CI=true) runs them whatever,
# and they fail where they cannot; SYSTEM=no (make check SYSTEM=no) leaves
# them out.
SYSTEM=${SYSTEM:-auto}
[ "${CI:-}" = true ] && SYSTEM=yes
no_system=
case "$SYSTEM" in
yes) ;;
no) no_system="SYSTEM=no" ;;
auto)
	if [ "$(id -u)" -ne 0 ]; then
		no_system="not root"
	elif [ -z "$(. tests/lib/throttle.sh && sys_throttle_kind)" ]; then
		no_system="no write throttle here (cgroup v1 blkio, or cgroup v2 with io and memory)"
	fi ;;
*) echo "tests/run.sh: SYSTEM=$SYSTEM: want auto, yes or no" >&2; exit 2 ;;
esac
export WBGOV_SYSTEM=$SYSTEM

skipped=0
for t in tests/cli/*.sh tests/system/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in tests/system/*)
		if [ -n "$no_system" ]; then
			skipped=$((skipped + 1))
			echo "$(basename "$t"): skipped: $no_system (make check-system runs it)"
			continue
		fi ;;
	esac
	t0=$(date +%s)
	sh "$t" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "$(basename "$t"): ok ($(($(date +%s) - t0)) s)"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		cat "$log"
	else
		failed=$((failed + 1))
		cat "$log"
		echo "$(basename "$t"): FAILED"
	fi
done

if [ "$skipped" -gt 0 ]; then
	echo "tests: $passed passed, $failed failed, $skipped skipped"
else
	echo "tests: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
