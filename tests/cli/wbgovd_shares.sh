#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Network and FUSE shares over the fixture tree (tests/unit/test_sys.c's:
# NFS v4 and v3, CIFS, sshfs, a bare FUSE, 9p, a tmpfs at a bdi's number, a
# fuseblk), every share mounted under $tmp/dead, a server that stopped
# answering: tests/lib/hang.so fails (and writes down) any call that names
# a path there, where a hard NFS mount would never return. wbgov status
# and --json list the shares by name, kind "share", the tmpfs not at all and
# the fuseblk as the SD card's as before; wbgov explain finds one by its
# name. wbgovd measures a share by debugfs's BdiWritten (with BdiWriteback
# as its backlog: 2 MB/s measured, a cap of 1 s of it less the sync slack,
# written to its bdi; remembered by the share's identity) and the NFS v3
# share without debugfs by /proc/self/mountstats (1 MB/s, a lower bound:
# the start cap stays), the CIFS share without debugfs by /proc/fs/cifs/Stats
# (1.5 MB/s acknowledged by its server, a lower bound likewise); stops on
# SIGTERM with every knob back. Before
# Linux 6.2, a share remembered slow is not watched for writes (fanotify
# marks a path on it), while the stick is. Through it all nothing names a
# path on a share.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
G=$(cd "$(dirname "$W")" && pwd)/wbgov
wbgovd_fixture
CONF=$tmp/wbgov.conf
MEM=$tmp/mem/devices
DEAD=$tmp/dead
: >"$CONF"
mkdir -p "$tmp/mem" "$DEAD/nas"
# the shares and the loop device's backing file under $DEAD
sed -i "s| /mnt/| $DEAD/|; s| /home/user/| $DEAD/|" "$FX/proc/self/mountinfo"
sed -i "s| on /mnt/| on $DEAD/|" "$FX/proc/self/mountstats"
echo "$DEAD/nas/disk.img" >"$FX/sys/devices/virtual/block/loop0/loop/backing_file"
grep -q " $DEAD/nas " "$FX/proc/self/mountinfo" || fail "the fixture's NFS share is not at $DEAD/nas"
TOUCHED=$tmp/touched
: >"$TOUCHED"
# where wbgovd would look for the shares (the mount points, as mountinfo
# has them), and for a loop device's backing file (under its root prefix)
export WBGOV_TEST_DEAD="$DEAD:$FX$DEAD" WBGOV_TEST_DEAD_LOG="$TOUCHED"
untouched() { [ ! -s "$TOUCHED" ] || fail "$1 touched a share: $(sort -u "$TOUCHED" | head -n 5)"; }
# the hook itself: a stat there is caught
LD_PRELOAD=$HANG stat "$DEAD/nas" >/dev/null 2>&1 && fail "hang.so let a stat of $DEAD/nas through"
grep -q "$DEAD/nas" "$TOUCHED" || fail "hang.so did not write down a stat of $DEAD/nas"
: >"$TOUCHED"

# --- wbgov status, --json and explain
LD_PRELOAD=$HANG "$G" --root "$FX" --state-dir "$ST" status >"$tmp/text" || fail "status exited $?"
untouched "wbgov status"
for l in "0:53 *nas.local:/export *nfs4 .*$DEAD/nas" "0:54 *oldnas:/srv/data *nfs " \
	"cifs-3 *//fileserver/public *cifs " "0:56 *user@host:/home/user *fuse.sshfs " \
	"0:57 *myfs *fuse " "9p-1 *hostshare *9p "; do
	grep -q "^-  *$l" "$tmp/text" || fail "status: no share line $l: $(cat "$tmp/text")"
done
grep -q "^mmcblk0 *179:0-fuseblk .*/media/user/SDXC$" "$tmp/text" || fail "status: the fuseblk is not the SD card's: $(cat "$tmp/text")"
grep -q " 0:59 " "$tmp/text" && fail "status lists the tmpfs: $(grep 0:59 "$tmp/text")"
LD_PRELOAD=$HANG "$G" --root "$FX" --state-dir "$ST" status --json >"$tmp/json" || fail "status --json exited $?"
untouched "wbgov status --json"
python3 - "$tmp/json" "$DEAD" <<'PY' || fail "status --json: see above"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
dead = sys.argv[2]
by = {x["bdi"]: x for x in d["devices"]}
want = {"0:53": ("nas.local:/export", "nfs4", [dead + "/nas"]),
        "0:54": ("oldnas:/srv/data", "nfs", [dead + "/old"]),
        "cifs-3": ("//fileserver/public", "cifs", [dead + "/smb"]),
        "0:56": ("user@host:/home/user", "fuse.sshfs", [dead + "/remote"]),
        "0:57": ("myfs", "fuse", [dead + "/myfs"]),
        "9p-1": ("hostshare", "9p", [dead + "/9p"])}
