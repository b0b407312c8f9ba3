#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fidelity's simulated side and bench/fidelity-report, without root:
# `--from DIR` on fixture real runs (several per configuration) and facts,
# with a stand-in wbsim that logs its calls and answers per --param seed=N.
# The scenario files carry the rig's facts and the workload (files-, fsync-),
# each configuration becomes its --sysctl/--knob/--policy, each phase its
# seed; results.tsv has the real median and spread, the simulated range and
# the ratio of the nearest simulated value to the median; --check makes a
# test of each row; the report writes its tables between its markers and
# plots every run and phase.
. tests/lib/cli.sh
B=$(pwd)/bench
D=$tmp/res
mkdir -p "$D/traces"
tab() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
# runs out of order (the median is sorted out), an even count (the mean
# of the middle two), one run, n/a (6.1 has no per-bdi knobs)
{
	tab host defaults 1 write_return_s 0.70 host defaults 1 sync_after_s 30.000
	tab host defaults 1 peak_dirty_mib 100.0 host defaults 1 peak_nr_dirty_mib 90.0
	tab host defaults 1 fsync_p99_ms 5.00
	tab host defaults 2 write_return_s 0.38 host defaults 2 sync_after_s 20.000
	tab host defaults 2 peak_dirty_mib 100.0 host defaults 2 peak_nr_dirty_mib 90.0
	tab host defaults 2 fsync_p99_ms 7.00
	tab host defaults 3 write_return_s 0.50 host defaults 3 sync_after_s 26.000
	tab host defaults 3 peak_dirty_mib 100.0 host defaults 3 peak_nr_dirty_mib 90.0
	tab host defaults 3 fsync_p99_ms 6.00
	tab host bytes 1 write_return_s 18.000 host bytes 2 write_return_s 25.000
	tab host strict1s 1 sync_after_s 1.000
	tab host files-defaults 1 write_return_s 0.450
	tab host fsync-defaults 1 sync_after_s 13.500
	tab host-300 defaults 1 write_return_s 0.500 host-300 defaults 1 sync_after_s 3.500
	tab host-300 defaults 1 throughput_mbps 268.4
	tab host-300 defaults 2 write_return_s 0.500 host-300 defaults 2 sync_after_s 3.500
	tab host-300 defaults 2 throughput_mbps 268.4
	tab host-300 strict1s 1 write_return_s 4.000 host-300 strict1s 1 sync_after_s 0.500
	tab host-300 strict1s 1 throughput_mbps 238.6
	tab host-300 strict1s 2 write_return_s 4.000 host-300 strict1s 2 sync_after_s 0.500
	tab host-300 strict1s 2 throughput_mbps 238.6
	tab qemu-6.1-2G defaults 1 write_return_s 1.000
	tab qemu-6.1-2G strict16m 1 write_return_s n/a qemu-6.1-2G strict16m 1 sync_after_s n/a
	tab qemu-6.12-2G defaults 1 write_return_s 2.000
} >"$D/real.tsv"
cp "$D/real.tsv" "$tmp/real.orig"
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
slow_rotational=0
slow_removable=0
copy_mib=256
fast_queue_kib=327680
fast_bio_kib=1280
refill_bps=1961387227
fast_bps=741845902
latency_us=44
file_cost_us=30
file_meta_bytes=850
EOF
grep -v '^fast_\|^latency\|^copy\|^slow_bps' "$D/host.facts" >"$D/host-300.facts"
printf 'copy_mib=1024\nslow_bps=300000000\nrefill_min_bps=1800000000\nrefill_max_bps=2100000000\n' >>"$D/host-300.facts"
for r in qemu-6.1-2G qemu-6.12-2G; do
	grep -v '^fast_\|^latency\|^copy\|^slow_bps\|^kernel=\|^uname' "$D/host.facts" >"$D/$r.facts"
	k=${r#qemu-}
	printf 'copy_mib=64\nslow_bps=5000000\nkernel=%s\nuname=%s.0-test\n' "${k%-2G}" "${k%-2G}" >>"$D/$r.facts"
done
# (the 6.12 guest's slow disk is FAT32)
echo fs=vfat >>"$D/qemu-6.12-2G.facts"
for n in 1 2 3; do
	printf '# t_s dirty_mib writeback_mib (dd returned at 0.5, sync at 1.0)\n-0.5 0 0\n0.1 %d 5\n1.0 0 %d\n' "$((n * 10))" "$((n * 100))" \
		>"$D/traces/host-defaults-r$n.tsv"
done

# the stand-in: its figures a function of the scenario (rig-config) and the
# seed (0 without one): under host defaults, write return 0.4 + 0.1 seed
# and sync 30 + seed, so seeds 1-3 span 0.5-0.7 and 31-33
mkstandin() { # FILE HELP
	cat >"$1" <<EOF
#!/bin/sh
[ "\$1" = --help ] && { echo "usage: wbsim run FILE [--series FILE]"; echo "$2"; exit 0; }
echo "\$*" >>"$tmp/calls"
p=0 series="" prev=""
for a in "\$@"; do
	[ "\$prev" != --series ] || series=\$a
	case \$a in seed=*) p=\${a#seed=} ;; esac
	prev=\$a
done
t=\$((p + 4)) # tenths: 0.4 + 0.1 seed
t=\$((t / 10)).\$((t % 10))
w=1 y=1 d=100 n=80 q=0.05
case \${2##*/} in
host-defaults.scenario) w=\$t y=\$((30 + p)) ;;
host-bytes.scenario) w=\$((29 + p)) ;;
host-strict1s.scenario) y=\$t ;;
host-files-defaults.scenario) w=0.45 ;;
host-fsync-defaults.scenario) y=13.5 ;;
qemu-6.1-2G-defaults.scenario) w=1.1 ;;
qemu-6.12-2G-defaults.scenario) w=2.0 ;;
host-300-defaults.scenario) w=0.5 y=3.5 ;;
host-300-strict1s.scenario) w=4.2 y=0.3 ;;
esac
echo "scenario,policy,write_return_s,durable_s,sync_after_s,peak_dirty_mib,other_max_pause_ms,fsync_p99_ms,fast_write_mbps,device_written_mib,peak_nr_dirty_mib"
echo "fid,linux-64,\$w,,\$y,\$d,,\$q,,256,\$n"
if [ -n "\$series" ]; then
	printf 'policy\tt_s\tslow_thresh_mib\tslow_dirty_mib\tslow_writeback_mib\tglobal_dirty_mib\tglobal_writeback_mib\n' >"\$series"
	printf 'linux-64\t0.1\t9\t%d\t4\t90\t10\nlinux-64\t0.15\t9\t2\t3\t95\t5\nlinux-64\t0.2\t9\t1\t%d\t50\t50\n' \
		"\$((p * 3))" "\$((p * 2))" >>"\$series"
