#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: exit status 64 (EX_USAGE), nothing on stdout, and exactly one
# line on stderr that names the bad input. Every case is checked; all the
# failures are listed before the script exits non-zero.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

nfail=0
ncase=0

# bad_input WORD ARG...: run wbsim ARG...; expect status 64, empty stdout and
# exactly one non-empty stderr line that contains WORD (case-insensitive).
bad_input() {
	word=$1
	shift
	ncase=$((ncase + 1))
	rc=0
	"$W" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	lines=$(awk 'END { print NR }' "$tmp/err")
	why=""
	[ "$rc" -eq 64 ] || why="$why; exit status $rc, want 64"
	[ ! -s "$tmp/out" ] || why="$why; stdout not empty ($(wc -c <"$tmp/out") bytes)"
	if [ "$lines" -ne 1 ]; then
		why="$why; $lines lines on stderr, want exactly 1"
	elif ! grep -q . "$tmp/err"; then
		why="$why; the stderr line is empty"
	elif ! grep -qiF -e "$word" "$tmp/err"; then
		why="$why; stderr does not name '$word'"
	fi
	if [ -n "$why" ]; then
		nfail=$((nfail + 1))
		printf '%s: FAIL: wbsim %s: %s\n' "$me" "${*:-(no arguments)}" "${why#; }" >&2
		printf '    stderr was: ' >&2
		head -n 3 "$tmp/err" | sed '2,$s/^/                /' >&2
		[ "$lines" -le 3 ] || printf '                ... (%s lines)\n' "$lines" >&2
		[ -s "$tmp/err" ] || printf '(nothing)\n' >&2
	fi
}

# the word each message must contain is the bad input itself
bad_input nosuch run nosuch
bad_input nosuch run usb-iso --policy nosuch
bad_input nosuch=1 run usb-iso --param nosuch=1
bad_input mem=abc run usb-iso --param mem=abc
bad_input speed=5..1 run usb-iso --param speed=5..1
bad_input size=-1 run usb-iso --param size=-1
bad_input target= run usb-iso --param target=
bad_input memory=maybe run tempfiles --param memory=maybe
bad_input xml run usb-iso --format xml
bad_input xml table --format xml
bad_input "$tmp/p.pdf" run usb-iso --policy wbgov --plot "$tmp/p.pdf"
bad_input "$tmp/plotpng" run usb-iso --policy wbgov --plot "$tmp/plotpng"
bad_input "$tmp/p.png.txt" run usb-iso --policy wbgov --plot "$tmp/p.png.txt"
bad_input frobnicate frobnicate
bad_input limit=0h run usb-iso --param limit=0h
bad_input limit=6 run usb-iso --param limit=6
printf '[device x]\nmode = off\n' >"$tmp/nokey.conf"
bad_input "nokey.conf:1: this [device] section has no match key" table --config "$tmp/nokey.conf"
bad_input "$tmp/none.conf" run usb-iso --config "$tmp/none.conf"
bad_input "--config goes with run or table" list --config "$tmp/nokey.conf"
bad_input mem=bogus table --param mem=bogus
bad_input used=abc run usb-iso --param used=abc
# memory in use larger than memory: refused whichever order the keys come in
bad_input used=3072 run usb-iso --param used=3G --param mem=2G
bad_input used=3072 table --param mem=2G --param used=3G
bad_input kernel=17408 run usb-iso --param kernel=17G
# no command at all: the one line must say that a command is wanted
bad_input command

# a rejected plot file must not have been written
for f in p.pdf plotpng p.png.txt; do
	if [ -e "$tmp/$f" ]; then
		nfail=$((nfail + 1))
		printf '%s: FAIL: rejected plot file %s was created\n' "$me" "$f" >&2
	fi
done

# a run that cannot finish: exit 65, one line that says why (not an
# errno's text), nothing on stdout
ncase=$((ncase + 1))
rc=0
"$W" run usb-iso --policy wbgov --param speed=50KB/s >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -ne 65 ] || ! grep -q "still writing after 6 h of simulated time" "$tmp/err" ||
	[ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	nfail=$((nfail + 1))
	printf '%s: FAIL: a run past its time limit: exit %s, %s\n' "$me" "$rc" "$(cat "$tmp/err")" >&2
fi

# ... and under a limit set lower: 1 h
ncase=$((ncase + 1))
rc=0
"$W" run usb-iso --policy wbgov --param size=100G --param limit=1h >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -ne 65 ] || ! grep -q "still writing after 1 h of simulated time" "$tmp/err"; then
	nfail=$((nfail + 1))
	printf '%s: FAIL: a run past limit=1h: exit %s, %s\n' "$me" "$rc" "$(cat "$tmp/err")" >&2
fi

if [ "$nfail" -ne 0 ]; then
	fail "$nfail of $ncase bad-input checks failed (see above)"
fi
echo "$me: ok ($ncase cases)"
