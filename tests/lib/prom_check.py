# SPDX-License-Identifier: GPL-2.0-or-later
# prom_check.py FILE: FILE is Prometheus's text exposition format (0.0.4),
# as node_exporter's textfile collector reads it. Parsed by the reference
# parser (Debian's python3-prometheus-client), and checked for what that
# parser lets through: valid UTF-8, a final newline, HELP then TYPE once per
# family before its samples, a family's samples together, names and label
# names as the format allows, no series twice. Prints each sample as
#   NAME{KEY="VALUE",...} VALUE
# with the labels in the order written and values as Python reads them
# (\n in a label value printed as \n), for the tests to grep. Exit 1 and a
# reason on the first fault.
import re
import sys

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    sys.exit("prom_check: no prometheus_client (python3-prometheus-client; sh scripts/deps.sh)")

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\Z")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*\Z")


def fault(what):
    sys.exit("prom_check: " + what)


raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8")
except UnicodeDecodeError as e:
    fault("not UTF-8: %s" % e)
if not text.endswith("\n"):
    fault("no newline at the end (a file cut short?)")

# the layout, line by line
helped, typed, done = set(), {}, set()
current = None
pending_help = None
for n, line in enumerate(text.split("\n")[:-1], 1):
    if line.startswith("# HELP "):
        name = line.split(" ", 3)[2]
        if name in helped:
            fault("line %d: a second HELP for %s" % (n, name))
        helped.add(name)
        if current:
            done.add(current)
        current = None
        pending_help = name
    elif line.startswith("# TYPE "):
        parts = line.split(" ")
        if len(parts) != 4 or parts[3] not in ("counter", "gauge", "untyped", "summary", "histogram"):
            fault("line %d: %r" % (n, line))
        name = parts[2]
        if name in typed:
            fault("line %d: a second TYPE for %s" % (n, name))
        if name not in helped or pending_help != name:
            fault("line %d: TYPE %s without its HELP just before" % (n, name))
        if not NAME.match(name):
            fault("line %d: %r is not a metric name" % (n, name))
        typed[name] = parts[3]
        current = name
    elif line.startswith("#") or not line:
        fault("line %d: %r: a comment or blank line wbgov does not write" % (n, line))
    else:
        name = re.match(r"[^{ ]*", line).group(0)
        if current is None or name != current:
            fault("line %d: sample %s outside its family (in %s)" % (n, name, current))

# the reference parser: escapes, values, labels
seen = set()
try:
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            for k in s.labels:
                if not LABEL.match(k):
                    fault("%s: label name %r" % (s.name, k))
            key = (s.name, tuple(sorted(s.labels.items())))
            if key in seen:
                fault("%s%r twice" % key)
            seen.add(key)
            labels = ",".join('%s="%s"' % (k, v.replace("\n", "\\n")) for k, v in s.labels.items())
            print("%s{%s} %r" % (s.name, labels, s.value))
except ValueError as e:
    fault("the parser refused it: %s" % e)
if typed and not seen:
    fault("no sample")
