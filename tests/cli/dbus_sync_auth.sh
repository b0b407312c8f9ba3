#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Who may Sync, and with what (over the fixture tree, as nobody when the
# test runs as root, a private dbus-daemon playing the system bus with
# etc/dbus's policy, and a fake polkit authority, tests/lib/dbus.sh):
# - Sync's options: Sync() without them, an unknown key or a wrong type is
#   refused with InvalidArgs naming it, before polkit is asked;
# - a caller other than root (uid 1 when the test runs as root) is asked
#   about through polkit, by its unique bus name, for io.github.wbgov.sync:
#   yes syncs; no, a challenge or a dismissed dialog are NotAuthorized with
#   the reason; user interaction is asked for only with the call's
#   ALLOW_INTERACTIVE_AUTHORIZATION flag and without auth.no_user_interaction;
# - a polkit that never answers holds nothing else (a Get, root's Sync, a
#   reload go on at once), and its caller is refused after 10 s (the check
#   cancelled); 16 calls wait for it at most, 4 of one user's, the next is Busy; a polkit that leaves without answering, or none on the
#   bus, has the caller refused at once, saying which;
# - root is never asked about, with or without polkit;
# - a call still waiting for polkit when wbgovd stops is answered Busy, and
#   its check cancelled.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
dbus_need_python
FX=$tmp/fx
ST=$tmp/st
LOG=$tmp/log
cli_fixture "$FX"
# a file system of the stick that Sync syncs: this test's own, by the id
# of the mount $tmp/mnt is on (as in dbus_api.sh)
mkdir "$tmp/mnt"
mid=$(findmnt -n -o ID -T "$tmp/mnt") || fail "findmnt cannot tell the mount of $tmp/mnt"
grep -v " 8:17 " "$FX/proc/self/mountinfo" >"$tmp/mountinfo"
printf '%s 22 0:999 / %s rw,nosuid shared:4 - btrfs /dev/sdb1 rw\n' "$mid" "$tmp/mnt" >>"$tmp/mountinfo"
cp "$tmp/mountinfo" "$FX/proc/self/mountinfo"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)/${W##*/}
# the caller: another user than root when the test can be root
if [ "$(id -u)" = 0 ]; then
	CALLER="setpriv --reuid=1 --regid=1 --clear-groups"
	CUID=1
else
	CALLER=
	CUID=$(id -u)
fi
PID= CPID=
trap 'for p in $PID $CPID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
polkit_fake sys

# a client of its own (GIO): its unique name, then "ok SECONDS" or "error
# SECONDS NAME MESSAGE"; OPTIONS as JSON {"key": ["signature", value]};
# INTERACTIVE 1 sets ALLOW_INTERACTIVE_AUTHORIZATION
cat >"$tmp/call.py" <<'PY'
import json, sys, time
from gi.repository import Gio, GLib
addr, path, opts, interactive = sys.argv[1:5]
conn = Gio.DBusConnection.new_for_address_sync(
    addr, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
    Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
print("name", conn.get_unique_name(), flush=True)
o = {k: GLib.Variant(t, v) for k, (t, v) in json.loads(opts).items()}
flags = Gio.DBusCallFlags.ALLOW_INTERACTIVE_AUTHORIZATION if interactive == "1" else Gio.DBusCallFlags.NONE
t0 = time.monotonic()
try:
    conn.call_sync("io.github.wbgov.Governor1", path, "io.github.wbgov.Governor1.Device", "Sync",
                   GLib.Variant("(a{sv})", (o,)), None, flags, 60000, None)
    print("ok %.3f" % (time.monotonic() - t0))
except GLib.Error as e:
    name = Gio.DBusError.get_remote_error(e)
    Gio.DBusError.strip_remote_error(e)
    print("error %.3f %s %s" % (time.monotonic() - t0, name, e.message))
PY
# call OPTIONS [INTERACTIVE]: Sync of sdb by the caller, its output in
# $tmp/call, its name in $NAME
call() {
	$CALLER /usr/bin/python3 "$tmp/call.py" "$A" "$DEV/sdb" "$1" "${2:-0}" >"$tmp/call" 2>&1 ||
		fail "the client failed: $(cat "$tmp/call")"
	NAME=$(sed -n 's/^name //p' "$tmp/call")
}
answer() { sed -n '2p' "$tmp/call"; }
# refused NAME TEXT: the call's answer is the error NAME with TEXT in it
refused() {
	answer | grep -q "^error [0-9.]* $1 .*$2" || fail "want $1 \"$2\", got: $(answer)"
}
asked() { grep -c "^check " "$tmp/polkit.log" || true; }

$AS "$D" --root "$FX" --state-dir "$ST" --no-memory --bus "${A%%,guid=*}" >"$LOG" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"
wait_for 5 grep -q "^<6>started:" "$LOG" || fail "wbgovd did not start: $(cat "$LOG")"

# --- Sync's arguments, refused before polkit is asked
rc=0
busctl --address="$A" call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync >"$tmp/old" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "Sync() without its options was taken"
grep -q "expecting 'a{sv}'" "$tmp/old" || fail "Sync() does not say the signature: $(cat "$tmp/old")"
call '{"auth.interactive": ["b", true]}'
refused org.freedesktop.DBus.Error.InvalidArgs "unknown option 'auth.interactive'"
call '{"auth.no_user_interaction": ["s", "yes"]}'
refused org.freedesktop.DBus.Error.InvalidArgs "option 'auth.no_user_interaction' is a boolean (b), not 's'"
[ "$(asked)" = 0 ] || fail "polkit was asked about a call with bad options: $(cat "$tmp/polkit.log")"

# --- polkit says yes: the caller's own name is asked about, and it syncs
call '{}'
[ "$(answer | cut -d' ' -f1)" = ok ] || fail "Sync with polkit's yes: $(answer)"
case $NAME in :1.[0-9]*) ;; *) fail "the client's name: $NAME" ;; esac
grep -qx "check system-bus-name $NAME io.github.wbgov.sync 0 wbgovd-sync-[0-9]* device=sdb (SanDisk Cruzer $(printf '\357\277\275') Blade)" "$tmp/polkit.log" ||
	fail "polkit was not asked about $NAME: $(cat "$tmp/polkit.log")"
