#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/reliability.md's fuzz section, between its "fuzz: begin" and "fuzz:
# end" markers, made from what the tree and CI really run:
#   scripts/fuzz-table.sh SECONDS [DOC]  runs `make fuzz FUZZ_SECONDS=SECONDS`
#     (every target, two at a time) and writes the section: the seconds CI
#     gives each target (read from .ci/run), then one row per target with
#     what it parses (the first comment of tests/fuzz/fuzz_NAME.c) and how
#     many inputs it ran; a target that finds something stops it.
#   scripts/fuzz-table.sh --check [DOC]  the committed section names every
#     target of tests/fuzz, each with its comment, and CI's seconds as
#     .ci/run has them (tests/cli/reliability_doc.sh).
set -eu
cd "$(dirname "$0")/.."
mode=$1
DOC=${2:-docs/reliability.md}
t=$(mktemp)
trap 'rm -f "$t" "$t".*' EXIT

ci=$(sed -n 's/.*make .*fuzz FUZZ_SECONDS=\([0-9][0-9]*\).*/\1/p' .ci/run)
[ -n "$ci" ] || { echo "$0: no FUZZ_SECONDS in .ci/run" >&2; exit 1; }
dflt=$(sed -n 's/^FUZZ_SECONDS *?= *\([0-9][0-9]*\)$/\1/p' Makefile)
# what_of NAME: the first comment of its source, on one line
what_of() {
	awk 'NR > 1 && /\/\*/ { on = 1 } on { x = $0; sub(/^[ \t]*\*[ \t]/, "", x); l = l " " x } on && /\*\// { exit }
	     END { gsub(/\/\*|\*\//, "", l); gsub(/[ \t]+/, " ", l); sub(/^ /, "", l); sub(/ $/, "", l); print l }' \
		"tests/fuzz/fuzz_$1.c"
}
ci_line="CI runs each target for $ci s (\`.ci/run\`: a smoke run); \`make fuzz\` runs each for $dflt s unless \`FUZZ_SECONDS\` says otherwise."
names=$(for f in tests/fuzz/fuzz_*.c; do n=${f##*/fuzz_}; echo "${n%.c}"; done)

if [ "$mode" = --check ]; then
	awk '/<!-- fuzz: begin -->/ { on = 1; next } /<!-- fuzz: end -->/ { on = 0 } on' "$DOC" >"$t"
	grep -qxF "$ci_line" "$t" || { echo "$0: $DOC does not say: $ci_line" >&2; exit 1; }
	sed -n 's/^| \(fuzz_[a-z_]*\) | \(.*\) | [0-9,]* |$/\1 | \2/p' "$t" >"$t.doc"
	for n in $names; do echo "fuzz_$n | $(what_of "$n")"; done >"$t.tree"
	diff -u "$t.tree" "$t.doc" >&2 || { echo "$0: $DOC's fuzz table is not the tree's targets: $0 SECONDS" >&2; exit 1; }
	exit 0
fi

case "$mode" in ''|*[!0-9]*) echo "usage: $0 SECONDS [DOC] | --check [DOC]" >&2; exit 64 ;; esac
make fuzz FUZZ_SECONDS="$mode" >"$t.run" 2>&1 || { tail -n 20 "$t.run" >&2; exit 1; }
{
	echo "$ci_line"
	echo
	echo "Runs of \`make fuzz FUZZ_SECONDS=$mode\` ($(date +%Y-%m-%d), two targets at a time on the 2-core machine, $(clang --version | sed -n '1{s/ (.*//;p;}')), none of which found anything:"
	echo
	echo "| target | what it parses | runs in $mode s |"
	echo "|---|---|---|"
	for n in $names; do
		runs=$(sed -n "s/^fuzz_$n: \([0-9]*\) runs in .*/\1/p" "$t.run")
		[ -n "$runs" ] || { echo "$0: fuzz_$n: no run count" >&2; exit 1; }
		echo "| fuzz_$n | $(what_of "$n") | $(echo "$runs" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') |"
	done
} >"$t.table"
awk -v table="$t.table" '
	/<!-- fuzz: begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/<!-- fuzz: end -->/ { skip = 0 }
	!skip' "$DOC" >"$t.doc"
cat "$t.doc" >"$DOC"
