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
# a DEST that was there keeps its old content, also where the file size
# limit's signal (SIGXFSZ) is not ignored by the caller.
# A replaced DEST keeps its permission bits (0600 stays 0600, setuid of
# its owner stays) and its access ACL; as root, its owner and group too,
# and as another user the copy is the copier's, without setuid or setgid;
# while written the copy is the copier's alone (0600). A DEST with other
# hard links is refused (73, naming it and its link count), nothing
# written. Through a shim preloaded into wbgov (built here: the fsync of
# a directory made to fail, sync_file_range slowed, a signal raised in
# the middle of the copy): a directory that cannot be synced after the
# rename exits 1, says DEST holds the copy, removes nothing and copies no
# more; SIGHUP, SIGTERM, SIGINT mid-way and a terminal that hangs up (a
# pty closed) exit 130 with DEST untouched and no temporary file; the
# reader of --json gone (SIGPIPE) too; a SIGHUP the caller ignores
# (nohup) lets the copy finish.
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
keys = {"schema", "elapsed_s", "durable_bytes", "total_bytes", "rate_bps", "eta_s", "file", "done"}
if set(last) != keys:
    sys.exit("keys %s" % sorted(set(last) ^ keys))
if any(l.get("schema") != 1 for l in ls):
    sys.exit("a line without schema 1: %r" % [l for l in ls if l.get("schema") != 1][0])
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

# --- the file size limit's signal not ignored by the caller: wbgov cp
# ignores it itself, so the write fails (EFBIG), 74, and nothing is left
rc=0
(trap - XFSZ; ulimit -f 2048; exec "$W" cp "$src/big file" "$empty/kept") 2>"$tmp/fsz.err" || rc=$?
[ "$rc" = 74 ] || fail "past ulimit -f, SIGXFSZ not ignored: exit $rc, want 74 ($(cat "$tmp/fsz.err"))"
[ "$(cat "$empty/kept")" = old ] && [ "$(ls -A "$empty")" = kept ] ||
	fail "past ulimit -f, SIGXFSZ not ignored: left $(ls -A "$empty" | tr '\n' ' ')"

# --- a replaced DEST keeps its permission bits and ACL; the copy is 0600
# while written (seen in the hang-up test below)
printf 'secret\n' >"$empty/kept"
chmod 600 "$empty/kept"
run keep600 cp "$src/small" "$empty/kept"
[ "$rc" = 0 ] && cmp -s "$src/small" "$empty/kept" || fail "cp over a 0600 file: exit $rc"
[ "$(stat -c %a "$empty/kept")" = 600 ] || fail "cp over a 0600 file made it $(stat -c %a "$empty/kept")"
chmod 4755 "$empty/kept"
run keepsuid cp "$src/small" "$empty/kept"
[ "$(stat -c %a "$empty/kept")" = 4755 ] || fail "cp over our own 4755 file made it $(stat -c %a "$empty/kept")"
chmod 640 "$empty/kept"
# an access ACL (user_obj rw, user 65534 r, group_obj none, mask r, other
# none: "0640" in st_mode, yet the owning group may not read)
if python3 - "$empty/kept" <<'PY'
import os, struct, sys
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in [
    (0x01, 6, 0xFFFFFFFF), (0x02, 4, 65534), (0x04, 0, 0xFFFFFFFF), (0x10, 4, 0xFFFFFFFF),
    (0x20, 0, 0xFFFFFFFF)])
try:
    os.setxattr(sys.argv[1], "system.posix_acl_access", acl)
except OSError:
    sys.exit(1)  # no ACLs on this file system: nothing to keep
PY
then
	python3 -c 'import os, sys; sys.stdout.buffer.write(os.getxattr(sys.argv[1], "system.posix_acl_access"))' \
		"$empty/kept" >"$tmp/acl.before"
	run keepacl cp "$src/small" "$empty/kept"
	[ "$rc" = 0 ] || fail "cp over a file with an ACL: exit $rc: $(cat "$tmp/keepacl.err")"
	python3 -c 'import os, sys; sys.stdout.buffer.write(os.getxattr(sys.argv[1], "system.posix_acl_access"))' \
		"$empty/kept" >"$tmp/acl.after" 2>/dev/null || : >"$tmp/acl.after"
	cmp -s "$tmp/acl.before" "$tmp/acl.after" || fail "cp over a file with an ACL lost it"
	[ "$(stat -c %a "$empty/kept")" = 640 ] || fail "cp over a file with an ACL: mode $(stat -c %a "$empty/kept")"
