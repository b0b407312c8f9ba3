#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Output formats: the CSV header and shape (11 fields a row, empty cells for
# columns that do not apply), and JSON that parses, schema 2: {"schema": 2,
# "runs": [...]} with one object per
# scenario x policy with null for the same cells, and a "loses" array.
# (Keys beyond the CSV columns and "loses" are allowed.)
set -eu
. "$(dirname "$0")/../lib/cli.sh"

header='scenario,policy,write_return_s,durable_s,sync_after_s,peak_dirty_mib,other_max_pause_ms,fsync_p99_ms,fast_write_mbps,device_written_mib,peak_nr_dirty_mib'

ok table.csv table --format csv
ok run.csv run usb-iso --format csv

# --- CSV ---
for f in table.csv run.csv; do
	got=$(head -n 1 "$tmp/$f")
	[ "$got" = "$header" ] || fail "$f: CSV header is
  '$got'
want
  '$header'"
	# every row (header included) has exactly 11 comma-separated fields
	bad=$(awk -F, 'NF != 11 { printf "line %d has %d fields: %s\n", NR, NF, $0; exit }' "$tmp/$f")
	[ -z "$bad" ] || fail "$f: $bad"
	# each value cell is empty or a plain decimal number
	bad=$(awk -F, 'NR > 1 { for (i = 3; i <= 11; i++) if ($i != "" && $i !~ /^-?[0-9]+(\.[0-9]+)?$/) { printf "line %d field %d is \"%s\"\n", NR, i, $i; exit } }' "$tmp/$f")
	[ -z "$bad" ] || fail "$f: value cell not a number: $bad"
	[ "$(awk 'END { print NR }' "$tmp/$f")" -gt 1 ] || fail "$f: no data rows"
done

# cells that do not apply are empty: tempfiles has no durable_s/sync_after_s
# (the files are deleted), usb-iso has no fsync_p99_ms (nothing fsyncs)
n=$(awk -F, '$1 == "tempfiles"' "$tmp/table.csv" | awk 'END { print NR }')
[ "$n" -gt 0 ] || fail "table CSV has no tempfiles rows"
bad=$(awk -F, '$1 == "tempfiles" && ($4 != "" || $5 != "") { print; exit }' "$tmp/table.csv")
[ -z "$bad" ] || fail "tempfiles row has non-empty durable_s or sync_after_s: $bad"
bad=$(awk -F, '$1 == "usb-iso" && $8 != "" { print; exit }' "$tmp/table.csv" "$tmp/run.csv")
[ -z "$bad" ] || fail "usb-iso row has non-empty fsync_p99_ms: $bad"
# ...and cells that do apply are not: usb-iso's times, fsync-behind-slow's fsync
bad=$(awk -F, '$1 == "usb-iso" && ($3 == "" || $4 == "" || $5 == "" || $10 == "") { print; exit }' "$tmp/run.csv")
[ -z "$bad" ] || fail "usb-iso row is missing write_return_s/durable_s/sync_after_s/device_written_mib: $bad"
bad=$(awk -F, '$1 == "fsync-behind-slow" && $8 == "" { print; exit }' "$tmp/table.csv")
[ -z "$bad" ] || fail "fsync-behind-slow row is missing fsync_p99_ms: $bad"

# the two peaks: peak_dirty_mib ($6) is Dirty + Writeback, peak_nr_dirty_mib
# ($11) Dirty alone, so Dirty's is never the larger, and in usb-iso (only
# the stick writes, and its queue holds 16 MiB under writeback) they differ
# by 16 MiB at most; under linux-64 the queue is full at the peak
bad=$(awk -F, 'NR > 1 && ($11 == "" || $11 + 0 > $6 + 0) { print; exit }' "$tmp/table.csv")
[ -z "$bad" ] || fail "a row without peak_nr_dirty_mib or with it above peak_dirty_mib: $bad"
bad=$(awk -F, '$1 == "usb-iso" && ($6 - $11 > 16.1 || ($2 == "linux-64" && $6 - $11 < 15.9)) { print; exit }' "$tmp/table.csv")
[ -z "$bad" ] || fail "usb-iso: peak_dirty_mib - peak_nr_dirty_mib is not the stick's writeback (<= 16 MiB, 16 under linux-64): $bad"