wait_for 5 grep -q "sdb: Sync asked on D-Bus by uid $CUID ($NAME): syncing 1 file system " "$LOG" ||
	fail "no Sync by uid $CUID in the log: $(tail -n 3 "$LOG")"
# user interaction: only with the flag and without auth.no_user_interaction
flags() { tail -n 1 "$tmp/polkit.log" | cut -d' ' -f5; }
call '{}' 1
[ "$(flags)" = 1 ] || fail "the interactive call was asked about with flags $(flags)"
call '{"auth.no_user_interaction": ["b", true]}' 1
[ "$(flags)" = 0 ] || fail "auth.no_user_interaction was not honoured: flags $(flags)"
call '{"auth.no_user_interaction": ["b", false]}'
[ "$(flags)" = 0 ] || fail "a call without the flag allowed interaction: flags $(flags)"
[ "$(asked)" = 4 ] || fail "polkit asked $(asked) times for 4 calls: $(cat "$tmp/polkit.log")"

# --- polkit says no, wants a challenge, or the dialog was dismissed
syncs() { grep -c "Sync asked on D-Bus" "$LOG" || true; }
n=$(syncs)
polkit_mode no
call '{}'
refused io.github.wbgov.Governor1.Error.NotAuthorized "Sync of sdb refused: polkit says uid $CUID is not authorized for io.github.wbgov.sync"
polkit_mode challenge
call '{}'
refused io.github.wbgov.Governor1.Error.NotAuthorized "polkit wants authentication for io.github.wbgov.sync, and the call allowed no user interaction"
polkit_mode dismissed
call '{}' 1
refused io.github.wbgov.Governor1.Error.NotAuthorized "the authentication for io.github.wbgov.sync was dismissed"
[ "$(syncs)" = "$n" ] || fail "a refused call synced: $(tail -n 2 "$LOG")"

# --- polkit never answers: nothing else waits, and the call is refused
# after 10 s with the check cancelled; 16 calls wait at most, the 17th is
# Busy, and root's still goes through
polkit_mode never
n0=$(asked)
$CALLER /usr/bin/python3 "$tmp/call.py" "$A" "$DEV/sdb" '{}' 0 >"$tmp/first" 2>&1 &
CPID=$!
wait_for 5 grep -q "^name " "$tmp/first" || fail "the client did not start: $(cat "$tmp/first")"
FIRST=$(sed -n 's/^name //p' "$tmp/first")
wait_for 5 grep -q "^check system-bus-name $FIRST " "$tmp/polkit.log" || fail "polkit was not asked: $(cat "$tmp/polkit.log")"
# more_calls N CALLER...: N more calls that wait for polkit, as CALLER
more_calls() {
	k=$1
	shift
	for i in $(seq "$k"); do
		nmore=$((nmore + 1))
		"$@" busctl --address="$A" --timeout=30 --allow-interactive-authorization=no call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 \
			>"$tmp/more.$nmore" 2>&1 &
		CPID="$CPID $!"
	done
}
nmore=0
waiting() { [ "$(($(asked) - n0))" -ge "$1" ]; }
# one user's calls hold 4 of the 16 places: their 5th is Busy, and
# polkit is not asked about it
more_calls 3 $CALLER
wait_for 5 waiting 4 || fail "4 calls of one user do not wait for polkit: $(($(asked) - n0)) asked"
call '{}'
refused io.github.wbgov.Governor1.Error.Busy "4 Sync calls of uid $CUID wait for polkit's answer"
[ "$(($(asked) - n0))" = 4 ] || fail "polkit was asked about a user's 5th call"
if [ "$(id -u)" = 0 ]; then
	# three other users still get their places, 16 in all; the 17th
	# (a fifth user's) is Busy
	for u in 2 3 4; do
		more_calls 4 setpriv --reuid=$u --regid=$u --clear-groups
	done
	wait_for 5 waiting 16 || fail "16 calls of 4 users do not wait for polkit: $(($(asked) - n0)) asked"
	CALLER="setpriv --reuid=5 --regid=5 --clear-groups" call '{}'
	refused io.github.wbgov.Governor1.Error.Busy "16 Sync calls wait for polkit's answer"
	[ "$(($(asked) - n0))" = 16 ] || fail "polkit was asked about the 17th call"
