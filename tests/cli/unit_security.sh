#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# etc/wbgovd.service stays hardened: `systemd-analyze security --offline=true`
# rates its exposure at 2.0 or less, and the settings that keep the root
# daemon from the network and from raising privileges are there, with the
# calls its features need that @system-service lacks (Landlock's, capset,
# fanotify's, the own debugfs's fsopen/fsconfig/fsmount), and its order
# after the system's debugfs mount. Where
# systemd-analyze is missing (no systemd), it says so and checks the
# settings only.
set -eu
cd "$(dirname "$0")/../.."
me=${0##*/}
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
U=etc/wbgovd.service
for k in CapabilityBoundingSet=CAP_SYS_ADMIN NoNewPrivileges=yes ProtectSystem=strict IPAddressDeny=any \
	PrivateMounts=yes "RestrictAddressFamilies=AF_NETLINK AF_UNIX" SystemCallFilter=@system-service \
	MemoryDenyWriteExecute=yes "SystemCallFilter=fsopen fsconfig fsmount" \
	"SystemCallFilter=landlock_create_ruleset landlock_add_rule landlock_restrict_self" \
	SystemCallFilter=capset "SystemCallFilter=fanotify_init fanotify_mark" After=sys-kernel-debug.mount; do
	grep -qx "$k" "$U" || fail "$U has no $k"
done
if ! command -v systemd-analyze >/dev/null 2>&1; then
	echo "$me: no systemd-analyze: the exposure level is not rated" >&2
	exit 0
fi
out=$(systemd-analyze security --offline=true "$U" 2>&1) || true
level=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for wbgovd.service: \([0-9.]*\).*/\1/p')
[ -n "$level" ] || fail "systemd-analyze gave no level: $(printf '%s\n' "$out" | tail -n 3)"
awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }' || fail "exposure level $level, want 2.0 or less"
echo "$me: exposure level $level"