fi
EOF
	chmod +x "$1"
}
mkstandin "$tmp/wbsim" "  seed=0 (N>0: the devices' jitter from seed N)"
mkstandin "$tmp/wbsim-noseed" "  limit=6h"
res() { # RIG CONFIG METRIC: its row of results.tsv, less rig, config, metric
	awk -F'\t' -v r="$1" -v c="$2" -v m="$3" '$1 == r && $2 == c && $3 == m { sub(/^[^\t]*\t[^\t]*\t[^\t]*\t/, ""); print }' "$D/results.tsv"
}
want() { # RIG CONFIG METRIC REST: results.tsv's row
	got=$(res "$1" "$2" "$3")
	[ "$got" = "$4" ] || fail "results.tsv $1 $2 $3: want \"$4\", got \"$got\" (stderr: $(tail -n 3 "$tmp/err"))"
}

WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --phases 3 >"$tmp/out" 2>"$tmp/err" || fail "--from exited $?: $(cat "$tmp/err")"
S=$D/scen/host-defaults.scenario
[ -s "$S" ] || fail "no $S: $(ls "$D/scen" 2>&1)"
for l in 'mem = 2019100K' 'used = 12444K' 'kernel_mem = 37840K' 'reserve = 75348K' 'cpus = 2' 'hz = 250' 'kernel = 6.18' \
	'bandwidth = 10MB/s' 'queue = 0' 'bio = 1280K' 'rate = 1961387kB/s' 'size = 256M' 'end = sync' 'latency = 44us' \
	'kind = fsync-loop' '[device fast]' 'bandwidth = 741845kB/s'; do
	grep -qxF "$l" "$S" || fail "the defaults scenario lacks \"$l\": $(cat "$S")"
