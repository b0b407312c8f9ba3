#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Strings from the system come out of every JSON output of wbgov that
# carries them as valid JSON, parsed as strict UTF-8: the fixture's stick
# has a model with a Latin-1 byte, and here a mount point holding a
# newline, a double quote and a byte that is not UTF-8 (mountinfo writes
# the newline as \012, the rest as it is). status --json, watch --json
# (one line per object whatever the strings hold) and explain --json show
# them whole, the bad bytes as U+FFFD. (cp --json's file names:
# wbgov_cp.sh.)
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
FX=$tmp/fx
cli_fixture "$FX"
printf '44 22 8:17 / /media/user/a\\012b"c\377d rw,nosuid shared:5 - vfat /dev/sdb1 rw\n' \
	>>"$FX/proc/self/mountinfo"
G() { "$W" --root "$FX" --state-dir "$tmp/st" "$@"; }

G status --json >"$tmp/status" || fail "status --json exited $?"
G explain --json sdb >"$tmp/explain" || fail "explain --json exited $?"
"$W" --root "$FX" --state-dir "$tmp/st" watch --json --interval 0.2 >"$tmp/watch" 2>&1 &
WP=$!
sleep 0.7
kill -TERM $WP
wait $WP || fail "watch --json exited $? on SIGTERM"

python3 - "$tmp/status" "$tmp/explain" "$tmp/watch" <<'PY' || fail "see above"
import json, sys
MOUNTS = ["/media/user/NO NAME", "/media/user/Caf\u00e9", '/media/user/a\nb"c\ufffdd']
MODEL = "SanDisk Cruzer \ufffd Blade"
def strict(raw, what):
    try:
        return json.loads(raw.decode("utf-8"))  # invalid UTF-8 raises
    except Exception as e:
        sys.exit("%s: not valid UTF-8 JSON: %s" % (what, e))
def check(doc, what):
    sdb = [d for d in doc["devices"] if d["bdi"] == "8:16"]
    if len(sdb) != 1:
        sys.exit("%s: no single 8:16 in %r" % (what, [d["bdi"] for d in doc["devices"]]))
    if sdb[0]["mounts"] != MOUNTS:
        sys.exit("%s: mounts %r, want %r" % (what, sdb[0]["mounts"], MOUNTS))
    if sdb[0]["model"] != MODEL:
        sys.exit("%s: model %r, want %r" % (what, sdb[0]["model"], MODEL))
check(strict(open(sys.argv[1], "rb").read(), "status --json"), "status --json")
check(strict(open(sys.argv[2], "rb").read(), "explain --json"), "explain --json")
lines = open(sys.argv[3], "rb").read().split(b"\n")
if lines[-1] != b"" or len(lines) < 3:
    sys.exit("watch --json: %d lines, or the last not ended" % (len(lines) - 1))
for n, l in enumerate(lines[:-1]):
    check(strict(l, "watch --json line %d" % (n + 1)), "watch --json line %d" % (n + 1))
PY
echo "$me: ok"
