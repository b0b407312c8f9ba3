#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/zoo without a guest: bad arguments are refused in one line before
# anything is installed or booted; bench/zoo-report on fixture results:
# the medians, the goals under --check (a goal missed fails it, with the
# "tests:" line), the devices table from the facts, and wbsim's scenario
# of a case from the guest's memory facts (a stand-in wbsim answers).
. tests/lib/cli.sh
B=$(pwd)/bench
for a in "--cases usb:2:ext9" "--cases floppy:2:ext4" "--cases usb:fast:ext4" "--kernels 5.10" \
	"--configs tuned" "--reps 0" "--bogus"; do
	rc=0
	# shellcheck disable=SC2086
	bash "$B/zoo" $a >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "bench/zoo $a was accepted"
	grep -q "^bench/zoo: \|^usage\|bench/zoo:" "$tmp/out" || fail "bench/zoo $a: $(cat "$tmp/out")"
	[ ! -d bench/out ] || [ -z "$(find bench/out -maxdepth 1 -name 'zoo-*' -newer "$tmp/out" 2>/dev/null)" ] ||
		fail "bench/zoo $a made a results directory"
done
D=$tmp/res
mkdir -p "$D"
T=$(printf '\t')
# two repetitions of the stick under wbgovd (median sync 0.8 s, 1.02 x
# size/speed, 0.966 x the device's time for the 11.55 MiB it was given),
# a card whose sync is 1.5 s (a goal missed), a fast stick at 0.97 x the
# defaults' pace (missed), an error run that reached sync as EIO, and a
# replugged stick capped 0.2 s after it came back; a 0.5 MB/s stick whose
# defaults' sync (21 s) outlasts its nominal time for what it was given
# (16.9 s): that is the reference (0.981, not 1.217)
cat >"$D/results.tsv" <<EOF
6.12${T}usb:2:ext4${T}defaults${T}1${T}0.20 5.90 1.050 11000 20.0 - ok - -
6.12${T}usb:2:ext4${T}wbgovd${T}1${T}5.00 0.70 1.010 4000 20.0 0.10 ok - - 11.50
6.12${T}usb:2:ext4${T}wbgovd${T}2${T}5.10 0.90 1.030 4000 20.0 0.12 ok - - 11.60
6.12${T}sd:2:ext4${T}wbgovd${T}1${T}5.00 1.50 1.020 4000 20.0 0.10 ok - -
6.12${T}usb:0.5:ext4${T}defaults${T}1${T}0.20 21.00 1.250 8000 20.0 - ok - - 8.07
6.12${T}usb:0.5:ext4${T}wbgovd${T}1${T}20.00 0.60 1.220 4000 20.0 0.10 ok - - 8.07
6.12${T}usb:40:ext4${T}defaults${T}1${T}5.80 0.20 1.000 4000 20.0 - ok - -
6.12${T}usb:40:ext4${T}wbgovd${T}1${T}6.00 0.19 1.020 4000 20.0 0.10 ok - -
6.12${T}usb:error:ext4${T}wbgovd${T}1${T}1.00 0.50 - 4000 20.0 0.10 ok,sync:Input/output_error - -
6.12${T}usb:remove:ext4${T}wbgovd${T}1${T}1.00 0.50 - 4000 20.0 0.10 ok 0.40 0.20
EOF
cat >"$D/facts.tsv" <<EOF
6.12${T}usb:2:ext4${T}disk sda 8:0
6.12${T}usb:2:ext4${T}bus usb
6.12${T}usb:2:ext4${T}log <6>vda bdi 254:0 (unknown model, virtio): not measured yet -> max_bytes 4.0 MiB, strict (the side disk)
6.12${T}usb:2:ext4${T}removable 1
6.12${T}usb:2:ext4${T}rotational 1
6.12${T}usb:2:ext4${T}model QEMU HARDDISK
6.12${T}usb:2:ext4${T}request_kib 1024 (hw 1024)
6.12${T}usb:2:ext4${T}nr_requests 2
6.12${T}usb:2:ext4${T}cpus 2
6.12${T}usb:2:ext4${T}wbgov-facts model "QEMU QEMU HARDDISK", serial "ZOO0001", bus usb
6.12${T}usb:2:ext4${T}log <6>sda bdi 8:0 (QEMU QEMU HARDDISK, usb): 2.0 MB/s -> max_bytes 1.7 MiB, strict (measured)
6.12${T}usb:2:ext4${T}memory v1 1 m 2 serial:QEMU_QEMU_HARDDISK:ZOO0001
EOF
printf 'zoo-meminfo MemTotal:        2012116 kB\nzoo-meminfo MemFree:         1900000 kB\nzoo-zoneinfo Node 0, zone   Normal\nzoo-zoneinfo         high     1000\nzoo-zoneinfo         present  500000\n' \
	>"$D/guest-6.12-usb-2-ext4-defaults-1.log"
