"""A small client of dvfstopd for the tests (tests/integration/helper-*.sh).

    dvfstopd_client.py talk SOCK REQ...     greeting and one reply per request
    dvfstopd_client.py hold SOCK REQ...     the same, then "ready PID" and wait to be killed
    dvfstopd_client.py trials SOCK NODE N MHZ
                                            N times: a child pins MHZ, is killed
                                            with SIGKILL; how long until NODE's
                                            min_freq and max_freq are back
    dvfstopd_client.py slow SOCK            half a request, then silence
    dvfstopd_client.py big SOCK             a request over 128 bytes
    dvfstopd_client.py many SOCK N          N connections at once (the held ones ask
                                            "status" every 0.2 s meanwhile: none idle)
    dvfstopd_client.py idle SOCK N [REQ]    "pid PID", N connections that say nothing (the
                                            first accepted sends REQ), "ready", then every line
                                            that comes on them ("I: < LINE"), until killed
    dvfstopd_client.py busy SOCK N [REQ]    as idle, but each connection asks "status" every
                                            0.2 s (never idle to the daemon) until SIGUSR1;
                                            then a last "status" on each in turn (the first
                                            is idle longest), "quiet", and as idle
    dvfstopd_client.py flood SOCK SECS      pins (510 and 714 MHz in turn) as fast as the
                                            daemon takes them for SECS: how many answered
    dvfstopd_client.py activate SOCK GID DVFSTOPD ARGS...
                                            as systemd's socket activation: listen at
                                            SOCK (0660, group GID), run DVFSTOPD with
                                            it as fd 3, LISTEN_PID and LISTEN_FDS

Replies are printed as they come ("< LINE"); a closed connection as "<EOF>".
Started as root with DVFSTOPD_CLIENT_AS=USER, it runs as USER (its groups
from the user database).
"""
import os
import select
import signal
import socket
import sys
import time


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    return s, s.makefile("rb")


def line(f):
    ln = f.readline()
    return ln.decode("ascii", "replace").rstrip("\n") if ln else "<EOF>"


def talk(path, reqs, hold=False):
    s, f = connect(path)
    print("< " + line(f), flush=True)
    for r in reqs:
        s.sendall((r + "\n").encode())
        print("< " + line(f), flush=True)
    if hold:
        print("ready %d" % os.getpid(), flush=True)
        s.settimeout(None)
        f.readline()


def read_hz(node, name):
    with open(os.path.join(node, name)) as fp:
        return fp.read().strip()


def trials(path, node, n, mhz):
    orig = (read_hz(node, "min_freq"), read_hz(node, "max_freq"))
    want = str(int(mhz) * 1000000)
    worst, good = 0.0, 0
    for i in range(n):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            s, f = connect(path)
            f.readline()
            s.sendall(("pin %s\n" % mhz).encode())
            rep = f.readline()
            os.write(w, rep)
            signal.pause()
            os._exit(0)
        os.close(w)
        rep = os.read(r, 256).decode()
        os.close(r)
        pinned = read_hz(node, "max_freq") == want and read_hz(node, "min_freq") == want
        os.kill(pid, signal.SIGKILL)
        t0 = time.monotonic()
        dt = None
        while time.monotonic() - t0 < 2.0:
            if (read_hz(node, "min_freq"), read_hz(node, "max_freq")) == orig:
                dt = time.monotonic() - t0
                break
            time.sleep(0.002)
        os.waitpid(pid, 0)
        if not rep.startswith("ok pin") or not pinned:
            print("trial %d: not pinned: %s" % (i, rep.strip()), flush=True)
        elif dt is None or dt > 1.0:
            print("trial %d: not back within 1 s" % i, flush=True)
        else:
            good += 1
            worst = max(worst, dt)
    print("back within 1 s: %d of %d (slowest %.0f ms)" % (good, n, worst * 1000), flush=True)


def slow(path):
    s, f = connect(path)
    print("< " + line(f), flush=True)
    s.sendall(b"stat")
    t0 = time.monotonic()
    print("< " + line(f), flush=True)
    print("< " + line(f), flush=True)
    print("closed after %.1f s" % (time.monotonic() - t0), flush=True)


def big(path):
    s, f = connect(path)
    print("< " + line(f), flush=True)
    # 128 bytes with the newline: the limit, answered
    s.sendall(b"status" + b" " * 121 + b"\n")
    print("128: < " + line(f), flush=True)
    # 128 bytes and no newline yet: no room for one, refused at once
    t0 = time.monotonic()
    try:
        s.sendall(b"status" + b" " * 122)
    except OSError as e:
        print("send: %s" % e.strerror, flush=True)
    print("< " + line(f), flush=True)
    print("< " + line(f), flush=True)
    print("refused after %.1f s" % (time.monotonic() - t0), flush=True)


KEEP_S = 0.2   # far under the daemon's 2 s (ADMIT_IDLE_MS): never idle to it
quiet = False


def keep(held):
    """One "status" on each held connection in turn, its answer read."""
    for i, s, f in list(held):
        s.sendall(b"status\n")
        ln = line(f)
        if not ln.startswith("ok status"):
            print("%d: < %s" % (i, ln), flush=True)
        if ln == "<EOF>":
            held.remove((i, s, f))


