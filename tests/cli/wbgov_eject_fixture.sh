#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov over a card reader (the fixture tests/unit/test_sys.c builds,
# written out with WBGOV_READER_OUT): USB device 2-1 with two LUNs, sd1 and
# sd2; sd2 is mounted, and a user's FUSE mount (0:61) gives /dev/sd1 as its
# source. status, explain and a [device] mount = section see no mount of
# sd1. As root: eject sd1, which would power off sd2 with it, is refused
# naming sd2, and nothing is synced, unmounted, flushed or written (the
# reader's `remove` is as it was); eject --no-power-off sd1, which leaves
# the reader on, goes on to the flush without taking the FUSE mount for
# sd1's (the fixture has no /dev/sd1 to flush: exit 74).
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
ts=${BUILD:-build}/tests/test_sys
[ -x "$ts" ] || fail "no $ts (make $ts)"
WBGOV_READER_OUT=$FX "$ts" >/dev/null 2>&1 || fail "$ts could not write the fixture"
[ -f "$FX/proc/self/mountinfo" ] || fail "no fixture at $FX"
G() { "$W" --root "$FX" --state-dir "$tmp/st" "$@"; }
REMOVE=$FX/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/remove

# --- status and explain: sd2's mount is sd2's, the FUSE mount no one's
G status --json >"$tmp/json" || fail "status --json exited $?"
python3 - "$tmp/json" <<'PY' || fail "status --json: see above"
import json, sys
d = json.load(open(sys.argv[1]))
by = {x["disk"]: x for x in d["devices"]}
if by["sd1"]["mounts"] != []:
    sys.exit("status --json: sd1's mounts are %r, want none" % by["sd1"]["mounts"])
if by["sd2"]["mounts"] != ["/media/user/CARD2"]:
    sys.exit("status --json: sd2's mounts are %r" % by["sd2"]["mounts"])
PY
G status >"$tmp/text" || fail "status exited $?"
grep -q "forged" "$tmp/text" && fail "status shows the FUSE mount: $(cat "$tmp/text")"
G explain sd1 >"$tmp/ex" || fail "explain sd1 exited $?"
grep -q "^  mounted on:  -$" "$tmp/ex" || fail "explain sd1: $(grep mounted "$tmp/ex")"
G explain --json sd1 >"$tmp/exj" || fail "explain --json sd1 exited $?"
python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["devices"][0]["mounts"]; sys.exit("explain --json sd1: mounts %r" % m if m else 0)' "$tmp/exj" ||
	fail "see above"

# --- a [device] mount = section: the FUSE mount point matches no disk
printf '[device forged]\nmount = /media/user/forged\nmode = off\n[device card]\nmount = /media/user/CARD*\nmode = off\n' >"$tmp/conf"
G -c "$tmp/conf" explain sd1 >"$tmp/ex" || fail "explain -c sd1 exited $?"
grep -q "config:" "$tmp/ex" && fail "a mount = section matched sd1: $(grep config: "$tmp/ex")"
G -c "$tmp/conf" explain sd2 >"$tmp/ex" || fail "explain -c sd2 exited $?"
grep -q "config:      \[device card\] at $tmp/conf:4 matches" "$tmp/ex" ||
	fail "sd2's own mount does not match: $(cat "$tmp/ex")"

# --- eject (root only: as anyone else it is refused before it looks)
if [ "$(id -u)" != 0 ]; then
	echo "$me: not root: eject is not run" >&2
	exit 0
fi
touch -d 2001-01-01 "$REMOVE"
before=$(stat -c '%s %Y' "$REMOVE")
rc=0
G eject sd1 2>"$tmp/err" || rc=$?
[ "$rc" = 75 ] || fail "eject sd1 with sd2 mounted: exit $rc, want 75: $(cat "$tmp/err")"
grep -q "^wbgov eject: sd2 (LUN 1 of the same USB device 2-1) is mounted on /media/user/CARD2, .*nothing was done$" "$tmp/err" ||
	fail "eject sd1 does not name sd2: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "eject sd1 did more than refuse: $(cat "$tmp/err")"
[ "$(stat -c '%s %Y' "$REMOVE")" = "$before" ] || fail "the reader's remove was written"

rc=0
G eject --no-power-off sd1 2>"$tmp/err" || rc=$?
grep -q "forged" "$tmp/err" && fail "eject took the FUSE mount for sd1's: $(cat "$tmp/err")"
grep -q "^wbgov eject: flushing /dev/sd1: No such file or directory$" "$tmp/err" && [ "$rc" = 74 ] ||
	fail "eject --no-power-off sd1: exit $rc: $(cat "$tmp/err")"
[ "$(stat -c '%s %Y' "$REMOVE")" = "$before" ] || fail "the reader's remove was written"
exit 0
