#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One spelling of every word that names a state, in every output, for the
# same devices at the same moment: wbgovd over the fixture tree on a
# private bus (as nobody when the test runs as root), with the stick's
# figure remembered, the NVMe disk's stat counters moving with nothing
# queued (a lower bound) and the SATA disks left alone by a section. For
# every device, the bandwidth source that `wbgov status --json` gives
# (null: none), the one the metrics mark 1 (no sample: none) and D-Bus's
# BandwidthSource are the same word; D-Bus's State is one of the words
# wbgovd(8) lists. The table below says which device must show which
# word, so that each one is seen at least once.
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

# DISK SOURCE STATE: what each device must show ("-": any word of the set)
cat >"$tmp/want" <<'T'
sdb remembered capped
nvme0n1 lower_bound -
sda none left_alone
vda none -
T

cli_fixture "$FX"
printf '[device sata]\nbus = ata\nmode = off\n' >"$CONF"
for b in 8:16 259:0; do
	mkdir -p "$FX/sys/kernel/debug/bdi/$b"
	printf 'BdiWriteback:            0 kB\nBdiReclaimable:          0 kB\nBdiDirtyThresh:     123456 kB\n' \
		>"$FX/sys/kernel/debug/bdi/$b/stats"
done
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
mkdir "$tmp/mem"
echo "v1 5000000 m $(date +%s) $STICK" >"$MEM"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
Gd=$(cd "$(dirname "$G")" && pwd)/${G##*/}
PID=
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
wbgovd_start --root "$FX" --state-dir "$ST" --memory "$MEM" -c "$CONF" --bus "${A%%,guid=*}"
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"

# the NVMe disk completes 20 MB/s with nothing in flight nor queued: at
# least that fast, never seen with a backlog of its own
python3 - "$FX" <<'PY' || fail "the counters' feeder failed"
import os, sys, time
fx = sys.argv[1]
p = "%s/sys/block/nvme0n1/stat" % fx
base = [int(x) for x in open(p).read().split()]
t0 = time.monotonic()
while time.monotonic() - t0 < 2.5:
    el = time.monotonic() - t0
    v = list(base)
    v[4] += int(el * 1000)
    v[6] += int(el * 20000000 / 512)
    v[8] = 0
    v[9] += int(el * 100)
    with open(p + ".new", "w") as f:
        f.write(" ".join("%d" % x for x in v) + "\n")
    os.rename(p + ".new", p)
    with open(fx + "/proc/vmstat", "w") as f:
        f.write("nr_dirty 16384\nnr_writeback 0\nnr_dirtied %d\nnr_written 1000\n" % (1000 + int(el * 10000)))
    time.sleep(0.002)
PY
wait_for 5 grep -q "^bdi=259:0 bw=[1-9]" "$ST/status" || fail "the NVMe disk not measured: $(grep 259:0 "$ST/status")"

# the three outputs, one after the other
$AS "$Gd" --root "$FX" --state-dir "$ST" status --json >"$tmp/json" || fail "status --json exited $?"
$AS "$Gd" --root "$FX" --state-dir "$ST" status --prometheus >"$tmp/prom" || fail "status --prometheus exited $?"
: >"$tmp/bus"
# (the disks: a share, with no disk, has its bdi's object, which this
# spelling of a name does not give)
for disk in $(python3 -c 'import json, sys; print(" ".join(sorted({d["disk"] for d in json.load(open(sys.argv[1]))["devices"] if d["kind"] == "disk"})))' "$tmp/json"); do
	obj=/io/github/wbgov/Governor1/device/$(echo "$disk" | sed 's/[^A-Za-z0-9]/_/g')
	src=$(busctl --address="$A" get-property io.github.wbgov.Governor1 "$obj" io.github.wbgov.Governor1.Device BandwidthSource) ||
		fail "Get $disk BandwidthSource failed"
	st=$(busctl --address="$A" get-property io.github.wbgov.Governor1 "$obj" io.github.wbgov.Governor1.Device State) ||
		fail "Get $disk State failed"
	echo "$disk $src $st" >>"$tmp/bus"
done
wbgovd_stop

python3 - "$tmp/json" "$tmp/prom" "$tmp/bus" "$tmp/want" <<'PY' || fail "see above"
import json, re, sys
SOURCES = {"none", "lower_bound", "measured", "remembered"}
STATES = {"capped", "uncapped", "left_alone", "error", "deciding"}
# JSON: the disk's own bdi (not its btrfs or fuseblk ones, which D-Bus
# names by the bdi)
doc = json.load(open(sys.argv[1], encoding="utf-8"))
js = {d["disk"]: d["bandwidth_source"] or "none" for d in doc["devices"] if d["bdi"][0].isdigit()
      and not d["bdi"].endswith("fuseblk") and d["kind"] == "disk"}
prom = {}
for l in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r'wbgov_device_bandwidth_source\{bdi="([^"]*)",device="([^"]*)",source="([^"]*)"\} (\d)', l)
    if m and m.group(1)[0].isdigit() and not m.group(1).endswith("fuseblk") and m.group(2):
        prom.setdefault(m.group(2), set())
        if m.group(4) == "1":
            prom[m.group(2)].add(m.group(3))
bus = {}
for l in open(sys.argv[3], encoding="utf-8"):
    disk, _, src, _, st = l.split()
    bus[disk] = (src.strip('"'), st.strip('"'))
bad = []
for disk, j in sorted(js.items()):
    p = prom.get(disk, set())
    p = p.pop() if len(p) == 1 else "none" if not p else "several: %s" % sorted(p)
    b, st = bus.get(disk, ("(no object)", "(no object)"))
    if not (j == p == b) or j not in SOURCES:
        bad.append("%s: source JSON %s, Prometheus %s, D-Bus %s" % (disk, j, p, b))
    if st not in STATES:
        bad.append("%s: D-Bus State %s, not one of %s" % (disk, st, sorted(STATES)))
for l in open(sys.argv[4]):
    disk, src, st = l.split()
    got = (js.get(disk), bus.get(disk, (None, None))[1])
    if got[0] != src or (st != "-" and got[1] != st):
        bad.append("%s: source %s, State %s; want %s, %s" % (disk, got[0], got[1], src, st))
if bad:
    sys.exit("\n".join(bad))
print("enum_spelling.sh: %d devices, sources %s" % (len(js), sorted(set(js.values()))))
PY
echo "$me: ok"
