#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# [device] targets, each device by its own, on every path that reads one,
# over the fixture tree (run as nobody when the test runs as root): the
# stick's section says 3 s, the NVMe disk's 0.5 s, the global target stays
# at its 1 s. Device memory keeps what the rule made of each figure (with a
# 16 MiB ceiling, so that the windows are slow and long enough for a
# loaded machine's scheduling to change them little): the stick at least
# 10 MB/s is a fast one (30 MB in 3 s, past the ceiling: "f"), the NVMe
# disk at least 20 MB/s is not (10 MB in 0.5 s), but above its start cap
# ("l"); by the global 1 s it would be the other way round. With figures
# remembered (60 and 400 MB/s, measured) and the default ceiling, the caps
# are 3 s and 0.5 s of them less the sync slack, in the status file, on
# D-Bus (CapBytes, State, Why: by the global target the NVMe disk would be
# a fast one, let go) and in wbgov explain, from wbgovd's record and as a
# what-if from a bandwidth alone.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
FX=$tmp/fx
ST=$tmp/st
CONF=$tmp/wbgov.conf
LOG=$tmp/log
MEM=$tmp/mem/devices
G=${W%/*}/wbgov
STICK=serial:SanDisk_Cruzer___Blade:4C530001190823115393
NVME=serial:Samsung_SSD_980_PRO_1TB:S5GXNX0T123456A
cli_fixture "$FX"
printf '[device stick]\nserial = 4C53*\ntarget = 3s\n\n[device nvme]\nbus = nvme\ntarget = 0.5s\n' >"$CONF"
{ printf '[global]\nceiling = 16M\n\n'; cat "$CONF"; } >"$tmp/ceiling.conf"
# each bdi's own counters in debugfs: nothing queued, so that what they
# complete is a lower bound of their speed
for b in 8:16 259:0; do
	mkdir -p "$FX/sys/kernel/debug/bdi/$b"
	printf 'BdiWriteback:            0 kB\nBdiReclaimable:          0 kB\nBdiDirtyThresh:     123456 kB\n' \
		>"$FX/sys/kernel/debug/bdi/$b/stats"
done
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
mkdir "$tmp/mem"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID= LOCKER=
trap 'for p in $PID $LOCKER; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
start() { # CONFIG ARG...: wbgovd started, its status file written
	c=$1
	shift
	wbgovd_start --root "$FX" --state-dir "$ST" --memory "$MEM" -c "$c" "$@"
}
stop() { wbgovd_stop; }

# --- device memory: what the rule made of each figure. The disks' stat
# counters grow by the wall clock (whatever the pace of the loop that
# writes them), nothing in flight, while the system dirties in bulk
cat >"$tmp/feed.py" <<'PY'
import os, sys, time
fx, secs = sys.argv[1], float(sys.argv[2])
devs = [a.split("=") for a in sys.argv[3:]]  # DISK=BYTES_PER_S
base = {d: [int(x) for x in open("%s/sys/block/%s/stat" % (fx, d)).read().split()] for d, _ in devs}
t0 = time.monotonic()
while True:
    el = time.monotonic() - t0
    for d, bps in devs:
        v = list(base[d])
        v[4] += int(el * 1000)             # writes completed
        v[6] += int(el * int(bps) / 512)   # sectors written
        v[8] = 0                           # in flight
        v[9] += int(el * 100)              # io_ticks: busy a tenth of the time
        p = "%s/sys/block/%s/stat" % (fx, d)
        with open(p + ".new", "w") as f:
            f.write(" ".join("%d" % x for x in v) + "\n")
        os.rename(p + ".new", p)
    with open(fx + "/proc/vmstat", "w") as f:  # in place: wbgovd keeps it open
        f.write("nr_dirty 16384\nnr_writeback 0\nnr_dirtied %d\nnr_written 1000\n" % (1000 + int(el * 10000)))
    if el >= secs:
        break
    time.sleep(0.002)
PY
start "$tmp/ceiling.conf" --bus none -v
python3 "$tmp/feed.py" "$FX" 2.5 sdb=10000000 nvme0n1=20000000 || fail "the counters' feeder failed"
stop
grep -q "^v1 [0-9]* f [0-9]* $STICK$" "$MEM" ||
	fail "the stick (3 s) not kept as a fast one: $(cat "$MEM"; grep -a '8:16: .*window' "$LOG" | tail -n 3)"
grep -q "^v1 [0-9]* l [0-9]* $NVME$" "$MEM" ||
	fail "the NVMe disk (0.5 s) not kept as a lower bound: $(cat "$MEM"; grep -a '259:0: ' "$LOG" | head -n 30)"

# --- figures remembered: the caps by each device's target
now=$(date +%s)
printf 'v1 60000000 m %s %s\nv1 400000000 m %s %s\n' "$now" "$STICK" "$now" "$NVME" >"$MEM"
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
STICK_CAP=$((60000000 * 3 - 262144))
NVME_CAP=$((400000000 / 2 - 262144))
MEASURED="measured bandwidth x target, less 256 KiB of sync slack"
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
start "$CONF" --bus "${A%%,guid=*}"
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
grep -q "^bdi=8:16 bw=60000000 .*max_bytes=$STICK_CAP strict=1" "$ST/status" || fail "status of 8:16: $(grep 8:16 "$ST/status")"
grep -q "^bdi=259:0 bw=400000000 .*max_bytes=$NVME_CAP strict=1" "$ST/status" || fail "status of 259:0: $(grep 259:0 "$ST/status")"
prop() { # DISK PROPERTY EXPECTED
	got=$(busctl --address="$A" get-property io.github.wbgov.Governor1 "/io/github/wbgov/Governor1/device/$1" \
		io.github.wbgov.Governor1.Device "$2") || fail "Get $1 $2 failed"
	[ "$got" = "$3" ] || fail "$1 $2: got $got, want $3"
}
for d in sdb nvme0n1; do
	prop $d State 's "capped"'
	prop $d Why "s \"$MEASURED\""
done
prop sdb CapBytes "t $STICK_CAP"
prop nvme0n1 CapBytes "t $NVME_CAP"

# wbgov explain: wbgovd's record, with the section that matched
Gd=$(cd "$(dirname "$G")" && pwd)/${G##*/}
explain() { $AS "$Gd" --root "$FX" --state-dir "$ST" -c "$CONF" explain "$@"; }
explain sdb >"$tmp/ex" || fail "explain sdb exited $?"
grep -q "^  config:      \[device stick\] at $CONF:1 matches$" "$tmp/ex" || fail "explain sdb: $(cat "$tmp/ex")"
grep -q "^  limit:       strict_limit 1, max_bytes $STICK_CAP " "$tmp/ex" || fail "explain sdb: $(cat "$tmp/ex")"
explain nvme0n1 >"$tmp/ex" || fail "explain nvme0n1 exited $?"
grep -q "^  config:      \[device nvme\] at $CONF:5 matches$" "$tmp/ex" || fail "explain nvme0n1: $(cat "$tmp/ex")"
grep -q "^  rule:        $MEASURED$" "$tmp/ex" || fail "explain nvme0n1: $(cat "$tmp/ex")"
grep -q "^  limit:       strict_limit 1, max_bytes $NVME_CAP " "$tmp/ex" || fail "explain nvme0n1: $(cat "$tmp/ex")"
stop

