#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check and make check-system build what their tests read besides the
# programs: the manuals (scdoc; tests/cli/install.sh and the man tests) and
# the compiled translations (msgfmt; wbgov_i18n.sh, dbus_notify.sh), so that
# either works from a clean tree. Checked with make -n in an empty BUILD.
set -eu
cd "$(dirname "$0")/../.."
me=${0##*/}
MAKE=${MAKE:-make}
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for target in check check-system; do
	env -u MAKEFLAGS -u MFLAGS "$MAKE" --no-print-directory -n BUILD="$tmp/b" "$target" >"$tmp/n" 2>&1 ||
		fail "make -n $target: $(tail -n 3 "$tmp/n")"
	grep -q 'msgfmt .*locale/de/LC_MESSAGES/wbgov\.mo' "$tmp/n" ||
		fail "make $target does not build the translations (make mo) its tests read"
	grep -q 'scdoc' "$tmp/n" || fail "make $target does not build the manuals (make man) its tests read"
done
[ ! -e "$tmp/b" ] || fail "make -n made $tmp/b"
echo "$me: ok"
