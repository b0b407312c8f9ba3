#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The translations are current: po/wbgov.pot is what `make pot` extracts
# from the sources now (xgettext), and each po/LANG.po is what merging it
# with that template gives (msgmerge): a text added or changed in the
# code without `make pot` fails here. Every catalogue compiles with
# msgfmt --check (its format strings match the msgids'), none holds a
# fuzzy entry (a guess msgmerge made, which gettext never shows), and the
# German one translates every text of the commands, their tables and
# notifications (src/cmd/wbgov.c, every src/cli/*.c: status's table,
# explain's lines, and the rule's words of src/policy/decide.c).
set -eu
cd "$(dirname "$0")/../.."
me=${0##*/}
MAKE=${MAKE:-make}
fail() { printf '%s: FAIL: %s\n' "$me" "$*" >&2; exit 1; }
for c in xgettext msgmerge msgfmt msgattrib; do
	if ! command -v "$c" >/dev/null 2>&1; then
		[ "${CI:-}" != true ] || fail "no $c (gettext; CI=true: not skipping)"
		echo "$me: skipped: no $c (scripts/deps.sh installs gettext)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

mkdir "$tmp/po"
"$MAKE" --no-print-directory -s PODIR="$tmp/po" pot >"$tmp/make.log" 2>&1 ||
	fail "make pot: $(cat "$tmp/make.log")"
# the date of the extraction is the only line that may differ
nodate() { grep -v '^"POT-Creation-Date: ' "$1"; }
for f in wbgov.pot $(cd po && ls ./*.po | sed 's|^\./||'); do
	[ -f "$tmp/po/$f" ] || fail "make pot made no $f"
	nodate "po/$f" >"$tmp/committed"
	nodate "$tmp/po/$f" >"$tmp/made"
	diff -u "$tmp/committed" "$tmp/made" >"$tmp/diff" ||
		fail "po/$f is not current (run make pot, translate, commit): $(head -n 30 "$tmp/diff")"
done
for p in po/*.po; do
	msgfmt --check -o /dev/null "$p" 2>"$tmp/err" || fail "msgfmt --check $p: $(cat "$tmp/err")"
	msgattrib --only-fuzzy --no-obsolete "$p" | grep -q '^msgid' && fail "$p has fuzzy entries: $(msgattrib --only-fuzzy --no-obsolete "$p" | grep -A2 '^msgid' | head -n 12)"
	:
done
msgattrib --untranslated --no-obsolete po/de.po >"$tmp/untranslated"
must='^#: .*(src/cmd/wbgov\.c|src/cli/[a-z_]+\.c|src/policy/decide\.c)'
if grep -E "$must" "$tmp/untranslated" >/dev/null; then
	fail "po/de.po leaves texts of the commands or notifications untranslated: $(grep -A3 -E "$must" "$tmp/untranslated" | head -n 12)"
fi
# the header says how German forms its plurals
grep -qx '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' po/de.po || fail "po/de.po: no German Plural-Forms"
echo "$me: ok ($(msgfmt --statistics -o /dev/null po/de.po 2>&1))"
