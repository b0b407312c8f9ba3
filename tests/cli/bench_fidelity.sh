#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fidelity's simulated side and bench/fidelity-report, without root:
# `--from DIR` on fixture real results and facts, with a stand-in wbsim that
# logs its calls and answers with fixed figures. The scenario file carries
# the rig's facts, each configuration becomes its --sysctl/--knob/--policy,
# results.tsv has real, sim and sim/real, --check fails on a ratio outside
# 0.8-1.25, and the report writes its tables between its markers.
. tests/lib/cli.sh
B=$(pwd)/bench
D=$tmp/res
mkdir -p "$D/traces"
printf 'host\tdefaults\twrite_return_s\t0.500\nhost\tdefaults\tsync_after_s\t26.000\nhost\tbytes\twrite_return_s\t20.000\nhost\tstrict1s\tsync_after_s\t1.000\nhost\tstrict16m\tsync_after_s\tn/a\n' >"$D/real.tsv"
cat >"$D/host.facts" <<'EOF'
mem_kib=2019100
used_kib=12444
kernel_kib=37840
reserve_kib=75348
cpus=2
hz=250
kernel=6.18
uname=6.18.1-test
slow_bps=10000000
slow_queue_kib=163840
slow_bio_kib=1280
copy_mib=256
fast_queue_kib=327680
fast_bio_kib=1280
refill_bps=1961387227
fast_bps=741845902
EOF
printf '# t_s dirty_mib writeback_mib\n0.0 0 0\n0.1 100 5\n1.0 0 200\n' >"$D/traces/host-defaults.tsv"
# the stand-in: write_return 0.55 and sync_after 26 under defaults (ratios
# 1.10 and 1.00), write_return 30 under bytes (1.50), sync 1.2 else (1.20)
cat >"$tmp/wbsim" <<EOF
#!/bin/sh
[ "\$1" = --help ] && { echo "usage: wbsim run FILE"; exit 0; }
echo "\$*" >>"$tmp/calls"
cp "\$2" "$tmp/scenario"
case "\$*" in
*dirty_bytes*) w=30 s=2 ;;
*max_bytes*) w=25 s=1.2 ;;
*) w=0.55 s=26 ;;
esac
echo "scenario,policy,write_return_s,durable_s,sync_after_s,peak_dirty_mib,other_max_pause_ms,fsync_p99_ms,fast_write_mbps,device_written_mib,peak_nr_dirty_mib"
echo "fid-host,linux-64,\$w,,\$s,100,,5.0,,256,90"
EOF
chmod +x "$tmp/wbsim"

WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" >"$tmp/out" 2>"$tmp/err" || fail "--from exited $?: $(cat "$tmp/err")"
grep -q '^mem = 2019100K$' "$tmp/scenario" || fail "the scenario lacks the rig's memory: $(cat "$tmp/scenario")"
for l in 'used = 12444K' 'kernel_mem = 37840K' 'reserve = 75348K' 'cpus = 2' 'hz = 250' 'kernel = 6.18' \
	'bandwidth = 10MB/s' 'queue = 0' 'bio = 1280K' 'rate = 1961387kB/s' 'size = 256M' \
	'kind = fsync-loop' '[device fast]' 'bandwidth = 741845kB/s'; do
	grep -qxF "$l" "$tmp/scenario" || fail "the scenario lacks \"$l\""
done
grep -q "run $D/host.scenario --policy linux-64 --format csv" "$tmp/calls" || fail "defaults: $(cat "$tmp/calls")"
grep -q -- "--policy linux-64 --sysctl vm.dirty_background_bytes=16M --sysctl vm.dirty_bytes=48M" "$tmp/calls" ||
	fail "bytes: $(cat "$tmp/calls")"
grep -q -- "--knob slow.max_bytes=10000000 --knob slow.strict_limit=1" "$tmp/calls" || fail "strict1s: $(cat "$tmp/calls")"
[ "$(wc -l <"$tmp/calls")" = 3 ] || fail "want one wbsim run per configuration: $(cat "$tmp/calls")"
grep -q "^host	defaults	write_return_s	0.500	0.55	1.10$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"
grep -q "^host	bytes	write_return_s	20.000	30	1.50$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"
grep -q "^host	strict1s	sync_after_s	1.000	1.2	1.20$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"
# only the real figures are compared: 5 and the header; n/a (a knob the
# kernel lacks) is not simulated
[ "$(wc -l <"$D/results.tsv")" = 6 ] || fail "results: $(cat "$D/results.tsv")"
grep -q "^host	strict16m	sync_after_s	n/a	n/a	n/a$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"
grep -q "^host  *bytes  *20.000  *30  *1.50$" "$tmp/out" || fail "the table: $(cat "$tmp/out")"

