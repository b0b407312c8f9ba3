#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The introspection files installed to /usr/share/dbus-1/interfaces
# (etc/dbus/io.github.wbgov.Governor1.{Manager,Device}.xml) say what the
# running wbgovd says: each file's interface, compared with the one
# Introspect returns on /io/github/wbgov/Governor1 and on a device object,
# has the same methods (arguments: name, type, direction), signals
# (arguments), properties (type, access) and annotations, nothing more and
# nothing less; one interface a file, named as the file; every member
# with a doc comment that names it (gdbus-codegen's form, "Name:").
# Over the fixture tree, as nobody when the test runs as root, on a private
# dbus-daemon playing the system bus.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/dbus.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)/etc/dbus
wbgovd_fixture
trap 'for p in $PID; do kill -KILL "$p" 2>/dev/null || true; done; dbus_stop_all; rm -rf "$tmp"' EXIT
dbus_private sys system "$OWNER"
A=$(dbus_addr sys)
wbgovd_start --root "$FX" --state-dir "$ST" --no-memory --bus "${A%%,guid=*}"
wait_for 5 grep -q "^<6>D-Bus: io.github.wbgov.Governor1 on unix:path=" "$LOG" || fail "wbgovd is not on the bus: $(cat "$LOG")"

cat >"$tmp/compare.py" <<'PY'
import sys
import xml.etree.ElementTree as ET
path, live_file, iface = sys.argv[1:4]
bad = []

def parse(f, comments):
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=comments))
    with open(f, "rb") as fh:
        return ET.fromstring(fh.read(), parser=parser)

def annotations(el):
    return tuple(sorted((a.get("name"), a.get("value")) for a in el.findall("annotation")))

def members(i):
    out = set()
    for el in i:
        if not isinstance(el.tag, str):  # a comment
            continue
        n = el.get("name")
        if el.tag == "method":
            args = tuple((a.get("name"), a.get("type"), a.get("direction", "in")) for a in el.findall("arg"))
            out.add(("method", n, args, annotations(el)))
        elif el.tag == "signal":
            args = tuple((a.get("name"), a.get("type")) for a in el.findall("arg"))
            out.add(("signal", n, args, annotations(el)))
        elif el.tag == "property":
            out.add(("property", n, el.get("type"), el.get("access"), annotations(el)))
        elif el.tag == "annotation":
            out.add(("annotation", n, el.get("value")))
        else:
            bad.append("%s: unknown element <%s>" % (path, el.tag))
    return out

doc = parse(path, True)
ifaces = doc.findall("interface")
if len(ifaces) != 1 or ifaces[0].get("name") != iface:
    sys.exit("%s: want one interface %s, has %s" % (path, iface, [i.get("name") for i in ifaces]))
mine = ifaces[0]
live = [i for i in parse(live_file, False).iter("interface") if i.get("name") == iface]
if len(live) != 1:
    sys.exit("wbgovd's Introspect has no interface %s" % iface)
a, b = members(mine), members(live[0])
for m in sorted(a - b, key=str):
    bad.append("%s says %s; wbgovd does not" % (path, m))
for m in sorted(b - a, key=str):
    bad.append("wbgovd has %s; %s does not" % (m, path))
# a doc comment before the interface and before each member, naming it
prev = None
for el in list(doc) + list(mine):
    if isinstance(el.tag, str) and el.tag in ("interface", "method", "signal", "property"):
        name = el.get("name")
        if prev is None or isinstance(prev.tag, str) or (name + ":") not in prev.text:
            bad.append("%s: %s %s has no doc comment (\"%s:\")" % (path, el.tag, name, name))
    prev = el
if bad:
    sys.exit("\n".join(bad))
print("%s: %d members, as wbgovd has them" % (iface, len(a)))
PY
for pair in "Manager /io/github/wbgov/Governor1" "Device /io/github/wbgov/Governor1/device/sdb"; do
	i=${pair%% *}
	obj=${pair#* }
	f=$SRC/io.github.wbgov.Governor1.$i.xml
	[ -f "$f" ] || fail "no $f"
	busctl --address="$A" introspect --xml-interface io.github.wbgov.Governor1 "$obj" >"$tmp/live.xml" ||
		fail "Introspect $obj failed"
	"$PY" "$tmp/compare.py" "$f" "$tmp/live.xml" "io.github.wbgov.Governor1.$i" >"$tmp/out" 2>&1 ||
		fail "$(cat "$tmp/out")"
	echo "$me: $(cat "$tmp/out")" >&2
done
wbgovd_stop
exit 0