fi
t0=$(now_ms)
busctl --address="$A" get-property io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Name >/dev/null || fail "Get failed while polkit hangs"
ms=$(($(now_ms) - t0))
# (one that waited for polkit would take its 10 s: 5 s of wall time tells
# that from a busy machine)
[ "$ms" -lt 5000 ] || fail "a Get took $ms ms while polkit hangs"
if [ "$(id -u)" = 0 ]; then
	n=$(asked)
	t0=$(now_ms)
	busctl --address="$A" call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/root" 2>&1 ||
		fail "root's Sync while polkit hangs: $(cat "$tmp/root")"
	ms=$(($(now_ms) - t0))
	[ "$ms" -lt 2000 ] || fail "root's Sync took $ms ms while polkit hangs"
	[ "$(asked)" = "$n" ] || fail "polkit was asked about root: $(tail -n 1 "$tmp/polkit.log")"
	echo "$me: while polkit hangs, root's Sync took $ms ms" >&2
fi
kill -HUP "$PID"
wait_for 2 grep -q "configuration reloaded" "$LOG" || fail "a reload is not acted on while polkit hangs: $(tail -n 3 "$LOG")"
rc=0
wait ${CPID%% *} || rc=$?
cp "$tmp/first" "$tmp/call"
[ "$rc" -eq 0 ] || fail "the client failed: $(cat "$tmp/call")"
for p in ${CPID#* }; do wait "$p" || true; done
CPID=
for i in $(seq "$nmore"); do
	grep -q "polkit did not answer within 10 s" "$tmp/more.$i" || fail "waiting call $i: $(cat "$tmp/more.$i")"
done
refused io.github.wbgov.Governor1.Error.NotAuthorized "Sync of sdb refused: polkit did not answer within 10 s"
s=$(answer | cut -d' ' -f2)
echo "$me: a polkit that never answers: the call refused after $s s" >&2
awk "BEGIN { exit !($s >= 9.5 && $s < 12) }" || fail "refused after $s s, want 10"
id=$(sed -n "s/^check system-bus-name $FIRST [^ ]* 0 \([^ ]*\) .*/\1/p" "$tmp/polkit.log")
wait_for 2 grep -qx "cancel $id" "$tmp/polkit.log" || fail "the check $id was not cancelled: $(cat "$tmp/polkit.log")"

# --- polkit leaves without answering: refused at once, saying so
polkit_mode crash
call '{}'
refused io.github.wbgov.Governor1.Error.NotAuthorized "Sync of sdb refused: polkit went away without an answer"
s=$(answer | cut -d' ' -f2)
awk "BEGIN { exit !($s < 2) }" || fail "a polkit that left was noticed after $s s"

# --- no polkit on the bus: refused at once, root still may
polkit_stop
n=$(asked)
call '{}'
refused io.github.wbgov.Governor1.Error.NotAuthorized "Sync of sdb refused: polkit is not on the bus (.*), and without it only root may Sync"
s=$(answer | cut -d' ' -f2)
awk "BEGIN { exit !($s < 1) }" || fail "without polkit the refusal took $s s"
if [ "$(id -u)" = 0 ]; then
	busctl --address="$A" call io.github.wbgov.Governor1 "$DEV/sdb" "$IFACE" Sync a{sv} 0 >"$tmp/root" 2>&1 ||
		fail "root's Sync without polkit: $(cat "$tmp/root")"
fi

# --- a call waiting for polkit when wbgovd stops: answered Busy at once
polkit_fake sys
polkit_mode never
$CALLER /usr/bin/python3 "$tmp/call.py" "$A" "$DEV/sdb" '{}' 0 >"$tmp/call" 2>&1 &
CPID=$!
wait_for 5 grep -q "^check " "$tmp/polkit.log" || fail "polkit was not asked: $(cat "$tmp/polkit.log" "$tmp/call" "$tmp/polkit.out")"
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
[ "$rc" -eq 0 ] || fail "wbgovd exited $rc on SIGTERM: $(tail -n 5 "$LOG")"
wait "$CPID" || true
CPID=
refused io.github.wbgov.Governor1.Error.Busy "wbgovd is stopping"
s=$(answer | cut -d' ' -f2)
awk "BEGIN { exit !($s < 2) }" || fail "the waiting call was answered after $s s"
# ... and its check is cancelled: no dialog is left asking for a password
# for a call already answered
id=$(sed -n 's/^check system-bus-name [^ ]* [^ ]* [01] \([^ ]*\) .*/\1/p' "$tmp/polkit.log" | tail -n 1)
[ -n "$id" ] || fail "no check in: $(cat "$tmp/polkit.log")"
wait_for 2 grep -qx "cancel $id" "$tmp/polkit.log" || fail "the check $id was not cancelled at stop: $(tail -n 3 "$tmp/polkit.log")"
exit 0
