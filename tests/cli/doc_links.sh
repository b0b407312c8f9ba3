#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every relative link in README.md and docs/*.md names a file of the
# repository, and nothing points outside it (a plain clone has no ../):
# the design notes the docs rely on live in docs/.
set -eu
cd "$(dirname "$0")/../.."
bad=0
for f in README.md docs/*.md; do
	dir=$(dirname "$f")
	# [text](target) links, neither web addresses nor anchors
	for t in $(grep -o '\]([^)]*)' "$f" | sed 's/^](//; s/)$//; s/#.*//' | grep -v '^[a-z]*:' | grep -v '^$'); do
		if [ ! -e "$dir/$t" ]; then
			echo "doc_links: $f: link to $t: no such file" >&2
			bad=1
		fi
		case $(realpath -m "$dir/$t") in
		"$(pwd)"/*) ;;
		*) echo "doc_links: $f: link to $t leaves the repository" >&2; bad=1 ;;
		esac
	done
	if grep -n '\.\./shared\|\.\./\.\.' "$f" >&2; then
		echo "doc_links: $f: refers to files outside the repository" >&2
		bad=1
	fi
done
exit $bad