for b, (model, bus, mounts) in want.items():
    x = by.get(b)
    if not x or (x["kind"], x["model"], x["bus"], x["mounts"], x["disk"]) != ("share", model, bus, mounts, ""):
        sys.exit("status --json: %s is %r" % (b, x))
if "0:59" in by:
    sys.exit("status --json lists the tmpfs")
f = by.get("179:0-fuseblk")
if not f or f["kind"] != "disk" or f["disk"] != "mmcblk0":
    sys.exit("status --json: the fuseblk is %r" % f)
if any(x["kind"] != "disk" for b, x in by.items() if b not in want):
    sys.exit("status --json: a disk not of kind disk")
PY
LD_PRELOAD=$HANG "$G" --root "$FX" --state-dir "$ST" explain nas.local:/export >"$tmp/ex" || fail "explain exited $?"
untouched "wbgov explain"
head -n 1 "$tmp/ex" | grep -qx "nas.local:/export (bdi 0:53)" || fail "explain: $(cat "$tmp/ex")"
LD_PRELOAD=$HANG "$G" --root "$FX" --state-dir "$ST" explain "$DEAD/remote" | head -n 1 |
	grep -qx "user@host:/home/user (bdi 0:56)" || fail "explain by a mount point"
untouched "wbgov explain of a mount point"

# --- wbgovd measures the shares: the NFS v4 one by debugfs (2 MB/s, 2 MiB
# under writeback all along: a backlog), the v3 one by mountstats (1 MB/s)
mkdir -p "$FX/sys/kernel/debug/bdi/0:53"
printf 'BdiWriteback:            0 kB\nBdiReclaimable:          0 kB\nBdiDirtyThresh:       8192 kB\nBdiWritten:           1000 kB\n' \
	>"$FX/sys/kernel/debug/bdi/0:53/stats"
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
# CIFS's counters of the share's tree connection (smb2_print_stats' lines)
cifs_stats() { # BYTES_WRITTEN
	printf 'Resources in use\nCIFS Session: 1\nShare (unique mount targets): 1\n\nMax requests in flight: 4\n1) \\\\fileserver\\public\nSMBs: 10\nBytes read: 0  Bytes written: %s\nWrites: 3 total 0 failed\n' "$1"
}
mkdir -p "$FX/proc/fs/cifs"
cifs_stats 1048576 >"$FX/proc/fs/cifs/Stats"
cat >"$tmp/feed.py" <<'PY'
import os, re, sys, time
fx, secs = sys.argv[1], float(sys.argv[2])
ms = open(fx + "/proc/self/mountstats").read()
cifs = open(fx + "/proc/fs/cifs/Stats").read()
def put(p, text):
    with open(p + ".new", "w") as f:
        f.write(text)
    os.rename(p + ".new", p)
t0 = time.monotonic()
while True:
    el = time.monotonic() - t0
    kib = 1000 + int(el * 2000000 / 1024)
    put(fx + "/sys/kernel/debug/bdi/0:53/stats",
        "BdiWriteback:         2048 kB\nBdiReclaimable:       4096 kB\nBdiDirtyThresh:      8192 kB\n"
        "BdiWritten:        %10d kB\nb_dirty:                  1\nb_io:                     0\n"
        "b_more_io:                0\n" % kib)
    v3 = 1048576 + int(el * 1000000)
    put(fx + "/proc/self/mountstats",
        re.sub(r"bytes:\t0 1048576 0 0 0 1048576 0 256", "bytes:\t0 %d 0 0 0 %d 0 256" % (v3, v3), ms))
    put(fx + "/proc/fs/cifs/Stats",
        re.sub(r"Bytes written: 1048576", "Bytes written: %d" % (1048576 + int(el * 1500000)), cifs))
    with open(fx + "/proc/vmstat", "w") as f:  # in place: wbgovd keeps it open
        f.write("nr_dirty 16384\nnr_writeback 512\nnr_dirtied %d\nnr_written 1000\n" % (1000 + int(el * 1000)))
    if el >= secs:
        break
    time.sleep(0.005)
PY
[ -n "$AS" ] && chown -R nobody "$FX" "$tmp/mem"
knobs >"$tmp/before"
AS="$AS env LD_PRELOAD=$HANG"
wbgovd_start --root "$FX" --state-dir "$ST" --memory "$MEM" -c "$CONF" --bus none -v
python3 "$tmp/feed.py" "$FX" 3 || fail "the counters' feeder failed"
wait_for 5 grep -q "^bdi=0:53 .* source=2 " "$ST/status" || fail "0:53 not measured: $(grep -a '0:53\|nas' "$LOG" | tail -n 5)"
python3 - "$ST/status" <<'PY' || fail "the shares' decisions: $(cat "$ST/status")"
import sys
st = {}
for l in open(sys.argv[1]):
    if l.startswith("bdi="):
        kv = dict(f.split("=", 1) for f in l.split())
        st[kv["bdi"]] = kv
