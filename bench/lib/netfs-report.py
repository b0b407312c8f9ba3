#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/netfs's report: from DIR/events-KERNEL.tsv (desktop-host.py's,
the guest's lines on the host's clock) it writes DIR/results.tsv (one
line a copy), DIR/checks.txt (every check, then "tests: N passed, N
failed") and DIR/summary.md (the table docs/shares.md quotes).

  netfs-report.py --out DIR [--command TEXT]

The goals are bench/netfs's: under wbgovd, close() + sync after the copy
<= 1.0 s beyond the link's round trip, the writer never ahead of the
server by more than 1 s of the link when its last write returns, an
unlimited share as fast as under the defaults (>= 0.98), a limited one's
copy at 0.95 of their pace at least, and the guest's
own checks (the unit, the servers, the dead server's)."""
import glob
import os
import sys

FIELDS = ["kernel", "id", "share", "rate", "delay", "config", "event", "mib", "write_s", "close_s",
          "sync_s", "held_mib", "max_ahead_mib", "p99_ms", "listed"]


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def main():
    a = sys.argv[1:]
    opts = dict(zip(a[0::2], a[1::2]))
    out = opts["--out"]
    command = opts.get("--command", "")
    if not command and os.path.exists(os.path.join(out, "command")):
        command = open(os.path.join(out, "command")).read().strip()
    rows, checks, facts = [], [], {}
    for path in sorted(glob.glob(os.path.join(out, "events-*.tsv"))):
        kernel = os.path.basename(path)[len("events-"):-len(".tsv")]
        seen_end = False
        for line in open(path, encoding="utf-8", errors="replace"):
            p = line.rstrip("\n").split("\t")
            if len(p) < 3 or p[1] != "chan":
                continue
            f = p[2].split()
            if not f:
                continue
            if f[0] == "dg-check" and len(f) >= 3:
                checks.append((kernel + "/" + f[1], f[2] == "ok", " ".join(f[3:])))
            elif f[0] == "dg-end":
                seen_end = True
            elif f[0] == "nf-fact" and len(f) >= 3:
                facts.setdefault((kernel, f[1]), {})[f[2]] = " ".join(f[3:])
            elif f[0] == "nf-result" and len(f) >= 14:
                r = dict(zip(FIELDS[1:14], f[1:14]))
                r["kernel"] = kernel
                rows.append(r)
        checks.append((kernel + "/boot-ended", seen_end, "the guest did not say dg-end"))
    for r in rows:
        fx = facts.get((r["kernel"], r["id"]), {})
        line = fx.get("status_line", fx.get("dead_status_line", "-"))
        r["listed"] = "no" if line in ("", "-") else "yes"
    with open(os.path.join(out, "results.tsv"), "w") as w:
        w.write("\t".join(FIELDS) + "\n")
        for r in rows:
            w.write("\t".join(str(r.get(k, "")) for k in FIELDS) + "\n")

    def t(r, k):
        return num(r.get(k, "-"))

    by = {(r["kernel"], r["share"], r["rate"], r["config"], r["event"]): r for r in rows}
    for r in rows:
        name = "%s/%s-%s-%s-%s" % (r["kernel"], r["share"], r["rate"], r["config"], r["event"])
        ws, cs, ss, held = t(r, "write_s"), t(r, "close_s"), t(r, "sync_s"), t(r, "held_mib")
        if ws is None or cs is None or ss is None:
            checks.append((name + "/copied", False, "no figures: the copy failed"))
            continue
        if r["config"] != "wbgovd" or r["share"] == "sshfs":
            continue
        rtt = 2 * float(r["delay"]) / 1000
        rate = float(r["rate"])
        if r["event"] != "dead":
            checks.append((name + "/listed", r["listed"] == "yes",
                           "wbgov status did not list the share mid-copy"))
        if r["event"] == "dead":
            continue
        if rate > 0:
            after = cs + ss
            checks.append((name + "/after", after <= 1.0 + rtt,
                           "close() %.2f s + sync %.2f s > 1.0 s + the round trip %.2f s" % (cs, ss, rtt)))
            if r["event"] == "none" and held is not None:
                ahead_s = (float(r["mib"]) - held) * 1048576 / rate
                checks.append((name + "/progress", ahead_s <= 1.0 + rtt,
                               "the last write returned %.1f s of the link ahead of the server "
                               "(it held %.1f of %s MiB)" % (ahead_s, held, r["mib"])))
        d = by.get((r["kernel"], r["share"], r["rate"], "defaults", r["event"]))
        if r["event"] == "none" and d and t(d, "write_s") is not None:
            # the copy as a whole (writes, close(), sync) at the defaults'
            # pace: a cap that slows the link down is no fix; and without
            # a limit, as fast as they are
            mine = ws + cs + ss
            theirs = t(d, "write_s") + t(d, "close_s") + t(d, "sync_s")
            what, want = ("pace", 0.95) if rate > 0 else ("fast", 0.98)
            checks.append((name + "/" + what, theirs / mine >= want if mine > 0 else True,
                           "%.2f s against the defaults' %.2f s: %.3f of their pace" %
                           (mine, theirs, theirs / mine if mine else 0)))
    with open(os.path.join(out, "checks.txt"), "w") as w:
        npass = sum(1 for c in checks if c[1])
        for name, ok, why in checks:
            w.write("%s %s%s\n" % (name, "ok" if ok else "FAIL", "" if ok else ": " + why))
        w.write("tests: %d passed, %d failed\n" % (npass, len(checks) - npass))
    with open(os.path.join(out, "summary.md"), "w") as w:
        w.write("`%s`%s\n\n" % (command, (", " + open(os.path.join(out, "run.txt")).read().strip())
                                if os.path.exists(os.path.join(out, "run.txt")) else ""))
        w.write("| kernel | share | link | event | config | writes return | close() | sync after "
                "| server held at the last write | most ahead | fdatasync p99 |\n")
        w.write("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            rate = float(r["rate"])
            link = ("%g MB/s" % (rate / 1e6) if rate else "no limit") + ", %s ms" % r["delay"]

            def f(k, unit):
                v = t(r, k)
                return "%.2f %s" % (v, unit) if v is not None else "-"
            w.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                r["kernel"], r["share"], link, r["event"], r["config"], f("write_s", "s"),
                f("close_s", "s"), f("sync_s", "s"), f("held_mib", "MiB"), f("max_ahead_mib", "MiB"),
                f("p99_ms", "ms")))
    print("tests: %d passed, %d failed" % (sum(1 for c in checks if c[1]),
                                            sum(1 for c in checks if not c[1])))
    return 0 if all(c[1] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
