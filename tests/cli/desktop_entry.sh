#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The desktop entries are valid (desktop-file-validate, as the file managers
# and GNOME read them): the XDG autostart file that starts wbgov notify in
# a session, and the application entry its notifications name in their
# "desktop-entry" hint, hidden from menus (NoDisplay) and saying
# X-GNOME-UsesNotifications, so that GNOME Settings lists it and a user can
# mute it. Both as make install writes them (Exec rewritten) too; the hint
# in src/cli/notify.c names the application entry's file.
set -eu
cd "$(dirname "$0")/../.."
me=${0##*/}
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
if ! command -v desktop-file-validate >/dev/null 2>&1; then
	[ "${CI:-}" != true ] || fail "no desktop-file-validate (desktop-file-utils; CI=true: not skipping)"
	echo "$me: skipped: no desktop-file-validate (scripts/deps.sh installs desktop-file-utils)" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

A=etc/applications/wbgov-notify.desktop
X=etc/xdg/wbgov-notify.desktop
for f in "$A" "$X"; do
	[ -f "$f" ] || fail "no $f"
	desktop-file-validate "$f" >"$tmp/out" 2>&1 || fail "desktop-file-validate $f: $(cat "$tmp/out")"
	# hints are not failures, but a clean file has none either
	[ ! -s "$tmp/out" ] || fail "desktop-file-validate $f says: $(cat "$tmp/out")"
	# as make install writes it
	sed 's|^Exec=.*|Exec=/usr/bin/wbgov notify|' "$f" >"$tmp/wbgov-notify.desktop"
	desktop-file-validate "$tmp/wbgov-notify.desktop" >"$tmp/out" 2>&1 && [ ! -s "$tmp/out" ] ||
		fail "desktop-file-validate $f with Exec rewritten: $(cat "$tmp/out")"
	grep -qx 'Exec=/usr/local/bin/wbgov notify' "$f" || fail "$f: Exec is not the line make install rewrites"
	grep -qx 'NoDisplay=true' "$f" || fail "$f is shown in menus (no NoDisplay=true)"
	grep -q '^Name=.' "$f" || fail "$f has no Name"
	grep -q '^Icon=.' "$f" || fail "$f has no Icon"
done
grep -qx 'X-GNOME-UsesNotifications=true' "$A" ||
	fail "$A lacks X-GNOME-UsesNotifications=true: GNOME Settings would not list it"
grep -q '^X-GNOME-Autostart' "$X" || fail "$X is not the autostart file"
hint=$(sed -n 's/^#define NOTIFY_DESKTOP_ENTRY "\(.*\)"$/\1/p' src/cli/notify.c)
[ "$hint" = "$(basename "$A" .desktop)" ] ||
	fail "the desktop-entry hint is \"$hint\", the application entry $(basename "$A")"
echo "$me: ok"
