#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov sync and wbgov cp to a share whose server does not answer, over the
# fixture tree: its NFS share (nas.local:/export, bdi 0:53, 6 MiB to write
# by debugfs, standing still) mounted at $tmp/nas, a directory of this
# test's on the real mount it is on (so that the sync child opens it, as
# it checks the mount id), and tests/lib/hang.so playing the dead server:
# - wbgov sync by the share's name says what it waits for (the server of
#   nas.local:/export, 6.0 MiB), after 5 s without a byte written that the
#   server may not answer, and SIGTERM ends it at once (exit 130) naming
#   the share and the 6.0 MiB still to write, its child gone though it
#   waits in syncfs deaf to every signal but SIGKILL (stuck:N);
# - wbgov sync of a path under the mount point finds the share from the
#   mount table's text: nothing names a path there (WBGOV_TEST_DEAD);
# - wbgov cp of 12 MiB to the share, whose written pages never leave
#   writeback (sync_file_range deaf, WBGOV_TEST_SFR), says after 5 s
#   that the server may not answer, and SIGINT ends it within its grace
#   (exit 130), naming the share, the bytes not durable and the process
#   left to remove the partial copy; the same copy to a local directory
#   ends as before (the child is the share's alone).
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
HANG=$(cd "$(dirname "$W")" && pwd)/tests/hang.so
[ -f "$HANG" ] || fail "no $HANG (make $HANG)"
FX=$tmp/fx
cli_fixture "$FX"
mkdir "$tmp/nas" "$tmp/local"
mid=$(findmnt -n -o ID -T "$tmp/nas") || fail "findmnt cannot tell the mount of $tmp/nas"
sed -i "s|^50 22 0:53 / /mnt/nas |$mid 22 0:53 / $tmp/nas |" "$FX/proc/self/mountinfo"
grep -q " $tmp/nas .* nfs4 nas.local:/export " "$FX/proc/self/mountinfo" || fail "the share is not at $tmp/nas"
mkdir -p "$FX/sys/kernel/debug/bdi/0:53"
printf 'BdiWriteback:         2048 kB\nBdiReclaimable:       4096 kB\nBdiDirtyThresh:       8192 kB\nBdiWritten:           1000 kB\n' \
	>"$FX/sys/kernel/debug/bdi/0:53/stats"
PIDS=
# each process started, and its children (a sync or copy child, deaf to
# every signal but SIGKILL while hang.so holds it)
trap 'for p in $PIDS; do pkill -KILL -P "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true; done
	rm -rf "$tmp"' EXIT
# stop_p SIG WHAT: SIG to $P, its exit status in $rc and the time to it in
# $ms, printed
stop_p() {
	t0=$(now_ms)
	kill -"$1" "$P"
	rc=0
	wait "$P" || rc=$?
	ms=$(($(now_ms) - t0))
	echo "$me: $2, SIG$1 to exit: $ms ms" >&2
}
has_child() { ps -o pid= --ppid "$1" | grep -q .; }
# child_of PID WHAT: $child, the child (WHAT) wbgov PID waits on, once it
# is there (on a busy machine the waiting line may come before ps sees it);
# fails without
child_of() {
	wait_for 5 has_child "$1" || fail "no $2 child"
	child=$(ps -o pid= --ppid "$1" | tr -d ' ')
}

# --- sync: what it waits for, a stall said, SIGTERM ends it
LD_PRELOAD=$HANG WBGOV_TEST_SYNCFS=stuck:120 "$W" --root "$FX" sync nas.local:/export >"$tmp/out" 2>&1 &
P=$!
PIDS=$P
wait_for 5 grep -q "^wbgov sync: waiting for the server of nas.local:/export (nfs4) to take 6.0 MiB; Ctrl-C stops waiting$" "$tmp/out" ||
	fail "sync does not say what it waits for: $(cat "$tmp/out")"
