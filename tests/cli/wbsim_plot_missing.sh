#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --plot without gnuplot: exit status 69 (EX_UNAVAILABLE), a message about
# gnuplot on stderr, and no plot file. gnuplot is hidden by running wbsim
# with a PATH of one empty directory (popen() runs /bin/sh by its full path).
set -eu
. "$(dirname "$0")/../lib/cli.sh"
mkdir "$tmp/emptybin"

for ext in png svg; do
	f=$tmp/none.$ext
	rc=0
	PATH=$tmp/emptybin "$W" run usb-iso --policy linux-64 --policy wbgov --plot "$f" \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 69 ]; then
		case $rc in
		141) how="exited $rc (killed by SIGPIPE writing to the gnuplot pipe)" ;;
		129 | 1[3-9][0-9] | 2[0-5][0-9]) how="exited $rc (killed by signal $((rc - 128)))" ;;
		*) how="exited $rc" ;;
		esac
		fail "with no gnuplot in PATH, run usb-iso --plot $f $how, want 69; stderr: $(tr '\n' '|' <"$tmp/err")"
	fi
	grep -qi gnuplot "$tmp/err" || fail "with no gnuplot in PATH, stderr does not mention gnuplot: $(head -n 3 "$tmp/err")"
	[ ! -s "$f" ] || fail "with no gnuplot in PATH, a plot file $f was written anyway"
done

echo "$me: ok"
