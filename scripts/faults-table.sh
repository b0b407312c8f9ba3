#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/faults-table.sh [DOC]: the table of injected faults and what came
# of them, as tests/unit/test_sys.c's test_fault_table writes it, put in DOC
# (default docs/reliability.md) between its "faults: begin" and "faults:
# end" markers. tests/cli/reliability_doc.sh checks the committed one.
set -eu
cd "$(dirname "$0")/.."
DOC=${1:-docs/reliability.md}
TS=${BUILD:-build}/tests/test_sys
[ -x "$TS" ] || { echo "$0: no $TS (make $TS)" >&2; exit 1; }
t=$(mktemp)
trap 'rm -f "$t" "$t.doc"' EXIT
WBGOV_FAULTS_OUT=$t "$TS" >/dev/null 2>&1 || { echo "$0: $TS failed" >&2; exit 1; }
awk -v table="$t" '
	/<!-- faults: begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/<!-- faults: end -->/ { skip = 0 }
	!skip' "$DOC" >"$t.doc"
grep -q "<!-- faults: begin -->" "$t.doc" || { echo "$0: $DOC has no faults markers" >&2; exit 1; }
cat "$t.doc" >"$DOC"
