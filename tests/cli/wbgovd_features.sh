#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What wbgovd says is in force: at start a line per feature ("feature NAME
# STATE: how"), and the same in `wbgov status`, its JSON ("features") and
# on D-Bus (Manager.Features). A feature that a sandbox refuses is a
# warning that names what refused it, the unit setting under a unit
# (INVOCATION_ID, which systemd sets): tests/lib/hang.c plays a unit whose
# RestrictAddressFamilies= lacks AF_NETLINK (no uevents) and whose
# SystemCallFilter= lacks Landlock's calls. Over the fixture tree, as
# nobody when run as root, on a private dbus-daemon playing the system bus.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
G=$(cd "$(dirname "$W")" && pwd)/wbgov
ALL="knobs debugfs write-wakeup uevents fs-labels device-memory metrics bus landlock seccomp capabilities"
wbgovd_fixture
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)

# (wbgov as wbgovd's user: root's wbgov trusts no file of nobody's)
# json_feature NAME: "COUNT STATE REFUSED_BY" of feature NAME in status --json
json_feature() {
	$AS "$G" status --json --root "$FX" --state-dir "$ST" | "$PY" -c '
import json, sys
doc = json.load(sys.stdin)
f = [x for x in doc["features"] if x["name"] == sys.argv[1]]
print(len(doc["features"]), f[0]["state"], f[0]["refused_by"]) if f else print(len(doc["features"]), "none")
' "$1"
}

# nothing refused: a line for every feature, each in wbgov status too
wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus "${A%%,guid=*}"
for f in $ALL; do
	grep -q "^<6>feature $f \(on\|off\|not-needed\): ." "$LOG" || fail "no line for feature $f: $(grep feature "$LOG")"
done
grep -q "refused" "$LOG" && fail "a feature refused with no sandbox: $(grep refused "$LOG")"
grep -q "^<6>feature device-memory off: not asked for (--no-memory)" "$LOG" || fail "device memory's line"
grep -q "^<6>feature knobs on: per device" "$LOG" || fail "the fixture's per-device knobs not said"
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on" "$LOG" || fail "not on the bus: $(cat "$LOG")"
# the bus's line moves from "taking the name" to the name taken: shown so
bus_shown() {
	$AS "$G" status --root "$FX" --state-dir "$ST" >"$tmp/status" &&
		grep -q "^  bus on: io.github.wbgov.Governor1 on unix:path=" "$tmp/status"
}
wait_for 5 bus_shown || fail "wbgov status does not show the bus up: $(cat "$tmp/status")"
grep -q "^wbgovd's features:$" "$tmp/status" || fail "wbgov status shows no features: $(cat "$tmp/status")"
for f in $ALL; do
	[ "$f" = bus ] && continue
	# the same words as the log's line
	line=$(sed -n "s/^<[46]>feature \($f .*\)/  \1/p" "$LOG")
	grep -qxF "$line" "$tmp/status" || fail "wbgov status does not say \"$line\": $(cat "$tmp/status")"
done
[ "$(json_feature landlock | cut -d' ' -f1)" = 11 ] || fail "status --json: $(json_feature landlock)"
# the bus's own line has moved to "on" by now; D-Bus says the same
busctl --address="$A" get-property io.github.wbgov.Governor1 /io/github/wbgov/Governor1 \
	io.github.wbgov.Governor1.Manager Features >"$tmp/bus" 2>&1 || fail "no Features on D-Bus: $(cat "$tmp/bus")"
grep -q '^a(ssss) 11 "knobs" "on" "per device' "$tmp/bus" || fail "D-Bus Features: $(cat "$tmp/bus")"
grep -q '"bus" "on" "io.github.wbgov.Governor1 on unix:path=' "$tmp/bus" ||
	fail "D-Bus Features does not say the bus is on: $(cat "$tmp/bus")"
wbgovd_stop
$AS "$G" status --json --root "$FX" --state-dir "$ST" | grep -q '"features": \[\]' ||
	fail "features shown with wbgovd stopped"

# a unit that refuses netlink sockets and Landlock's calls: each a warning
# naming the setting, and wbgov status and JSON say the same
INVOCATION_ID=0123456789abcdef LD_PRELOAD=$HANG WBGOV_TEST_REFUSE=netlink,landlock \
	wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none
grep -q "^<4>feature uevents refused by RestrictAddressFamilies=: no netlink (Address family not supported" "$LOG" ||
	fail "no warning naming RestrictAddressFamilies=: $(grep feature "$LOG")"
grep -q "^<4>feature landlock refused by SystemCallFilter=: " "$LOG" ||
	fail "no warning naming SystemCallFilter=: $(grep feature "$LOG")"
[ "$(grep -c '^<4>feature ' "$LOG")" = 2 ] || fail "refusals beyond the two: $(grep '^<4>feature' "$LOG")"
$AS "$G" status --root "$FX" --state-dir "$ST" >"$tmp/status" || fail "wbgov status failed"
grep -q "^  uevents refused by RestrictAddressFamilies=: no netlink" "$tmp/status" ||
	fail "wbgov status does not show the refusal: $(cat "$tmp/status")"
[ "$(json_feature uevents)" = "11 refused RestrictAddressFamilies=" ] ||
	fail "status --json's uevents: $(json_feature uevents)"
[ "$(json_feature landlock)" = "11 refused SystemCallFilter=" ] ||
	fail "status --json's landlock: $(json_feature landlock)"
[ "$(json_feature knobs)" = "11 on None" ] || fail "status --json's knobs: $(json_feature knobs)"
wbgovd_stop

# outside a unit the same refusal names the sandbox, not a unit setting
LD_PRELOAD=$HANG WBGOV_TEST_REFUSE=netlink wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none
grep -q "^<4>feature uevents refused by an address family filter: " "$LOG" ||
	fail "outside a unit: $(grep feature "$LOG")"
wbgovd_stop
echo "$me: ok"
