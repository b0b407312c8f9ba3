# SPDX-License-Identifier: GPL-2.0-or-later
# Private D-Bus daemons for the black-box tests of wbgovd's bus API and of
# wbgov notify (tests/cli/dbus_*.sh); after tests/lib/cli.sh ($tmp, fail).
#   dbus_private NAME system|session [OWNER]: a dbus-daemon of its own
#     listening at $tmp/NAME.sock ("system": the policy of Debian's system
#     bus, deny by default, with etc/dbus's file included, and OWNER,
#     wbgovd's test user, allowed to own the name; "session": anything
#     goes)
#   dbus_addr NAME: its address
#   dbus_stop NAME, dbus_stop_all
command -v dbus-daemon >/dev/null 2>&1 || { echo "$me: no dbus-daemon (scripts/deps.sh)" >&2; exit 77; }
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
			# not root: the caller may Sync, as a member of plugdev
			# would (as root, dbus_api.sh checks that another user may not)
			[ "$(id -u)" = 0 ] || echo "<policy user=\"$(id -un)\"><allow send_destination=\"io.github.wbgov.Governor1\" send_interface=\"io.github.wbgov.Governor1.Device\" send_member=\"Sync\"/></policy>"
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

dbus_stop() {
	kill "$(sed -n 2p "$tmp/dbus-$1.out")" 2>/dev/null || true
	rm -f "$tmp/dbus-$1.out"
}

dbus_stop_all() {
	for f in "$tmp"/dbus-*.out; do
		[ -f "$f" ] || continue
		kill "$(sed -n 2p "$f")" 2>/dev/null || true
	done
}
