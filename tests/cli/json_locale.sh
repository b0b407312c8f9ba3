#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JSON is the same in every locale: explain --json's write_error is the
# kernel's error as C spells it ("Invalid argument"), also when the user's
# messages are German (LANGUAGE=de), where glibc's strerror says "Das
# Argument ist ungültig". Over the fixture tree, with wbgovd's record of a
# failed write (err=-22) and a process called wbgovd holding its pid file.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
cli_fixture "$FX"
mkdir -p "$tmp/st" "$tmp/bin"
# glibc's own German catalogue (package locales), which strerror follows
if [ "$(LANGUAGE=de LC_ALL=C.UTF-8 ls /nonexistent 2>&1 | grep -c 'nicht gefunden')" = 0 ]; then
	[ "${CI:-}" != true ] || fail "glibc has no German messages (locales; CI=true: not skipping)"
	echo "$me: skipped: glibc has no German messages (install locales)" >&2
	exit 77
fi
cat >"$tmp/st/status" <<'EOT'
bdi=179:0 bw=5000000 measures=3 why=0 max_bytes=4194304 strict=1 err=-22 source=2 decisions=7
EOT
cp "$(command -v sleep)" "$tmp/bin/wbgovd"
"$tmp/bin/wbgovd" 30 &
LOCKER=$!
echo $LOCKER >"$tmp/st/wbgovd.pid"
trap 'kill $LOCKER 2>/dev/null || true; rm -rf "$tmp"' EXIT
L=$(cd "$(dirname "$W")" && pwd)/locale
# (as nobody when run as root, who takes no catalogue from its environment)
as_nobody
for lang in C.UTF-8 de; do
	$AS env LANGUAGE=$lang LC_ALL=C.UTF-8 WBGOV_TEXTDOMAINDIR="$L" "$W" --root "$FX" --state-dir "$tmp/st" \
		explain --json mmcblk0 >"$tmp/out" || fail "explain --json (LANGUAGE=$lang) exited $?"
	grep -q '"decided_by": "wbgovd"' "$tmp/out" || fail "wbgovd's record not read: $(cat "$tmp/out")"
	grep -qF '"write_error": "Invalid argument"' "$tmp/out" ||
		fail "LANGUAGE=$lang: write_error is $(grep write_error "$tmp/out"), want \"Invalid argument\""
done
echo "$me: ok"
