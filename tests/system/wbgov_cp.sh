#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov cp on the real kernel, to a 5 MB/s stick (a throttled loop under a
# loop: sys_stick_dev), mounted at a path with a blank: 48 MiB take no
# more than 1.05 x size / bandwidth; right at exit the stick's bdi holds
# (almost) nothing dirty or under writeback, where a plain cp leaves most
# of the file; the ETA of the first --json line past 10 % is within 10 %
# of the time that was really left, and every later one while more than
# 1.5 s is left; the copy reads back equal. A normal
# user can copy (no root needed). Ctrl-C mid-way exits 130 and leaves
# neither DEST nor a temporary file; SIGHUP mid-way (a terminal that hangs
# up) the same, over a DEST of another owner and mode 0600 that keeps its
# old content; copied over it to the end, the new content keeps that
# owner and mode.
set -eu
cd "$(dirname "$0")/../.."
. tests/lib/system.sh
BUILD=${BUILD:-build}
G=$(pwd)/$BUILD/wbgov
sys_init
sys_debugfs
fail() { echo "wbgov_cp: FAIL: $*" >&2; exit 1; }
note() { echo "wbgov_cp: $*"; }
MIB=48
SPEED=5000000
# the device's own dirty + writeback, KiB (bdi_debug_stats_show)
pending_kib() {
	awk '/^BdiWriteback|^BdiReclaimable/ { s += $2 } END { print s }' "/sys/kernel/debug/bdi/$1/stats"
}

T=$(sys_tmpfs 400)
head -c $((MIB << 20)) /dev/urandom >"$T/image file"
chmod 644 "$T/image file"
set -- $(SIZE_MIB=$((MIB * 2 + 100)) sys_stick_dev "$T" $SPEED)
L=$1 DN=$2 MNT=$3
M="$SYS_TMP/NO NAME"
sys_bind_mount "$MNT" "$M"

# --- 48 MiB at 5 MB/s, to a directory with a blank in its name
mkdir "$M/a dir"
t0=$(sys_now)
rc=0
"$G" cp --json "$T/image file" "$M/a dir/" >"$SYS_TMP/json" 2>"$SYS_TMP/err" || rc=$?
t1=$(sys_now)
left=$(pending_kib "$DN")
[ $rc = 0 ] || fail "wbgov cp exited $rc: $(cat "$SYS_TMP/err")"
ratio=$(awk -v a="$t0" -v b="$t1" -v m=$MIB -v s=$SPEED 'BEGIN { printf "%.3f", (b - a) / (m * 1048576 / s) }')
note "48 MiB at 5 MB/s: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s, wall/ideal $ratio; dirty + writeback at exit $left KiB"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.05) }' || fail "wall/ideal $ratio > 1.05"
[ "$left" -le 256 ] || fail "$left KiB dirty or under writeback at exit (want <= 256)"
python3 - "$SYS_TMP/json" <<'PY' || fail "the ETA: see above"
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1])]
end = ls[-1]
if not (end["done"] and end["durable_bytes"] == end["total_bytes"] == 48 << 20):
    sys.exit("the last object: %r" % end)
# every ETA from 10 % on, while more than 1.5 s is left (a lump of the
# count is 1.25 s there), within 10 % of the time really left
first, worst = None, None
for l in ls:
    real = end["elapsed_s"] - l["elapsed_s"]
    if l["durable_bytes"] < 0.1 * l["total_bytes"] or l["eta_s"] is None or l["done"] or real < 1.5:
        continue
    err = (l["eta_s"] - real) / real
    line = "ETA at %.0f %% (%.1f s): %.2f s, really %.2f s left: %+.1f %%" % (
        100 * l["durable_bytes"] / l["total_bytes"], l["elapsed_s"], l["eta_s"], real, 100 * err)
    first = first or line
    if worst is None or abs(err) > abs(worst[0]):
        worst = (err, line)
if first is None:
    sys.exit("no ETA after 10 %")
