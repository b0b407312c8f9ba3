# SPDX-License-Identifier: GPL-2.0-or-later
# Private D-Bus daemons for the black-box tests of wbgovd's bus API and of
# wbgov notify (tests/cli/dbus_*.sh); after tests/lib/cli.sh ($tmp, fail).
#   dbus_private NAME system|session [OWNER]: a dbus-daemon of its own
#     listening at $tmp/NAME.sock ("system": the policy of Debian's system
#     bus, deny by default, with etc/dbus's file included, and OWNER,
#     wbgovd's test user, allowed to own the name; "session": anything
#     goes)
#   dbus_addr NAME: its address
#   dbus_stop NAME, dbus_stop_all (the fake polkit too)
#   polkit_fake NAME: a fake polkit authority on that bus (the test's user
#     owns org.freedesktop.PolicyKit1 there, as polkitd does on a real
#     one), which answers CheckAuthorization as $tmp/polkit.mode says at
#     each call: yes, no, challenge, dismissed (a challenge the user
#     closed), never (no answer at all) or crash (it exits unanswered); it logs each question to
#     $tmp/polkit.log as "check KIND NAME ACTION FLAGS CANCEL_ID
#     device=DEVICE", and each CancelCheckAuthorization as "cancel ID".
#     It answers whoever asks: the real polkitd answers only uid 0 (or the
#     action's owner) about another user's process, and the tests run
#     wbgovd as nobody
#   polkit_mode MODE, polkit_stop
#   dbus_need_python: exit 77 without python3-dbus and python3-gi
# It sets DEV (the prefix of wbgovd's device objects) and IFACE (their
# interface), and needs dbus-daemon and busctl.
command -v dbus-daemon >/dev/null 2>&1 || { echo "$me: no dbus-daemon (scripts/deps.sh)" >&2; exit 77; }
command -v busctl >/dev/null 2>&1 || { echo "$me: no busctl (scripts/deps.sh)" >&2; exit 77; }
# wbgovd's objects and device interface (docs/desktop.md)
DEV=/io/github/wbgov/Governor1/device
IFACE=io.github.wbgov.Governor1.Device

# dbus_need_python: the tests' own clients and fake servers (python3-dbus, GI)
dbus_need_python() {
	/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null ||
		{ echo "$me: no python3-dbus or python3-gi (scripts/deps.sh)" >&2; exit 77; }
}
DBUS_POLICY=$(cd "$(dirname "$0")/../.." && pwd)/etc/dbus/io.github.wbgov.Governor1.conf

# dbus_config NAME KIND OWNER: the config file for dbus_private
dbus_config() {
	{
		echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"'
		echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
		echo "<busconfig><type>$2</type><listen>unix:path=$tmp/dbus-$1.sock</listen>"
		echo '<auth>EXTERNAL</auth>'
		if [ "$2" = system ]; then
			# Debian's /usr/share/dbus-1/system.conf, its default context
			cat <<-'XML'
			<policy context="default">
			  <allow user="*"/>
			  <deny own="*"/>
			  <deny send_type="method_call"/>
			  <allow send_type="signal"/>
			  <allow send_requested_reply="true" send_type="method_return"/>
			  <allow send_requested_reply="true" send_type="error"/>
			  <allow receive_type="method_call"/>
			  <allow receive_type="method_return"/>
			  <allow receive_type="error"/>
			  <allow receive_type="signal"/>
			  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
			  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
			  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
			  <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus" send_member="UpdateActivationEnvironment"/>
			  <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Debug.Stats"/>
			</policy>
			XML
			# the test runs wbgovd as $3, not root
			[ "$3" = root ] || echo "<policy user=\"$3\"><allow own=\"io.github.wbgov.Governor1\"/></policy>"
			# polkit's own policy (its package's system.d file), for
			# polkit_fake: the test's user stands for polkitd
			echo "<policy user=\"$(id -un)\"><allow own=\"org.freedesktop.PolicyKit1\"/></policy>"
			echo '<policy context="default"><allow send_destination="org.freedesktop.PolicyKit1"/></policy>'
			echo "<include>$DBUS_POLICY</include>"
		else
			echo '<policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/>'
			echo '<allow eavesdrop="true"/><allow own="*"/></policy>'
		fi
		echo '</busconfig>'
	} >"$tmp/dbus-$1.conf"
}

