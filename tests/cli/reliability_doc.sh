#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/reliability.md's table of injected faults is the one the test makes
# today (scripts/faults-table.sh regenerates it), and its fuzz section names
# every fuzz target of the tree and the seconds CI gives each
# (scripts/fuzz-table.sh regenerates it).
set -eu
cd "$(dirname "$0")/../.."
me=${0##*/}
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cp docs/reliability.md "$tmp"
sh scripts/faults-table.sh "$tmp" || fail "scripts/faults-table.sh failed"
diff -u docs/reliability.md "$tmp" >&2 || fail "docs/reliability.md's fault table is stale: sh scripts/faults-table.sh"
n=$(grep -c '^| ' docs/reliability.md)
[ "$n" -ge 40 ] || fail "the fault table has $n rows"
sh scripts/fuzz-table.sh --check || fail "docs/reliability.md's fuzz section is stale: sh scripts/fuzz-table.sh SECONDS"