# --check: 1.50 is outside 0.8-1.25
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --check >"$tmp/cout" 2>"$tmp/err" && fail "--check passed a ratio of 1.50"
grep -q "bytes	write_return_s" "$tmp/err" || fail "--check did not name the ratio: $(cat "$tmp/err")"
# each ratio a test, counted on the last line as CI's stages count them
tail -n 1 "$tmp/cout" | grep -Eqx "tests: [1-9][0-9]* passed, 1 failed" || fail "--check's last line: $(tail -n 1 "$tmp/cout")"
# --metrics: only those are checked (the 1.50 is a write return)
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --check --metrics sync_after_s,peak_dirty_mib >"$tmp/cout" 2>"$tmp/err" ||
	fail "--check --metrics sync_after_s,peak_dirty_mib failed: $(cat "$tmp/err")"
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --check --metrics write_return_s >/dev/null 2>&1 &&
	fail "--check --metrics write_return_s passed a write return of 1.50"
sed -i '/bytes/d' "$D/real.tsv"
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --check >"$tmp/cout" 2>"$tmp/err" || fail "--check failed within 0.8-1.25: $(cat "$tmp/err")"
tail -n 1 "$tmp/cout" | grep -Eqx "tests: [1-9][0-9]* passed, 0 failed" || fail "--check's last line: $(tail -n 1 "$tmp/cout")"

# a wbsim that fails leaves "-" and --check fails on it
printf '#!/bin/sh\n[ "$1" = --help ] && exit 0\necho "wbsim: no" >&2; exit 64\n' >"$tmp/bad"
chmod +x "$tmp/bad"
WBSIM=$tmp/bad "$B/fidelity" --from "$D" --check >/dev/null 2>"$tmp/err" && fail "--check passed without simulated figures"
grep -q "wbsim host defaults failed: wbsim: no" "$tmp/err" || fail "no word of wbsim's failure: $(cat "$tmp/err")"

grep -q "n/a" "$tmp/err" && fail "--check counted n/a as outside: $(cat "$tmp/err")"

# usage
"$B/fidelity" --rigs host,nope >/dev/null 2>"$tmp/err"; [ $? = 64 ] || fail "an unknown rig is not a usage error"
grep -q "unknown rig nope" "$tmp/err" || fail "the unknown rig not named: $(cat "$tmp/err")"
"$B/fidelity" --configs fast >/dev/null 2>&1; [ $? = 64 ] || fail "an unknown config is not a usage error"
"$B/fidelity" --from "$tmp/none" >/dev/null 2>&1 && fail "--from a directory without results passed"

# the report: the table between the markers, the text around them kept
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" >/dev/null 2>&1
printf 'before\n<!-- fidelity: begin -->\nold\n<!-- fidelity: end -->\nafter\n' >"$tmp/doc.md"
"$B/fidelity-report" --doc "$tmp/doc.md" --png "$tmp/p.png" "$D" >/dev/null 2>"$tmp/err" ||
	fail "fidelity-report exited $?: $(cat "$tmp/err")"
grep -q '^| host | defaults | 0.500 / 0.55 (1.10) | 26.000 / 26 (1.00) |' "$tmp/doc.md" || fail "the report's row: $(cat "$tmp/doc.md")"
grep -q '^| host | 6.18.1-test | 1971 | 12 / 36 | 73 | 2 | 250 | 10000000 | 1280 | - | - | 1961 | 742 |$' "$tmp/doc.md" ||
	fail "the report's facts: $(cat "$tmp/doc.md")"
[ "$(head -n 1 "$tmp/doc.md")" = before ] && [ "$(tail -n 1 "$tmp/doc.md")" = after ] || fail "the text around the table: $(cat "$tmp/doc.md")"
grep -q '^old$' "$tmp/doc.md" && fail "the old table stayed"
grep -q '^| host | strict16m | - | n/a | - | - | - |$' "$tmp/doc.md" || fail "the report's n/a: $(cat "$tmp/doc.md")"
if command -v gnuplot >/dev/null; then
	[ -s "$tmp/p.png" ] || fail "no plot"
fi
exit 0
