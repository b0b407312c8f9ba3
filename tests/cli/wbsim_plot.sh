#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Plots: --plot FILE.png writes a PNG and --plot FILE.svg an SVG through
# gnuplot, and stdout still carries the same table as without --plot.
# gnuplot is required here: a missing gnuplot is a failure, not a skip.
# (wbsim_plot_missing.sh covers the exit status without gnuplot.)
set -eu
. "$(dirname "$0")/../lib/cli.sh"
command -v gnuplot >/dev/null 2>&1 || fail "gnuplot is required for this test but is not in PATH (apt-get install gnuplot-nox)"
command -v od >/dev/null 2>&1 || fail "od is required for this test but is not in PATH"

# the table without a plot, to compare stdout with
rc=0
"$W" run usb-iso --policy linux-64 --policy wbgov >"$tmp/plain" 2>"$tmp/plain.err" || rc=$?
[ "$rc" -eq 0 ] || fail "wbsim run usb-iso --policy linux-64 --policy wbgov exited $rc: $(head -n 3 "$tmp/plain.err")"
for w in usb-iso linux-64 wbgov; do
	grep -q -e "$w" "$tmp/plain" || fail "the table of run usb-iso --policy linux-64 --policy wbgov does not show $w"
done

for ext in png svg; do
	f=$tmp/p.$ext
	rc=0
	"$W" run usb-iso --policy linux-64 --policy wbgov --plot "$f" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "--plot $f exited $rc, want 0: $(head -n 3 "$tmp/err")"
	[ -s "$f" ] || fail "--plot $f exited 0 but wrote no (or an empty) file"
	if ! cmp -s "$tmp/plain" "$tmp/out"; then
		printf '%s: FAIL: with --plot %s stdout is not the table printed without --plot:\n' "$me" "$f" >&2
		diff "$tmp/plain" "$tmp/out" | head -n 10 >&2 || :
		exit 1
	fi
	case $ext in
	png)
		sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
		[ "$sig" = 89504e470d0a1a0a ] || fail "$f does not start with the PNG signature: got $sig"
		;;
	svg)
		grep -q '<svg' "$f" || fail "$f does not contain '<svg'"
		grep -q '</svg>' "$f" || fail "$f is not closed with '</svg>' (truncated?)"
		;;
	esac
done

echo "$me: ok"
