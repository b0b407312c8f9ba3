#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbsim's kernels after 6.18 (docs/kernel-notes.md, "After 6.18"): 7.0-rc1
# (64dd89ae01f2 removed laptop_mode and with it balance_dirty_pages()'s
# writeback start for a throttled writer) holds a strict-limited writer
# until the flusher's periodic wakeup: wbgov's capped copy takes several
# times as long, the udev rule's longer; 7.0 (cece9dc61daa put the start
# back) and 7.1 (0437906841d0 also starts a strictlimit wb above its own
# background threshold) copy as 6.18 does. A scenario file keeps its
# kernel through show; an unknown one is named with the known ones.
set -eu
PROG=wbsim
. "$(dirname "$0")/../lib/cli.sh"
trap 'rm -rf "$tmp"' EXIT
for k in 6.18 7.0-rc1 7.0 7.1; do
	sed "s/^bits = 64\$/bits = 64\nkernel = $k/; s/^bus = virtual\$/bus = usb\nremovable = yes/" \
		scenarios/cold-unknown.scenario >"$tmp/k$k.scenario"
	"$W" run "$tmp/k$k.scenario" --policy wbgov --policy udev-16m --format csv >"$tmp/$k.csv" 2>&1 ||
		fail "kernel $k: $(cat "$tmp/$k.csv")"
done
# col K POLICY: the write return (col 3) or the durable time (col 4)
col() { awk -F, -v p="$3" -v c="$2" '$2 == p { print $c }' "$tmp/$1.csv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
w618=$(col 6.18 3 wbgov) wrc=$(col 7.0-rc1 3 wbgov)
r=$(ratio "$wrc" "$w618")
awk -v r="$r" 'BEGIN { exit !(r >= 3) }' || fail "7.0-rc1's capped copy is not several times 6.18's: $wrc s against $w618 s"
echo "wbgov: 7.0-rc1 $wrc s, 6.18 $w618 s ($r x)"
u618=$(col 6.18 4 udev-16m) urc=$(col 7.0-rc1 4 udev-16m)
awk -v a="$urc" -v b="$u618" 'BEGIN { exit !(a > b * 1.1) }' || fail "7.0-rc1 does not slow the udev rule: $urc s against $u618 s"
echo "udev-16m: durable 7.0-rc1 $urc s, 6.18 $u618 s"
for k in 7.0 7.1; do
	for p in wbgov udev-16m; do
		a=$(col $k 4 $p) b=$(col 6.18 4 $p)
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(a <= b * 1.05 && a >= b * 0.95) }' ||
			fail "kernel $k, $p: durable $a s against 6.18's $b s"
	done
done
"$W" show "$tmp/k7.0-rc1.scenario" | grep -qx 'kernel = 7.0-rc1' || fail "show does not keep kernel = 7.0-rc1"
sed 's/^kernel = 7.0-rc1$/kernel = 7.2/' "$tmp/k7.0-rc1.scenario" >"$tmp/bad.scenario"
"$W" show "$tmp/bad.scenario" >"$tmp/out" 2>&1 && fail "kernel = 7.2 accepted"
grep -q 'kernel = "7.2": want 6.1, 6.12, 6.18, 7.0-rc1, 7.0, 7.1' "$tmp/out" || fail "the error: $(cat "$tmp/out")"
echo "wbsim_kernel_2026.sh: ok"