# --- table (the default format) ---
ok default run usb-iso
ok table.txt run usb-iso --format table
cmp -s "$tmp/default" "$tmp/table.txt" || fail "run usb-iso without --format differs from --format table"
# both peaks side by side, the table no wider than 8 columns of 12 were
head -n 1 "$tmp/table.txt" | grep -q ' peak_MiB  nr_dirty_MiB ' || fail "the table's header has no peak_MiB beside nr_dirty_MiB: $(head -n 1 "$tmp/table.txt")"
w=$(head -n 1 "$tmp/table.txt" | sed 's/  loses$//' | awk '{ print length($0) }')
[ "$w" -le 136 ] || fail "the table's header is $w characters before loses, want at most 136"

# --- JSON ---
command -v python3 >/dev/null 2>&1 || fail "python3 is required to validate the JSON output but was not found in PATH"
python3 -c 'import json' 2>/dev/null || fail "python3 is in PATH but does not run (python3 -c 'import json' failed)"

ok table.json table --format json
ok run.json run usb-iso --format json

# check_json JSON CSV: JSON (a file in $tmp) against CSV of the same command
check_json() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/$1" 2>"$tmp/pyerr" ||
		fail "$1 is not valid JSON: $(tail -n 1 "$tmp/pyerr")"
	# compare with the CSV of the same command: same objects in the same
	# order, null exactly where the CSV cell is empty, equal numbers
	python3 - "$tmp/$1" "$tmp/$2" >"$tmp/pyout" 2>&1 <<'EOF' || fail "$1: $(cat "$tmp/pyout")"
import csv, json, sys
top = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2])))
head, rows = rows[0], rows[1:]
if not isinstance(top, dict) or set(top) != {"schema", "runs"} or top["schema"] != 2:
    sys.exit("top level is %r, want {\"schema\": 2, \"runs\": [...]}" % (top if not isinstance(top, dict) else sorted(top)))
doc = top["runs"]
if not isinstance(doc, list):
    sys.exit("runs is %s, want an array" % type(doc).__name__)
if len(doc) != len(rows):
    sys.exit("%d objects, the CSV has %d rows" % (len(doc), len(rows)))
want_keys = set(head) | {"loses"}
seen = set()
for i, (o, r) in enumerate(zip(doc, rows)):
    where = "object %d" % i
    if not isinstance(o, dict):
        sys.exit("%s is a %s, want an object" % (where, type(o).__name__))
    missing = want_keys - set(o)
    if missing:
        sys.exit("%s lacks key(s) %s" % (where, ", ".join(sorted(missing))))
    key = (o["scenario"], o["policy"])
    where = "object %d (%s/%s)" % (i, key[0], key[1])
    if key in seen:
        sys.exit("%s appears twice" % where)
    seen.add(key)
    if [o["scenario"], o["policy"]] != r[:2]:
        sys.exit("%s but CSV row %d is %s/%s" % (where, i + 1, r[0], r[1]))
    for name, cell in zip(head[2:], r[2:]):
        v = o[name]
        if cell == "":
            if v is not None:
                sys.exit("%s: %s is %r, want null (empty in CSV)" % (where, name, v))
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            sys.exit("%s: %s is %r, want a number (CSV has %s)" % (where, name, v, cell))
        elif abs(v - float(cell)) > 1e-9 * max(1.0, abs(v)):
            sys.exit("%s: %s is %r, CSV has %s" % (where, name, v, cell))
    if not isinstance(o["loses"], list) or not all(isinstance(t, str) and t for t in o["loses"]):
        sys.exit("%s: loses is %r, want an array of strings" % (where, o["loses"]))
if not any(o["loses"] for o in doc):
    sys.exit("every loses array is empty")
EOF
}
check_json table.json table.csv
check_json run.json run.csv

echo "$me: ok"
