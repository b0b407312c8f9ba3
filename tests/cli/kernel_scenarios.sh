#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/kernel's wbsim side without a kernel or a guest: `predict` on a
# fixture guest's facts and real runs. The scenario files it writes parse
# in wbsim and carry the facts; each configuration becomes its
# --sysctl/--knob; a wbsim that knows no "6.12+series" gets 6.12 and the
# defaults alone; n/a stays n/a; several runs give their median and range,
# sim over the median; XFS and btrfs runs are usb-iso to wbsim, memcg runs
# are not simulated; a real.tsv without a run column is run 1;
# `report` prints one table per scenario.
. tests/lib/cli.sh
K=$(pwd)/bench/kernel
WB=$(pwd)/$W
bash -n "$K" || fail "bench/kernel: bash -n"
bash -n bench/lib/guest.sh || fail "bench/lib/guest.sh: bash -n"
D=$tmp/res
mkdir -p "$D"
# a quick run's facts (bench/kernel scenarios patched --quick)
cat >"$D/patched.facts" <<'EOF'
mem_kib=1019788
used_kib=2936
kernel_kib=16904
reserve_kib=6064
uname=6.12.118
cpus=1
slow_queue_kib=327680
slow_bio_kib=1280
slow_rotational=1
slow_removable=0
fast_queue_kib=327680
fast_bio_kib=1280
refill_bps=123353719
files16384_bps=43237573
files65536_bps=119829554
fast_bps=466004652
latency_us=0
latency_mean_us=1500
hz=250
kind=patched
slow_bps=10000000
iso_mib=16
clone_n=256
clone_size=16384
tmp_n=64
tmp_size=65536
tmp_delete_s=3
stream_mib=32
idle_usb_iso=6
EOF
sed 's/^kind=patched/kind=stock/' "$D/patched.facts" >"$D/stock.facts"
T=$(printf '\t')
cat >"$D/real.tsv" <<EOF
stock${T}usb-iso${T}defaults${T}1${T}write_return_s${T}0.100
patched${T}usb-iso${T}defaults${T}1${T}write_return_s${T}0.104
patched${T}usb-iso${T}defaults${T}1${T}sync_after_s${T}1.712
patched${T}usb-iso${T}defaults${T}1${T}peak_dirty_mib${T}16.0
patched${T}usb-iso${T}defaults${T}1${T}peak_nr_dirty_mib${T}16.0
patched${T}usb-iso${T}ratio-max${T}1${T}write_return_s${T}0.488
patched${T}usb-iso${T}time-1s${T}1${T}write_return_s${T}2.328
patched${T}usb-iso${T}per-file${T}1${T}write_return_s${T}n/a
patched${T}usb-git-clone${T}writethrough${T}1${T}sync_after_s${T}0.5
patched${T}tempfiles${T}defaults${T}1${T}dev_mib${T}2.0
patched${T}streaming-fast${T}defaults${T}1${T}fast_mbps${T}100.0
EOF
cp "$D/real.tsv" "$tmp/real.tsv"
# three runs, in no order: the median 2.328, the range 2.100-3.000
cat >"$tmp/real3.tsv" <<EOF
patched${T}usb-iso${T}time-1s${T}1${T}write_return_s${T}3.000
patched${T}usb-iso${T}time-1s${T}2${T}write_return_s${T}2.100
patched${T}usb-iso${T}time-1s${T}3${T}write_return_s${T}2.328
patched${T}usb-iso-xfs${T}defaults${T}1${T}sync_after_s${T}1.000
patched${T}usb-iso-xfs${T}defaults${T}2${T}sync_after_s${T}2.000
patched${T}usb-iso-memcg${T}dirty-bytes${T}1${T}peak_memcg_dirty_mib${T}12.5
EOF

# the real wbsim: every scenario file parses (and did before it ran)
WBSIM=$WB "$K" predict --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "predict exited $?: $(cat "$tmp/err")"
for k in stock-usb-iso patched-usb-iso patched-usb-git-clone patched-tempfiles patched-streaming-fast; do
	[ -s "$D/$k.scenario" ] || fail "no $k.scenario"
	"$WB" show "$D/$k.scenario" >/dev/null 2>"$tmp/e" || fail "$k.scenario does not parse: $(cat "$tmp/e")"
done
for l in 'mem = 1019788K' 'used = 2936K' 'kernel_mem = 16904K' 'reserve = 6064K' 'cpus = 1' 'hz = 250' \
	'bandwidth = 10MB/s' 'queue = 0' 'bio = 1280K' 'latency = 1500us' 'bandwidth = 466004kB/s' 'size = 16M' 'rate = 123353kB/s'; do
	grep -qxF "$l" "$D/patched-usb-iso.scenario" || fail "usb-iso's scenario lacks \"$l\": $(cat "$D/patched-usb-iso.scenario")"