done
grep -q '^file_size' "$S" && fail "dd's scenario has a file_size: $(cat "$S")"
# files-X: 10 000 files of 8 KiB; fsync-X: the copy ends in fsync
S=$D/scen/host-files-defaults.scenario
for l in 'size = 80000K' 'file_size = 8K' 'end = sync'; do
	grep -qxF "$l" "$S" || fail "the files- scenario lacks \"$l\": $(cat "$S")"
done
S=$D/scen/host-fsync-defaults.scenario
for l in 'size = 256M' 'end = fsync'; do
	grep -qxF "$l" "$S" || fail "the fsync- scenario lacks \"$l\": $(cat "$S")"
done
grep -q '^file_size' "$S" && fail "the fsync- scenario has a file_size: $(cat "$S")"
grep -qxF 'size = 1024M' "$D/scen/host-300-defaults.scenario" || fail "host-300's copy: $(cat "$D/scen/host-300-defaults.scenario")"
grep -qxF 'kernel = 6.1' "$D/scen/qemu-6.1-2G-defaults.scenario" || fail "6.1's scenario: $(cat "$D/scen/qemu-6.1-2G-defaults.scenario")"
# ext4's files in flight, from the slow disk's journal and block groups
# (runs recorded without them: the same mkfs.ext4 of a disk that size, here
# 256 MiB x 3 + 300: 4 KiB blocks, 9 groups, a 32 MiB journal): 2730 of
# its 8192 blocks a transaction, less 12 descriptor blocks, half of it
# reserved, 27 credits a file; none on 6.1
grep -qxF 'inflight_files = 50' "$D/scen/host-defaults.scenario" || fail "host's inflight_files: $(cat "$D/scen/host-defaults.scenario")"
grep -q '^inflight_files' "$D/scen/qemu-6.1-2G-defaults.scenario" && fail "6.1 has inflight_files: $(cat "$D/scen/qemu-6.1-2G-defaults.scenario")"
grep -q '^fs = ' "$D/scen/host-defaults.scenario" && fail "an ext4 rig's scenario names a fs: $(cat "$D/scen/host-defaults.scenario")"
# vfat: said, and neither ext4's io_end nor its files in flight
S=$D/scen/qemu-6.12-2G-defaults.scenario
grep -qxF 'fs = vfat' "$S" && ! grep -q '^io_end\|^inflight_files' "$S" || fail "the vfat rig's scenario: $(cat "$S")"
# not simulated where the kernel has no such knob
[ -e "$D/scen/qemu-6.1-2G-strict16m.scenario" ] && fail "n/a was simulated: $(ls "$D/scen")"

# each configuration its options, each phase its seed, its own series
grep -q -- "run $D/scen/host-defaults.scenario --policy linux-64 --param seed=2 --series $D/sim/host-defaults-p2.series.tsv --format csv" \
	"$tmp/calls" || fail "defaults, phase 2: $(cat "$tmp/calls")"
grep -q -- "host-bytes.scenario --policy linux-64 --sysctl vm.dirty_background_bytes=16M --sysctl vm.dirty_bytes=48M --param seed=1 " \
	"$tmp/calls" || fail "bytes: $(cat "$tmp/calls")"
grep -q -- "host-strict1s.scenario --policy linux-64 --knob slow.max_bytes=10000000 --knob slow.strict_limit=1 --param seed=3 " \
	"$tmp/calls" || fail "strict1s: $(cat "$tmp/calls")"
grep -q -- "host-fsync-defaults.scenario --policy linux-64 --param seed=1 " "$tmp/calls" || fail "fsync-defaults: $(cat "$tmp/calls")"
grep -q -- "host-300-strict1s.scenario --policy linux-64 --knob slow.max_bytes=300000000 " "$tmp/calls" ||
	fail "host-300's strict1s: its own speed: $(cat "$tmp/calls")"
# 9 configurations with figures, 3 phases each
[ "$(wc -l <"$tmp/calls")" = 27 ] || fail "want 3 runs of wbsim per configuration: $(cat "$tmp/calls")"
for p in 1 2 3; do
	[ "$(grep -c "seed=$p " "$tmp/calls")" = 9 ] || fail "seed $p: $(cat "$tmp/calls")"
	[ -s "$D/sim/host-bytes-p$p.csv" ] || fail "no sim/host-bytes-p$p.csv: $(ls "$D/sim")"
	[ -s "$D/sim/host-defaults-p$p.series.tsv" ] || fail "no sim/host-defaults-p$p.series.tsv: $(ls "$D/sim")"