nas, old = st["0:53"], st["0:54"]
bw = int(nas["bw"])
if not 1600000 <= bw <= 2400000 or nas["strict"] != "1":
    sys.exit("0:53: %r, want about 2 MB/s, strict" % nas)
if abs(int(nas["max_bytes"]) - (bw - 262144)) > bw // 8 + 4096:
    sys.exit("0:53: cap %s, want %d (1 s less the sync slack)" % (nas["max_bytes"], bw - 262144))
bw = int(old["bw"])
if old["source"] != "1" or not 700000 <= bw <= 1300000 or old["max_bytes"] != "4194304":
    sys.exit("0:54: %r, want a lower bound of about 1 MB/s at the 4 MiB start cap" % old)
smb = st["cifs-3"]
bw = int(smb["bw"])
if smb["source"] != "1" or not 1100000 <= bw <= 1900000 or smb["max_bytes"] != "4194304":
    sys.exit("cifs-3: %r, want a lower bound of about 1.5 MB/s at the 4 MiB start cap" % smb)
PY
[ "$(cat "$FX/sys/class/bdi/0:53/strict_limit")" = 1 ] || fail "0:53 not made strict"
cap=$(sed -n 's/^bdi=0:53 .*max_bytes=\([0-9]*\) .*/\1/p' "$ST/status")
[ "$(cat "$FX/sys/class/bdi/0:53/max_bytes")" = "$cap" ] || fail "0:53 max_bytes $(cat "$FX/sys/class/bdi/0:53/max_bytes"), want $cap"
grep -q "share 0:53 (nas.local:/export, nfs4): .* -> max_bytes" "$LOG" || fail "the log does not name the share: $(grep -a 0:53 "$LOG" | head -n 3)"
# wbgov explain says what NFS's COMMITs cost under the cap: the fixture's
# 10 of 400 ms each, under a cap of about 0.87 s of the measured 2 MB/s: a
# writer at 1 - 0.4/0.87 of the link. As wbgovd's user: wbgov trusts a pid
# file of root's or its own
$AS "$G" --root "$FX" --state-dir "$ST" explain nas.local:/export >"$tmp/ex" || fail "explain exited $?"
$AS "$G" --root "$FX" --state-dir "$ST" explain --json nas.local:/export >"$tmp/exj" || fail "explain --json exited $?"
untouched "wbgov explain of a measured share"
grep -q "^  commits: *10 COMMIT calls, 400 ms each: .* about 5[0-9] % of the link" "$tmp/ex" ||
	fail "explain does not say the COMMITs' cost: $(cat "$tmp/ex")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
if d["nfs_commits"] != 10 or d["nfs_commit_ms"] != 400 or not 0.5 <= d["nfs_pace_under_cap"] <= 0.6:
    sys.exit("explain --json: %r" % {k: v for k, v in d.items() if k.startswith("nfs_")})
' "$tmp/exj" || fail "explain --json: the COMMITs"
wbgovd_stop
untouched "wbgovd"
knobs >"$tmp/after"
diff "$tmp/before" "$tmp/after" >/dev/null || fail "knobs not given back: $(diff "$tmp/before" "$tmp/after")"
grep -q "^v1 [0-9]* m [0-9]* nfs:nas.local:/export$" "$MEM" || fail "the share is not remembered: $(cat "$MEM")"

# --- before Linux 6.2: the global route, the stick watched for its first
# write, the share remembered slow never (a mark names a path on it)
find "$FX/sys" -name strict_limit -delete
rm -rf "$FX/sys/kernel/debug"
printf 'nr_dirty 0\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' >"$FX/proc/vmstat"
AS="$AS WBGOV_TEST_FANOTIFY=fake"
wbgovd_start --root "$FX" --state-dir "$ST" --memory "$MEM" -c "$CONF" --bus none -v
wait_for 5 grep -q "8:16: a write to its file systems wakes the loop" "$LOG" ||
	fail "the stick is not watched: $(grep -a 'fanotify\|wake' "$LOG" | head -n 5)"
sleep 1
grep -q "^bdi=0:53 bw=[1-9]" "$ST/status" || fail "0:53 not remembered: $(grep 0:53 "$ST/status")"
grep -q "0:53: a write to its file systems wakes the loop" "$LOG" && fail "the share is watched"
wbgovd_stop
untouched "wbgovd before 6.2"
echo "$me: ok"
