#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgov notify against a fake notification server: wbgovd over the fixture
# tree on a private bus that plays the system bus, the agent (as nobody
# when the test runs as root) and a fake org.freedesktop.Notifications on
# a private session bus. While the stick holds 120 MiB it shows "Writing
# 120 MiB to SanDisk Cruzer ... — 25 s left", updated in place (the same
# id) at most once a second; when the data has drained, "safe to remove";
# a device with less than the threshold shows nothing; SIGTERM closes
# what it shows and ends it with 0. The body, the mount points, one of
# them named <b>x</b> & "y" 'z' (a label chooses it), arrives escaped for
# the markup to a server that says "body-markup", and as it is to one that
# does not (the server replaced mid-way: asked again). Every notification
# carries the hint "desktop-entry" = wbgov-notify, the application entry
# GNOME Settings mutes it by. In German (LANGUAGE=de, this build's
# catalogue): "Schreiben von 50 MiB auf ... — noch N s", then "...: alles
# geschrieben, kann nach dem Aushängen sicher entfernt werden".
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
dbus_need_python
FX=$tmp/fx
cli_fixture "$FX"
mkdir -p "$FX/sys/kernel/debug/bdi/8:16"
stats() { # WRITEBACK_KB RECLAIMABLE_KB
	printf 'BdiWriteback: %s kB\nBdiReclaimable: %s kB\nBdiDirtyThresh: 123456 kB\n' "$1" "$2" \
		>"$FX/sys/kernel/debug/bdi/8:16/stats.new"
	mv "$FX/sys/kernel/debug/bdi/8:16/stats.new" "$FX/sys/kernel/debug/bdi/8:16/stats"
}
vmstat() { # KB, in place: wbgovd keeps it open
	printf 'nr_dirty %s\nnr_writeback 0\nnr_dirtied 1000\nnr_written 1000\n' $(($1 / 4)) >"$FX/proc/vmstat"
}
stats 0 0
vmstat 0
# a mount point a label named, with every character markup gives a meaning
printf '%s\n' "42 22 8:17 / /media/u/<b>x</b>\\040&\\040\"y\"\\040'z' rw,nosuid shared:4 - vfat /dev/sdb1 rw" \
	>>"$FX/proc/self/mountinfo"
MOUNTS="/media/user/NO NAME, /media/user/Café, /media/u/<b>x</b> & \"y\" 'z'"
ESCAPED="/media/user/NO NAME, /media/user/Café, /media/u/&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot; &apos;z&apos;"
mkdir "$tmp/mem"
echo "v1 5000000 m $(date +%s) serial:SanDisk_Cruzer___Blade:4C530001190823115393" >"$tmp/mem/devices"
as_nobody
D=$(cd "$(dirname "$W")" && pwd)
PID= APID= SPID=
trap 'for p in $PID $APID $SPID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT

# --- usage
"$W" notify --help | grep -q "^Usage: wbgov \[OPTIONS\] notify \[--bus system|session|ADDRESS\] \[--threshold SIZE\]" ||
	fail "wbgov notify --help: $("$W" notify --help)"
rc=0
"$W" notify --threshold 0 2>"$tmp/err" || rc=$?
[ "$rc" -eq 64 ] && grep -q "threshold" "$tmp/err" || fail "--threshold 0: exit $rc, $(cat "$tmp/err")"
rc=0
"$W" sync --bus system 2>"$tmp/err" || rc=$?
[ "$rc" -eq 64 ] && grep -q "\-\-bus is not an option of sync" "$tmp/err" || fail "sync --bus: exit $rc, $(cat "$tmp/err")"
rc=0
DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/nothing "$W" notify --bus "unix:path=$tmp/nothing" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 69 ] && grep -q "cannot reach the unix:path=$tmp/nothing bus" "$tmp/err" || fail "no bus: exit $rc, $(cat "$tmp/err")"

dbus_private sys system "$OWNER"
dbus_private sess session
SYS=$(dbus_addr sys)
SESS=$(dbus_addr sess)

