#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/desktop's figures, from the events.tsv that desktop-host.py
wrote (every line on the host's clock):

  desktop-report.py --out DIR --mib N --bps N --fs FS --kernel KV --command CMD --image DIR
  desktop-report.py --splice docs/desktop.md DIR/summary.md SERIES

The first writes DIR/checks.txt (each check, then "tests: N passed, N
failed"), DIR/run-ID.tsv (each copy: the bytes gio reported, the bytes
the stick had received, wbgovd's PendingBytes, over time) and
DIR/summary.md; exit 1 when a check failed. The second puts summary.md
between the markers of docs/desktop.md's "Measured on a desktop" (the
section and its markers are made at the end when missing)."""
import re
import statistics
import sys

# one block for each kernel series (--kernel), rewritten by the next run
BEGIN = "<!-- bench/desktop --kernel %s: from here to its end marker, written by bench/desktop -->"
END = "<!-- bench/desktop --kernel %s: end -->"
MIB = 1048576.0


def splice(doc, summary, series):
    text = open(doc).read()
    begin, end = BEGIN % series, END % series
    block = begin + "\n" + open(summary).read().rstrip("\n") + "\n" + end
    if begin in text and end in text:
        a = text.index(begin)
        b = text.index(end) + len(end)
        text = text[:a] + block + text[b:]
    elif "\n## Measured on a desktop\n" in text:
        # after the section's last block; without one, at the section's end
        h = text.index("\n## Measured on a desktop\n") + 1
        nxt = text.find("\n## ", h)
        sec_end = len(text) if nxt < 0 else nxt
        last = text.rfind(END.split("%s")[0], h, sec_end)
        if last >= 0:
            a = text.index("-->", last) + 3
            text = text[:a] + "\n\n" + block + text[a:]
        else:
            text = text[:sec_end].rstrip("\n") + "\n\n" + block + "\n" + text[sec_end:]
    else:
        text = text.rstrip("\n") + "\n\n## Measured on a desktop\n\n" + block + "\n"
    open(doc, "w").write(text)


def gio_bytes(s):
    # "Transferred 12.3 MB out of 167.8 MB (6.1 MB/s)": g_format_size's
    # decimal units
    # between number and unit a no-break space, '?' where the guest's
    # locale (C) has none
    m = re.match(r"Transferred ([0-9.,]+)[\s\u00a0?]?(bytes|kB|MB|GB) out of ([0-9.,]+)[\s\u00a0?]?"
                 r"(bytes|kB|MB|GB)", s)
    if not m:
        return None
    u = {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
    return (float(m.group(1).replace(",", ".")) * u[m.group(2)],
            float(m.group(3).replace(",", ".")) * u[m.group(4)])


def at(series, t):
    """the last value of series [(t, v)] at or before t, None before the first"""
    v = None
    for ts, x in series:
        if ts > t:
            break
        v = x
    return v


def short(diff):
    """a knobs_diff line, only what is now, at most 400 characters"""
    now = "; ".join(p[5:] for p in diff.split(";") if p.startswith("now: "))
    return now if len(now) <= 400 else now[:400] + " …"


def fmt(x, d=1):
    return "-" if x is None else ("%.*f" % (d, x))


def main():
    a = sys.argv[1:]
    if a and a[0] == "--splice":
        splice(a[1], a[2], a[3])
        return 0
    o = dict(zip(a[0::2], a[1::2]))
    out = o["--out"]
    size = int(o["--mib"]) * 1048576
    bps = int(o["--bps"])
    ev = []
    for line in open(out + "/events.tsv"):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 3:
            ev.append((float(f[0]), f[1], f[2:]))
    checks = []
    facts = {}
    runs = {}   # id -> dict
    order = []
    notify_calls, notify_out, dunst_hist, units, misc = [], {}, "", [], []
    ended = False
    t_boot = ev[0][0] if ev else 0
    for t, kind, rest in ev:
        if kind == "stick":
            sid, wr, ops, fl = rest[0], int(rest[1]), int(rest[2]), int(rest[3])
            runs.setdefault(sid, {"stick": [], "gio": [], "mon": [], "mode": "package"})
            runs[sid]["stick"].append((t, wr, fl))
            continue
        if kind == "host":
            misc.append("%.1f s: host: %s" % (t - t_boot, rest[0]))
            continue
        s = rest[0]
        w = s.split(" ")
        tag = w[0]
        if tag == "dg-check" and len(w) >= 3:
            checks.append((w[1], w[2] == "ok", " ".join(w[3:])))
        elif tag == "dg-fact" and len(w) >= 2:
            facts[w[1]] = " ".join(w[2:])
        elif tag == "dg-end":
            ended = True
        elif tag == "dg-unit":
            units.append(" ".join(w[1:]))
        elif tag == "dg-run" and len(w) >= 5 and w[4] == "start":
            runs.setdefault(w[1], {"stick": [], "gio": [], "mon": []})
            runs[w[1]]["mode"] = w[2]
            runs[w[1]]["fs"] = w[3]
            order.append(w[1])
        elif tag in ("dg-copy-start", "dg-copy-end", "dg-unmount-start", "dg-unmount-end",
                     "dg-poweroff-end", "dg-plugged", "dg-mount"):
            r = runs.setdefault(w[1], {"stick": [], "gio": [], "mon": []})
            r[tag[3:]] = t
            if tag == "dg-mount":
                r["mount_out"] = " ".join(w[2:])
            if tag in ("dg-unmount-end", "dg-poweroff-end"):
                r[tag[3:] + "-out"] = " ".join(w[3:])
        elif tag == "dg-gio" and len(w) >= 4:
            g = gio_bytes(" ".join(w[3:]))
            if g:
                runs.setdefault(w[1], {"stick": [], "gio": [], "mon": []})["gio"].append((t, g[0]))
        elif tag == "dg-mon" and len(w) >= 4:
            runs.setdefault(w[1], {"stick": [], "gio": [], "mon": []})["mon"].append((t, " ".join(w[3:])))
        elif tag == "dg-notify":
            notify_calls.append(" ".join(w[1:]))
        elif tag == "dg-notify-out":
            notify_out.setdefault(w[1], []).append(" ".join(w[2:]))
        elif tag == "dg-dunst-history":
            dunst_hist = " ".join(w[1:])
    checks.append(("guest-finished", ended, "the guest did not reach its end (timeout, or it failed: console.log)"))

    rows = []
    for rid in order:
        r = runs[rid]
        if "copy-start" not in r or not r["stick"]:
            checks.append((rid + "/measured", False, "no copy or no stick samples"))
            continue
        t0 = r["copy-start"]
        base = None
        for ts, wr, fl in r["stick"]:
            if ts <= t0:
                base = wr
        if base is None:
            base = r["stick"][0][1]
        stick = [(ts, wr - base, fl) for ts, wr, fl in r["stick"]]
        gio = r["gio"]
        total = gio[-1][1] if gio else None
        # wbgovd's PendingBytes of the stick, from the signals
        pend = []
        pc = 0
        shapes = {}
        for ts, l in r["mon"]:
            if "PropertiesChanged" in l:
                pc += 1
                keys = tuple(sorted(re.findall(r"'([A-Za-z]+)': <", l)))
                shapes[keys] = shapes.get(keys, 0) + 1
                m = re.search(r"'PendingBytes': <(?:uint64 )?([0-9]+)>", l)
                if m:
                    pend.append((ts, int(m.group(1))))
        t_end = r.get("copy-end")
        # gio's bar full: its first report of the whole
        t_full = next((ts for ts, g in gio if total is not None and g >= total), None)
        t_data = next((ts for ts, b, _ in stick if b >= size), None)
        last_wr = stick[-1][1]
        t_last = next((ts for ts, b, _ in stick if b >= last_wr), None)
        # the gap: what gio said was copied, less what the stick had
        gap = 0.0
        rows_ts = []
        for ts, b, fl in stick:
            if ts < t0:
                continue
            g = at(gio, ts) or 0.0
            if t_end is not None and ts >= t_end and total is not None:
                g = total
            g = min(g, size)
            # until the unmount has ended: gio's "done" stands while the
            # unmount writes what it claimed
            if ts <= (r.get("unmount-end") or ts):
                gap = max(gap, g - b)
            p = at(pend, ts)
            rows_ts.append((ts - t0, g, b, p, fl))
        with open("%s/run-%s.tsv" % (out, rid), "w") as f:
            f.write("# %s (%s): seconds since the copy started; bytes gio reported; bytes the stick "
                    "had received since; wbgovd's PendingBytes (last signal); the stick's flushes\n"
                    % (rid, r["mode"]))
            f.write("t_s\tgio_bytes\tstick_bytes\tpending_bytes\tflushes\n")
            for ts, g, b, p, fl in rows_ts:
                f.write("%.2f\t%d\t%d\t%s\t%d\n" % (ts, g, b, "-" if p is None else p, fl))
        # what the unmount waited for: the bytes the stick received while it
        # ran; and what wbgovd last said was pending when it began
        um_mib = None
        if "unmount-start" in r and "unmount-end" in r:
            b0 = at([(ts, b) for ts, b, _ in stick], r["unmount-start"]) or 0
            b1 = at([(ts, b) for ts, b, _ in stick], r["unmount-end"]) or 0
            um_mib = (b1 - b0) / MIB
        p_um = at(pend, r["unmount-start"]) if "unmount-start" in r else None
        p_max = max([v for ts, v in pend if ts >= t0 and ts <= r.get("unmount-start", ts)], default=None)
        um = (r["unmount-end"] - r["unmount-start"]) if "unmount-end" in r and "unmount-start" in r else None
        safe = (r["poweroff-end"] - r["unmount-start"]) if "poweroff-end" in r and "unmount-start" in r else None
        checks.append((rid + "/stick-got-the-file", t_data is not None,
                       "the stick received %d bytes of the %d-byte file" % (last_wr, size)))
        rows.append({
            "id": rid, "mode": r["mode"], "fs": r.get("fs", "?"),
            "full": None if t_full is None else t_full - t0,
            "done": None if t_end is None else t_end - t0,
            "data": None if t_data is None else t_data - t0,
            "last": None if t_last is None else t_last - t0,
            "gap": gap / MIB, "um_mib": um_mib,
            "p_um": None if p_um is None else p_um / MIB, "p_max": None if p_max is None else p_max / MIB,
            "umount": um, "safe": safe,
            "total": (r["poweroff-end"] - t0) if "poweroff-end" in r else None,
            "gunmount": facts.get(rid + "/unmount_s"), "gsafe": facts.get(rid + "/safe_s"),
            "pc": pc, "shapes": shapes, "npend": len(pend),
            "opts": facts.get(rid + "/mount-options", ""),
        })

    with open(out + "/checks.txt", "w") as f:
        for n, ok, what in checks:
            f.write(("ok   %s\n" % n) if ok else ("FAIL %s: %s\n" % (n, what)))
        npass = sum(1 for c in checks if c[1])
        f.write("tests: %d passed, %d failed\n" % (npass, len(checks) - npass))
    sys.stdout.write(open(out + "/checks.txt").read())

    # ---- summary.md
    L = []
    L.append("`%s` (%d checks passed, %d failed). The guest: Debian 12 from mmdebstrap "
             "(`bench/out/desktop-image`), Linux %s, systemd as PID 1, udisks2, polkitd, gvfs, "
             "dunst under Xvfb; the user `desk` in plugdev logged in on tty1 (logind: seat0, "
             "active, local). The stick: usb-storage on xhci, %s, 512 MiB, written at %.1f MB/s "
             "(a qemu throttle group), plugged over QMP. The file: %d MiB of random data. "
             "Times are the host's, from the copy's start; the stick's bytes are qemu's "
             "`wr_bytes` of its drive, read every 0.1 s."
             % (o["--command"], npass, len(checks) - npass, o["--kernel"],
                " or ".join(sorted(set(x["fs"] for x in rows))) or "-", bps / 1e6, size // 1048576))
    L.append("")
    L.append("| run | fs | wbgovd | gio's bar full (s) | gio returns (s) | the stick has the file (s) "
             "| max gap, gio ahead of the stick (MiB) | unmount (s) | written during the unmount (MiB) "
             "| unmount → safe to remove (s) | copy → safe to remove (s) | PropertiesChanged |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    modes = {"defaults": "stopped (defaults)", "wbgovd": "running",
             "notify": "running, `wbgov notify --threshold 32K`"}
    for x in rows:
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["id"], x["fs"], modes.get(x["mode"], x["mode"]), fmt(x["full"]),
            fmt(x["done"]), fmt(x["data"]), fmt(x["gap"]), fmt(x["umount"]), fmt(x["um_mib"]),
            fmt(x["safe"]), fmt(x["total"]),
            x["pc"] if x["mode"] != "defaults" else "-"))
    L.append("")
    for fs in sorted(set(x["fs"] for x in rows)):
        for mode in ("defaults", "wbgovd"):
            xs = [x for x in rows if x["mode"] == mode and x["fs"] == fs]
            if not xs:
                continue

            def med(k):
                v = [x[k] for x in xs if x[k] is not None]
                return statistics.median(v) if v else None
            L.append("- %s, %s (%d runs, medians): gio's bar was full at %s s and gio returned at %s s; "
                     "the stick had the file at %s s; gio was up to %s MiB ahead of it; unmount took "
                     "%s s (the stick received %s MiB meanwhile), unmount → safe to remove %s s; from the "
                     "copy's start to safe to remove %s s."
                     % (fs, "wbgovd stopped" if mode == "defaults" else "wbgovd running", len(xs),
                        fmt(med("full")), fmt(med("done")), fmt(med("data")), fmt(med("gap")),
                        fmt(med("umount")), fmt(med("um_mib")), fmt(med("safe")), fmt(med("total"))))
    L.append("")
    L.append("The time series: `run-ID.tsv` in the run's directory (bench/out/desktop-*/).")
    wx = [x for x in rows if x["mode"] != "defaults"]
    if wx:
        L.append("")
        L.append("wbgovd's signals during a run (`gdbus monitor --system --dest io.github.wbgov.Governor1`, "
                 "from the mount to the power-off): ")
        for x in wx:
            sh = "; ".join("%d× {%s}" % (n, ", ".join(k)) for k, n in
                           sorted(x["shapes"].items(), key=lambda kv: -kv[1]))
            L.append("- %s: %d PropertiesChanged, %d with PendingBytes; the most pending during the "
                     "copy %s MiB, at the unmount %s MiB. Shapes: %s"
                     % (x["id"], x["pc"], x["npend"], fmt(x["p_max"], 2), fmt(x["p_um"], 2), sh or "none"))
    L.append("")
    L.append("`wbgov notify` in the user's session, as dunst received it (Notify: app | replaces_id "
             "| icon | summary | body):")
    L.append("")
    if notify_calls:
        seen = []
        for c in notify_calls:
            if c not in seen:
                seen.append(c)
        # the first and the last: how it starts and how it ends
        show = seen if len(seen) <= 12 else seen[:7] + ["(%d more)" % (len(seen) - 12)] + seen[-5:]
        for c in show:
            L.append("    " + c)
        L.append("")
        L.append("%d Notify calls in all, %d of them not the bench's own check; `dunstctl history` "
                 "then held %d notifications."
                 % (len(notify_calls), sum(1 for c in notify_calls if not c.startswith('"bench"')),
                    dunst_hist.count('"summary"')))
    else:
        L.append("    (none)")
    for rid, lines in notify_out.items():
        if lines:
            L.append("")
            L.append("`wbgov notify`'s own output in %s: %s" % (rid, " / ".join(lines[:4])))
    L.append("")
    L.append("The package, with systemd running (each step checked): apt took %s s. wbgovd's hardening as the kernel saw it: `%s`; Landlock: `%s`; "
             "the knobs it had changed while a stick held data: `%s`; stopping took %s s."
             % (", ".join("%s %s" % (k.split("/")[0], v) for k, v in facts.items() if k.endswith("/apt_s")),
                facts.get("install/hardening", "?"), facts.get("landlock", "?"),
                short(facts.get("install/knobs-while-writing", "?")), facts.get("stop/stop_s", "?")))
    L.append("")
    st = sorted(k for k in facts if k.endswith("/status-json"))
    de = sorted(k for k in facts if k.endswith("/status-de"))
    L.append("D-Bus and polkit as the user meets them: Sync of the stick's object from the user's "
             "session on tty1 (polkit's allow_active), the stick slowed to 64 KB/s as a 16 MiB write "
             "under wbgovd ended and given its speed back 2 s into the call: `%s` (bytes, as "
             "wbgovd told them; seconds); the stick held "
             "%s KiB before and %s KiB after, %s KiB idle before the write (debugfs, root's: "
             "per-CPU counters, up to 64 KiB a CPU off). The same call by a "
             "process of `desk` outside any session: `%s`; `pkaction`: `%s`. The user's `wbgov "
             "status --json` during each copy under wbgovd (from 5 s in, each second until the "
             "stick's figure is more than 0): %s. `LANGUAGE=de wbgov status`'s "
             "header (the user's LANG: `%s`; C.UTF-8 for the call): `%s`. The desktop-entry hint: "
             "`%s` Notify calls of `wbgov notify` carried `wbgov-notify` (dbus-monitor); dunst's "
             "history names it in %s lines."
             % (facts.get("sync/allowed", "?"), facts.get("sync/stick-before_kib", "?"),
                facts.get("sync/stick-after_kib", "?"), facts.get("sync/stick-idle_kib", "?"), facts.get("sync/no-session", "?")[:200],
                facts.get("install/pkaction", "?"),
                "; ".join("%s: `%s`" % (k.split("/")[0], facts[k]) for k in st) or "?",
                facts.get("user/lang", "?"), facts[de[0]] if de else "?",
                facts.get("notify/desktop-entry", "?"),
                facts.get("notify/dunst-history-names-entry", "?")))
    fails = [c for c in checks if not c[1]]
    if fails:
        L.append("")
        L.append("Failed checks:")
        for n, _, what in fails:
            L.append("- `%s`: %s" % (n, what))
    open(out + "/summary.md", "w").write("\n".join(L) + "\n")
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