done
grep -q "seed=4" "$tmp/calls" && fail "--phases 3 ran a fourth: $(cat "$tmp/calls")"

head -n 1 "$D/results.tsv" | grep -qx 'rig	config	metric	real	real_min	real_max	runs	sim_min	sim_max	ratio	runs_in_band' ||
	fail "results.tsv's header: $(head -n 1 "$D/results.tsv")"
awk -F'\t' 'NF != 11 { exit 1 }' "$D/results.tsv" || fail "results.tsv: not 11 columns: $(cat "$D/results.tsv")"
# the median inside the simulated range: 1.00; 0.38 out of band (0.5 / 0.38 > 1.25)
want host defaults write_return_s '0.50	0.38	0.70	3	0.5	0.7	1.00	2/3'
# the median below it: the nearest (its min) over the median, 31 / 26
want host defaults sync_after_s '26.000	20.000	30.000	3	31	33	1.19	2/3'
want host defaults peak_dirty_mib '100.0	100.0	100.0	3	100	100	1.00	3/3'
# the peaks from the series as the real ones are sampled, every 100 ms
# from the phase's offset (0, 10, 20 ms): the 95 at 0.15 s is seen by
# phases 2 and 3 only; the csv's peak (every jiffy, 80 here) is not used
want host defaults peak_nr_dirty_mib '90.0	90.0	90.0	3	90	95	1.00	3/3'
want host defaults fsync_p99_ms '6.00	5.00	7.00	3	0.05	0.05	0.01	0/3'
# an even count: the mean of the middle two; 30 / 21.5, only 25 in band
want host bytes write_return_s '21.5	18.000	25.000	2	30	32	1.40	1/2'
# the median above it: its max over the median
want host strict1s sync_after_s '1.000	1.000	1.000	1	0.5	0.7	0.70	0/1'
want host files-defaults write_return_s '0.450	0.450	0.450	1	0.45	0.45	1.00	1/1'
want qemu-6.1-2G defaults write_return_s '1.000	1.000	1.000	1	1.1	1.1	1.10	1/1'
want qemu-6.1-2G strict16m sync_after_s 'n/a	n/a	n/a	0	n/a	n/a	n/a	n/a'
# throughput: the real one as recorded (once a run), the simulated one
# from the copy's size and its simulated write return and sync
want host-300 defaults throughput_mbps '268.4	268.4	268.4	2	268.4	268.4	1.00	2/2'
want host-300 strict1s throughput_mbps '238.6	238.6	238.6	2	238.6	238.6	1.00	2/2'
# only the real figures are compared: one row a (rig, config, metric)
[ "$(wc -l <"$D/results.tsv")" = 20 ] || fail "results: want 19 rows: $(cat "$D/results.tsv")"
cmp -s "$D/real.tsv" "$tmp/real.orig" || fail "--from changed real.tsv: $(diff "$tmp/real.orig" "$D/real.tsv")"
grep -q '^host  *bytes  *21.5 \[18.000-25.000\]  *30-32  *1.40  *1/2$' "$tmp/out" || fail "the table: $(cat "$tmp/out")"
grep -q '^  host.*write_return_s  *4 of  *5' "$tmp/out" || fail "the summary: $(cat "$tmp/out")"

# a second pass gives the same results (nothing accumulates)
cp "$D/results.tsv" "$tmp/results.1"
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --phases 3 >/dev/null 2>"$tmp/err" || fail "--from again exited $?: $(cat "$tmp/err")"
cmp -s "$D/results.tsv" "$tmp/results.1" || fail "a second --from differs: $(diff "$tmp/results.1" "$D/results.tsv")"

# the report: the tables between the markers, the text around them kept
printf 'before\n<!-- fidelity: begin -->\nold\n<!-- fidelity: end -->\nafter\n' >"$tmp/doc.md"
# a stand-in gnuplot keeps its script and data ($tmp/gp/N, N a call)
mkdir -p "$tmp/gpbin" "$tmp/gp"
cat >"$tmp/gpbin/gnuplot" <<EOF
#!/bin/sh
n=\$(ls "$tmp/gp" | wc -l)
mkdir "$tmp/gp/\$n"
cat >"$tmp/gp/\$n/script"
for f in \$(grep -o "'/tmp/wbgov-fidrep[^']*'" "$tmp/gp/\$n/script" | tr -d "'" | sort -u); do cp "\$f" "$tmp/gp/\$n/"; done
echo fake >"\$(sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$tmp/gp/\$n/script")"
EOF
chmod +x "$tmp/gpbin/gnuplot"
PATH=$tmp/gpbin:$PATH "$B/fidelity-report" --doc "$tmp/doc.md" --png "$tmp/p.png" --png2 "$tmp/p2.png" --run2 host-defaults "$D" \
	>/dev/null 2>"$tmp/err" || fail "fidelity-report exited $?: $(cat "$tmp/err")"