dbus_private() {
	dbus_config "$1" "$2" "${3:-root}"
	dbus-daemon --config-file="$tmp/dbus-$1.conf" --fork --print-address=1 --print-pid=1 \
		>"$tmp/dbus-$1.out" 2>"$tmp/dbus-$1.err" || fail "dbus-daemon $1: $(cat "$tmp/dbus-$1.err")"
	[ -n "$(sed -n 2p "$tmp/dbus-$1.out")" ] || fail "dbus-daemon $1 said no pid"
}

dbus_addr() { sed -n 1p "$tmp/dbus-$1.out"; }

# dbus_stop NAME: that bus stopped, and gone before this returns: a
# dbus-daemon unlinks its socket as it exits, and one that exits late (a
# busy machine) took the socket of the next one started on the same path
# with it (wbgovd then met ENOENT and tried again only 10 s later)
dbus_stop() {
	dpid=$(sed -n 2p "$tmp/dbus-$1.out")
	kill "$dpid" 2>/dev/null || true
	n=0
	while [ "$n" -lt 200 ]; do
		# gone, or a zombie its new parent has not reaped yet
		case $(ps -o stat= -p "$dpid" 2>/dev/null) in '' | Z*) break ;; esac
		sleep 0.05
		n=$((n + 1))
	done
	rm -f "$tmp/dbus-$1.out"
}

dbus_stop_all() {
	polkit_stop
	for f in "$tmp"/dbus-*.out; do
		[ -f "$f" ] || continue
		kill "$(sed -n 2p "$f")" 2>/dev/null || true
	done
}

polkit_fake() {
	echo yes >"$tmp/polkit.mode"
	: >"$tmp/polkit.log"
	: >"$tmp/polkit.out" # not an earlier one's "ready"
	cat >"$tmp/polkit.py" <<'PY'
import os, sys
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
addr, modefile, logfile = sys.argv[1:4]
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(addr)
held = []  # the calls "never" answers
def log(line):
    with open(logfile, "a") as f:
        f.write(line + "\n")
class Authority(dbus.service.Object):
    @dbus.service.method("org.freedesktop.PolicyKit1.Authority",
                         in_signature="(sa{sv})sa{ss}us", out_signature="(bba{ss})",
                         async_callbacks=("ok", "err"))
    def CheckAuthorization(self, subject, action, details, flags, cancel_id, ok, err):
        with open(modefile) as f:
            mode = f.read().strip()
        kind, sub = subject
        log("check %s %s %s %d %s device=%s" % (kind, sub.get("name", "-"), action, flags,
                                                cancel_id, details.get("device", "-")))
        answers = {"yes": (True, False, {}), "no": (False, False, {}),
                   "challenge": (False, True, {}),
                   "dismissed": (False, True, {"polkit.dismissed": "true"})}
        if mode in answers:
            ok(dbus.Struct(answers[mode], signature="bba{ss}"))
        elif mode == "crash":
            os._exit(3)
        else:
            held.append((ok, err))
    @dbus.service.method("org.freedesktop.PolicyKit1.Authority", in_signature="s")
    def CancelCheckAuthorization(self, cancel_id):
        log("cancel %s" % cancel_id)
name = dbus.service.BusName("org.freedesktop.PolicyKit1", bus)
Authority(bus, "/org/freedesktop/PolicyKit1/Authority")
print("ready", flush=True)
GLib.MainLoop().run()
PY
	/usr/bin/python3 "$tmp/polkit.py" "$(dbus_addr "$1")" "$tmp/polkit.mode" "$tmp/polkit.log" \
		>"$tmp/polkit.out" 2>&1 &
	POLKIT_PID=$!
	wait_for 5 grep -q ready "$tmp/polkit.out" || fail "the fake polkit did not start: $(cat "$tmp/polkit.out")"
}

polkit_mode() { echo "$1" >"$tmp/polkit.mode"; }

polkit_stop() {
	[ -z "${POLKIT_PID:-}" ] || kill "$POLKIT_PID" 2>/dev/null || true
	[ -z "${POLKIT_PID:-}" ] || wait "$POLKIT_PID" 2>/dev/null || true
	POLKIT_PID=
}
