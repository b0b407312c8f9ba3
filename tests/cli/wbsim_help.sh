#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help: exit 0, the usage on stdout, nothing on stderr.
# --version: exit 0, "wbsim VERSION" on stdout, nothing on stderr.
set -eu
. "$(dirname "$0")/../lib/cli.sh"

rc=0
"$W" --help >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || fail "wbsim --help exited $rc, want 0"
[ ! -s "$tmp/err" ] || fail "wbsim --help wrote to stderr: $(head -n 3 "$tmp/err")"
grep -q '^Usage: wbsim' "$tmp/out" || fail "wbsim --help stdout has no 'Usage: wbsim' line"
for w in list run table --policy --param --format --plot --series --help --version; do
	grep -qF -e "$w" "$tmp/out" || fail "wbsim --help usage does not mention $w"
done

rc=0
"$W" --version >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || fail "wbsim --version exited $rc, want 0"
[ ! -s "$tmp/err" ] || fail "wbsim --version wrote to stderr: $(head -n 3 "$tmp/err")"
lines=$(awk 'END { print NR }' "$tmp/out")
[ "$lines" -eq 1 ] || fail "wbsim --version printed $lines lines, want 1"
grep -Eq '^wbsim [0-9]+(\.[0-9]+)*([-+~][0-9A-Za-z.+~-]*)?$' "$tmp/out" ||
	fail "wbsim --version printed '$(cat "$tmp/out")', want 'wbsim VERSION'"

echo "$me: ok"
