#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/desktop's host side: runs qemu, stamps every line the guest
writes on its bench channel (the second serial port) with the host's
clock, plugs and unplugs the USB stick over QMP when the guest asks
(`dg-plug ID`, `dg-unplug ID`), and while a stick is in, reads what the
stick has received (query-blockstats: wr_bytes, flush_operations) every
SAMPLE seconds. Everything goes to one TSV, on one clock:

    t_s <TAB> chan <TAB> the guest's line
    t_s <TAB> stick <TAB> ID <TAB> wr_bytes <TAB> wr_operations <TAB> flush_operations
    t_s <TAB> host <TAB> what the host did

  desktop-host.py --work DIR --out TSV --bps N --timeout S -- QEMU ARGS...

The stick of ID is DIR/stick-ID.img (made by bench/desktop), written
through a throttle group at N bytes/s. Exit 0 when the guest said
`dg-end` and powered off; 1 on a timeout or when qemu ended first."""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

SAMPLE_S = 0.1


def die(msg):
    print("desktop-host: " + msg, file=sys.stderr)
    sys.exit(1)


def connect(path, deadline):
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.time() > deadline:
                die("cannot connect to " + path)
            time.sleep(0.05)


class Qmp:
    def __init__(self, path, deadline):
        self.s = connect(path, deadline)
        self.buf = b""
        self.events = []
        self.recv_obj()  # greeting
        self.cmd("qmp_capabilities")

    def recv_obj(self):
        while b"\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                die("QMP connection closed")
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name, **args):
        m = {"execute": name}
        if args:
            m["arguments"] = args
        self.s.sendall(json.dumps(m).encode() + b"\n")
        while True:
            r = self.recv_obj()
            if "event" in r:
                self.events.append(r)
                continue
            if "error" in r:
                raise RuntimeError("%s: %s" % (name, r["error"].get("desc")))
            return r.get("return")

    def wait_event(self, name, device, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e["event"] == name and e.get("data", {}).get("device") == device:
                    return self.events.pop(i)
            if time.time() > deadline:
                return None
            self.s.settimeout(max(0.01, deadline - time.time()))
            try:
                r = self.recv_obj()
            except socket.timeout:
                return None
            finally:
                self.s.settimeout(None)
            if "event" in r:
                self.events.append(r)


def main():
    a = sys.argv[1:]
    if "--" not in a:
        die("usage: desktop-host.py --work DIR --out TSV --bps N --timeout S -- QEMU ARGS...")
    i = a.index("--")
    opts = dict(zip(a[0:i:2], a[1:i:2]))
    qemu = a[i + 1:]
    work, out = opts["--work"], opts["--out"]
    bps, timeout = int(opts["--bps"]), float(opts["--timeout"])
    t_end = time.time() + timeout
    log = open(out, "w", buffering=1)
    console = open(os.path.join(work, "console.log"), "wb")
    p = subprocess.Popen(qemu, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT)

    def stop(*_):
        if p.poll() is None:
            p.kill()
            p.wait()
        sys.exit(1)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, stop)
    try:
        qmp = Qmp(os.path.join(work, "qmp.sock"), time.time() + 30)
        chan = connect(os.path.join(work, "chan.sock"), time.time() + 30)
    except SystemExit:
        stop()

    def host(what):
        log.write("%.3f\thost\t%s\n" % (time.time(), what))

    sticks = {}  # ID -> qdev path fragment, while plugged
    buf = b""
    ended = False
    next_sample = time.time()
    rc = 1
    while True:
        now = time.time()
        if now > t_end:
            host("timeout after %.0f s" % timeout)
            break
        if p.poll() is not None:
            host("qemu exited %d" % p.returncode)
            rc = 0 if ended else 1
            break
        wait = 0.2 if not sticks else max(0.0, next_sample - now)
        r, _, _ = select.select([chan], [], [], wait)
        if r:
            d = chan.recv(65536)
            if not d:
                chan.close()
                # the guest is going away; wait for qemu
                try:
                    p.wait(timeout=max(1, min(120, t_end - time.time())))
                except subprocess.TimeoutExpired:
                    pass
                continue
            buf += d
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").replace("\r", "").replace("\t", " ")
                t = time.time()
                log.write("%.3f\tchan\t%s\n" % (t, line))
                f = line.split()
                if not f:
                    continue
                try:
                    if f[0] == "dg-plug" and len(f) >= 2:
                        sid = f[1]
                        qmp.cmd("object-add", **{"qom-type": "throttle-group", "id": "tg-" + sid,
                                                 "limits": {"bps-write": bps}})
                        qmp.cmd("blockdev-add", driver="throttle", **{"node-name": sid,
                                "throttle-group": "tg-" + sid,
                                "file": {"driver": "raw", "file": {"driver": "file",
                                         "filename": os.path.join(work, "stick-%s.img" % sid)}}})
                        qmp.cmd("device_add", driver="usb-storage", id=sid, bus="xhci.0",
                                drive=sid, serial="DESK" + sid.upper(), removable=True)
                        sticks[sid] = sid
                        host("plugged %s (usb-storage, %d B/s)" % (sid, bps))
                        next_sample = time.time()
                    elif f[0] == "dg-unplug" and len(f) >= 2 and f[1] in sticks:
                        sid = f[1]
                        del sticks[sid]
                        qmp.cmd("device_del", id=sid)
                        if qmp.wait_event("DEVICE_DELETED", sid, time.time() + 10) is None:
                            host("no DEVICE_DELETED for %s" % sid)
                        qmp.cmd("blockdev-del", **{"node-name": sid})
                        qmp.cmd("object-del", id="tg-" + sid)
                        host("unplugged %s" % sid)
                    elif f[0] == "dg-rate" and len(f) >= 3 and f[1] in sticks:
                        # a stick slowed (or back to the run's speed: 0) for a while
                        n = int(f[2]) or bps
                        qmp.cmd("qom-set", path="tg-" + f[1], property="limits",
                                value={"bps-write": n})
                        host("%s at %d B/s" % (f[1], n))
                    elif f[0] == "dg-end":
                        ended = True
                except RuntimeError as e:
                    host("QMP error: %s" % e)
        if sticks and time.time() >= next_sample:
            t = time.time()
            for st in qmp.cmd("query-blockstats"):
                n = st.get("node-name", "")
                q = st.get("qdev", "")
                for sid in sticks:
                    if n == sid or "/" + sid + "/" in q or q.endswith("/" + sid):
                        s = st["stats"]
                        log.write("%.3f\tstick\t%s\t%d\t%d\t%d\n" % (t, sid, s["wr_bytes"],
                                  s["wr_operations"], s["flush_operations"]))
            next_sample += SAMPLE_S
            if next_sample < time.time():
                next_sample = time.time() + SAMPLE_S
    if p.poll() is None:
        p.kill()
        p.wait()
    sys.exit(rc)


if __name__ == "__main__":
    main()
