#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov's reading commands without root, over a fake /sys and /proc (the
# fixture tests/unit/test_sys.c builds, written out with
# WBGOV_FIXTURE_OUT): status --json is schema 1 — valid UTF-8 however the
# device names itself, booleans, null for unknown, arrays of whole mount
# points (one with a blank, one not ASCII; not a user's FUSE mount whose
# source names the stick's partition); the table says why a column
# shows "-" and prints no control or invalid bytes; explain finds a disk by
# its name and by a partition, shows wbgovd's record only while it runs and
# the pre-6.2 limit as what it is; explain --json is schema 2, what_if or
# wbgovd's record and labelled so; watch puts its time over each table,
# and --json one object a line with its time; sync names the mount point
# it cannot sync. A /proc/meminfo that is missing or malformed makes the
# system's Dirty and Writeback unknown, never 0: "-" with the reason in the
# table, null in --json (status and watch), and --prometheus, which has no
# system-wide figure, unchanged.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
cli_fixture "$FX"
G() { "$W" --root "$FX" --state-dir "$tmp/st" "$@"; }

G status --json >"$tmp/json" || fail "status --json exited $?"
python3 - "$tmp/json" <<'PY' || fail "status --json: see above"
import json, sys
raw = open(sys.argv[1], "rb").read()
try:
    d = json.loads(raw.decode("utf-8"))  # strict: invalid UTF-8 raises
except Exception as e:
    sys.exit("not valid UTF-8 JSON: %s" % e)
def want(c, what):
    if not c:
        sys.exit("status --json: " + what)
want(d.get("schema") == 1, "schema is %r, want 1" % d.get("schema"))
want(d["wbgovd_running"] is False, "wbgovd_running is not the boolean false")
want(d["dirty_bytes"] == 4096 * 1024 and d["writeback_bytes"] == 1024 * 1024, "meminfo figures")
keys = {"bdi", "kind", "disk", "model", "bus", "mounts", "bandwidth_bps", "bandwidth_source",
        "strict_limit", "max_bytes", "max_ratio_fine", "dirty_writeback_bytes", "drain_s",
        "pending_source"}
for dev in d["devices"]:
    want(set(dev) == keys, "%s has keys %s" % (dev["bdi"], sorted(set(dev) ^ keys)))
    want(isinstance(dev["mounts"], list), "mounts of %s is not an array" % dev["bdi"])
    want(dev["strict_limit"] in (True, False), "strict_limit of %s is %r" % (dev["bdi"], dev["strict_limit"]))
    want(dev["bandwidth_bps"] is None and dev["drain_s"] is None, "no daemon, yet a bandwidth")
    want(dev["model"] is None or dev["model"] != "", "an empty model is not null")
by = {dev["bdi"]: dev for dev in d["devices"]}
sdb = by["8:16"]
want(sdb["mounts"] == ["/media/user/NO NAME", "/media/user/Caf\u00e9"], "sdb mounts %r" % sdb["mounts"])
want(sdb["model"] == "SanDisk Cruzer \ufffd Blade", "sdb model %r" % sdb["model"])
want(by["253:0"]["model"] is None, "vda's unknown model is %r, not null" % by["253:0"]["model"])
want(by["8:16-fuseblk"]["mounts"] == sdb["mounts"], "the fuseblk bdi lists other mounts")
PY

G status >"$tmp/text" || fail "status exited $?"
grep -q "^sdb  *8:16 .*/media/user/NO NAME, /media/user/Café$" "$tmp/text" || fail "status: no sdb line: $(cat "$tmp/text")"
grep -q "^MEASURED, DRAIN: - until wbgovd has measured the device (it is not running)" "$tmp/text" ||
	fail "status does not say why MEASURED is -"
grep -q "^DIRTY+WB, DRAIN: - where the bdi's own counters are not readable" "$tmp/text" ||
	fail "status does not say why DIRTY+WB is -"
grep -q "^system: Dirty 4.0 MiB, Writeback 1.0 MiB; wbgovd not running$" "$tmp/text" ||
	fail "status: system line: $(tail -n 1 "$tmp/text")"
LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$tmp/text" && fail "status printed a control character"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$tmp/text" ||
	fail "status printed bytes that are not UTF-8"

G explain sdb >"$tmp/ex" || fail "explain sdb exited $?"
head -n 1 "$tmp/ex" | grep -qx "sdb (bdi 8:16)" || fail "explain sdb: $(head -n 1 "$tmp/ex")"
grep -q 'model "SanDisk Cruzer ? Blade"' "$tmp/ex" || fail "explain: model $(grep facts "$tmp/ex")"
grep -q "mounted on:  /media/user/NO NAME, /media/user/Café" "$tmp/ex" || fail "explain: mounts"
G explain sdb1 | head -n 1 | grep -qx "sdb (bdi 8:16)" || fail "explain sdb1 is not its disk"
rc=0; G explain nosuch 2>"$tmp/err" || rc=$?
[ $rc = 69 ] && grep -q "nosuch" "$tmp/err" || fail "explain nosuch: exit $rc"

# no daemon: a status file left by a run that ended is not its record, and
# the rule is labelled as what wbgovd would do
mkdir -p "$tmp/st"
echo "bdi=8:16 bw=5000000 measures=3 why=0 max_bytes=123456 strict=1 err=0 source=2" >"$tmp/st/status"
G explain sdb >"$tmp/ex"
grep -q "rule (if wbgovd ran): not measured yet: the start cap" "$tmp/ex" || fail "explain without wbgovd: $(cat "$tmp/ex")"
grep -q "123456" "$tmp/ex" && fail "explain showed a record no running wbgovd keeps"
G status --json | grep -q '"bandwidth_bps": 5000000' && fail "status showed a record no running wbgovd keeps"
G status | grep -q "4.8 MiB/s" && fail "the status table showed a record no running wbgovd keeps"
# explain --json: schema 2, the what-if labelled so ("what_if"); with a wbgovd running
# (its pid file names a live process called wbgovd), its record, labelled
# as its
G explain --json sdb >"$tmp/exj" || fail "explain --json exited $?"
cp "$(command -v sleep)" "$tmp/wbgovd"
"$tmp/wbgovd" 30 &
LOCKER=$!
echo $LOCKER >"$tmp/st/wbgovd.pid"
trap 'kill $LOCKER 2>/dev/null || true; rm -rf "$tmp"' EXIT
i=0
while ! G status --json | grep -q '"wbgovd_running": true'; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "the running wbgovd is not seen"; sleep 0.05
done
G explain --json sdb >"$tmp/exj2" || fail "explain --json with wbgovd exited $?"
kill $LOCKER
wait $LOCKER 2>/dev/null || true
G status --json | grep -q '"wbgovd_running": false' || fail "a pid file naming a dead process taken for wbgovd"
python3 - "$tmp/exj" "$tmp/exj2" <<'PY' || fail "explain --json: see above"
import json, sys
def load(p):
    return json.loads(open(p, "rb").read().decode("utf-8"))
def want(c, what):
    if not c:
        sys.exit("explain --json: " + what)
keys = {"bdi", "kind", "disk", "model", "serial", "bus", "removable", "rotational", "fuse", "mounts",
        "bandwidth_bps", "bandwidth_source", "windows", "kernel_bandwidth_bps", "config",
        "config_line", "decided_by", "rule", "limit", "limit_bytes", "write_error",
        "kernel_strict_limit", "kernel_max_bytes", "kernel_max_ratio_fine", "usb", "wwn",
        "labels", "uuids", "config_section", "other_rule", "vm_dirty_bytes",
        "vm_dirty_background_bytes", "dirty_writeback_bytes", "drain_s", "pending_source",
        "nfs_commits", "nfs_commit_ms", "nfs_pace_under_cap"}
