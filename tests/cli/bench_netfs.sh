#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/netfs without a guest: bad arguments are refused in one line
# before anything is built or booted; bench/netfs --report on a fixture
# of a guest's lines: results.tsv, the table, and the goals under wbgovd
# (close() + sync <= 1.0 s beyond the round trip, the copy at 0.95 of the
# defaults' pace, the writer at most 1 s
# of the link ahead of the server at its last write, an unlimited share
# as fast as under the defaults, the share listed by wbgov status, the
# guest's own checks, the boot's end): a goal missed fails --check with
# the "tests:" line naming it; the defaults' figures are not goals.
. tests/lib/cli.sh
B=$(pwd)/bench
for a in "--shares afs" "--rates fast" "--kernels 5.10" "--delay -3" "--mib 0" "--mib 9999" "--bogus"; do
	rc=0
	# shellcheck disable=SC2086
	bash "$B/netfs" $a >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "bench/netfs $a was accepted"
	grep -q "^bench/netfs: " "$tmp/out" || fail "bench/netfs $a: $(cat "$tmp/out")"
	[ "$(wc -l <"$tmp/out")" -le 4 ] || fail "bench/netfs $a: more than a line and its usage: $(cat "$tmp/out")"
done
D=$tmp/res
mkdir -p "$D"
T=$(printf '\t')
# 6.12: NFS at 5 MB/s, 20 ms each way (round trip 0.04 s): the defaults'
# stall (close 7.9 s: not a goal), wbgovd's copy in goal; SMB under wbgovd
# whose close() + sync is 1.2 s (missed) and whose last write returned
# 3 MiB ahead of the server (0.63 s: in goal) and whose copy took 8.90 s
# against the defaults' 8.31 (0.934 of their pace: missed); unlimited NFS at 0.97 of
# the defaults' speed (missed); a guest check failed
cat >"$D/events-6.12.tsv" <<EOF
1.0${T}chan${T}dg-boot uptime_s=3.1 kernel=6.12.57
1.1${T}chan${T}dg-check install/active ok
2.0${T}chan${T}nf-fact k6.12-2 status_line 10.9.0.2:/srv/share/nfs nfs4 5.1 MB/s 5.0 MiB
2.1${T}chan${T}nf-result k6.12-1 nfs 5000000 20 defaults none 40 0.31 7.90 0.01 0.6 39.4 14.2
2.2${T}chan${T}nf-result k6.12-2 nfs 5000000 20 wbgovd none 40 7.80 0.42 0.03 36.5 4.1 2.5
2.3${T}chan${T}nf-fact k6.12-4 status_line //10.9.0.2/bench cifs 5.0 MB/s
2.4${T}chan${T}nf-result k6.12-3 smb 5000000 20 defaults none 40 0.30 8.00 0.01 0.5 39.5 12.0
2.5${T}chan${T}nf-result k6.12-4 smb 5000000 20 wbgovd none 40 7.70 1.00 0.20 37.0 4.0 2.0
2.6${T}chan${T}nf-fact k6.12-6 status_line 10.9.0.2:/srv/share/nfs nfs4
2.7${T}chan${T}nf-result k6.12-5 nfs 0 20 defaults none 40 0.30 1.00 0.02 0.5 39.5 5.0
2.8${T}chan${T}nf-result k6.12-6 nfs 0 20 wbgovd none 40 1.30 0.05 0.02 38.0 3.0 5.0
2.9${T}chan${T}dg-check k6.12-7/dead-stop FAIL wbgovd's own stop: 1500 ms
3.0${T}chan${T}nf-result k6.12-7 nfs 5000000 20 wbgovd dead 40 15.0 0.5 0.02 30.0 10.0 3.0
3.1${T}chan${T}dg-end
EOF
rc=0
bash "$B/netfs" --report "$D" --check >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "--check passed with goals missed: $(cat "$tmp/out")"
grep -q "^tests: 9 passed, 4 failed$" "$tmp/out" || fail "want 9 passed, 3 failed: $(cat "$tmp/out" "$D/checks.txt")"
for c in "6.12/smb-5000000-wbgovd-none/after FAIL" "6.12/nfs-0-wbgovd-none/fast FAIL" \
	"6.12/k6.12-7/dead-stop FAIL" "6.12/nfs-5000000-wbgovd-none/after ok" \
	"6.12/nfs-5000000-wbgovd-none/progress ok" "6.12/smb-5000000-wbgovd-none/progress ok" \
	"6.12/nfs-5000000-wbgovd-none/listed ok" "6.12/boot-ended ok" \
	"6.12/nfs-5000000-wbgovd-none/pace ok" "6.12/smb-5000000-wbgovd-none/pace FAIL"; do
	grep -q "^$c" "$D/checks.txt" || fail "no \"$c\" in: $(cat "$D/checks.txt")"
done
grep -q "defaults.*FAIL" "$D/checks.txt" && fail "a goal of the defaults: $(cat "$D/checks.txt")"
[ "$(wc -l <"$D/results.tsv")" = 8 ] || fail "results.tsv: want a header and 7 copies: $(cat "$D/results.tsv")"
grep -q "^| 6.12 | nfs | 5 MB/s, 20 ms | none | defaults | 0.31 s | 7.90 s | 0.01 s | 0.60 MiB | 39.40 MiB | 14.20 ms |$" \
	"$D/summary.md" || fail "the table: $(cat "$D/summary.md")"
# without the boot's end: a failure
sed -i '/dg-end/d' "$D/events-6.12.tsv"
bash "$B/netfs" --report "$D" >/dev/null 2>&1 || true
grep -q "^6.12/boot-ended FAIL" "$D/checks.txt" || fail "a boot that did not end passed: $(cat "$D/checks.txt")"
echo "$me: ok"