else
	echo "$me: no ACLs where $tmp is: the ACL is not tested"
fi
rm -f "$empty/kept"
if [ "$(id -u)" = 0 ]; then
	# root keeps the owner and group, setuid and setgid with them
	printf 'theirs\n' >"$empty/theirs"
	chown 65534:65534 "$empty/theirs"
	chmod 6750 "$empty/theirs"
	run keepown cp "$src/small" "$empty/theirs"
	[ "$rc" = 0 ] && cmp -s "$src/small" "$empty/theirs" || fail "root's cp over another's file: exit $rc"
	[ "$(stat -c %u:%g:%a "$empty/theirs")" = 65534:65534:6750 ] ||
		fail "root's cp over nobody's 6750 file made it $(stat -c %u:%g:%a "$empty/theirs")"
	# another user, over root's setuid file in a directory open to all:
	# the copy is theirs, with the bits but not setuid or setgid
	shared="$tmp/shared"
	mkdir "$shared"
	chmod 777 "$shared"
	chmod 755 "$tmp" "$src"
	chmod 644 "$src/small"
	printf 'roots\n' >"$shared/tool"
	chmod 6755 "$shared/tool"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$W" cp -q "$src/small" "$shared/tool" \
		2>"$tmp/nobody.err" || rc=$?
	[ "$rc" = 0 ] && cmp -s "$src/small" "$shared/tool" || fail "nobody's cp over root's file: exit $rc: $(cat "$tmp/nobody.err")"
	[ "$(stat -c %u:%g:%a "$shared/tool")" = 65534:65534:755 ] ||
		fail "nobody's cp over root's 6755 file made it $(stat -c %u:%g:%a "$shared/tool")"
	chmod 750 "$src/small"
	rm -rf "$shared" "$empty/theirs"
fi

# --- a DEST with other links: refused, nothing written, both names as
# they were; in a list of files, before the first is copied
printf 'linked\n' >"$empty/kept"
ln "$empty/kept" "$empty/other name"
refused_link() { # ARG...: 73, the message, nothing changed
	run link "$@"
	[ "$rc" = 73 ] || fail "cp over a linked file: exit $rc, want 73 ($(cat "$tmp/link.err"))"
	grep -qxF "wbgov cp: $empty/kept has 2 links: replacing it would split them, leaving 1 with the old content; remove it first, or write through every link with cp(1)" \
		"$tmp/link.err" || fail "cp over a linked file: $(cat "$tmp/link.err")"
	[ "$(cat "$empty/kept")" = linked ] && [ "$(stat -c %h "$empty/kept")" = 2 ] &&
		[ "$(ls -A "$empty" | tr '\n' '|')" = "kept|other name|" ] ||
		fail "cp over a linked file changed $(ls -A "$empty" | tr '\n' ' ')"
}
refused_link cp "$src/small" "$empty/kept"
(cd "$src" && cp small kept) # the second file's name
refused_link cp "$src/big file" "$src/kept" "$empty"
rm -f "$src/kept" "$empty/other name"