child_of "$P" sync
PIDS="$P $child"
wait_for 10 grep -q "^wbgov sync: nothing written for [5-9] s: the server of nas.local:/export (nfs4) may not answer; 6.0 MiB still to write; Ctrl-C stops waiting$" "$tmp/out" ||
	fail "sync does not say the server may not answer: $(cat "$tmp/out")"
stop_p TERM "sync"
[ "$rc" -eq 130 ] || fail "sync exited $rc on SIGTERM: $(cat "$tmp/out")"
grep -q "^wbgov sync: stopped waiting for the server of nas.local:/export (nfs4); 6.0 MiB still to write to it, which the kernel goes on writing while it answers (wbgov status shows what is left)$" "$tmp/out" ||
	fail "sync's stop does not name the share and its bytes: $(cat "$tmp/out")"
wait_for 5 exited "$child" || fail "the sync child $child is left waiting for the server"
# (a wait longer than the machine's load explains: the loop sleeps 0.2 s)
[ "$ms" -lt 5000 ] || fail "sync took $ms ms to stop"

# --- sync of a path on the share: by the mount table, not by stat
TOUCHED=$tmp/touched
: >"$TOUCHED"
LD_PRELOAD=$HANG WBGOV_TEST_SYNCFS=stuck:120 WBGOV_TEST_DEAD="$tmp/nas" WBGOV_TEST_DEAD_LOG="$TOUCHED" \
	"$W" --root "$FX" sync "$tmp/nas/sub/../dir" >"$tmp/out" 2>&1 &
P=$!
PIDS=$P
wait_for 5 grep -q "waiting for the server of nas.local:/export" "$tmp/out" ||
	fail "sync of a path on the share: $(cat "$tmp/out")"
child_of "$P" sync
PIDS="$P $child"
stop_p INT "sync of a path"
[ "$rc" -eq 130 ] || fail "sync of a path exited $rc on SIGINT: $(cat "$tmp/out")"
[ ! -s "$TOUCHED" ] || fail "sync looked at the share: $(sort -u "$TOUCHED")"
wait_for 5 exited "$child" || fail "the sync child $child is left waiting for the server"

# --- cp: a stall said, SIGINT ends it within its grace
head -c 12582912 /dev/zero >"$tmp/src"
LD_PRELOAD=$HANG WBGOV_TEST_SFR=nas:120 "$W" --root "$FX" cp "$tmp/src" "$tmp/nas/copy" >"$tmp/out" 2>&1 &
P=$!
PIDS=$P
wait_for 10 grep -q "^wbgov cp: nothing written for [5-9] s: the server of nas.local:/export (nfs4) may not answer; 12.0 MiB of 12.0 MiB not yet durable; Ctrl-C stops the copy$" "$tmp/out" ||
	fail "cp does not say the server may not answer: $(cat "$tmp/out")"
child_of "$P" copy
PIDS="$P $child"
stop_p INT "cp"
[ "$rc" -eq 130 ] || fail "cp exited $rc on SIGINT: $(cat "$tmp/out")"
grep -q "^wbgov cp: interrupted; the server of nas.local:/export (nfs4) does not answer: 12.0 MiB of 12.0 MiB not durable there, $tmp/nas/copy not written; process $child waits for the server, and removes the partial copy when it answers$" "$tmp/out" ||
	fail "cp's stop does not name the share and its bytes: $(cat "$tmp/out")"
[ "$ms" -lt 6000 ] || fail "cp took $ms ms to stop"
[ ! -e "$tmp/nas/copy" ] || fail "the copy is there"
kill -KILL "$child" 2>/dev/null || true

# --- the same to a local directory: no child, the copy durable
"$W" --root "$FX" cp "$tmp/src" "$tmp/local/copy" >"$tmp/out" 2>&1 || fail "cp to a local directory: $(cat "$tmp/out")"
grep -q "^wbgov cp: 12.0 MiB in 1 file durable after" "$tmp/out" || fail "cp to a local directory: $(cat "$tmp/out")"
cmp -s "$tmp/src" "$tmp/local/copy" || fail "the local copy differs"
echo "$me: ok"