# wbgov explain's what-if, from a bandwidth wbgovd measured but had not
# decided on yet (a running wbgovd: its pid file names a live process
# called wbgovd)
cp "$(command -v sleep)" "$tmp/wbgovd"
"$tmp/wbgovd" 30 &
LOCKER=$!
echo $LOCKER >"$ST/wbgovd.pid"
printf 'bdi=8:16 bw=60000000 measures=3 why=-1 max_bytes=0 strict=0 err=0 source=2\nbdi=259:0 bw=400000000 measures=3 why=-1 max_bytes=0 strict=0 err=0 source=2\n' >"$ST/status"
# (until the shell's child has become the process called wbgovd)
running() { $AS "$Gd" --root "$FX" --state-dir "$ST" status --json | grep -q '"wbgovd_running": true'; }
wait_for 5 running || fail "the pid file's wbgovd is not seen running"
for d in sdb:$STICK_CAP nvme0n1:$NVME_CAP; do
	explain --json "${d%:*}" >"$tmp/exj" || fail "explain --json ${d%:*} exited $?"
	python3 - "$tmp/exj" "${d#*:}" <<'PY' || fail "explain --json ${d%:*}: see above"
import json, sys
dev = json.load(open(sys.argv[1], encoding="utf-8"))["devices"][0]
want = {"decided_by": "what_if", "limit": "strict", "limit_bytes": int(sys.argv[2]),
        "rule": "measured bandwidth x target, less 256 KiB of sync slack"}
got = {k: dev[k] for k in want}
if got != want:
    sys.exit("explain --json %s: %r, want %r" % (dev["disk"], got, want))
PY
done
kill $LOCKER
wait $LOCKER 2>/dev/null || true
LOCKER=
echo "$me: ok"