doc() { grep -qxF "$1" "$tmp/doc.md" || fail "the report lacks \"$1\": $(cat "$tmp/doc.md")"; }
# median [min-max] / the simulated range (ratio); one figure where min = max
doc '| host | defaults | 0.5 [0.38–0.7] / 0.5–0.7 (1.00) | 26 [20–30] / 31–33 (1.19) | 90 / 90–95 (1.00) | 100 / 100 (1.00) | 6 [5–7] / 0.05 (0.01) |'
doc '| host | bytes | 21.5 [18–25] / 30–32 (1.40) | - | - | - | - |'
doc '| host | strict1s | - | 1 / 0.5–0.7 (0.70) | - | - | - |'
doc '| qemu-6.1-2G | strict16m | n/a | n/a | - | - | - |'
# rows in band per family and metric (host: host and host-300), the three
# goal metrics together, and all rigs
doc '| host | 4 of 5 (80 %) | 3 of 5 (60 %) | 1 of 1 (100 %) | 8 of 11 (73 %) | 1 of 1 (100 %) | 0 of 1 (0 %) |'
doc '| qemu 6.1 | 1 of 1 (100 %) | - | - | 1 of 1 (100 %) | - | - |'
doc '| **all** | 6 of 7 (86 %) | 3 of 5 (60 %) | 1 of 1 (100 %) | 10 of 13 (77 %) | 1 of 1 (100 %) | 0 of 1 (0 %) |'
grep -q '^Overall, .*: 10 of 13 (77 %) rows in band' "$tmp/doc.md" || fail "the overall figure: $(cat "$tmp/doc.md")"
doc '| strict1s | 238.6 | -11.1 % | 238.6 | -11.1 % |'
# (the files in flight its scenarios were given: a 3372 MiB disk's for host-300)
doc '| host | 6.18.1-test | 1971 | 12 / 36 | 73 | 2 | 250 | 10000000 | 256 | 1280 | no | 44 | 1961 | 742 | ext4 | 30 / 850 | 50 |'
doc '| host-300 | 6.18.1-test | 1971 | 12 / 36 | 73 | 2 | 250 | 300000000 | 1024 | 1280 | no | - | 1961 [1800–2100] | - | ext4 | 30 / 850 | 93 |'
doc '| qemu-6.12-2G | 6.12.0-test | 1971 | 12 / 36 | 73 | 2 | 250 | 5000000 | 64 | 1280 | no | - | 1961 | - | vfat | 30 / 850 | - |'
[ "$(head -n 1 "$tmp/doc.md")" = before ] && [ "$(tail -n 1 "$tmp/doc.md")" = after ] || fail "the text around the table: $(cat "$tmp/doc.md")"
[ "$(grep -c '^<!-- fidelity: \(begin\|end\) -->$' "$tmp/doc.md")" = 2 ] || fail "the markers: $(cat "$tmp/doc.md")"
grep -q '^old$' "$tmp/doc.md" && fail "the old table stayed"
[ "$(grep -c '^| host | ' "$tmp/doc.md")" = 7 ] || fail "want 5 host rows, its family's and its facts: $(cat "$tmp/doc.md")"
# the plot: each real run and each phase, Dirty and Dirty+Writeback
G=$tmp/gp/0
[ -f "$tmp/gp/1/script" ] || fail "no second plot: $(ls -R "$tmp/gp")"
grep -qxF "set output '$tmp/p.png'" "$G/script" || fail "the plot's output: $(cat "$G/script")"
grep -qxF "set output '$tmp/p2.png'" "$tmp/gp/1/script" || fail "the second plot's output: $(cat "$tmp/gp/1/script")"
[ "$(ls "$G" | tr '\n' ' ')" = "real-r1 real-r2 real-r3 script sim-p1 sim-p2 sim-p3 " ] || fail "the plot's data: $(ls "$G")"
[ "$(grep -o " using 1:[23] " "$G/script" | wc -l)" = 12 ] || fail "want 12 lines: $(cat "$G/script")"
[ "$(grep -o " notitle" "$G/script" | wc -l)" = 8 ] || fail "want 4 titles: $(cat "$G/script")"
[ "$(cat "$G/real-r2")" = "$(printf '%s\n' '-0.5 0 0' '0.1 20 25' '1.0 0 200')" ] || fail "real run 2's Dirty, Dirty+Writeback: $(cat "$G/real-r2")"
[ "$(cat "$G/sim-p2")" = "$(printf '%s\n' '0.1 6 10' '0.15 2 5' '0.2 1 5')" ] || fail "phase 2's Dirty, Dirty+Writeback: $(cat "$G/sim-p2")"
# a configuration without traces: said, the doc written
PATH=$tmp/gpbin:$PATH "$B/fidelity-report" --doc "$tmp/doc.md" --png "$tmp/p.png" --png2 "$tmp/p2.png" --run2 host-bytes "$D" \
	>/dev/null 2>"$tmp/err"
