#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel series (kernel/*.patch) applies to the pinned source, Debian's
# linux-source-6.12 (scripts/deps.sh installs it); skipped with a message
# where it is not installed, except under CI=true, where that fails.
set -eu
cd "$(dirname "$0")/../.."
me=$(basename "$0")
[ -f /usr/src/linux-source-6.12.tar.xz ] || {
	[ "${CI:-}" = true ] && { echo "$me: FAIL: /usr/src/linux-source-6.12.tar.xz not installed (scripts/deps.sh)" >&2; exit 1; }
	echo "$me: skipped: /usr/src/linux-source-6.12.tar.xz not installed (apt-get install linux-source-6.12)"
	exit 77
}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# the series' files extracted once, for both checks
export WBGOV_KERNEL_FILES="$t/files"
out=$(bench/kernel check 2>&1) || { echo "$me: FAIL: $out" >&2; exit 1; }
[ -s "$t/files/.files" ] || { echo "$me: FAIL: bench/kernel check kept no files in WBGOV_KERNEL_FILES" >&2; exit 1; }
# a patch that does not apply is caught: the series, then its first patch
# again (the same files: the extracted ones serve)
mkdir -p "$t/kernel"
cp -r kernel/. "$t/kernel/"
cp kernel/0001-*.patch "$t/kernel/9999-again.patch"
mkdir -p "$t/bench"
cp bench/kernel "$t/bench/"
"$t/bench/kernel" check >/dev/null 2>"$t/err" && { echo "$me: FAIL: a patch applied twice passed the check" >&2; exit 1; }
grep -q "9999-again.patch does not apply" "$t/err" || { echo "$me: FAIL: the check did not name the patch: $(cat "$t/err")" >&2; exit 1; }
# the fix, posted on its own: v3, its Fixes: tag, a changelog below the
# --- line, and no Signed-off-by: (a person's, left to whoever posts it,
# as the note there says); the RFC: on the fix alone, naming it; the
# compared proposals: each given its reason in kernel/README.md
body() { awk '/^---$/ { exit } { print }' "$1"; }
below() { awk '/^---$/ { below = 1; next } /^diff --git/ { exit } below' "$1"; }
fix=$(ls kernel/0001-*.patch)
[ "$(ls kernel/[0-9][0-9][0-9][0-9]-*.patch | wc -l)" = 1 ] ||
	{ echo "$me: FAIL: kernel/ holds more than the fix: $(ls kernel/[0-9][0-9][0-9][0-9]-*.patch)" >&2; exit 1; }
grep -q '^Subject: \[PATCH v3\] mm/page-writeback: keep the write bandwidth estimate' "$fix" ||
	{ echo "$me: FAIL: $fix: no [PATCH v3] subject" >&2; exit 1; }
body "$fix" | grep -q '^Fixes: fee468fdf41c ("writeback: reliably update bandwidth estimation")$' ||
	{ echo "$me: FAIL: $fix: no Fixes: tag" >&2; exit 1; }
below "$fix" | grep -q '^v2 -> v3' || { echo "$me: FAIL: $fix: no v2 -> v3 changelog below the --- line" >&2; exit 1; }
for p in "$fix" kernel/rfc/[0-9][0-9][0-9][0-9]-*.patch; do
	grep -q "^From: wbgov <" "$p" || { echo "$me: FAIL: $p: From: does not name the project" >&2; exit 1; }
	! grep -q '^Signed-off-by:' "$p" || { echo "$me: FAIL: $p: a Signed-off-by: the project cannot give" >&2; exit 1; }
	below "$p" | grep -q "Developer's Certificate of Origin is a person's" ||
		{ echo "$me: FAIL: $p: does not tell the submitter to sign off" >&2; exit 1; }
done
n=0
for p in kernel/rfc/[0-9][0-9][0-9][0-9]-*.patch; do
	n=$((n + 1))
	grep -q '^Subject: \[RFC PATCH v3\]' "$p" || { echo "$me: FAIL: $p: no [RFC PATCH v3] subject" >&2; exit 1; }
	below "$p" | tr '\n' ' ' | grep -q 'keep the write bandwidth estimate across idle periods' ||
		{ echo "$me: FAIL: $p: does not name the fix it depends on" >&2; exit 1; }
done
[ $n -ge 1 ] || { echo "$me: FAIL: no RFC in kernel/rfc" >&2; exit 1; }
for p in kernel/compared/[0-9][0-9][0-9][0-9]-*.patch; do
	grep -q "^| \[${p##*/compared/}\](compared/${p##*/})" kernel/README.md ||
		{ echo "$me: FAIL: kernel/README.md's comparison has no row for $p" >&2; exit 1; }
done
echo "$me: ok"