for n, p in enumerate(sys.argv[1:]):
    d = load(p)
    want(d["schema"] == 2 and d["wbgovd_running"] is bool(n), "schema or wbgovd_running: %r" % d)
    want([x["bdi"] for x in d["devices"]] == ["8:16", "8:16-fuseblk"], "bdis %r" % [x["bdi"] for x in d["devices"]])
    for x in d["devices"]:
        want(set(x) == keys, "%s has keys %s" % (x["bdi"], sorted(set(x) ^ keys)))
    sdb = d["devices"][0]
    want(sdb["mounts"] == ["/media/user/NO NAME", "/media/user/Caf\u00e9"], "mounts %r" % sdb["mounts"])
    want(sdb["removable"] is True and sdb["fuse"] is False and d["devices"][1]["fuse"] is True, "booleans")
    want(sdb["kernel_strict_limit"] is False and sdb["kernel_max_ratio_fine"] == 1000000, "kernel knobs")
    want(sdb["usb"] == "0781:5567" and sdb["wwn"] is None and sdb["other_rule"] is None, "ids: %r" % sdb)
    if n == 0:
        want(sdb["decided_by"] == "what_if" and sdb["bandwidth_bps"] is None and sdb["windows"] is None,
             "without wbgovd: %r" % sdb)
        want(sdb["limit"] == "strict" and sdb["limit_bytes"] == 4194304, "the start cap: %r" % sdb)
    else:
        want(sdb["decided_by"] == "wbgovd" and sdb["bandwidth_bps"] == 5000000 and
             sdb["bandwidth_source"] == "measured" and sdb["windows"] == 3, "wbgovd's record: %r" % sdb)
        want(sdb["limit"] == "strict" and sdb["limit_bytes"] == 123456, "its cap: %r" % sdb)
PY

# watch: each table under its time; --json one object a line, with its time
"$W" --root "$FX" --state-dir "$tmp/st" watch --interval 0.2 >"$tmp/w" 2>&1 &
W1=$!
"$W" --root "$FX" --state-dir "$tmp/st" watch --interval 0.2 --json >"$tmp/wj" 2>&1 &
W2=$!
sleep 1
kill -TERM $W1 $W2
wait $W1 || fail "watch exited $? on SIGTERM"
wait $W2 || fail "watch --json exited $? on SIGTERM"
[ "$(grep -Ec '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} .*, every 0.2 s$' "$tmp/w")" -ge 2 ] ||
	fail "watch: no time over each table: $(head -n 3 "$tmp/w")"
python3 - "$tmp/wj" <<'PY' || fail "watch --json: see above"
import json, re, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()
if len(lines) < 2:
    sys.exit("watch --json: %d lines" % len(lines))
for l in lines:
    d = json.loads(l)
    if d["schema"] != 1 or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["time"]) or not d["devices"]:
        sys.exit("watch --json: %r" % l[:200])
PY

# before Linux 6.2 (no strict_limit): the limit is said to go through the
# global dirty_bytes, never as per-device knobs
rm "$FX/sys/devices/virtual/bdi/8:16/strict_limit"
G explain sdb | sed '/^$/q' >"$tmp/ex" # bdi 8:16 only
grep -q "limit:       4.0 MiB, through the global dirty_bytes" "$tmp/ex" || fail "explain before 6.2: $(grep limit "$tmp/ex")"
grep -q "strict_limit 1" "$tmp/ex" && fail "explain before 6.2 shows a per-device strict_limit"
grep -q "kernel now:  no per-device strict_limit/max_bytes (Linux < 6.2)" "$tmp/ex" || fail "explain before 6.2: kernel now"
# and apply --once refuses (69) with nothing made or written: the global
# pair must follow the writes, which one pass cannot do
cp -a "$FX" "$tmp/fx61"
find "$tmp/fx61/sys" -name strict_limit -delete
rc=0; "$W" --root "$tmp/fx61" --state-dir "$tmp/st61" apply --once >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc = 69 ] || fail "apply --once before 6.2: exit $rc, want 69: $(cat "$tmp/out" "$tmp/err")"
grep -q "^wbgov apply: this kernel has no per-device strict_limit and max_bytes (Linux < 6.2).*nothing was changed$" "$tmp/err" ||
	fail "apply --once before 6.2: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && [ ! -e "$tmp/st61" ] || fail "apply --once before 6.2 printed decisions or made $tmp/st61"