[ $? = 66 ] && grep -q "no trace of host-bytes" "$tmp/err" || fail "--run2 without traces: $(cat "$tmp/err")"
# several directories: the later one's rows win, row by row
mkdir "$tmp/res2"
{ head -n 1 "$D/results.tsv"; printf 'host\tdefaults\twrite_return_s\t9\t9\t9\t1\t9\t9\t1.00\t1/1\n'; } >"$tmp/res2/results.tsv"
PATH=$tmp/gpbin:$PATH "$B/fidelity-report" --doc "$tmp/doc.md" --png "$tmp/p.png" "$D" "$tmp/res2" >/dev/null 2>"$tmp/err" ||
	fail "fidelity-report DIR DIR exited $?: $(cat "$tmp/err")"
doc '| host | defaults | 9 / 9 (1.00) | 26 [20–30] / 31–33 (1.19) | 90 / 90–95 (1.00) | 100 / 100 (1.00) | 6 [5–7] / 0.05 (0.01) |'
# results of an older bench/fidelity: refused, the doc untouched
cp "$tmp/doc.md" "$tmp/doc.1"
printf 'rig\tconfig\tmetric\treal\tsim\tratio\nhost\tdefaults\twrite_return_s\t1\t1\t1.00\n' >"$tmp/res2/results.tsv"
"$B/fidelity-report" --doc "$tmp/doc.md" "$tmp/res2" >/dev/null 2>"$tmp/err"
[ $? = 65 ] && grep -q "res2/results.tsv: not the 11 columns" "$tmp/err" || fail "old results: $(cat "$tmp/err")"
cmp -s "$tmp/doc.md" "$tmp/doc.1" || fail "old results changed the doc"
# --sim: the simulated side again before the report (the old results
# replaced by bench/fidelity --from's)
printf 'rig\tconfig\tmetric\treal\tsim\tratio\n' >"$D/results.tsv"
WBSIM=$tmp/wbsim PATH=$tmp/gpbin:$PATH "$B/fidelity-report" --sim --doc "$tmp/doc.md" --png "$tmp/p.png" "$D" >/dev/null 2>"$tmp/err" ||
	fail "fidelity-report --sim exited $?: $(cat "$tmp/err")"
[ "$(head -n 1 "$D/results.tsv" | tr '\t' ' ')" = "rig config metric real real_min real_max runs sim_min sim_max ratio runs_in_band" ] ||
	fail "--sim did not run the simulated side: $(head -n 2 "$D/results.tsv")"
