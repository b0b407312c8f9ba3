#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Plots: --plot FILE.png writes a PNG and --plot FILE.svg an SVG through
# gnuplot, and stdout still carries the same table as without --plot. The
# SVG's text: titles naming scenario, policy and device, the cap's legend
# entry, the sync's label, axis labels with units, and no panel or legend
# entry for the SSD nothing is written to. (tests/unit/test_lab.c checks
# the gnuplot script itself.)
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
		# the text gnuplot drew, one line per string
		sed -n 's/.*<text[^>]*>\(<tspan[^>]*>\)\{0,1\}\([^<]*\)<.*/\2/p' "$f" >"$tmp/text"
		# count TEXT: how many strings in the SVG are exactly TEXT
		count() { grep -cxF -e "$1" "$tmp/text" || :; }
		for pol in linux-64 wbgov; do
			[ "$(count "usb-iso under $pol: sdb")" -eq 1 ] || fail "$f: no panel titled 'usb-iso under $pol: sdb'"
			[ "$(count "usb-iso under $pol: the copy to sdb")" -eq 1 ] || fail "$f: no panel titled 'usb-iso under $pol: the copy to sdb'"
		done
		[ "$(count 'usb-iso, simulated by wbsim (idle, not drawn: sda)')" -eq 1 ] ||
			fail "$f: the title does not say the idle sda is left out: $(head -n 3 "$tmp/text" | tr '\n' '|')"
		grep -q ': sda$' "$tmp/text" && fail "$f: a panel for sda, which nothing is written to"
		# one stick panel a policy: its dirty line and its cap, each once
		[ "$(count 'dirty')" -eq 2 ] || fail "$f: $(count 'dirty') legend entries 'dirty', want 2 (sdb's only, not the idle sda's)"
		[ "$(count 'wb_thresh (cap)')" -eq 2 ] || fail "$f: $(count 'wb_thresh (cap)') legend entries 'wb_thresh (cap)', want 2"
		# the sync, on both panels of each policy
		n=$(grep -c '^sync() at [0-9.]* s' "$tmp/text" || :)
		[ "$n" -eq 4 ] || fail "$f: $n labels 'sync() at N s', want 4 (2 panels x 2 policies)"
		[ "$(count 'simulated time (s)')" -eq 4 ] || fail "$f: time axes without 'simulated time (s)'"
		[ "$(count 'page cache (MiB)')" -eq 2 ] || fail "$f: no 'page cache (MiB)' axis label"
		[ "$(count 'written (MiB)')" -eq 2 ] || fail "$f: no 'written (MiB)' axis label"
		;;
	esac
done

echo "$me: ok"
