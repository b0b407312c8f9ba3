#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov speaks the user's language where po/ has it: with LANGUAGE=de (over
# C.UTF-8, which glibc has built in) and with LC_ALL=de_DE.UTF-8 (compiled
# here with localedef into a directory of the test's, LOCPATH, when the
# machine has the locale's source), the catalogue of this build
# ($BUILD/locale, WBGOV_TEXTDOMAINDIR) gives a command's usage, an error
# message, and cp's last line with the plural of its count in German;
# without a German locale, English. What programs read does not change: a
# number in cp --json keeps its decimal point under de_DE.UTF-8, where a
# German number has a comma. The notifications: tests/cli/dbus_notify.sh.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
L=$(cd "$(dirname "$W")" && pwd)/locale
[ -f "$L/de/LC_MESSAGES/wbgov.mo" ] || fail "no $L/de/LC_MESSAGES/wbgov.mo (make mo)"
FX=$tmp/fx
cli_fixture "$FX"
printf 'one\n' >"$tmp/a"
printf 'two\n' >"$tmp/b"
mkdir "$tmp/dst"

# check NAME ENV...: the usage, a message and cp's plurals in German
check() {
	name=$1
	shift
	env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp --help >"$tmp/help" || fail "$name: cp --help: exit $?"
	grep -q '^Aufruf: wbgov \[OPTIONEN\] cp \[--quiet\] \[--json\] SRC\.\.\. DEST$' "$tmp/help" ||
		fail "$name: cp --help is not German: $(head -n 3 "$tmp/help")"
	grep -q '^Dateien kopieren, jede an das Gerät geschickt' "$tmp/help" ||
		fail "$name: cp --help's text is not German (or not UTF-8): $(sed -n 3p "$tmp/help")"
	rc=0
	env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" sync "$tmp/nothing" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 69 ] || fail "$name: sync of no such path: exit $rc"
	grep -qx "wbgov sync: kein solches Gerät und kein solcher Pfad: $tmp/nothing" "$tmp/err" ||
		fail "$name: sync's message is not German: $(cat "$tmp/err")"
	rc=0
	env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" status --bogus 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 64 ] && grep -qx 'wbgov status: unbekannte Option --bogus; siehe wbgov status --help' "$tmp/err" ||
		fail "$name: an unknown option: exit $rc, $(cat "$tmp/err")"
	env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp "$tmp/a" "$tmp/dst/" 2>"$tmp/err" || fail "$name: cp one: $(cat "$tmp/err")"
	grep -q '^wbgov cp: 4 Byte in 1 Datei nach [0-9]*[.,][0-9] s dauerhaft gespeichert (' "$tmp/err" ||
		fail "$name: cp of one file: $(cat "$tmp/err")"
	env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp "$tmp/a" "$tmp/b" "$tmp/dst/" 2>"$tmp/err" ||
		fail "$name: cp two: $(cat "$tmp/err")"
	grep -q '^wbgov cp: 8 Byte in 2 Dateien nach ' "$tmp/err" || fail "$name: cp of two files: $(cat "$tmp/err")"
}

# LANGUAGE over C.UTF-8: glibc heeds LANGUAGE for any locale but C and
# POSIX, and C.UTF-8 needs no locale generated
check "LANGUAGE=de" LANGUAGE=de LC_ALL=C.UTF-8
# ... but not over C: there it is English, as any program's
env LANGUAGE=de LC_ALL=C WBGOV_TEXTDOMAINDIR="$L" "$W" cp --help | grep -q '^Usage: wbgov \[OPTIONS\] cp ' ||
	fail "LANGUAGE=de under LC_ALL=C is not English"
# English where no catalogue is (another language, or none found)
env LANGUAGE=fr LC_ALL=C.UTF-8 WBGOV_TEXTDOMAINDIR="$L" "$W" cp --help | grep -q '^Usage: wbgov \[OPTIONS\] cp ' ||
	fail "LANGUAGE=fr is not English"
env LANGUAGE=de LC_ALL=C.UTF-8 WBGOV_TEXTDOMAINDIR="$tmp/none" "$W" cp --help | grep -q '^Usage: wbgov \[OPTIONS\] cp ' ||
	fail "no catalogue: not English"

# LC_ALL=de_DE.UTF-8, the locale compiled for this test alone
if [ -f /usr/share/i18n/locales/de_DE ] && command -v localedef >/dev/null 2>&1; then
	mkdir "$tmp/loc"
	localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" 2>"$tmp/localedef.err" ||
		fail "localedef de_DE.UTF-8: $(cat "$tmp/localedef.err")"
	check "LC_ALL=de_DE.UTF-8" LANGUAGE= LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8
	# a German number has a comma; JSON's has a point
	env LANGUAGE= LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 "$W" cp --json "$tmp/a" "$tmp/dst/c" >"$tmp/json" ||
		fail "cp --json under de_DE.UTF-8: exit $?"
	/usr/bin/python3 -c 'import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    assert isinstance(o["elapsed_s"], float), l' "$tmp/json" || fail "cp --json under de_DE.UTF-8: $(cat "$tmp/json")"
	grep -q '"elapsed_s": [0-9]*\.[0-9]' "$tmp/json" || fail "cp --json's elapsed_s: $(cat "$tmp/json")"
	echo "$me: ok (LANGUAGE=de, and LC_ALL=de_DE.UTF-8 made with localedef)"
else
	[ "${CI:-}" != true ] || fail "no /usr/share/i18n/locales/de_DE or localedef (locales; CI=true)"
	echo "$me: ok (LANGUAGE=de only: no /usr/share/i18n/locales/de_DE to make de_DE.UTF-8 from)"
fi
