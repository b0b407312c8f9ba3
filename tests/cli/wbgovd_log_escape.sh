#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What wbgovd logs from the system stays one line at the level it was
# logged at: a loop device's backing file (a session user can set one up
# through udisks) named "/home/u/a<newline><0>FORGED..." made a line of its
# own at the emergency level, <0>, in the journal at each decision. Every
# control character is written \xNN. Over the fixture tree, as nobody when
# run as root.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
wbgovd_fixture
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$tmp"' EXIT
printf '/home/u/a\n<0>FORGED by a user\033[2J\n' >"$FX/sys/devices/virtual/block/loop0/loop/backing_file"

wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none -v
wbgovd_stop
grep -q "FORGED" "$LOG" || fail "the loop's backing file is not in the log: $(cat "$LOG")"
# every line starts with a priority of wbgovd's own, none is the user's
bad=$(grep -v '^<[3-7]>' "$LOG" || true)
[ -z "$bad" ] || fail "a line that is not wbgovd's: $bad"
grep -q '^<[0-2]>' "$LOG" && fail "a line at an emergency, alert or critical level: $(grep '^<[0-2]>' "$LOG")"
grep -qF 'loop on /home/u/a\x0a<0>FORGED by a user\x1b[2J' "$LOG" ||
	fail "the backing file not escaped: $(grep FORGED "$LOG")"
# (no escape sequence reaches a terminal that shows the journal)
[ "$(tr -dc '\033' <"$LOG" | wc -c)" = 0 ] || fail "an escape character in the log"
echo "$me: ok"
