#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No function under src/ is longer than 120 lines, from the line that
# opens its parameter list to its closing brace: a function a newcomer
# cannot read in one screen or two does several things, and is split into
# them. Tables (arrays, vtables) are no functions and are not counted. A
# function is a line "{" alone in column 0 after its signature, ended by
# the first "}" alone in column 0, as the code writes every function (one
# with "{" on its signature's line would not be counted: there is none);
# a file that opens one and never ends it fails too.
# Usage: funclen.sh [TREE] [MAX] (default: this repository, 120).
set -eu
cd "${1:-$(dirname "$0")/../..}"
max=${2:-120}
files=$(find src -mindepth 2 -name '*.c' | sort)
[ -n "$files" ] || { echo "funclen: no C file under src/" >&2; exit 1; }

# shellcheck disable=SC2086 # $files: paths without blanks
awk -v max="$max" '
function fail(msg) { print "funclen: FAIL: " msg > "/dev/stderr"; bad = 1 }
FNR == 1 {
	if (open)
		fail(prev ":" start ": " name " has no closing brace in column 0")
	open = 0; sig = 0
}
# the line that opens a signature: a name and "(" at the start of a
# declaration in column 0 (static, a type, the name)
!open && /^[a-z_].*[a-z0-9_]\(/ && !/;[ \t]*$/ && !/^(if|for|while|switch|return)[ (]/ {
	sig = FNR
	line = $0
	sub(/\(.*/, "", line)
	n = split(line, w, /[ \t*]+/)
	name = w[n]
}
!open && $0 == "{" && sig {
	open = 1; start = sig; nfun++
	next
}
open && $0 == "}" {
	len = FNR - start + 1
	if (len > longest) { longest = len; lname = FILENAME ": " name }
	if (len > max)
		fail(FILENAME ":" start ": " name " is " len " lines (at most " max ")")
	open = 0; sig = 0
}
{ prev = FILENAME }
END {
	if (open)
		fail(prev ":" start ": " name " has no closing brace in column 0")
	if (nfun < 100)
		fail("only " nfun " functions found under src/: the pattern no longer matches the code")
	if (bad)
		exit 1
	printf "funclen: %d functions under src/, the longest %s (%d lines, at most %d)\n", nfun, lname, longest, max
}
' $files

# wbgovd on D-Bus is split by concern (docs/design.md): no part of it
# grows back into one file of everything.
for f in src/daemon/bus*.c; do
	n=$(wc -l <"$f")
	[ "$n" -le 500 ] || { echo "funclen: FAIL: $f is $n lines (D-Bus's parts: at most 500)" >&2; exit 1; }
done
echo "funclen: wbgovd's D-Bus in $(ls src/daemon/bus*.c | wc -l) files of at most 500 lines"