"$B/fidelity-report" --nope "$D" >/dev/null 2>&1; [ $? = 64 ] || fail "an unknown option is not a usage error"
if command -v gnuplot >/dev/null; then
	"$B/fidelity-report" --doc "$tmp/doc.md" --png "$tmp/p.png" "$D" >/dev/null 2>"$tmp/err" || fail "with gnuplot: $(cat "$tmp/err")"
	[ "$(head -c 4 "$tmp/p.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "not a PNG: $(head -c 16 "$tmp/p.png" | od -c)"
fi

# --check: a test a row, n/a none; the last line in tests/run.sh's form
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --phases 3 --check >"$tmp/cout" 2>"$tmp/err" && fail "--check passed a ratio of 1.40"
tail -n 1 "$tmp/cout" | grep -qx "tests: 13 passed, 4 failed" || fail "--check's last line: $(tail -n 1 "$tmp/cout")"
grep -q "FAIL.*host	bytes	write_return_s" "$tmp/err" || fail "--check did not name the 1.40: $(cat "$tmp/err")"
grep -q "FAIL.*host	strict1s	sync_after_s" "$tmp/err" || fail "--check did not name the 0.70: $(cat "$tmp/err")"
grep -q "FAIL.*n/a" "$tmp/err" && fail "--check counted n/a as outside: $(cat "$tmp/err")"
# --metrics: only those
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --phases 3 --check --metrics peak_dirty_mib,throughput_mbps >"$tmp/cout" 2>"$tmp/err" ||
	fail "--check --metrics peak_dirty_mib,throughput_mbps failed: $(cat "$tmp/err")"
tail -n 1 "$tmp/cout" | grep -qx "tests: 3 passed, 0 failed" || fail "--metrics' last line: $(tail -n 1 "$tmp/cout")"
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" --phases 3 --check --metrics write_return_s >"$tmp/cout" 2>&1 &&
	fail "--check --metrics write_return_s passed a write return of 1.40"
tail -n 1 "$tmp/cout" | grep -qx "tests: 6 passed, 1 failed" || fail "--metrics write_return_s: $(tail -n 1 "$tmp/cout")"

# a wbsim without seeds: one phase, no --param seed
: >"$tmp/calls"
WBSIM=$tmp/wbsim-noseed "$B/fidelity" --from "$D" >/dev/null 2>"$tmp/err" || fail "--from, no seeds: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/calls")" = 9 ] || fail "without seeds: want one run a configuration: $(cat "$tmp/calls")"
grep -q seed "$tmp/calls" && fail "--param seed to a wbsim without: $(cat "$tmp/calls")"
want host defaults write_return_s '0.50	0.38	0.70	3	0.4	0.4	0.80	2/3'
# with seeds, the default is 8 phases
: >"$tmp/calls"
WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" >/dev/null 2>"$tmp/err" || fail "--from, 8 phases: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/calls")" = 72 ] || fail "want 8 phases: $(cat "$tmp/calls")"
grep -q "seed=8 " "$tmp/calls" || fail "no phase 8: $(cat "$tmp/calls")"
want host defaults write_return_s '0.50	0.38	0.70	3	0.5	1.2	1.00	2/3'

# a wbsim that fails leaves "-" and --check fails on it
printf '#!/bin/sh\n[ "$1" = --help ] && exit 0\necho "wbsim: no" >&2; exit 64\n' >"$tmp/bad"
chmod +x "$tmp/bad"
WBSIM=$tmp/bad "$B/fidelity" --from "$D" --check >"$tmp/cout" 2>"$tmp/err" && fail "--check passed without simulated figures"
grep -q "wbsim host defaults failed: wbsim: no" "$tmp/err" || fail "no word of wbsim's failure: $(cat "$tmp/err")"
tail -n 1 "$tmp/cout" | grep -qx "tests: 0 passed, 17 failed" || fail "--check without figures: $(tail -n 1 "$tmp/cout")"
want host bytes write_return_s '21.5	18.000	25.000	2	-	-	-	0/2'

# usage: each bad input named on one line, exit 64, before anything runs
# (--from a fixture: were the input let through, the stand-in would run,
# never the real kernels)
cp "$D/results.tsv" "$tmp/results.1"
while IFS='|' read -r a w; do
	: >"$tmp/calls"
	# shellcheck disable=SC2086
	WBSIM=$tmp/wbsim "$B/fidelity" --from "$D" $a >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 64 ] || fail "$a: want exit 64, got $rc: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$a: want one line: $(cat "$tmp/err")"
	grep -qF -- "$w" "$tmp/err" || fail "$a: \"$w\" not named: $(cat "$tmp/err")"
	[ -s "$tmp/calls" ] && fail "$a: wbsim ran"
	cmp -s "$D/results.tsv" "$tmp/results.1" || fail "$a: results.tsv changed"
done <<'EOF'
--runs 0|"0"
--runs 100|"100"
--phases x|"x"
--phases 0|"0"
--rigs host,nope|unknown rig nope
--configs fast|unknown config fast
--configs files-nope|unknown config files-nope
--io-end 3K|--io-end "3K"
--io-end 1.5M|--io-end "1.5M"
EOF
"$B/fidelity" --from "$tmp/none" >/dev/null 2>&1 && fail "--from a directory without results passed"
exit 0