done
grep -qxF 'kernel = 6.12' "$D/stock-usb-iso.scenario" || fail "stock is not kernel = 6.12"
# the disks' idle time since the boot, where the facts give one
[ "$(grep -cxF 'idle = 6s' "$D/patched-usb-iso.scenario")" = 2 ] || fail "usb-iso's devices are not idle 6s"
grep -q '^idle' "$D/patched-streaming-fast.scenario" && fail "an idle time without its fact"
# a median of 0 (a clock of jiffies): the mean
grep -qxF 'latency = 0us' "$D/patched-usb-iso.scenario" && fail "a latency of 0"
# the written device is main: slow for usb-*, fast for the others
awk '/^\[device/ { d = $2 } $0 == "main = yes" { print d }' "$D/patched-usb-iso.scenario" | grep -qx 'slow]' ||
	fail "usb-iso's main device is not slow"
awk '/^\[device/ { d = $2 } $0 == "main = yes" { print d }' "$D/patched-tempfiles.scenario" | grep -qx 'fast]' ||
	fail "tempfiles' main device is not fast"
for l in 'size = 4096K' 'file_size = 16K' 'rate = 43237kB/s' 'end = sync'; do
	grep -qxF "$l" "$D/patched-usb-git-clone.scenario" || fail "usb-git-clone's scenario lacks \"$l\""
done
for l in 'size = 4096K' 'file_size = 64K' 'rate = 119829kB/s' 'end = none' 'delete = 3s'; do
	grep -qxF "$l" "$D/patched-tempfiles.scenario" || fail "tempfiles' scenario lacks \"$l\""
done
grep -qxF 'role = main-fast' "$D/patched-streaming-fast.scenario" || fail "streaming-fast is not main-fast"
# every real figure has a row; the defaults a simulated one
[ "$(wc -l <"$D/results.tsv")" = 12 ] || fail "results: $(cat "$D/results.tsv")"
# median, min, max, runs, sim, sim/median
grep -q "^patched${T}usb-iso${T}defaults${T}sync_after_s${T}1.712${T}1.712${T}1.712${T}1${T}[0-9.]*${T}[0-9.]*$" "$D/results.tsv" ||
	fail "no simulated sync: $(cat "$D/results.tsv")"
# device_written_mib is the guest's dev_mib; fast_mbps the size over write + sync
grep -q "^patched${T}tempfiles${T}defaults${T}dev_mib${T}2.0${T}2.0${T}2.0${T}1${T}[0-9.]*${T}" "$D/results.tsv" || fail "no dev_mib: $(cat "$D/results.tsv")"
grep -q "^patched${T}streaming-fast${T}defaults${T}fast_mbps${T}100.0${T}100.0${T}100.0${T}1${T}[0-9.]*${T}" "$D/results.tsv" ||
	fail "no fast_mbps: $(cat "$D/results.tsv")"
grep -q "^patched${T}usb-iso${T}per-file${T}write_return_s${T}n/a${T}n/a${T}n/a${T}0${T}n/a${T}n/a$" "$D/results.tsv" || fail "n/a: $(cat "$D/results.tsv")"
# a wbsim that takes the series simulates its knobs too
if grep -qxF 'kernel = 6.12+series' "$D/patched-usb-iso.scenario"; then
	grep -q "^patched${T}usb-iso${T}ratio-max${T}write_return_s${T}0.488${T}0.488${T}0.488${T}1${T}[0-9.]*${T}[0-9.]*$" "$D/results.tsv" ||
		fail "ratio-max not simulated: $(cat "$D/results.tsv")"
fi

# a stand-in wbsim that takes 6.12+series: the configurations' options
cat >"$tmp/wbsim" <<EOF
#!/bin/sh
if [ "\$1" = show ]; then
	[ -f "$tmp/noseries" ] && grep -q "6.12+series" "\$2" && { echo "wbsim: want 6.1, 6.12 or 6.18" >&2; exit 64; }
	exit 0
