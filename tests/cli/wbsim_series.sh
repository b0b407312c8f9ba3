#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --series FILE: a header naming every column, one block of samples per
# policy in the order given with t_s increasing, and values that agree with
# the csv of the same run: its peaks within one sample, the sync's end.
# stdout is the same as without --series. A file that cannot be written is
# exit 73 and no results; --series with table is bad usage.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

ok plain.csv run usb-iso --policy linux-64 --policy udev-16m --format csv
ok with.csv run usb-iso --policy linux-64 --policy udev-16m --format csv --series "$tmp/s.tsv"
cmp -s "$tmp/plain.csv" "$tmp/with.csv" || fail "with --series stdout is not what it is without"
[ -s "$tmp/s.tsv" ] || fail "--series $tmp/s.tsv wrote no (or an empty) file"

want=$(printf 'policy\tt_s\tsdb_dirty_mib\tsdb_writeback_mib\tsdb_thresh_mib\tsda_dirty_mib\tsda_writeback_mib\tsda_thresh_mib\twritten_mib\tdurable_mib\tglobal_dirty_mib\tglobal_writeback_mib')
got=$(head -n 1 "$tmp/s.tsv")
[ "$got" = "$want" ] || fail "the series header is
  '$got'
want
  '$want'"

# every line has 12 fields, numbers where numbers belong; the policies come
# in the order given, each once; t_s increases within each
bad=$(awk -F'\t' 'NF != 12 { printf "line %d has %d fields\n", NR, NF; exit }
	NR > 1 { for (i = 2; i <= 12; i++) if ($i !~ /^[0-9]+\.[0-9][0-9][0-9]$/) { printf "line %d field %d is \"%s\"\n", NR, i, $i; exit } }
	NR > 1 && $1 != last { order = order " " $1; last = $1; t = -1 }
	NR > 1 && $2 + 0 <= t { printf "line %d: t_s %s after %s\n", NR, $2, t; exit }
	NR > 1 { t = $2 + 0 }
	END { if (order != " linux-64 udev-16m") printf "policies in the order%s, want linux-64 udev-16m\n", order }' "$tmp/s.tsv")
[ -z "$bad" ] || fail "$tmp/s.tsv: $bad"

# csv COLUMN POLICY: that cell of the csv
csv() {
	awk -F, -v c="$1" -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) col = i; next }
		$2 == p { print $col }' "$tmp/plain.csv"
}
# the peaks are taken every jiffy, the samples less often: no sample above
# the peak (0.05: the csv's rounding), and under linux-64, whose dirty
# memory rises and falls smoothly, the largest sample within one sample's
# change of it
for pol in linux-64 udev-16m; do
	pd=$(csv peak_dirty_mib "$pol")
	pn=$(csv peak_nr_dirty_mib "$pol")
	got=$(awk -F'\t' -v p="$pol" -v pd="$pd" -v pn="$pn" -v smooth="$([ "$pol" = linux-64 ] && echo 1 || echo 0)" '
		$1 != p { next }
		{ a = $11 + $12; n = $11
		  if (seen) { if (a - la > da) da = a - la; if (la - a > da) da = la - a; if (n - ln > dn) dn = n - ln; if (ln - n > dn) dn = ln - n }
		  if (a > ma) ma = a; if (n > mn) mn = n; la = a; ln = n; seen = 1 }
		END {
			if (ma > pd + 0.05) printf "Dirty+Writeback sampled up to %.3f, above peak_dirty_mib %s", ma, pd
			else if (mn > pn + 0.05) printf "Dirty sampled up to %.3f, above peak_nr_dirty_mib %s", mn, pn
			else if (smooth && ma < pd - da - 0.05) printf "Dirty+Writeback sampled at most %.3f, peak_dirty_mib %s is more than a sample step (%.3f) away", ma, pd, da
			else if (smooth && mn < pn - dn - 0.05) printf "Dirty sampled at most %.3f, peak_nr_dirty_mib %s is more than a sample step (%.3f) away", mn, pn, dn
		}' "$tmp/s.tsv")
	[ -z "$got" ] || fail "$pol: $got"
done

# per device sums to global; the stick's threshold under udev-16m is its
# 16 MiB cap, the SSD's (not USB) is not capped; at the end, all of the ISO was written and reached the stick
bad=$(awk -F'\t' 'NR > 1 {
		if ($3 + $6 - $11 > 0.002 || $11 - $3 - $6 > 0.002) { printf "line %d: sdb+sda dirty %s+%s, global %s\n", NR, $3, $6, $11; exit }
		if ($4 + $7 - $12 > 0.002 || $12 - $4 - $7 > 0.002) { printf "line %d: sdb+sda writeback %s+%s, global %s\n", NR, $4, $7, $12; exit }
		if ($1 == "udev-16m" && $5 > 16.001) { printf "line %d: udev-16m sdb_thresh_mib %s, above the 16 MiB cap\n", NR, $5; exit }
		if ($1 == "udev-16m" && $8 < 64) { printf "line %d: udev-16m sda_thresh_mib %s, want the uncapped share\n", NR, $8; exit }
		if ($1 == "linux-64" && $5 < 64) { printf "line %d: linux-64 sdb_thresh_mib %s, want the share of gigabytes\n", NR, $5; exit }
		last[$1] = $9 " " $10 }
	END { for (p in last) if (last[p] != "4096.000 4096.000") printf "%s ends at written, durable %s, want 4096.000 4096.000\n", p, last[p] }' "$tmp/s.tsv")
[ -z "$bad" ] || fail "$tmp/s.tsv: $bad"

# a row at the main writer's write return, as the page cache was then (a
# probe's sample before the sync): all of the ISO written, and what is not
# yet durable is in Dirty + Writeback
for pol in linux-64 udev-16m; do
	wr=$(csv write_return_s "$pol")
	got=$(awk -F'\t' -v p="$pol" -v wr="$wr" '$1 == p && $2 == wr { n++; w = $9; d = $10; c = $11 + $12 }
		END { if (n != 1) printf "%d rows at the write return %s, want 1", n, wr
		      else if (w != "4096.000") printf "written %s at the write return, want 4096.000", w
		      else if (c < w - d - 0.01) printf "Dirty + Writeback %.3f at the write return, less than written - durable %.3f", c, w - d }' "$tmp/s.tsv")
	[ -z "$got" ] || fail "$pol: $got"
done

# a file that cannot be written: 73, its name on stderr, no results
rc=0
"$W" run usb-iso --policy wbgov --series "$tmp/nodir/s.tsv" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 73 ] || fail "--series into a missing directory exited $rc, want 73"
grep -qF "$tmp/nodir/s.tsv" "$tmp/err" || fail "the error does not name the file: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "results printed after the series failed"
if [ -w /dev/full ]; then
	rc=0
	"$W" run usb-iso --policy wbgov --series /dev/full >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 73 ] || fail "--series /dev/full exited $rc, want 73"
	grep -q 'No space' "$tmp/err" || fail "--series /dev/full: stderr does not say why: $(cat "$tmp/err")"
	[ -c /dev/full ] || fail "--series /dev/full removed /dev/full"
fi

# only with run
rc=0
"$W" table --series "$tmp/t.tsv" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 64 ] || fail "table --series exited $rc, want 64"
grep -q 'series goes with run' "$tmp/err" || fail "table --series: $(cat "$tmp/err")"
[ ! -e "$tmp/t.tsv" ] || fail "table --series wrote a file"

echo "$me: ok"
