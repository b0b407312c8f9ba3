#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The desktop guest's host side (bench/desktop, bench/zoo): runs qemu,
stamps every line the guest writes on its bench channel (the second
serial port) with the host's clock, plugs and unplugs a disk over QMP
when the guest asks (`dg-plug ID`, `dg-unplug ID`), and while a disk is
in, reads what it has received (query-blockstats: wr_bytes,
flush_operations) every SAMPLE seconds. Everything goes to one TSV, on
one clock:

    t_s <TAB> chan <TAB> the guest's line
    t_s <TAB> stick <TAB> ID <TAB> wr_bytes <TAB> wr_operations <TAB> flush_operations
    t_s <TAB> host <TAB> what the host did

  desktop-host.py --work DIR --out TSV --timeout S [--bps N] [--hook PROG] -- QEMU ARGS...

Without --hook, the disk of ID is bench/desktop's USB stick
DIR/stick-ID.img, written through a throttle group at N bytes/s
(`dg-rate ID N` sets another speed, 0 the first). With --hook, `PROG
plug ID` prints the disk as JSON, {"add": [[QMP command, arguments],
...], "del": [...]}: the commands that plug it, in order, and those that
take it out (a device_del waits for its DEVICE_DELETED), and "stats":
the drive whose statistics are the disk's where its node is inserted into
one (by default, the node named ID); `PROG unplugged ID` runs after "del", and `dg-hook WORD ID`
runs `PROG WORD ID` while the disk is in. Exit 0 when the guest
said `dg-end` and powered off; 1 on a timeout or when qemu ended first."""
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
        die("usage: desktop-host.py --work DIR --out TSV --timeout S [--bps N] [--hook PROG] -- QEMU ARGS...")
    i = a.index("--")
    opts = dict(zip(a[0:i:2], a[1:i:2]))
    qemu = a[i + 1:]
    work, out = opts["--work"], opts["--out"]
    bps, timeout = int(opts.get("--bps", "0")), float(opts["--timeout"])
    hook = opts.get("--hook")
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

    def plug_spec(sid):
        if hook:
            r = subprocess.run([hook, "plug", sid], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, check=True)
            return json.loads(r.stdout)
        # bench/desktop's stick: a throttle group over its image
        return {"add": [["object-add", {"qom-type": "throttle-group", "id": "tg-" + sid,
                                        "limits": {"bps-write": bps}}],
                        ["blockdev-add", {"driver": "throttle", "node-name": sid,
                                          "throttle-group": "tg-" + sid,
                                          "file": {"driver": "raw", "file": {
                                              "driver": "file",
                                              "filename": os.path.join(work, "stick-%s.img" % sid)}}}],
                        ["device_add", {"driver": "usb-storage", "id": sid, "bus": "xhci.0",
                                        "drive": sid, "serial": "DESK" + sid.upper(),
                                        "removable": True}]],
                "del": [["device_del", {"id": sid}], ["blockdev-del", {"node-name": sid}],
                        ["object-del", {"id": "tg-" + sid}]]}

    sticks = {}  # ID -> the QMP commands that take it out, while plugged
    stats_of = {}  # ID -> the drive whose statistics are its own
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
                    if f[0] == "dg-plug" and len(f) >= 2 and f[1] not in sticks:
                        sid = f[1]
                        disk = plug_spec(sid)
                        sticks[sid] = disk["del"]
                        stats_of[sid] = disk.get("stats", sid)
                        for c in disk["add"]:
                            qmp.cmd(c[0], **c[1])
                        host("plugged %s (%s)" % (sid, hook or "usb-storage, %d B/s" % bps))
                        next_sample = time.time()
                    elif f[0] == "dg-unplug" and len(f) >= 2 and f[1] in sticks:
                        sid = f[1]
                        for c in sticks.pop(sid):
                            if c[0] == "device_del":
                                # one of an earlier removal (bench/zoo's
                                # controller, on its own monitor) is not this one's
                                qmp.events = [e for e in qmp.events if not (
                                    e["event"] == "DEVICE_DELETED" and
                                    e.get("data", {}).get("device") == c[1]["id"])]
                            try:
                                qmp.cmd(c[0], **c[1])
                            except RuntimeError as e:
                                host("QMP error: %s" % e)
                                continue
                            if c[0] == "device_del" and qmp.wait_event(
                                    "DEVICE_DELETED", c[1]["id"], time.time() + 10) is None:
                                host("no DEVICE_DELETED for %s" % c[1]["id"])
                        if hook:
                            subprocess.run([hook, "unplugged", sid], stdin=subprocess.DEVNULL)
                        host("unplugged %s" % sid)
                    elif f[0] == "dg-hook" and len(f) >= 3 and hook and f[2] in sticks:
                        # the hook's other words: `PROG WORD ID`
                        subprocess.run([hook, f[1], f[2]], stdin=subprocess.DEVNULL, check=True)
                        host("%s %s" % (f[1], f[2]))
                    elif f[0] == "dg-rate" and len(f) >= 3 and f[1] in sticks:
                        # a stick slowed (or back to the run's speed: 0) for a while
                        n = int(f[2]) or bps
                        qmp.cmd("qom-set", path="tg-" + f[1], property="limits",
                                value={"bps-write": n})
                        host("%s at %d B/s" % (f[1], n))
                    elif f[0] == "dg-end":
                        ended = True
                except (RuntimeError, subprocess.CalledProcessError, ValueError) as e:
                    host("QMP error: %s" % e)
        if sticks and time.time() >= next_sample:
            t = time.time()
            for st in qmp.cmd("query-blockstats"):
                n = st.get("node-name", "")
                q = st.get("qdev", "")
                for sid in sticks:
                    if n == sid or st.get("device") == stats_of.get(sid) or \
                            "/" + sid + "/" in q or q.endswith("/" + sid):
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