print("wbgov_cp: first " + first)
print("wbgov_cp: worst " + worst[1])
if abs(worst[0]) > 0.10:
    sys.exit("an ETA off by more than 10 %")
PY
cmp "$T/image file" "$M/a dir/image file" || fail "the copy differs"

# --- what a plain cp leaves (the measure above can see it)
cp "$T/image file" "$M/plain"
left=$(pending_kib "$DN")
note "plain cp: dirty + writeback at exit $left KiB"
[ "$left" -ge $((MIB * 1024 / 2)) ] || fail "a plain cp left only $left KiB: the measure sees nothing"
sync
rm -f "$M/plain"

# --- a normal user, 8 MiB into a directory of theirs (the test's
# directory, made 0700, is theirs to pass through)
chmod 711 "$SYS_TMP"
mkdir "$M/user"
chown 65534:65534 "$M/user"
head -c $((8 << 20)) /dev/urandom >"$T/small"
chmod 644 "$T/small"
rc=0
setpriv --reuid=65534 --regid=65534 --clear-groups "$G" cp -q "$T/small" "$M/user/" 2>"$SYS_TMP/err" || rc=$?
[ $rc = 0 ] || fail "a normal user: exit $rc: $(cat "$SYS_TMP/err")"
cmp -s "$T/small" "$M/user/small" || fail "a normal user's copy differs"
[ "$(stat -c %u "$M/user/small")" = 65534 ] || fail "a normal user's copy is not theirs"

# --- Ctrl-C 2 s into the copy: 130, no DEST, no temporary file
"$G" cp -q "$T/image file" "$M/a dir/again" 2>"$SYS_TMP/err" &
cpid=$!
sleep 2
kill -INT $cpid
rc=0
wait $cpid || rc=$?
[ $rc = 130 ] || fail "Ctrl-C: exit $rc, want 130"
grep -q "interrupted; $M/a dir/again not written (the partial copy is removed)" "$SYS_TMP/err" ||
	fail "Ctrl-C: $(cat "$SYS_TMP/err")"
[ "$(ls -A "$M/a dir")" = "image file" ] || fail "Ctrl-C left $(ls -A "$M/a dir" | tr '\n' ' ')"

# --- SIGHUP 2 s into a copy over nobody's 0600 file: 130, the old file
# as it was, no temporary file; then the copy to the end keeps its owner
# and mode
mkdir "$M/hup"
printf 'old\n' >"$M/hup/kept"
chown 65534:65534 "$M/hup/kept"
chmod 600 "$M/hup/kept"
# (SIGHUP's default action: under nohup wbgov cp rightly keeps it ignored)
env --default-signal=HUP "$G" cp -q "$T/image file" "$M/hup/kept" 2>"$SYS_TMP/err" &
cpid=$!
sleep 2
kill -HUP $cpid
rc=0
wait $cpid || rc=$?
[ $rc = 130 ] || fail "SIGHUP: exit $rc, want 130 ($(cat "$SYS_TMP/err"))"
grep -q "interrupted by SIGHUP (hang-up); $M/hup/kept not written (the partial copy is removed)" "$SYS_TMP/err" ||
	fail "SIGHUP: $(cat "$SYS_TMP/err")"
[ "$(ls -A "$M/hup")" = kept ] && [ "$(cat "$M/hup/kept")" = old ] ||
	fail "SIGHUP left $(ls -A "$M/hup" | tr '\n' ' ')"
"$G" cp -q "$T/small" "$M/hup/kept" || fail "a copy over nobody's 0600 file exited $?"
cmp -s "$T/small" "$M/hup/kept" || fail "a copy over nobody's 0600 file differs"
[ "$(stat -c %u:%g:%a "$M/hup/kept")" = 65534:65534:600 ] ||
	fail "a copy over nobody's 0600 file made it $(stat -c %u:%g:%a "$M/hup/kept")"
sync
echo "wbgov_cp: ok"