# --- the shim: the fsync of a directory fails (WBGOV_SHIM_DIR_FSYNC=ERRNO),
# each sync_file_range waits WBGOV_SHIM_SLOW_MS, the Nth raises a signal
# (WBGOV_SHIM_RAISE=SIG@N)
cat >"$tmp/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
int fsync(int fd)
{
	static int (*real)(int);
	const char *e = getenv("WBGOV_SHIM_DIR_FSYNC");
	struct stat st;
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	if (e && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = atoi(e);
		return -1;
	}
	return real(fd);
}
int sync_file_range(int fd, off_t off, off_t n, unsigned int flags)
{
	static int (*real)(int, off_t, off_t, unsigned int);
	static int calls;
	const char *slow = getenv("WBGOV_SHIM_SLOW_MS"), *sig = getenv("WBGOV_SHIM_RAISE");
	int s, at;
	if (!real)
		real = (int (*)(int, off_t, off_t, unsigned int))dlsym(RTLD_NEXT, "sync_file_range");
	calls++;
	if (slow) {
		struct timespec ts = { 0, atol(slow) * 1000000L };
		nanosleep(&ts, NULL);
	}
	if (sig && sscanf(sig, "%d@%d", &s, &at) == 2 && calls == at)
		raise(s);
	return real(fd, off, n, flags);
}
C
${CC:-cc} -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl || fail "cannot build the shim"
# the sanitizers' runtime, where wbgov has one, need not come first
shim() { env LD_PRELOAD="$tmp/shim.so" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$@"; }

# --- the directory cannot be synced after the rename: 1, DEST holds the
# copy (nothing removed), the message says so, the next file is not copied
out2="$tmp/fsync dir"
mkdir "$out2"
printf 'old\n' >"$out2/big file"
rc=0
shim WBGOV_SHIM_DIR_FSYNC=5 "$W" cp "$src/big file" "$src/small" "$out2" 2>"$tmp/dirsync.err" || rc=$?
[ "$rc" = 1 ] || fail "a directory that cannot be synced: exit $rc, want 1 ($(cat "$tmp/dirsync.err"))"
grep -qxF "wbgov cp: $out2: Input/output error; $out2/big file holds the whole copy, its data durable, but the directory could not be synced: its name may not survive a crash (try sync)" \
	"$tmp/dirsync.err" || fail "a directory that cannot be synced: $(cat "$tmp/dirsync.err")"
grep -q "not written\|removed" "$tmp/dirsync.err" && fail "a directory that cannot be synced: $(cat "$tmp/dirsync.err")"
cmp -s "$src/big file" "$out2/big file" || fail "a directory that cannot be synced: DEST does not hold the copy"
[ "$(ls -A "$out2")" = "big file" ] || fail "a directory that cannot be synced: left $(ls -A "$out2" | tr '\n' ' ')"
# EINVAL: a file system that does not sync directories; the rename is all
rm -f "$out2/big file"
rc=0
shim WBGOV_SHIM_DIR_FSYNC=22 "$W" cp -q "$src/small" "$out2" 2>"$tmp/dirsync.err" || rc=$?
[ "$rc" = 0 ] && cmp -s "$src/small" "$out2/small" || fail "a directory fsync of EINVAL: exit $rc ($(cat "$tmp/dirsync.err"))"
rm -rf "$out2"

# --- a signal mid-way: 130, DEST as it was, no temporary file
printf 'old\n' >"$empty/kept"
for sig in HUP:1 TERM:15 INT:2; do # Linux's numbers
	num=${sig#*:} sig=${sig%:*}
	rc=0
	# (the signal's default action whatever this test's caller ignores:
	# under nohup, as a build may run it, wbgov cp rightly keeps SIGHUP
	# ignored)
	shim WBGOV_SHIM_RAISE="$num@3" env --default-signal="$sig" "$W" cp "$src/big file" "$empty/kept" \
		2>"$tmp/sig.err" || rc=$?
	[ "$rc" = 130 ] || fail "SIG$sig mid-way: exit $rc, want 130 ($(cat "$tmp/sig.err"))"
	grep -q "^wbgov cp: interrupted.*; $empty/kept not written (the partial copy is removed)\$" "$tmp/sig.err" ||
		fail "SIG$sig mid-way: $(cat "$tmp/sig.err")"
	[ "$(cat "$empty/kept")" = old ] && [ "$(ls -A "$empty")" = kept ] ||
		fail "SIG$sig mid-way left $(ls -A "$empty" | tr '\n' ' ')"
done
grep -q "interrupted by SIGHUP" "$tmp/sig.err" && fail "SIGINT said SIGHUP"
# a SIGHUP the caller ignores (nohup): the copy goes on and is whole
rc=0
(trap '' HUP; exec env LD_PRELOAD="$tmp/shim.so" WBGOV_SHIM_RAISE=1@3 \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$W" cp -q "$src/big file" "$empty/kept") \
	2>"$tmp/nohup.err" || rc=$?
[ "$rc" = 0 ] && cmp -s "$src/big file" "$empty/kept" || fail "SIGHUP under nohup: exit $rc ($(cat "$tmp/nohup.err"))"
printf 'old\n' >"$empty/kept"
chmod 644 "$empty/kept"

# the reader of --json goes after its first line: SIGPIPE at the next, 130
{
	rc=0
	shim WBGOV_SHIM_SLOW_MS=150 "$W" cp --json "$src/big file" "$empty/kept" 2>"$tmp/pipe.err" || rc=$?
	echo $rc >"$tmp/pipe.rc"
} | head -n 1 >/dev/null
rc=$(cat "$tmp/pipe.rc")
[ "$rc" = 130 ] || fail "the reader of --json gone: exit $rc, want 130 ($(cat "$tmp/pipe.err"))"
grep -q "interrupted by SIGPIPE" "$tmp/pipe.err" || fail "the reader of --json gone: $(cat "$tmp/pipe.err")"
[ "$(cat "$empty/kept")" = old ] && [ "$(ls -A "$empty")" = kept ] ||
	fail "the reader of --json gone: left $(ls -A "$empty" | tr '\n' ' ')"

# --json with a destination whose name holds a newline, a quote and a
# byte that is not UTF-8: every line is one object that parses as strict
# UTF-8 JSON, the name in "file" whole, the bad byte as U+FFFD
odd=$(printf '%s/odd\n"name\377' "$tmp")
rc=0
shim WBGOV_SHIM_SLOW_MS=150 "$W" cp --json "$src/big file" "$odd" >"$tmp/odd.json" 2>"$tmp/odd.err" || rc=$?
[ "$rc" = 0 ] && cmp -s "$src/big file" "$odd" || fail "cp --json to an odd name: exit $rc ($(cat "$tmp/odd.err"))"
python3 - "$tmp/odd.json" "$tmp" <<'PY' || fail "cp --json to an odd name: see above"
import json, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
objs = [json.loads(l.decode("utf-8")) for l in lines]  # strict: invalid UTF-8 raises
files = [o["file"] for o in objs if o["file"] is not None]
if not files:
    sys.exit("no line named the file: %r" % objs)
want = sys.argv[2] + '/odd\n"name\ufffd'
bad = [f for f in files if f != want]
if bad:
    sys.exit("file is %r, want %r" % (bad[0], want))
if objs[-1]["file"] is not None or objs[-1]["done"] is not True:
    sys.exit("last line %r" % objs[-1])
PY
rm -f "$odd"

# the terminal hangs up (its pty's master closed) once the progress shows:
# 130, DEST as it was, no temporary file; the copy was 0600 meanwhile
python3 - "$tmp/shim.so" "$W" "$src/big file" "$empty/kept" "$empty" <<'PY' || fail "a terminal hang-up: see above"
import os, signal, sys, time
shim, prog, src, dst, d = sys.argv[1:]
pid, fd = os.forkpty()
if pid == 0:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # ignored by a caller under nohup
    os.environ.update(LD_PRELOAD=shim, WBGOV_SHIM_SLOW_MS="150",
                      ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    os.execv(prog, [prog, "cp", src, dst])
seen = b""
end = time.monotonic() + 20
while b"%" not in seen and time.monotonic() < end:
    try:
        seen += os.read(fd, 4096)
    except OSError:
        break
if b"%" not in seen:
    sys.exit("no progress line on the terminal: %r" % seen)
tmps = [n for n in os.listdir(d) if ".wbgov-" in n]
modes = ["%o" % (os.stat(os.path.join(d, n)).st_mode & 0o7777) for n in tmps]
if modes != ["600"]:
    sys.exit("the copy being written: %r, modes %r, want one 0600" % (tmps, modes))
os.close(fd)  # the terminal hangs up
_, st = os.waitpid(pid, 0)
if not os.WIFEXITED(st) or os.WEXITSTATUS(st) != 130:
    sys.exit("after the hang-up: wait status %#x, want exit 130" % st)
if sorted(os.listdir(d)) != ["kept"] or open(dst).read() != "old\n":
    sys.exit("after the hang-up: %r" % os.listdir(d))
PY

# --- help: its own, and in wbgov --help
run help cp --help
[ "$rc" = 0 ] && head -n 1 "$tmp/help" | grep -q "^Usage: wbgov \[OPTIONS\] cp \[--quiet\] \[--json\] SRC... DEST" ||
	fail "wbgov cp --help: $(head -n 1 "$tmp/help")"
grep -q "durable" "$tmp/help" || fail "wbgov cp --help does not say what it shows"
run help --help
grep -q "wbgov cp \[--quiet\] \[--json\] SRC... DEST" "$tmp/help" || fail "wbgov --help does not list cp"
echo "$me: ok"