# the fake notification server: each call a line of JSON in $tmp/notes
cat >"$tmp/server.py" <<'PY'
import json, sys, time
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
addr, out, caps = sys.argv[1:4]
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(addr)
class Server(dbus.service.Object):
    last = 0
    def log(self, **kw):
        kw["t"] = time.monotonic()
        with open(out, "a") as f:
            f.write(json.dumps(kw) + "\n")
    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        if not replaces:
            Server.last += 1
        nid = replaces or Server.last
        self.log(call="Notify", app=str(app), replaces=int(replaces), id=nid, summary=str(summary),
                 body=str(body), urgency=int(hints.get("urgency", -1)),
                 desktop_entry=str(hints.get("desktop-entry", "")))
        return nid
    @dbus.service.method("org.freedesktop.Notifications", in_signature="u")
    def CloseNotification(self, nid):
        self.log(call="CloseNotification", id=int(nid))
    @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
    def GetCapabilities(self):
        return caps.split(",")
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
Server(bus, "/org/freedesktop/Notifications")
print("ready", flush=True)
GLib.MainLoop().run()
PY
server() { # CAPS: the fake server, saying CAPS (comma-separated)
	/usr/bin/python3 "$tmp/server.py" "$SESS" "$tmp/notes" "$1" >"$tmp/server.log" 2>&1 &
	SPID=$!
	wait_for 5 grep -q ready "$tmp/server.log" || fail "the fake server did not start: $(cat "$tmp/server.log")"
}
server body,body-markup
: >"$tmp/notes"
[ -n "$AS" ] && chown nobody "$tmp/notes"

$AS "$D/wbgovd" --root "$FX" --state-dir "$tmp/st" --memory "$tmp/mem/devices" --bus "$SYS" >"$tmp/log" 2>&1 &
PID=$!
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on" "$tmp/log" || fail "wbgovd is not on the bus: $(cat "$tmp/log")"
DBUS_SESSION_BUS_ADDRESS=$SESS $AS "$D/wbgov" notify --bus "$SYS" >"$tmp/agent" 2>&1 &
APID=$!
sleep 1
kill -0 "$APID" || fail "wbgov notify ended: $(cat "$tmp/agent")"

# notes FIELD...: the notes as "summary|id|replaces" lines
notes() {
	/usr/bin/python3 -c 'import json, sys
for l in open(sys.argv[1]):
    n = json.loads(l)
    print("|".join(str(n.get(k, "")) for k in ["call", "summary", "id", "replaces"]))' "$tmp/notes"
}
has() { notes | grep -q "$1"; }
# last_body: the body of the last Notify
last_body() {
	/usr/bin/python3 -c 'import json, sys
print([n for n in map(json.loads, open(sys.argv[1])) if n["call"] == "Notify"][-1]["body"])' "$tmp/notes"
}

# --- below the threshold: nothing
stats 0 4096
vmstat 4096
sleep 1.5
[ ! -s "$tmp/notes" ] || fail "4 MiB made a notification: $(notes)"

# --- 120 MiB at 5 MB/s: "Writing ... — 25 s left"
stats 20480 102400
vmstat 122880
WRITING="^Notify|Writing 120 MiB to SanDisk Cruzer \357\277\275 Blade \342\200\224 25 s left|1|0\$"
wait_for 5 has "$(printf "$WRITING")" || fail "no \"Writing 120 MiB\": $(notes; cat "$tmp/agent")"
[ "$(last_body)" = "$ESCAPED" ] || fail "a markup server got the body $(last_body), want $ESCAPED"
# its data drains in steps 0.3 s apart: one update a second, in place
for kb in 100000 80000 60000 40000 20000; do
	stats 0 "$kb"
	sleep 0.3
done
sleep 1.2
/usr/bin/python3 -c 'import json, sys
ns = [json.loads(l) for l in open(sys.argv[1])]
w = [n for n in ns if n["call"] == "Notify"]
if len(w) < 2 or len(w) > 4:
    sys.exit("%d notifications for 5 changes in 1.5 s, want 2 to 4: %s" % (len(w), w))
if any(n["id"] != 1 for n in w) or any(n["replaces"] != 1 for n in w[1:]):
    sys.exit("not updated in place: %s" % w)
