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
cp kernel/[0-9][0-9][0-9][0-9]-*.patch "$t/kernel/"
cp kernel/0001-*.patch "$t/kernel/9999-again.patch"
mkdir -p "$t/bench"
cp bench/kernel "$t/bench/"
"$t/bench/kernel" check >/dev/null 2>"$t/err" && { echo "$me: FAIL: a patch applied twice passed the check" >&2; exit 1; }
grep -q "9999-again.patch does not apply" "$t/err" || { echo "$me: FAIL: the check did not name the patch: $(cat "$t/err")" >&2; exit 1; }
# every patch: a subject of this version, the project's From: and
# Signed-off-by:, and a changelog below the --- line, before the diff
n=0
for p in kernel/[0-9][0-9][0-9][0-9]-*.patch; do
	case "${p##*/}" in 0000-*) continue ;; esac
	n=$((n + 1))
	grep -q "^Subject: \[PATCH v2 $n/" "$p" || { echo "$me: FAIL: $p: no [PATCH v2 $n/N] subject" >&2; exit 1; }
	grep -q "^From: wbgov <" "$p" && grep -q "^Signed-off-by: wbgov <" "$p" ||
		{ echo "$me: FAIL: $p: From: or Signed-off-by: does not name the project" >&2; exit 1; }
	awk '/^---$/ { below = 1; next } /^diff --git/ { exit } below && /^v1 -> v2:|^v2: new/ { found = 1 } END { exit !found }' "$p" ||
		{ echo "$me: FAIL: $p: no v1 -> v2 changelog below the --- line" >&2; exit 1; }
done
c=kernel/0000-cover-letter.patch
grep -q "^Subject: \[PATCH v2 0/$n\]" "$c" || { echo "$me: FAIL: the cover letter's subject is not [PATCH v2 0/$n]" >&2; exit 1; }
grep -q "^Changes in v2" "$c" || { echo "$me: FAIL: the cover letter has no v2 changelog" >&2; exit 1; }
grep -q "Developer's Certificate of Origin" "$c" || { echo "$me: FAIL: the cover letter does not tell a submitter to sign off" >&2; exit 1; }
echo "$me: ok"