fi
echo "\$*" >>"$tmp/calls"
cp "\$2" "$tmp/scenario"
echo "scenario,policy,write_return_s,durable_s,sync_after_s,peak_dirty_mib,other_max_pause_ms,fsync_p99_ms,fast_write_mbps,device_written_mib,peak_nr_dirty_mib"
echo "x,linux-64,0.5,,2,10,,,,3.5,9"
EOF
chmod +x "$tmp/wbsim"
cp "$tmp/real.tsv" "$D/real.tsv"
WBSIM=$tmp/wbsim "$K" predict --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "predict exited $?: $(cat "$tmp/err")"
grep -qxF 'kernel = 6.12+series' "$D/patched-usb-iso.scenario" || fail "patched is not kernel = 6.12+series"
grep -qxF 'kernel = 6.12' "$D/stock-usb-iso.scenario" || fail "stock is not kernel = 6.12"
grep -q "patched-usb-iso.scenario --policy linux-64 --format csv$" "$tmp/calls" || fail "defaults: $(cat "$tmp/calls")"
grep -q "patched-usb-iso.scenario --policy linux-64 --sysctl vm.dirty_ratio_max_bytes=64M --format csv$" "$tmp/calls" ||
	fail "ratio-max: $(cat "$tmp/calls")"
grep -q "patched-usb-iso.scenario --policy linux-64 --knob slow.max_time_ms=1000 --knob fast.max_time_ms=1000 --format csv$" "$tmp/calls" ||
	fail "time-1s: $(cat "$tmp/calls")"
grep -q "patched-usb-git-clone.scenario --policy linux-64 --sysctl vm.dirty_writethrough_bandwidth=64000000 --format csv$" "$tmp/calls" ||
	fail "writethrough: $(cat "$tmp/calls")"
grep -q "per-file\|file_writeout" "$tmp/calls" && fail "an n/a configuration was simulated: $(cat "$tmp/calls")"
# one run per (kind, scenario, config) with a real figure
[ "$(wc -l <"$tmp/calls")" = 7 ] || fail "want 7 wbsim runs: $(cat "$tmp/calls")"
grep -q "^patched${T}usb-iso${T}time-1s${T}write_return_s${T}2.328${T}2.328${T}2.328${T}1${T}0.5${T}0.21$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"
grep -q "^patched${T}tempfiles${T}defaults${T}dev_mib${T}2.0${T}2.0${T}2.0${T}1${T}3.5${T}1.75$" "$D/results.tsv" || fail "dev_mib: $(cat "$D/results.tsv")"
# 32 MiB over 0.5 + 2 s
grep -q "^patched${T}streaming-fast${T}defaults${T}fast_mbps${T}100.0${T}100.0${T}100.0${T}1${T}13.4${T}0.13$" "$D/results.tsv" ||
	fail "fast_mbps: $(cat "$D/results.tsv")"

# several runs: the median, the range, sim over the median; usb-iso-xfs is
# usb-iso to wbsim; the memcg run is not simulated
cp "$tmp/real3.tsv" "$D/real.tsv"
rm -f "$tmp/calls"
WBSIM=$tmp/wbsim "$K" predict --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "predict of 3 runs exited $?: $(cat "$tmp/err")"
grep -q "^patched${T}usb-iso${T}time-1s${T}write_return_s${T}2.328${T}2.100${T}3.000${T}3${T}0.5${T}0.21$" "$D/results.tsv" ||
	fail "3 runs: $(cat "$D/results.tsv")"
# an even count: the mean of the middle two
grep -q "^patched${T}usb-iso-xfs${T}defaults${T}sync_after_s${T}1.500${T}1.000${T}2.000${T}2${T}2${T}1.33$" "$D/results.tsv" ||
	fail "2 runs of usb-iso-xfs: $(cat "$D/results.tsv")"
grep -qxF 'size = 16M' "$D/patched-usb-iso-xfs.scenario" || fail "usb-iso-xfs is not usb-iso to wbsim"
grep -q "^patched${T}usb-iso-memcg${T}dirty-bytes${T}peak_memcg_dirty_mib${T}12.5${T}12.5${T}12.5${T}1${T}-${T}-$" "$D/results.tsv" ||
	fail "memcg: $(cat "$D/results.tsv")"
grep -q "memcg" "$tmp/calls" && fail "a memcg run was simulated: $(cat "$tmp/calls")"
"$K" report --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "report of 3 runs exited $?: $(cat "$tmp/err")"
grep -qxF '| time-1s | write_return_s | 2.328 | 2.100–3.000 | 3 | 0.5 | 0.21 |' "$tmp/out" || fail "the report of 3 runs: $(cat "$tmp/out")"
grep -qx '\*\*usb-iso-memcg\*\*' "$tmp/out" || fail "no memcg table: $(cat "$tmp/out")"
# a real.tsv without the run column (before the runs were counted): run 1
cut -f1-3,5,6 "$tmp/real3.tsv" >"$D/real.tsv"
WBSIM=$tmp/wbsim "$K" predict --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "predict of an old real.tsv exited $?: $(cat "$tmp/err")"
grep -q "^patched${T}usb-iso${T}time-1s${T}write_return_s${T}2.328${T}2.100${T}3.000${T}3${T}0.5${T}0.21$" "$D/results.tsv" ||
	fail "an old real.tsv: $(cat "$D/results.tsv")"

