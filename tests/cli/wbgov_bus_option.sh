#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov's --bus (status, watch, explain, notify) takes system, session,
# none or an address of the unix transport, as wbgovd's --bus and
# wbgov.conf's bus do (one parser): anything else is a usage error (64)
# naming it, not a bus silently not reached (status showed "-" and blamed
# wbgovd for it), nor a unixexec: address that runs a program. notify
# follows wbgovd on a bus: --bus none is a usage error there.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
cli_fixture "$FX"
mkdir -p "$tmp/st"
for cmd in "status" "status --json" "explain sdb" "notify"; do
	for b in sytem "unixexec:path=$tmp/run"; do
		rc=0
		# shellcheck disable=SC2086 # the command and its arguments
		LC_ALL=C "$W" --root "$FX" --state-dir "$tmp/st" $cmd --bus "$b" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ $rc = 64 ] || fail "$cmd --bus $b: exit $rc, want 64: $(cat "$tmp/err")"
		[ "$(cat "$tmp/err")" = "wbgov: --bus wants system, session, none or an address (unix:path=...): $b" ] ||
			fail "$cmd --bus $b said: $(cat "$tmp/err")"
		[ ! -s "$tmp/out" ] || fail "$cmd --bus $b printed: $(head -n 3 "$tmp/out")"
	done
done
rc=0
LC_ALL=C "$W" --root "$FX" notify --bus none >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc = 64 ] || fail "notify --bus none: exit $rc, want 64: $(cat "$tmp/err")"
grep -q "^wbgov notify: --bus none is not an option of notify" "$tmp/err" ||
	fail "notify --bus none said: $(cat "$tmp/err")"
# what is right goes through (no bus there: status shows "-", exit 0)
for b in system session none "unix:path=$tmp/none"; do
	DBUS_SYSTEM_BUS_ADDRESS=unix:path=$tmp/none DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/none \
		"$W" --root "$FX" --state-dir "$tmp/st" status --bus "$b" >/dev/null ||
		fail "status --bus $b exited $?"
done
echo "$me: ok"
