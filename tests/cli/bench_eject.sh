#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/eject without a guest: bad arguments are refused in one line
# naming them, before anything is installed or booted.
. tests/lib/cli.sh
B=$(pwd)/bench
for a in "--buses floppy:--buses: no bus 'floppy'" "--kernels 5.10:'5.10' is not 6.1 or 6.12" "--bogus:bench/eject: unknown argument '--bogus'"; do
	arg=${a%%:*} want=${a#*:}
	rc=0
	# shellcheck disable=SC2086
	bash "$B/eject" $arg >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "bench/eject $arg was accepted"
	grep -qF -e "$want" "$tmp/out" || fail "bench/eject $arg: $(cat "$tmp/out")"
	[ -z "$(find "$B" -maxdepth 2 -name 'eject-*' -newer "$tmp/out" 2>/dev/null)" ] ||
		fail "bench/eject $arg made a results directory"
done
rc=0; bash "$B/eject" --help >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 64 ] && grep -q "^bench/eject \[--kernels" "$tmp/out" || fail "bench/eject --help: exit $rc: $(cat "$tmp/out")"
echo "$me: ok"