# one that refuses 6.12+series: 6.12, the defaults alone, "-" for the rest
: >"$tmp/noseries"
rm -f "$tmp/calls"
cp "$tmp/real.tsv" "$D/real.tsv"
WBSIM=$tmp/wbsim "$K" predict --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "predict exited $?: $(cat "$tmp/err")"
grep -q "no kernel = 6.12+series: patched usb-iso as 6.12" "$tmp/err" || fail "no word of the fallback: $(cat "$tmp/err")"
grep -qxF 'kernel = 6.12' "$D/patched-usb-iso.scenario" || fail "the fallback is not kernel = 6.12"
grep -q -- "--sysctl\|--knob" "$tmp/calls" && fail "a knob on a 6.12 scenario: $(cat "$tmp/calls")"
grep -q "^patched${T}usb-iso${T}ratio-max${T}write_return_s${T}0.488${T}0.488${T}0.488${T}1${T}-${T}-$" "$D/results.tsv" || fail "results: $(cat "$D/results.tsv")"

# the report: a table per scenario with the scenario's rows, kind and config
"$K" report --out "$D" >"$tmp/out" 2>"$tmp/err" || fail "report exited $?: $(cat "$tmp/err")"
grep -qx '\*\*usb-iso\*\*' "$tmp/out" || fail "the report: $(cat "$tmp/out")"
grep -qxF '| config | metric | real (median) | range | runs | wbsim | wbsim/real |' "$tmp/out" || fail "the report's header: $(cat "$tmp/out")"
grep -qxF '| patched ratio-max | write_return_s | 0.488 | - | 1 | - | - |' "$tmp/out" || fail "the report's row: $(cat "$tmp/out")"
grep -qxF '| patched per-file | write_return_s | n/a | - | 0 | n/a | n/a |' "$tmp/out" || fail "the report's n/a: $(cat "$tmp/out")"
[ "$(grep -c '^\*\*' "$tmp/out")" = 4 ] || fail "want 4 tables: $(cat "$tmp/out")"
# one kind: the config alone
sed -i '/^stock/d' "$D/results.tsv"
"$K" report --out "$D" >"$tmp/out" 2>/dev/null || fail "the report of one kind failed"
grep -qxF '| ratio-max | write_return_s | 0.488 | - | 1 | - | - |' "$tmp/out" || fail "one kind's row: $(cat "$tmp/out")"

# usage
"$K" scenarios nope >/dev/null 2>&1; [ $? = 64 ] || fail "an unknown kind is not a usage error"
"$K" predict --quick >/dev/null 2>&1; [ $? = 64 ] || fail "--quick on predict is not a usage error"
"$K" predict --runs 3 >/dev/null 2>&1; [ $? = 64 ] || fail "--runs on predict is not a usage error"
"$K" scenarios --runs 0 >/dev/null 2>"$tmp/err" && fail "--runs 0 passed"
grep -q -- "--runs 0: a count of boots" "$tmp/err" || fail "--runs 0: $(cat "$tmp/err")"
"$K" scenarios --family nope >/dev/null 2>"$tmp/err" && fail "--family nope passed"
grep -q -- "--family nope: one of base fs memcg" "$tmp/err" || fail "--family nope: $(cat "$tmp/err")"
"$K" build --arch arm >/dev/null 2>"$tmp/err" && fail "--arch arm passed"
grep -q -- "--arch arm: x86_64 or i386" "$tmp/err" || fail "--arch arm: $(cat "$tmp/err")"
"$K" boot --arch i386 >/dev/null 2>&1; [ $? = 64 ] || fail "--arch on boot is not a usage error"
"$K" report --out "$tmp/none" >/dev/null 2>"$tmp/err" && fail "a report of nothing passed"
grep -q "no results there" "$tmp/err" || fail "the report of nothing: $(cat "$tmp/err")"
if command -v shellcheck >/dev/null; then
	shellcheck -x -S warning "$K" bench/lib/guest.sh >"$tmp/sc" 2>&1 || fail "shellcheck: $(cat "$tmp/sc")"
fi
exit 0
