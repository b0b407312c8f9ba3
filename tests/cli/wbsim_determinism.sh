#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Determinism: the simulator has no hidden randomness or clock; the same
# command gives byte-identical output every time.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

# twice ARG...: run wbsim ARG... two times; both exit 0, non-empty, identical
twice() {
	for i in 1 2; do
		rc=0
		"$W" "$@" >"$tmp/out$i" 2>"$tmp/err$i" || rc=$?
		[ "$rc" -eq 0 ] || fail "wbsim $* (run $i) exited $rc: $(head -n 3 "$tmp/err$i")"
		[ -s "$tmp/out$i" ] || fail "wbsim $* (run $i) wrote nothing to stdout"
	done
	if ! cmp -s "$tmp/out1" "$tmp/out2"; then
		printf '%s: FAIL: wbsim %s: two runs differ:\n' "$me" "$*" >&2
		diff "$tmp/out1" "$tmp/out2" | head -n 10 >&2 || :
		exit 1
	fi
}

twice table --format csv
twice run usb-iso --format json

echo "$me: ok"
