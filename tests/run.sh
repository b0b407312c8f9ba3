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

# SYSTEM=only: the real-kernel tests alone (CI runs them beside the other
# builds' tests); otherwise the unit tests first
for t in "$BUILD"/tests/test_*; do
	[ "${SYSTEM:-}" != only ] || break
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
# when they fail). They run only when asked: SYSTEM=yes (make
# check-system, and the default under CI=true) runs them, and they fail
# where they cannot run (not root, no write throttle); SYSTEM=no (the
# default of make check) leaves them out, so that a plain `make check`
# never touches the machine it runs on. SYSTEM=only runs them alone.
if [ -z "${SYSTEM:-}" ]; then
	SYSTEM=no
	[ "${CI:-}" = true ] && SYSTEM=yes
fi
case "$SYSTEM" in
yes|no|only) ;;
*) echo "tests/run.sh: SYSTEM=$SYSTEM: want yes, no or only" >&2; exit 2 ;;
esac
export WBGOV_SYSTEM=$SYSTEM
[ "$SYSTEM" = no ] || WBGOV_SYSTEM=yes

# The black-box tests mostly wait (private buses, daemons' polls, fake
# devices' timers): they run JOBS at a time (default: twice the CPUs),
# each into its own log, reported in name order. The real-kernel ones
# share the machine's knobs and devices: one at a time, in the
# background meanwhile (they too mostly wait, on throttled devices). All
# run at the caller's priority: niced, the black-box ones starved beside
# two CPU-bound loops (15 minutes into CI's first stage); what the
# real-kernel ones time against a device is wbgovd's, which raises itself
# to nice -10 as root, as its unit runs it.
JOBS=${JOBS:-$(($(nproc) * 2))}
out=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$out"' EXIT
# report SCRIPT: what run_one left, counted
report() {
	n=$(basename "$1" .sh)
	read -r rc secs <"$out/$n.rc"
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "$n.sh: ok ($secs s)"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		cat "$out/$n.log"
	else
		failed=$((failed + 1))
		cat "$out/$n.log"
		echo "$n.sh: FAILED"
	fi
}

skipped=0
sys_pid=
if [ "$SYSTEM" != no ]; then
	(for t in tests/system/*.sh; do
		[ -f "$t" ] && sh tests/lib/run_one.sh "$out" "$t"
	done) &
	sys_pid=$!
fi
[ "$SYSTEM" = only ] ||
	ls tests/cli/*.sh | xargs -r -n 1 -P "$JOBS" sh tests/lib/run_one.sh "$out"
[ -z "$sys_pid" ] || wait "$sys_pid"
for t in tests/cli/*.sh tests/system/*.sh; do
	[ -f "$t" ] || continue
	[ "$SYSTEM" != only ] || [ "${t#tests/cli/}" = "$t" ] || continue
	if [ "$SYSTEM" = no ] && [ "${t#tests/system/}" != "$t" ]; then
		skipped=$((skipped + 1))
		echo "$(basename "$t"): skipped: SYSTEM=no (make check-system runs it)"
		continue
	fi
	report "$t"
done

if [ "$skipped" -gt 0 ]; then
	echo "tests: $passed passed, $failed failed, $skipped skipped"
else
	echo "tests: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
