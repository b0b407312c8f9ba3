#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/run.sh BUILD SECONDS: every fuzz target in BUILD/fuzz for
# SECONDS, two at a time (the machines have two cores), from its seeds in
# tests/fuzz/seeds/NAME and with tests/fuzz/wbgov.dict; what they find
# grows a corpus in BUILD/fuzz/corpus/NAME (never in the tree), and a crash
# is kept as BUILD/fuzz/crash-NAME-*. One line per target, then
# `tests: N passed, N failed`. Exit status 1 on any finding.
set -u
B=$1
S=$2
cd "$(dirname "$0")/../.."
passed=0
failed=0
run() { # NAME
	c=$B/fuzz/corpus/$1
	mkdir -p "$c"
	"$B/fuzz/fuzz_$1" -max_total_time="$S" -dict=tests/fuzz/wbgov.dict -print_final_stats=1 \
		-artifact_prefix="$B/fuzz/crash-$1-" -timeout=10 -rss_limit_mb=1024 \
		"$c" "tests/fuzz/seeds/$1" >"$B/fuzz/$1.log" 2>&1
	echo $? >"$B/fuzz/$1.rc"
}
names=$(for f in "$B"/fuzz/fuzz_*; do [ -x "$f" ] && echo "${f##*/fuzz_}"; done)
set -- $names
while [ $# -gt 0 ]; do
	run "$1" &
	a=$!
	b=
	if [ $# -gt 1 ]; then
		run "$2" &
		b=$!
	fi
	wait $a
	[ -z "$b" ] || wait $b
	for n in "$1" ${b:+"$2"}; do
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz/$n.log")
		if [ "$(cat "$B/fuzz/$n.rc")" = 0 ]; then
			passed=$((passed + 1))
			echo "fuzz_$n: ${runs:-?} runs in $S s, nothing found"
		else
			failed=$((failed + 1))
			echo "fuzz_$n: FAILED after ${runs:-?} runs:"
			grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$B/fuzz/$n.log" | head -n 8
		fi
	done
	shift
	[ -z "$b" ] || shift
done
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