# while restore there gives back the global pair a killed wbgovd left (the
# ratios: the kernel zeroes the bytes when a ratio is written)
mkdir -p "$tmp/fx61/proc/sys/vm" "$tmp/st61"
chmod 700 "$tmp/st61"
for kv in dirty_ratio:0 dirty_background_ratio:0 dirty_bytes:8388608 dirty_background_bytes:4194304 \
	dirty_expire_centisecs:3000 dirty_writeback_centisecs:500; do
	echo "${kv#*:}" >"$tmp/fx61/proc/sys/vm/${kv%%:*}"
done
echo "vm dirty_ratio 20 dirty_background_ratio 10 dirty_bytes 0 dirty_background_bytes 0 dirty_expire_centisecs 3000 dirty_writeback_centisecs 500" >"$tmp/st61/state"
rc=0; "$W" --root "$tmp/fx61" --state-dir "$tmp/st61" restore >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc = 0 ] || fail "restore before 6.2: exit $rc: $(cat "$tmp/out" "$tmp/err")"
got=$(cd "$tmp/fx61/proc/sys/vm" && for k in dirty_ratio dirty_background_ratio; do printf '%s ' "$(cat $k)"; done)
[ "$got" = "20 10 " ] || fail "restore before 6.2 left the pair at $got"
[ ! -e "$tmp/st61/state" ] || fail "restore before 6.2 kept the record: $(cat "$tmp/st61/state")"

# the fixture's mount points exist in no real file system: sync names the
# first it cannot open, says nothing of durable, exits 74
rc=0; G sync sdb 2>"$tmp/err" || rc=$?
[ $rc = 74 ] || fail "sync of a mount point that is not there: exit $rc, want 74"
grep -q "wbgov sync: /media/user/NO NAME: No such file or directory" "$tmp/err" ||
	fail "sync: $(cat "$tmp/err")"
grep -q durable "$tmp/err" && fail "sync said durable after failing"

# /proc/meminfo missing, then malformed: the system's figures are unknown
# ("-" and why; null), not 0; --prometheus (no system-wide figure) as before
G status --prometheus >"$tmp/prom-mem" || fail "status --prometheus exited $?"
for how in missing malformed; do
	if [ $how = missing ]; then
		rm "$FX/proc/meminfo"
		why="$FX/proc/meminfo: No such file or directory"
	else
		printf 'MemTotal: 1000 kB\nDirty: lots kB\nWriteback: 0 kB\n' >"$FX/proc/meminfo"
		why="$FX/proc/meminfo: no Dirty or Writeback line it can read"
	fi
	G status >"$tmp/text" || fail "status with meminfo $how exited $?"
	tail -n 1 "$tmp/text" | grep -qxF "system: Dirty -, Writeback - ($why); wbgovd not running" ||
		fail "status with meminfo $how: $(tail -n 1 "$tmp/text")"
	G status --json >"$tmp/json" || fail "status --json with meminfo $how exited $?"
	"$W" --root "$FX" --state-dir "$tmp/st" watch --json --interval 0.2 >"$tmp/wj" 2>&1 &
	W3=$!
	sleep 0.5
	kill -TERM $W3
	wait $W3 || fail "watch --json exited $? on SIGTERM"
	python3 - "$tmp/json" "$tmp/wj" <<'PY' || fail "meminfo $how: see above"
import json, sys
objs = [json.load(open(sys.argv[1], encoding="utf-8"))]  # status: one object
objs += [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]  # watch: one a line
if len(objs) < 2:
    sys.exit("watch --json printed nothing")
for d in objs:
    if d["dirty_bytes"] is not None or d["writeback_bytes"] is not None or not d["devices"]:
        sys.exit("dirty_bytes %r, writeback_bytes %r" % (d["dirty_bytes"], d["writeback_bytes"]))
PY
	G status --prometheus >"$tmp/prom-nomem" || fail "status --prometheus with meminfo $how exited $?"
	cmp -s "$tmp/prom-mem" "$tmp/prom-nomem" || fail "status --prometheus changed with meminfo $how"
done
echo "$me: ok"
