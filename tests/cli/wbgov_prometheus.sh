#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov status --prometheus over the fixture tree (tests/unit/test_sys.c's,
# written out with WBGOV_FIXTURE_OUT), checked by Prometheus's reference
# parser (tests/lib/prom_check.py): the values are the fixture's knobs,
# debugfs counters and wbgovd's record; a model with a quote, a backslash,
# a newline and a byte that is not UTF-8 comes out escaped and whole; a
# share's device label is its name (no label is empty); the
# record is shown only while wbgovd runs, and an older wbgovd's status
# line (no decisions) still reads; --prometheus is refused with --json and
# on other commands.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
CHECK=$(dirname "$0")/../lib/prom_check.py
FX=$tmp/fx
cli_fixture "$FX"
G() { "$W" --root "$FX" --state-dir "$tmp/st" "$@"; }
prom() { # prom OUT: status --prometheus, parsed, samples in OUT
	G status --prometheus >"$tmp/raw" || fail "status --prometheus exited $?"
	$PY "$CHECK" "$tmp/raw" >"$1" || fail "status --prometheus does not parse: $(head -n 20 "$tmp/raw")"
}
has() { # has FILE LINE: the sample line is in FILE
	grep -qxF "$2" "$1" || fail "no sample $2 in: $(grep -F "${2%%\{*}" "$1" | head -n 5)"
}

# the fixture, made to tell more: sdb capped (4 MiB, strict), its bdi's
# own dirty and writeback readable (debugfs: 3 MiB + 1 MiB), sdc's model
# written to need every escape
BDI=$FX/sys/devices/virtual/bdi
echo 1 >"$BDI/8:16/strict_limit"
echo 4194304 >"$BDI/8:16/max_bytes"
mkdir -p "$FX/sys/kernel/debug/bdi/8:16"
printf 'BdiWriteback:             1024 kB\nBdiReclaimable:           3072 kB\nBdiDirtyThresh:           4096 kB\n' \
	>"$FX/sys/kernel/debug/bdi/8:16/stats"
printf 'Evil "q" back\\slash\nline2\n' \
	>"$FX/sys/devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/model"

# --- no wbgovd: the kernel's side only, the daemon down
prom "$tmp/p0"
has "$tmp/p0" 'wbgov_daemon_up{} 0.0'
has "$tmp/p0" 'wbgov_device_strict_limit{bdi="8:16",device="sdb"} 1.0'
has "$tmp/p0" 'wbgov_device_dirty_limit_bytes{bdi="8:16",device="sdb"} 4194304.0'
has "$tmp/p0" 'wbgov_device_pending_bytes{bdi="8:16",device="sdb"} 4194304.0'
# no cap of its own: strict_limit 0, and no limit sample
has "$tmp/p0" 'wbgov_device_strict_limit{bdi="8:32",device="sdc"} 0.0'
grep -q 'wbgov_device_dirty_limit_bytes{bdi="8:32"' "$tmp/p0" && fail "a limit for sdc, which has none"
has "$tmp/p0" 'wbgov_device_info{bdi="8:16",device="sdb",model="SanDisk Cruzer '"$(printf '\357\277\275')"' Blade",bus="usb"} 1.0'
has "$tmp/p0" 'wbgov_device_info{bdi="8:32",device="sdc",model="ATA Evil "q" back\slash\nline2",bus="ata"} 1.0'
# a share: no disk, its name (as status shows it) for device
has "$tmp/p0" 'wbgov_device_info{bdi="0:53",device="nas.local:/export",model="nas.local:/export",bus="nfs4"} 1.0'
has "$tmp/p0" 'wbgov_device_info{bdi="cifs-3",device="//fileserver/public",model="//fileserver/public",bus="cifs"} 1.0'
has "$tmp/p0" 'wbgov_device_strict_limit{bdi="0:56",device="user@host:/home/user"} 1.0'
grep -q 'device=""' "$tmp/p0" && fail "a device with an empty device label: $(grep 'device=""' "$tmp/p0" | head -n 3)"
grep -qF 'model="ATA Evil \"q\" back\\slash\nline2"' "$tmp/raw" || fail "the model is not escaped as the format says: $(grep sdc "$tmp/raw" | head -n 1)"
for f in write_bandwidth_bytes_per_second drain_seconds decisions_total bandwidth_source; do
	grep -q "^wbgov_device_$f" "$tmp/p0" && fail "wbgov_device_$f without a running wbgovd"
done
# one info sample per bdi the fixture has
[ "$(grep -c '^wbgov_device_info{' "$tmp/p0")" = "$(G status --json | $PY -c 'import json, sys; print(len(json.load(sys.stdin)["devices"]))')" ] ||
	fail "not one wbgov_device_info per device"

# --- a running wbgovd (a process of that name holding the pid file) and
# its record: sdb measured at 5 MB/s, 7 decisions; sdc a line from a
# wbgovd before the decisions field, with a failed write
mkdir -p "$tmp/st"
cat >"$tmp/st/status" <<'EOF'
bdi=8:16 bw=5000000 measures=3 why=0 max_bytes=4194304 strict=1 err=0 source=2 decisions=7
bdi=8:32 bw=200000000 measures=1 why=0 max_bytes=0 strict=0 err=-22 source=1
EOF
cp "$(command -v sleep)" "$tmp/wbgovd"
"$tmp/wbgovd" 30 &
LOCKER=$!
echo $LOCKER >"$tmp/st/wbgovd.pid"
trap 'kill $LOCKER 2>/dev/null || true; rm -rf "$tmp"' EXIT
prom "$tmp/p1"
kill $LOCKER
wait $LOCKER 2>/dev/null || true
has "$tmp/p1" 'wbgov_daemon_up{} 1.0'
has "$tmp/p1" 'wbgov_device_write_bandwidth_bytes_per_second{bdi="8:16",device="sdb"} 5000000.0'
has "$tmp/p1" 'wbgov_device_bandwidth_source{bdi="8:16",device="sdb",source="measured"} 1.0'
has "$tmp/p1" 'wbgov_device_bandwidth_source{bdi="8:16",device="sdb",source="lower_bound"} 0.0'
has "$tmp/p1" 'wbgov_device_bandwidth_source{bdi="8:32",device="sdc",source="lower_bound"} 1.0'
# 4 MiB pending at 5 MB/s
has "$tmp/p1" 'wbgov_device_drain_seconds{bdi="8:16",device="sdb"} 0.839'
has "$tmp/p1" 'wbgov_device_decisions_total{bdi="8:16",device="sdb"} 7.0'
has "$tmp/p1" 'wbgov_device_measurement_windows_total{bdi="8:16",device="sdb"} 3.0'
has "$tmp/p1" 'wbgov_device_write_error{bdi="8:16",device="sdb"} 0.0'
has "$tmp/p1" 'wbgov_device_write_error{bdi="8:32",device="sdc"} 1.0'
# the older line reads: its bandwidth, but no decisions it never counted
has "$tmp/p1" 'wbgov_device_write_bandwidth_bytes_per_second{bdi="8:32",device="sdc"} 200000000.0'
grep -q 'wbgov_device_decisions_total{bdi="8:32"' "$tmp/p1" && fail "decisions for a status line without them"
grep -q '^# TYPE wbgov_device_decisions_total counter$' "$tmp/raw" || fail "decisions_total is not a counter"
# the status table and JSON read the same file as before
G status --json | grep -q '"bandwidth_bps"' || fail "status --json broke"

# --- usage
rc=0; G status --json --prometheus 2>"$tmp/err" || rc=$?
[ $rc = 64 ] && grep -q "not both" "$tmp/err" || fail "--json --prometheus: exit $rc: $(cat "$tmp/err")"
rc=0; G explain --prometheus sdb 2>"$tmp/err" || rc=$?
[ $rc = 64 ] && grep -q "\-\-prometheus is not an option of explain" "$tmp/err" || fail "explain --prometheus: exit $rc: $(cat "$tmp/err")"
G status --help | grep -q "status \[--json|--prometheus\]" || fail "status --help does not name --prometheus"
echo "$me: ok"