# k updates after one take at least k s as wbgov notify sends them; as the
# server sees them one can arrive late (a loaded machine), closer to the
# next: 0.2 s of that is allowed over any span
t = [n["t"] for n in w]
for i in range(len(t)):
    for j in range(i + 1, len(t)):
        if t[j] - t[i] < (j - i) - 0.2:
            sys.exit("%d updates within %.3f s" % (j - i + 1, t[j] - t[i]))
if w[-1]["summary"] != "Writing 20 MiB to SanDisk Cruzer \ufffd Blade \u2014 4 s left":
    sys.exit("the last update: %s" % w[-1]["summary"])' "$tmp/notes" || fail "updates: $(notes)"

# --- drained: "safe to remove" in place of it
stats 0 0
vmstat 0
wait_for 5 has "$(printf "^Notify|SanDisk Cruzer \357\277\275 Blade: all written, safe to remove once unmounted|1|1\$")" ||
	fail "no \"safe to remove\": $(notes)"
n=$(notes | wc -l)
sleep 1.5
[ "$(notes | wc -l)" = "$n" ] || fail "notifications after \"safe to remove\": $(notes)"

# --- another server, without markup: the body as it is
kill "$SPID"
wait "$SPID" 2>/dev/null || true
server body
stats 0 51200
vmstat 51200
wait_for 5 has "^Notify|Writing 50 MiB to" || fail "no second \"Writing\": $(notes)"
# the old server's id means nothing to this one: a new notification
has "^Notify|Writing 50 MiB to .*|1|0\$" || fail "the old server's id sent to the new one: $(notes | tail -n 2)"
[ "$(last_body)" = "$MOUNTS" ] || fail "a plain server got the body $(last_body), want $MOUNTS"

# --- SIGTERM: what is shown is closed, exit 0
kill -TERM "$APID"
rc=0
wait "$APID" || rc=$?
APID=
[ "$rc" -eq 0 ] || fail "wbgov notify exited $rc on SIGTERM: $(cat "$tmp/agent")"
has "^CloseNotification||1|" || fail "not closed on SIGTERM: $(notes)"

# --- in German: an agent started under LANGUAGE=de (over C.UTF-8, which
# needs no locale generated) while 50 MiB are still to write
DBUS_SESSION_BUS_ADDRESS=$SESS LANGUAGE=de LC_ALL=C.UTF-8 WBGOV_TEXTDOMAINDIR="$D/locale" \
	$AS "$D/wbgov" notify --bus "$SYS" >"$tmp/agent" 2>&1 &
APID=$!
wait_for 5 has "$(printf '^Notify|Schreiben von 50 MiB auf SanDisk Cruzer \357\277\275 Blade \342\200\224 noch [0-9]* s|')" ||
	fail "no German \"Schreiben von 50 MiB\": $(notes | tail -n 3; cat "$tmp/agent")"
stats 0 0
vmstat 0
wait_for 5 has "$(printf '^Notify|SanDisk Cruzer \357\277\275 Blade: alles geschrieben, kann nach dem Aushängen sicher entfernt werden|')" ||
	fail "no German \"sicher entfernt\": $(notes | tail -n 3)"
kill -TERM "$APID"
rc=0
wait "$APID" || rc=$?
APID=
[ "$rc" -eq 0 ] || fail "the German wbgov notify exited $rc on SIGTERM: $(cat "$tmp/agent")"
# every one (progress, "safe to remove", both servers) names the
# application entry GNOME Settings mutes it by
/usr/bin/python3 -c 'import json, sys
d = [n["desktop_entry"] for n in map(json.loads, open(sys.argv[1])) if n["call"] == "Notify"]
if d != ["wbgov-notify"] * len(d):
    sys.exit("desktop-entry hints %s, want wbgov-notify" % d)' "$tmp/notes" || fail "the desktop-entry hint"
[ -f "$(dirname "$0")/../../etc/applications/wbgov-notify.desktop" ] ||
	fail "the desktop-entry hint names wbgov-notify, but there is no etc/applications/wbgov-notify.desktop"
exit 0
