#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov speaks the user's language where po/ has it: with LANGUAGE=de (over
# C.UTF-8, which glibc has built in) and with LC_ALL=de_DE.UTF-8 (compiled
# here with localedef into a directory of the test's, LOCPATH, when the
# machine has the locale's source), the catalogue of this build
# ($BUILD/locale, WBGOV_TEXTDOMAINDIR) gives a command's usage, an error
# message, cp's last line with the plural of its count, status's table
# (lined up under headers of other widths) and explain's lines in German;
# without a German locale, English. What programs read does not change: a
# number in cp --json keeps its decimal point under de_DE.UTF-8, where a
# German number has a comma, and so do status's and explain's (LC_NUMERIC
# stays C). The notifications: tests/cli/dbus_notify.sh. Root takes no
# catalogue from its environment (a catalogue holds the format strings
# printf is given): as root, WBGOV_TEXTDOMAINDIR changes nothing.
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
# (as nobody when run as root: root takes no catalogue from its
# environment, below)
as_nobody

# check NAME ENV...: the usage, a message and cp's plurals in German
check() {
	name=$1
	shift
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp --help >"$tmp/help" || fail "$name: cp --help: exit $?"
	grep -q '^Aufruf: wbgov \[OPTIONEN\] cp \[--quiet\] \[--json\] SRC\.\.\. DEST$' "$tmp/help" ||
		fail "$name: cp --help is not German: $(head -n 3 "$tmp/help")"
	grep -q '^Dateien kopieren, jede an das Gerät geschickt' "$tmp/help" ||
		fail "$name: cp --help's text is not German (or not UTF-8): $(sed -n 3p "$tmp/help")"
	rc=0
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" sync "$tmp/nothing" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 69 ] || fail "$name: sync of no such path: exit $rc"
	grep -qx "wbgov sync: kein solches Gerät und kein solcher Pfad: $tmp/nothing" "$tmp/err" ||
		fail "$name: sync's message is not German: $(cat "$tmp/err")"
	rc=0
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" status --bogus 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 64 ] && grep -qx 'wbgov status: unbekannte Option --bogus; siehe wbgov status --help' "$tmp/err" ||
		fail "$name: an unknown option: exit $rc, $(cat "$tmp/err")"
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp "$tmp/a" "$tmp/dst/" 2>"$tmp/err" || fail "$name: cp one: $(cat "$tmp/err")"
	grep -q '^wbgov cp: 4 Byte in 1 Datei nach [0-9]*[.,][0-9] s dauerhaft gespeichert (' "$tmp/err" ||
		fail "$name: cp of one file: $(cat "$tmp/err")"
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" cp "$tmp/a" "$tmp/b" "$tmp/dst/" 2>"$tmp/err" ||
		fail "$name: cp two: $(cat "$tmp/err")"
	grep -q '^wbgov cp: 8 Byte in 2 Dateien nach ' "$tmp/err" || fail "$name: cp of two files: $(cat "$tmp/err")"
	# status's table: German headers (GERÄT: two bytes, one column), its
	# columns lined up under them, the numbers in C format (LC_NUMERIC
	# stays C), the footnotes and the last line in German
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" status >"$tmp/status" 2>"$tmp/err" ||
		fail "$name: status: exit $?, $(cat "$tmp/err")"
	grep -q '^GERÄT  *BDI  *MODELL  *BUS  *GEMESSEN STRIKT  *MAX  *DIRTY+WB RESTZEIT  EINHÄNGEPUNKTE$' \
		"$tmp/status" || fail "$name: status's headers: $(head -n 1 "$tmp/status")"
	grep -q '^sdb  *8:16  *SanDisk Cruzer ? Blade  *usb  *-  *nein  *3\.1 GiB  *-  *-  /media/user/NO NAME, /media/user/Café$' \
		"$tmp/status" || fail "$name: status's sdb: $(grep '^sdb ' "$tmp/status")"
	grep -qx 'GEMESSEN, RESTZEIT: - bis wbgovd das Gerät gemessen hat (es läuft nicht)' "$tmp/status" &&
		grep -q '^DIRTY+WB, RESTZEIT: - wo die eigenen Zähler des bdi nicht lesbar sind' "$tmp/status" &&
		grep -qx 'System: Dirty 4\.0 MiB, Writeback 1\.0 MiB; wbgovd läuft nicht' "$tmp/status" ||
		fail "$name: status's footnotes: $(tail -n 4 "$tmp/status")"
	aligned "$name: status" "$tmp/status" table
	# explain: the labels in German, the texts after them in one column
	# (the longest label's, "eingehängt unter:"), but the what-if rule's
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" explain sdb >"$tmp/explain" 2>"$tmp/err" ||
		fail "$name: explain: exit $?, $(cat "$tmp/err")"
	grep -qx '  Fakten:           model "SanDisk Cruzer ? Blade", serial "4C530001190823115393", bus usb, removable ja, rotational ja' "$tmp/explain" &&
		grep -qx '  eingehängt unter: /media/user/NO NAME, /media/user/Café' "$tmp/explain" &&
		grep -qx '  gemessen:         noch nicht (wbgovd läuft nicht)' "$tmp/explain" &&
		grep -qx '  Regel (wenn wbgovd liefe): noch nicht gemessen: die anfängliche Obergrenze' "$tmp/explain" &&
		grep -qx '  Grenze:           strict_limit 1, max_bytes 4194304 (4\.0 MiB)' "$tmp/explain" ||
		fail "$name: explain is not German, or not lined up: $(cat "$tmp/explain")"
	aligned "$name: explain" "$tmp/explain" labels
	rc=0
	$AS env "$@" WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" explain nothing-here 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 69 ] && grep -qx 'wbgov explain: kein solches Gerät und kein solcher Pfad: nothing-here' "$tmp/err" ||
		fail "$name: explain of no such device: exit $rc, $(cat "$tmp/err")"
}

# aligned WHAT FILE table|labels: in terminal columns (characters: the
# fixture has no wide ones), every row of status's table starts its
# left-aligned cells where their header starts and ends its right-aligned
# ones where their header ends; every line of explain but its heads and the
# what-if rule's has its text at one column
aligned() {
	/usr/bin/python3 - "$2" "$3" <<'PY' || fail "$1: not lined up: $(cat "$2")"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
if sys.argv[2] == "table":
    head = lines[0]
    cols = [(m.start(), m.end()) for m in re.finditer(r"\S+", head)]
    assert len(cols) == 10, head
    rows = lines[1:lines.index("")]  # up to the footnotes
    assert len(rows) >= 10, rows
    for r in rows:
        for i, (a, b) in enumerate(cols):
            if i < 4 or i == 9:  # left-aligned, and the mounts
                assert r[a] != " " and (a == 0 or r[a - 1] == " "), (i, r)
            else:
                assert r[b - 1] != " " and r[b] == " ", (i, r)
else:
    at = set()
    for l in lines:
        if l.startswith("  ") and "(wenn wbgovd liefe)" not in l:
            m = re.match(r"  [^:]+: +", l)
            assert m, l
            at.add(m.end())
    assert len(at) == 1, at
PY
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
# root takes no catalogue from its environment (this release's wbgov did)
if [ "$(id -u)" = 0 ]; then
	env LANGUAGE=de LC_ALL=C.UTF-8 WBGOV_TEXTDOMAINDIR="$L" "$W" cp --help | grep -q '^Usage: wbgov \[OPTIONS\] cp ' ||
		fail "root took its catalogue from WBGOV_TEXTDOMAINDIR"
fi

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
