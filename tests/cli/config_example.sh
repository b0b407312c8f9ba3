#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# etc/wbgov.conf, the example `make install` puts in /etc/wbgov: `wbgovd -n`
# says "configuration OK" on stdout, nothing on stderr, and exits 0.
set -eu
cd "$(dirname "$0")/../.."
PROG=wbgovd
. tests/lib/cli.sh

# installed 0644, as `make install` does: a checkout made under umask 002
# is group-writable, which wbgovd rightly refuses
install -m 644 etc/wbgov.conf "$tmp/wbgov.conf"
rc=0
"$W" -n -c "$tmp/wbgov.conf" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || fail "wbgovd -n -c etc/wbgov.conf exited $rc, want 0: $(head -n 3 "$tmp/err")"
[ "$(cat "$tmp/out")" = "configuration OK" ] || fail "stdout is not \"configuration OK\": $(head -n 3 "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "wbgovd -n wrote to stderr: $(head -n 3 "$tmp/err")"
echo "$me: ok"
