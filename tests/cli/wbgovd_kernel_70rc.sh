#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On 7.0-rc1 to rc6 balance_dirty_pages() starts no writeback for a writer
# held at a strict-limited device's cap (64dd89ae01f2 without
# cece9dc61daa): wbgovd warns at start and says it in its knobs feature,
# which `wbgov status` shows; 7.0-rc7 and a released 7.0 have the fix and
# get neither. Over the fixture tree, its osrelease changed.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
wbgovd_fixture
trap '[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true; rm -rf "$tmp"' EXIT
G=$(cd "$(dirname "$W")" && pwd)/wbgov

for rel in 7.0.0-rc3-amd64 7.0-rc1 7.0.0-rc7 7.0.0-1-amd64 6.18.44; do
	mkdir -p "$FX/proc/sys/kernel"
	printf '%s\n' "$rel" >"$FX/proc/sys/kernel/osrelease"
	wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus none
	$AS "$G" status --root "$FX" --state-dir "$ST" >"$tmp/status" 2>&1 || fail "$rel: wbgov status: $(cat "$tmp/status")"
	case $rel in
	7.0.0-rc3-amd64 | 7.0-rc1)
		grep -q "^<4>this kernel (7.0-rc1 to rc6) starts no writeback for a writer held at a device's strict_limit" "$LOG" ||
			fail "$rel: no warning: $(grep -i kernel "$LOG")"
		grep -q "^  knobs on: per device: .*; but this kernel (7.0-rc1 to rc6) starts no writeback for a capped writer" "$tmp/status" ||
			fail "$rel: wbgov status does not say it: $(grep knobs "$tmp/status")"
		;;
	*)
		! grep -q "7.0-rc1 to rc6" "$LOG" "$tmp/status" || fail "$rel: warned on a kernel with the fix: $(grep -h 'rc6' "$LOG" "$tmp/status")"
		;;
	esac
	# governing as before either way: the cap is set
	[ "$(cat "$FX/sys/class/bdi/8:16/strict_limit")" = 1 ] || fail "$rel: not governing"
	wbgovd_stop
done
echo "wbgovd_kernel_70rc.sh: ok"
