#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A shorter metrics_interval given at reload applies from the reload on,
# not after the interval of the start has run out: wbgovd started with
# metrics_interval = 3600 and reloaded with 1 rewrites its metrics file
# within a few seconds.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
ST=$tmp/st
MD=$tmp/prom
CONF=$tmp/wbgov.conf
LOG=$tmp/log
cli_fixture "$FX"
mkdir "$MD" "$ST"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
PID=
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
conf() { printf '%s\n' "$@" >"$CONF"; chmod 644 "$CONF"; }

conf "[global]" "metrics = $MD/wbgov.prom" "metrics_interval = 3600" "bus = none"
wbgovd_start -c "$CONF" --root "$FX" --state-dir "$ST" --no-memory
wait_for 5 test -s "$MD/wbgov.prom" || fail "no metrics file from metrics =: $(cat "$LOG")"
t1=$(stat -c %Y.%i "$MD/wbgov.prom")
conf "[global]" "metrics = $MD/wbgov.prom" "metrics_interval = 1" "bus = none"
kill -HUP "$PID"
wait_for 5 grep -q "configuration reloaded" "$LOG" || fail "no reload: $(tail -n 5 "$LOG")"
grep -qF "metrics file $MD/wbgov.prom: written every 1 s from now on" "$LOG" ||
	fail "the new interval is not said: $(tail -n 5 "$LOG")"
wait_for 4 sh -c "[ \"\$(stat -c %Y.%i '$MD/wbgov.prom')\" != '$t1' ]" ||
	fail "metrics_interval 3600 -> 1 on reload: the file is not rewritten within 4 s"
wbgovd_stop
echo "$me: ok"