def many(path, n):
    held = []
    t_keep = time.monotonic()
    for i in range(n):
        if time.monotonic() - t_keep >= KEEP_S:   # none idle to the daemon
            keep([(j, s, f) for j, (s, f) in enumerate(held)])
            t_keep = time.monotonic()
        s, f = connect(path)
        held.append((s, f))
        print("< " + line(f), flush=True)
    # the first still answers, and a freed place is taken again
    s, f = held[0]
    s.sendall(b"status\n")
    print("first: < " + line(f), flush=True)
    for s, f in held:
        f.close()   # the socket's descriptor closes with its last user
        s.close()
    # the daemon sees the closes when it next polls: ask again until then
    t0 = time.monotonic()
    while True:
        s, f = connect(path)
        g = line(f)
        if g.startswith("dvfstopd ") or time.monotonic() - t0 > 30:
            break
        f.close()
        s.close()
        time.sleep(0.1)
    print("after: < " + g, flush=True)
    s.sendall(b"levels\n")
    print("after: < " + line(f)[:9], flush=True)


def idle(path, n, req, busy=False):
    global quiet
    if busy:
        def hush(*_):
            global quiet
            quiet = True
        signal.signal(signal.SIGUSR1, hush)
    print("pid %d" % os.getpid(), flush=True)
    held = []
    t_keep = time.monotonic()
    for i in range(n):
        if busy and time.monotonic() - t_keep >= KEEP_S:
            keep(held)
            t_keep = time.monotonic()
        s, f = connect(path)
        g = line(f)
        print("%d: < %s" % (i, g), flush=True)
        if g.startswith("dvfstopd "):
            if req and not held:
                s.sendall((req + "\n").encode())
                print("%d: < %s" % (i, line(f)), flush=True)
            held.append((i, s, f))
        else:
            f.close()
            s.close()
    print("ready %d" % os.getpid(), flush=True)
    while busy and not quiet:
        keep(held)
        time.sleep(KEEP_S)
    if busy:
        keep(held)
        print("quiet", flush=True)
    open_ = {s.fileno(): (i, s, f) for i, s, f in held}
    while open_:
        r, _, _ = select.select(list(open_), [], [])
        for fd in r:
            i, s, f = open_[fd]
            ln = line(f)
            print("%d: < %s" % (i, ln), flush=True)
            if ln == "<EOF>":
                del open_[fd]
    signal.pause()


def flood(path, secs):
    s, f = connect(path)
    line(f)
    s.setblocking(False)
    reqs = [b"pin 510\n", b"pin 714\n"]
    sent = answered = 0
    pending = b""
    buf = b""
    t0 = time.monotonic()
    while time.monotonic() - t0 < secs:
        if not pending:
            pending = reqs[sent % 2]
        r, w, _ = select.select([s], [s], [], 0.05)
        if w:
            try:
                k = s.send(pending)
                pending = pending[k:]
                if not pending:
                    sent += 1
            except BlockingIOError:
                pass
        if r:
            try:
                data = s.recv(65536)
            except BlockingIOError:
                data = b"x"
            if not data:
                break
            buf += data
            while b"\n" in buf:
                ln, buf = buf.split(b"\n", 1)
                if ln.startswith(b"ok pin"):
                    answered += 1
                elif ln.startswith(b"err"):
                    print("< " + ln.decode("ascii", "replace"), flush=True)
    print("sent %d answered %d in %.1f s" % (sent, answered, time.monotonic() - t0), flush=True)


def activate(path, gid, argv):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chown(path, -1, int(gid))
    os.chmod(path, 0o660)
    s.listen(8)
    os.dup2(s.fileno(), 3)
    os.set_inheritable(3, True)
    env = dict(os.environ, LISTEN_PID=str(os.getpid()), LISTEN_FDS="1")
    os.execve(argv[0], argv, env)


def become(user):
    """Run as USER from here on (started as root): the test waits for and
    kills this very process, not a runuser between it and the shell."""
    import pwd
    pw = pwd.getpwnam(user)
    os.initgroups(user, pw.pw_gid)
    os.setgid(pw.pw_gid)
    os.setuid(pw.pw_uid)


def main():
    if os.environ.get("DVFSTOPD_CLIENT_AS"):
        become(os.environ["DVFSTOPD_CLIENT_AS"])
    cmd, path = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    if cmd == "talk":
        talk(path, args)
    elif cmd == "hold":
        talk(path, args, hold=True)
    elif cmd == "trials":
        trials(path, args[0], int(args[1]), args[2])
    elif cmd == "slow":
        slow(path)
    elif cmd == "big":
        big(path)
    elif cmd == "idle":
        idle(path, int(args[0]), args[1] if len(args) > 1 else "")
    elif cmd == "busy":
        idle(path, int(args[0]), args[1] if len(args) > 1 else "", busy=True)
    elif cmd == "flood":
        flood(path, float(args[0]))
    elif cmd == "activate":
        activate(path, args[0], args[1:])
    elif cmd == "many":
        many(path, int(args[0]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
