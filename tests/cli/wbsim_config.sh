#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbsim --config: wbgov.conf's [global] keys and [device] sections reach the
# simulated wbgov policy, matched against the scenario's devices as wbgovd
# matches real ones: the stick left alone (mode = off) stalls its sync as
# under the kernel's defaults; a fixed 64 MiB cap holds 64 MiB; a section
# matching no device changes nothing; --param comes after the file.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

# row FILE: usb-iso under wbgov with --config FILE (and more args): "sync_s peak_MiB"
row() {
	f=$1
	shift
	"$W" run usb-iso --policy wbgov --config "$f" "$@" --format csv >"$tmp/out" ||
		fail "wbsim run --config $f exited $?"
	awk -F, '$2 == "wbgov" { print $5, $6 }' "$tmp/out"
}
printf '[global]\ntarget = 1s\n' >"$tmp/plain.conf"
printf '[device stick]\nmodel = Cruzer Blade\nmode = off\n' >"$tmp/off.conf"
printf '[device stick]\nbus = usb\nmode = fixed\nmax_bytes = 64M\n' >"$tmp/fixed.conf"
printf '[device other]\nbus = nvme\nmode = off\n' >"$tmp/other.conf"

set -- $(row "$tmp/plain.conf")
awk -v s="$1" 'BEGIN { exit !(s < 1.5) }' || fail "plain config: sync $1 s, want < 1.5"
plain="$1 $2"
set -- $(row "$tmp/off.conf")
awk -v s="$1" 'BEGIN { exit !(s > 100) }' || fail "the stick left alone: sync $1 s, want the defaults' stall"
set -- $(row "$tmp/fixed.conf")
awk -v p="$2" 'BEGIN { exit !(p > 56 && p <= 66) }' || fail "a fixed 64M cap: peak $2 MiB"
[ "$(row "$tmp/other.conf")" = "$plain" ] || fail "a section for no device of the scenario changed the run"
# --param after the file: a target of 4 s holds four times as much
set -- $(row "$tmp/plain.conf" --param target=4s)
awk -v p="$2" -v q="${plain#* }" 'BEGIN { exit !(p > 3 * q) }' ||
	fail "--param target=4s after --config: peak $2 MiB against ${plain#* }"
exit 0
