#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/zoo's figures as shipped, from one boot's events.tsv (every line
on the host's clock, bench/lib/desktop-host.py) and its plugs:

  zoo-events.py --events TSV --plugs FILE --kernel KV --boot NAME --out DIR [--plug-dir DIR]

Appends to DIR/results.tsv one line a copy: kernel, case, CONFIG/TOOL,
repetition, then

  copy_s after_s ratio peak_kib p99_ms cap_s error replug_sync_s replug_cap_s
  device_mib gio100_s gio100_device_mib unmount_s

(the guest's zs-result; device_mib: what the disk was given from the
copy's start to the end of the sync or unmount after it: from the plug's
nbdkit log (--plug-dir DIR: DIR/ID/nbd.log, each write counted when it
completed), else query-blockstats' wr_bytes (qemu's SD card counts none);
gio100_s: from the start of `gio copy` to its first report of
the whole file, on the host's clock; gio100_device_mib: what the disk had
received of the copy then; unmount_s: udisksctl unmount's time, after cp
an idle one; "-" where a figure does not apply, "failed" alone where the
guest gave no result); to DIR/facts.tsv the guest's facts of each case
(kernel, case, name, value; wbgovd's journal lines as "log <6>LINE"); to
DIR/checks.tsv the boot's checks (kernel, boot, name, ok|FAIL, what). The
plugs' lines: ID CASE BUS PROFILE FS CONFIG REP MIB BPS IDEAL SERIAL."""
import datetime
import importlib.util
import os
import re
import sys

MIB = 1048576.0
_spec = importlib.util.spec_from_file_location(
    "desktop_report", os.path.join(os.path.dirname(os.path.abspath(__file__)), "desktop-report.py"))
desktop_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(desktop_report)
gio_bytes, at = desktop_report.gio_bytes, desktop_report.at


WRITE = re.compile(r"^(\S+ \S+) (?:connection=\d+ )?Write id=(\d+) .*count=0x([0-9a-fA-F]+)")
DONE = re.compile(r"^(\S+ \S+) (?:connection=\d+ )?\.\.\.Write id=(\d+) return=0")


def nbd_series(path):
    """[(t, bytes written so far)] from an nbdkit log filter's file: a write
    counted when it completed (return=0), on the host's clock (the log's
    local time)."""
    pending, total, series = {}, 0, []
    try:
        f = open(path)
    except OSError:
        return None
    with f:
        for line in f:
            m = WRITE.match(line)
            if m:
                pending[m.group(2)] = int(m.group(3), 16)
                continue
            m = DONE.match(line)
            if m and m.group(2) in pending:
                total += pending.pop(m.group(2))
                t = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
                series.append((t, total))
    return series


def main():
    a = sys.argv[1:]
    o = dict(zip(a[0::2], a[1::2]))
    kv, boot, out = o["--kernel"], o["--boot"], o["--out"]
    plugs = {}
    order = []
    for line in open(o["--plugs"]):
        f = line.split()
        if len(f) >= 11:
            plugs[f[0]] = {"case": f[1], "cfg": f[5], "rep": f[6]}
            order.append(f[0])
    stick, gio, start, result, span = {}, {}, {}, {}, {}
    facts, checks = [], []
    ended = False
    for line in open(o["--events"]):
        f = line.rstrip("\n").split("\t")
        if len(f) < 3:
            continue
        t, kind = float(f[0]), f[1]
        if kind == "stick" and len(f) >= 4:
            stick.setdefault(f[2], []).append((t, int(f[3])))
            continue
        if kind != "chan":
            continue
        w = f[2].split(" ")
        tag = w[0]
        if tag == "zs-result" and len(w) >= 13 and w[1] in plugs:
            result[w[1], w[2]] = w[3:13]
        elif tag == "zs-copy" and len(w) >= 4 and w[1] in plugs:
            span.setdefault((w[1], w[2]), {})[w[3]] = t
        elif tag in ("zs-fact", "zs-log") and len(w) >= 3 and w[1] in plugs:
            c = plugs[w[1]]["case"]
            v = " ".join(w[2:]) if tag == "zs-fact" else "log <6>" + " ".join(w[2:])
            facts.append("%s\t%s\t%s" % (kv, c, v))
        elif tag == "dg-copy-start" and len(w) >= 2:
            start[w[1]] = t
        elif tag == "dg-gio" and len(w) >= 4:
            g = gio_bytes(" ".join(w[3:]))
            if g:
                gio.setdefault(w[1], []).append((t, g[0], g[1]))
        elif tag == "dg-check" and len(w) >= 3:
            checks.append("%s\t%s\t%s\t%s\t%s" % (kv, boot, w[1], w[2], " ".join(w[3:])))
        elif tag == "dg-end":
            ended = True
    checks.append("%s\t%s\t%s\t%s\t%s" % (kv, boot, "guest-finished", "ok" if ended else "FAIL",
                                           "" if ended else "the guest did not reach its end (its console: boot-*.log)"))
    nbd = {}
    if "--plug-dir" in o:
        for pid in order:
            s = nbd_series(os.path.join(o["--plug-dir"], pid, "nbd.log"))
            if s:
                nbd[pid] = [(0.0, 0)] + s

    def after(series, t):
        """the first value of series [(t, v)] at or after t, else its last"""
        return next((v for ts, v in series if ts >= t), series[-1][1] if series else None)

    with open(os.path.join(out, "results.tsv"), "a") as r:
        for pid in order:
            p = plugs[pid]
            for tool in ("cp", "gio"):
                head = "%s\t%s\t%s/%s\t%s\t" % (kv, p["case"], p["cfg"], tool, p["rep"])
                if (pid, tool) not in result:
                    r.write(head + "failed\n")
                    continue
                s = nbd.get(pid) or stick.get(pid, [])
                sp = span.get((pid, tool), {})
                dev = g100 = gdev = "-"
                if s and "start" in sp and "end" in sp:
                    base = at(s, sp["start"]) or 0
                    dev = "%.2f" % ((after(s, sp["end"]) - base) / MIB)
                    if tool == "gio":
                        t_full = next((ts for ts, b, tot in gio.get(pid, []) if b >= tot), None)
                        if t_full is not None and pid in start:
                            g100 = "%.2f" % (t_full - start[pid])
                            gdev = "%.2f" % (((at(s, t_full) or 0) - base) / MIB)
                res = result[pid, tool]
                r.write(head + " ".join(res[:9] + [dev, g100, gdev, res[9]]) + "\n")
    with open(os.path.join(out, "facts.tsv"), "a") as fo:
        for x in facts:
            fo.write(x + "\n")
    with open(os.path.join(out, "checks.tsv"), "a") as co:
        for x in checks:
            co.write(x + "\n")


if __name__ == "__main__":
    main()
