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
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

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

# cli_fixture DIR: the fake /proc and /sys tree tests/unit/test_sys.c
# builds (a USB stick with two mount points, NVMe, SATA, btrfs, FUSE...),
# written out at DIR
cli_fixture() {
	ts=${BUILD:-build}/tests/test_sys
	[ -x "$ts" ] || fail "no $ts (make $ts)"
	WBGOV_FIXTURE_OUT=$1 "$ts" >/dev/null 2>&1 || fail "$ts could not write the fixture"
	[ -f "$1/proc/self/mountinfo" ] || fail "no fixture at $1"
}
