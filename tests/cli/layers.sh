#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers of docs/design.md hold in the code. docs/design.md's fenced
# block ```layers names every directory of src/ as a layer, top to bottom,
# one line each, `LAYER: may include LAYER...` (or `nothing`): the only
# arrows there are, each pointing down. Every `#include "..."` under src/
# must follow one (a file may always include its own layer's headers), and
# every arrow must be taken by some include, so that the picture neither
# misses an arrow the code has nor keeps one the code dropped. Each layer
# has its paragraph in docs/design.md, a list item "- **`LAYER/`**: ...".
# Usage: layers.sh [TREE] (default: this repository).
set -eu
cd "${1:-$(dirname "$0")/../..}"
doc=docs/design.md
[ -f "$doc" ] || { echo "layers: $doc: no such file" >&2; exit 1; }
# every directory of src/ holding C, whatever its files are called
dirs=$(find src -mindepth 2 -name '*.[ch]' | cut -d/ -f2 | sort -u | tr '\n' ' ')
files=$(find src -mindepth 2 -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "layers: no C file under src/" >&2; exit 1; }

# shellcheck disable=SC2086 # $files: paths without blanks, one argument each
awk -v doc="$doc" -v dirs="$dirs" '
function fail(msg) { print "layers: " msg > "/dev/stderr"; bad = 1 }
FILENAME == doc {
	# a layer'"'"'s paragraph: a list item that starts with its name in bold
	if ($0 ~ /^- \*\*`[a-z][a-z0-9_]*\/`\*\*/) {
		name = $0
		sub(/^- \*\*`/, "", name)
		sub(/\/.*/, "", name)
		para[name] = FNR
	}
	if (!inblock) {
		if ($0 ~ /^```layers[ \t]*$/) { inblock = 1; seen = 1 }
		next
	}
	if ($0 ~ /^```/) { inblock = 0; next }
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	if ($0 !~ /^[a-z][a-z0-9_]*:[ \t]+may include[ \t]/) {
		fail(doc ":" FNR ": \"" $0 "\": want \"LAYER: may include LAYER...\" or \"LAYER: may include nothing\"")
		next
	}
	layer = $1
	sub(/:$/, "", layer)
	if (layer in rank) {
		fail(doc ":" FNR ": layer " layer " stands twice")
		next
	}
	rank[layer] = ++nlayers
	order[nlayers] = layer
	for (i = 4; i <= NF; i++) {
		if ($i == "nothing" && NF == 4)
			break
		arrow[layer, $i] = FNR
		narrows++
	}
	next
}
FNR == 1 && !checked_doc {
	checked_doc = 1
	if (!seen) {
		fail(doc ": no ```layers block")
		exit 1
	}
	# each arrow points to a layer the block names below its own
	for (k in arrow) {
		split(k, ab, SUBSEP)
		if (!(ab[2] in rank))
			fail(doc ":" arrow[k] ": " ab[1] " may include " ab[2] ", which is no layer of the block")
		else if (rank[ab[2]] <= rank[ab[1]])
			fail(doc ":" arrow[k] ": " ab[1] " may include " ab[2] ", which stands above it: an include would run back up")
	}
	# each layer has its paragraph, each paragraph a layer
	for (i = 1; i <= nlayers; i++)
		if (!(order[i] in para))
			fail(doc ": layer " order[i] " has no paragraph (a line \"- **`" order[i] "/`**: ...\")")
	for (name in para)
		if (!(name in rank))
			fail(doc ":" para[name] ": a paragraph for " name "/, which is no layer of the block")
	# the block and src/ name the same directories
	n = split(dirs, d, " ")
	for (i = 1; i <= n; i++) {
		isdir[d[i]] = 1
		if (!(d[i] in rank))
			fail("src/" d[i] "/: a directory " doc "'"'"'s layers do not name")
	}
	for (i = 1; i <= nlayers; i++)
		if (!(order[i] in isdir))
			fail(doc ": layer " order[i] ": no C file in src/" order[i] "/")
}
{
	if ($0 !~ /^[ \t]*#[ \t]*include[ \t]*"/)
		next
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc)
	sub(/".*/, "", inc)
	split(FILENAME, p, "/")
	from = p[2]
	to = inc ~ /\// ? substr(inc, 1, index(inc, "/") - 1) : from
	nincludes++
	if (!(to in rank)) {
		fail(FILENAME ":" FNR ": #include \"" inc "\": " to " is no layer of " doc)
		next
	}
	if (to == from)
		next
	if (!((from, to) in arrow)) {
		fail(FILENAME ":" FNR ": #include \"" inc "\": " from " may not include " to " (" doc ", ```layers)")
		next
	}
	used[from, to] = 1
}
END {
	if (!seen)
		exit 1
	for (k in arrow)
		if (!(k in used)) {
			split(k, ab, SUBSEP)
			fail(doc ":" arrow[k] ": " ab[1] " may include " ab[2] ", but no file of src/" ab[1] "/ includes one of src/" ab[2] "/: take the arrow out")
		}
	if (nincludes == 0)
		fail("no #include \"...\" under src/: nothing checked")
	if (bad)
		exit 1
	printf "layers: %d includes in src/ follow the %d arrows between %d layers of %s\n", nincludes, narrows, nlayers, doc
}
' "$doc" $files

# The simulator stands apart from the system: wbsim links no library of
# the daemon's (sd-bus, udev, blkid, mount), only the configuration
# reader's libinih and jansson for its JSON.
BUILD=${BUILD:-build}
if [ -x "$BUILD/wbsim" ]; then
	libs=$(ldd "$BUILD/wbsim" | grep -oE 'lib(systemd|udev|blkid|mount)\.so[.0-9]*' || true)
	[ -z "$libs" ] || { echo "layers.sh: FAIL: $BUILD/wbsim links $libs"; exit 1; }
else
	echo "layers.sh: FAIL: no $BUILD/wbsim to look at (make first)"; exit 1
fi