cat >"$tmp/wbsim" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/calls"
cp "\$2" "$tmp/scenario"
echo "scenario,config,write_return_s,sync_after_s"
echo "x,y,5.10,0.75"
EOF
chmod +x "$tmp/wbsim"
rc=0
WBSIM=$tmp/wbsim bash "$B/zoo-report" "$D" --check=yes >"$tmp/rep" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "zoo-report --check exited $rc with goals missed: $(cat "$tmp/rep")"
[ "$(tail -n 1 "$tmp/rep")" = "tests: 10 passed, 2 failed" ] || fail "zoo-report: $(tail -n 12 "$tmp/rep")"
grep -q "^ok: 6.12 usb:2:ext4: sync after the copy <= 1.0 s (0.80)" "$tmp/rep" || fail "median sync: $(grep usb:2 "$tmp/rep")"
grep -q "^FAIL: 6.12 sd:2:ext4: sync after the copy <= 1.0 s (1.50)" "$tmp/rep" || fail "the card's sync not failed"
grep -q "^FAIL: 6.12 usb:40:ext4: a fast device at >= 0.98 x the defaults (0.969)" "$tmp/rep" || fail "the fast stick not failed"
grep -q "^ok: 6.12 usb:error:ext4: a write error reached dd or sync as EIO" "$tmp/rep" || fail "EIO not seen"
grep -q "^ok: 6.12 usb:remove:ext4: the replugged stick capped within 1 s" "$tmp/rep" || fail "replug"
grep -q "^ok: 6.12 usb:2:ext4: dd + sync <= 1.03 x the device time of all it was given (0.966; x size/speed 1.020)" "$tmp/rep" ||
	fail "x device: $(grep 'usb:2:ext4: dd' "$tmp/rep")"
grep -q "^ok: 6.12 sd:2:ext4: dd + sync <= 1.03 x ideal (1.020)" "$tmp/rep" || fail "x ideal where the device's count is missing"
grep -q "^ok: 6.12 usb:0.5:ext4: dd + sync <= 1.03 x the device time of all it was given (0.981; x size/speed 1.220)" "$tmp/rep" ||
	fail "the defaults' sync as the reference: $(grep 'usb:0.5:ext4: dd' "$tmp/rep")"
grep -q "^| 6.12 | usb:2:ext4 | wbgovd | 2 | 5.05 | 0.80 | 1.020 | 0.966 | 5.10 | 0.75 |" "$tmp/rep" ||
	fail "the runs' table: $(grep 'usb:2:ext4 | wbgovd' "$tmp/rep")"
grep -q "^| 6.12 | usb (usb:2:ext4) | usb, removable 1, rotational 1, QEMU HARDDISK | .* | 1024 (hw 1024) KiB x 2 | 2.0 MB/s -> max_bytes 1.7 MiB | serial:QEMU_QEMU_HARDDISK:ZOO0001 |" "$tmp/rep" ||
	fail "the devices' table: $(grep 'usb (usb' "$tmp/rep")"
grep -q "^bandwidth = 2MB/s" "$tmp/scenario" && grep -q "^queue = 2048K" "$tmp/scenario" &&
	grep -q "^mem = 2012116K" "$tmp/scenario" || fail "wbsim's scenario: $(cat "$tmp/scenario")"
grep -q -- "--policy wbgov" "$tmp/calls" || fail "wbsim not run for wbgovd: $(cat "$tmp/calls")"
cmp -s "$D/devices.md" docs/devices.md 2>/dev/null && fail "a partial run wrote docs/devices.md"
echo "bench_zoo.sh: ok"
