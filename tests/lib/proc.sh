# SPDX-License-Identifier: GPL-2.0-or-later
# Processes the tests start and wait for, sourced by cli.sh and system.sh.

# exited PID: PID has ended (gone, or a zombie its parent has not reaped)
exited() {
	[ ! -e "/proc/$1/stat" ] || sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^[ZX]'
}

# reap PID SECS: PID's exit status in $rc once it ends; killed after SECS
# (a hung one must not hang the test). Polled every 50 ms, with no
# watchdog in the background: a subshell sent SIGTERM right after its fork
# ran the test's own traps (its EXIT trap removed $tmp under the test).
reap() {
	_n=$(($2 * 20))
	while ! exited "$1" && [ "$_n" -gt 0 ]; do
		_n=$((_n - 1))
		sleep 0.05
	done
	exited "$1" || kill -KILL "$1" 2>/dev/null || true
	rc=0
	wait "$1" || rc=$?
}
