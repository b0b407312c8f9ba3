#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov's command line, without root and without touching anything: each
# command's --help is its own; an unknown option, a missing value and an
# option of another command are refused with a message that names the
# command (exit 64); eject as a normal user is refused (exit 77).
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"

# run NAME ARG...: wbgov ARG... with stdout in $tmp/NAME, stderr in
# $tmp/NAME.err, its exit status in $rc
run() {
	name=$1
	shift
	rc=0
	"$W" "$@" >"$tmp/$name" 2>"$tmp/$name.err" || rc=$?
}

for c in status watch sync eject cp explain apply restore; do
	run help "$c" --help
	[ "$rc" -eq 0 ] || fail "wbgov $c --help exited $rc"
	[ ! -s "$tmp/help.err" ] || fail "wbgov $c --help wrote to stderr"
	head -n 1 "$tmp/help" | grep -q "^Usage: wbgov \[OPTIONS\] $c" ||
		fail "wbgov $c --help is not its own: $(head -n 1 "$tmp/help")"
done
run help sync --help
grep -q "ETA" "$tmp/help" || fail "wbgov sync --help does not say what sync shows"
run help --help
grep -q "^Usage: wbgov status" "$tmp/help" && grep -q "eject" "$tmp/help" ||
	fail "wbgov --help does not list every command"

# refused: exit 64, one line naming the command and the option
refused() { # WANT-IN-MESSAGE ARG...
	want=$1
	shift
	run bad "$@"
	[ "$rc" -eq 64 ] || fail "wbgov $*: exit $rc, want 64"
	grep -qF -- "$want" "$tmp/bad.err" || fail "wbgov $*: '$(cat "$tmp/bad.err")' does not say '$want'"
	[ ! -s "$tmp/bad" ] || fail "wbgov $*: wrote to stdout"
}
refused "wbgov watch: unknown option -n" watch -n 3
refused "wbgov watch: unknown option --bogus" watch --bogus
refused "wbgov watch: --interval needs a value" watch --interval
refused "wbgov sync: --json is not an option of sync" sync --json /
refused "wbgov sync: --once is not an option of sync" sync --once
refused "wbgov status: --no-power-off is not an option of status" status --no-power-off
refused "--interval wants seconds" watch --interval 0
refused "eject needs a PATH or DEVICE" eject
refused "that option goes after the command" --json status
refused "unknown command" frobnicate

# eject as a normal user: 77, and nothing looked at
if [ "$(id -u)" = 0 ]; then
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$W" eject / 2>"$tmp/e.err" || rc=$?
else
	run e eject /
fi
[ "$rc" -eq 77 ] || fail "wbgov eject as a normal user: exit $rc, want 77"
grep -q "needs root" "$tmp/e.err" || fail "wbgov eject as a normal user: $(cat "$tmp/e.err")"
# apply likewise, before it looks at a state directory
if [ "$(id -u)" = 0 ]; then
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$W" --state-dir "$tmp/st" apply --once \
		2>"$tmp/e.err" || rc=$?
else
	run e --state-dir "$tmp/st" apply --once
fi
[ "$rc" -eq 77 ] || fail "wbgov apply as a normal user: exit $rc, want 77"
grep -q "^wbgov apply: writing the kernel's knobs needs root$" "$tmp/e.err" ||
	fail "wbgov apply as a normal user: $(cat "$tmp/e.err")"
[ ! -e "$tmp/st" ] || fail "wbgov apply as a normal user made its state directory"
echo "$me: ok"
