#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/series-sim: wbsim's predictions for the kernel series' knobs on the
# seeds' desktop. Every scenario has a row per configuration, the knobs
# reach the simulated kernel (max_time_ms ends usb-iso's stall, the
# defaults keep it), and a USB-only max_time_ms leaves the NVMe beside the
# stick its speed.
set -eu
cd "$(dirname "$0")/../.."
me=$(basename "$0")
fail() { echo "$me: FAIL: $*" >&2; exit 1; }
out=$(bench/series-sim) || fail "bench/series-sim failed"
echo "$out" | head -n 1 | grep -q '^scenario,config,write_return_s,sync_after_s,' || fail "no header: $(echo "$out" | head -n 1)"
rows=$(echo "$out" | awk -F, 'NR > 1 && $1 == "usb-iso"' | wc -l)
[ "$rows" = 6 ] || fail "usb-iso has $rows rows, not 6"
col() { echo "$out" | awk -F, -v s="$1" -v c="$2" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next } $1 == s && $2 == c { print $n[k] }'; }
awk -v d="$(col usb-iso defaults sync_after_s)" -v t="$(col usb-iso time-1s sync_after_s)" 'BEGIN { exit !(d > 100 && t < 5) }' ||
	fail "usb-iso sync: defaults $(col usb-iso defaults sync_after_s) s, time-1s $(col usb-iso time-1s sync_after_s) s"
awk -v a="$(col fast-beside-stick time-1s fast_write_mbps)" -v u="$(col fast-beside-stick time-1s-usb fast_write_mbps)" 'BEGIN { exit !(u > 1.5 * a) }' ||
	fail "fast-beside-stick NVMe: time-1s $(col fast-beside-stick time-1s fast_write_mbps) MB/s, time-1s-usb $(col fast-beside-stick time-1s-usb fast_write_mbps)"
bench/series-sim --format nonsense >/dev/null 2>&1 && fail "a bad --format was taken"
echo "$me: ok"
