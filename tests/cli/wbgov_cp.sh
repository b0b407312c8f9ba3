#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov cp without root, into a temporary directory: one file, several into
# a directory with a blank in its name, a file name as DEST; the contents
# compared with cmp, the source's permissions less the umask; --json's last
# object counts every byte durable, --quiet prints nothing, a final line
# when standard error is no terminal. Refused before anything is written
# (the exit status, a message naming the bad input, nothing created): no
# such SRC, a directory, several SRCs and a DEST that is not a directory,
# DEST a directory that does not exist, the same file twice, an option of
# another command. A write that fails mid-way (a file size limit: EFBIG)
# exits 74 and leaves neither the partial copy nor its temporary file, and
# a DEST that was there keeps its old content.
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"

run() { # NAME ARG...: stdout in $tmp/NAME, stderr in $tmp/NAME.err, status in $rc
	name=$1
	shift
	rc=0
	"$W" "$@" >"$tmp/$name" 2>"$tmp/$name.err" </dev/null || rc=$?
}
# nothing but the sources in the directory: no copy, no temporary file
untouched() {
	[ -z "$(ls -A "$1")" ] || fail "$2: left $(ls -A "$1" | tr '\n' ' ')"
}
umask 022
src="$tmp/the source"
mkdir "$src"
head -c 9000000 /dev/urandom >"$src/big file"
printf 'small\n' >"$src/small"
chmod 750 "$src/small"
out="$tmp/NO NAME"
mkdir "$out"

# --- one file into a directory, several into it, a file name as DEST
run one cp "$src/big file" "$out"
[ "$rc" = 0 ] || fail "cp into a directory: exit $rc: $(cat "$tmp/one.err")"
cmp -s "$src/big file" "$out/big file" || fail "cp into a directory: the copy differs"
grep -q "^wbgov cp: 8.6 MiB in 1 file durable after [0-9.]* s (" "$tmp/one.err" ||
	fail "no final line on a stderr that is no terminal: $(cat "$tmp/one.err")"
[ ! -s "$tmp/one" ] || fail "cp wrote to stdout without --json"
rm -f "$out/big file"
run many cp "$src/big file" "$src/small" "$out/"
[ "$rc" = 0 ] || fail "cp of two files: exit $rc: $(cat "$tmp/many.err")"
cmp -s "$src/big file" "$out/big file" && cmp -s "$src/small" "$out/small" ||
	fail "cp of two files: a copy differs"
grep -q "in 2 files durable" "$tmp/many.err" || fail "cp of two files: $(cat "$tmp/many.err")"
[ "$(stat -c %a "$out/small")" = 750 ] || fail "mode $(stat -c %a "$out/small"), want 750"
run named cp "$src/small" "$out/another name"
[ "$rc" = 0 ] && cmp -s "$src/small" "$out/another name" || fail "cp to a file name: exit $rc"
[ -z "$(ls -A "$out" | grep wbgov || true)" ] || fail "a temporary file was left: $(ls -A "$out")"

# --- --json: one object a line on stdout, the last with every byte durable
run json cp --json "$src/big file" "$out/j"
[ "$rc" = 0 ] || fail "cp --json: exit $rc"
[ ! -s "$tmp/json.err" ] || fail "cp --json wrote to stderr: $(cat "$tmp/json.err")"
python3 - "$tmp/json" <<'PY' || fail "cp --json: see above"
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
last = ls[-1]
keys = {"elapsed_s", "durable_bytes", "total_bytes", "rate_bps", "eta_s", "file", "done"}
if set(last) != keys:
    sys.exit("keys %s" % sorted(set(last) ^ keys))
if not (last["done"] is True and last["durable_bytes"] == last["total_bytes"] == 9000000):
    sys.exit("last object %r" % last)
PY
run quiet cp --quiet "$src/small" "$out/q"
[ "$rc" = 0 ] && [ ! -s "$tmp/quiet" ] && [ ! -s "$tmp/quiet.err" ] || fail "cp --quiet: exit $rc, printed something"
cmp -s "$src/small" "$out/q" || fail "cp --quiet: the copy differs"

# --- refused, nothing written
empty="$tmp/empty dir"
mkdir "$empty"
refused() { # STATUS WANT-IN-MESSAGE ARG...
	want_rc=$1 want=$2
	shift 2
	run bad "$@"
	[ "$rc" = "$want_rc" ] || fail "wbgov $*: exit $rc, want $want_rc ($(cat "$tmp/bad.err"))"
	grep -qF -- "$want" "$tmp/bad.err" || fail "wbgov $*: '$(cat "$tmp/bad.err")' does not say '$want'"
	untouched "$empty" "wbgov $*"
}
refused 66 "$src/nosuch: No such file or directory" cp "$src/small" "$src/nosuch" "$empty"
refused 66 "$src is a directory" cp "$src" "$empty"
refused 64 "$src/small: not a directory; several files go into a directory" \
	cp "$src/big file" "$src/small" "$src/small"
refused 64 "$empty/x: no such directory" cp "$src/big file" "$src/small" "$empty/x"
refused 73 "$empty/nodir/: no such directory" cp "$src/small" "$empty/nodir/"
refused 73 "cannot write in $empty/nodir" cp "$src/small" "$empty/nodir/x"
refused 64 "cp needs SRC... DEST" cp "$src/small"
refused 64 "--no-power-off is not an option of cp" cp --no-power-off "$src/small" "$empty"
refused 64 "--quiet is not an option of sync" sync --quiet
refused 64 "are the same file" cp "$src/small" "$src/small"
cmp -s "$src/small" "$out/q" || fail "the same file twice: the source changed"

# --- a write that fails mid-way (the file size limit: EFBIG): 74, no
# partial copy, no temporary file; a DEST that was there is kept
printf 'old\n' >"$empty/kept"
rc=0
(trap '' XFSZ; ulimit -f 2048; exec "$W" cp "$src/big file" "$empty/kept") 2>"$tmp/fsz.err" || rc=$?
[ "$rc" = 74 ] || fail "a write that fails: exit $rc, want 74 ($(cat "$tmp/fsz.err"))"
grep -q "File too large; $empty/kept not written (the partial copy is removed)" "$tmp/fsz.err" ||
	fail "a write that fails: $(cat "$tmp/fsz.err")"
[ "$(cat "$empty/kept")" = old ] || fail "a write that fails replaced DEST"
[ "$(ls -A "$empty")" = kept ] || fail "a write that fails left $(ls -A "$empty" | tr '\n' ' ')"

# --- help: its own, and in wbgov --help
run help cp --help
[ "$rc" = 0 ] && head -n 1 "$tmp/help" | grep -q "^Usage: wbgov \[OPTIONS\] cp \[--quiet\] \[--json\] SRC... DEST" ||
	fail "wbgov cp --help: $(head -n 1 "$tmp/help")"
grep -q "durable" "$tmp/help" || fail "wbgov cp --help does not say what it shows"
run help --help
grep -q "wbgov cp \[--quiet\] \[--json\] SRC... DEST" "$tmp/help" || fail "wbgov --help does not list cp"
echo "$me: ok"
