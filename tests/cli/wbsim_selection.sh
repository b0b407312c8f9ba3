#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Which runs are made: `table` is every scenario under every policy (10 x 10
# = 100 rows, each pair once, in `wbsim list` order); `run S --policy A
# --policy B` is exactly S/A then S/B.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

# the names, from `wbsim list`
ok list list
awk '/^scenarios:/ { s = 1; next } /^policies:/ { s = 0; next } s && NF { print $1 }' "$tmp/list" >"$tmp/scenarios"
awk '/^policies:/ { p = 1; next } p && NF { print $1 }' "$tmp/list" >"$tmp/policies"
ns=$(awk 'END { print NR }' "$tmp/scenarios")
np=$(awk 'END { print NR }' "$tmp/policies")
[ "$ns" -eq 10 ] || fail "wbsim list shows $ns scenarios, want 10"
[ "$np" -eq 10 ] || fail "wbsim list shows $np policies, want 10"
for s in usb-iso usb-git-clone fsync-behind-slow tempfiles streaming-fast 32-vs-64 mixed slc-cliff; do
	grep -qx -e "$s" "$tmp/scenarios" || fail "wbsim list does not show scenario $s"
done
for p in linux-64 linux-32 bytes cap-1g per-file time-1 time-3 writethrough udev-16m wbgov; do
	grep -qx -e "$p" "$tmp/policies" || fail "wbsim list does not show policy $p"
done

# table: 100 data rows, exactly every scenario x policy pair, in list order
ok table.csv table --format csv
rows=$(awk 'NR > 1' "$tmp/table.csv" | awk 'END { print NR }')
[ "$rows" -eq 100 ] || fail "wbsim table --format csv has $rows data rows, want 100 (10 scenarios x 10 policies)"
while read -r s; do
	while read -r p; do
		echo "$s,$p"
	done <"$tmp/policies"
done <"$tmp/scenarios" >"$tmp/want_pairs"
awk -F, 'NR > 1 { print $1 "," $2 }' "$tmp/table.csv" >"$tmp/got_pairs"
if ! cmp -s "$tmp/want_pairs" "$tmp/got_pairs"; then
	printf '%s: FAIL: table rows are not every scenario x policy in list order:\n' "$me" >&2
	diff "$tmp/want_pairs" "$tmp/got_pairs" | head -n 10 >&2 || :
	exit 1
fi

# run with two policies: those two rows, in the order given
ok two.csv run usb-iso --policy linux-64 --policy wbgov --format csv
got=$(awk -F, 'NR > 1 { printf "%s%s/%s", sep, $1, $2; sep = " " }' "$tmp/two.csv")
[ "$got" = "usb-iso/linux-64 usb-iso/wbgov" ] ||
	fail "run usb-iso --policy linux-64 --policy wbgov gave rows '$got', want 'usb-iso/linux-64 usb-iso/wbgov'"
ok rev.csv run usb-iso --policy wbgov --policy linux-64 --format csv
got=$(awk -F, 'NR > 1 { printf "%s%s/%s", sep, $1, $2; sep = " " }' "$tmp/rev.csv")
[ "$got" = "usb-iso/wbgov usb-iso/linux-64" ] ||
	fail "run usb-iso --policy wbgov --policy linux-64 gave rows '$got', want 'usb-iso/wbgov usb-iso/linux-64'"

# run without --policy: every policy, in list order
ok all.csv run usb-iso --format csv
awk -F, 'NR > 1 { print $1 "," $2 }' "$tmp/all.csv" >"$tmp/got_all"
sed 's/^/usb-iso,/' "$tmp/policies" >"$tmp/want_all"
cmp -s "$tmp/want_all" "$tmp/got_all" ||
	fail "run usb-iso without --policy did not give one row per policy in list order: $(tr '\n' ' ' <"$tmp/got_all")"

echo "$me: ok"
