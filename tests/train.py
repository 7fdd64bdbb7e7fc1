#!/usr/bin/python3
"""A stand-in fine-tune for dvfstop's tests: it prints tqdm progress on stderr.

Run by Debian's /usr/bin/python3 (python3-tqdm); where tqdm is missing it
prints plain "N/M [elapsed<remaining, rate]" lines of the same shape.

    train.py STEPS [STEP_SECONDS] [EXIT_CODE] [GATE] [CHECKPOINT]

STEPS training steps of STEP_SECONDS each (default 0.05), then exit with
EXIT_CODE (default 0).  With GATE (a path) the last step waits until that
file exists, so a test decides when the run may finish, whatever the
machine's speed.  It writes "done N" to stdout at the end, so a test
can tell that the run finished rather than being stopped, then "took S s":
the seconds from its first step's start to its end (its own rate).  SIGTERM ends it
with 128+15 after printing "stopped at N".  SIGINT (Ctrl-C) raises
KeyboardInterrupt, which it catches as a real script saving a checkpoint
would: it writes "checkpoint N" to the file CHECKPOINT (when given),
prints "interrupted at N" and "stopped at N" and exits with 128+2.
SIGHUP is ignored, as a fine-tune under nohup would: an SSH hang-up
reaches dvfstop, not the job.  An empty GATE is none.

With FAKENVML_CURVE (a --sim-curve table, docs/simulator.md) and
FAKENVML_STATE (the fake NVML's lock file, tests/fakenvml/fakenvml.c) each
step takes the table's time at GPU 0's clock as the fake library runs it
(the highest level at or below a lock's upper bound; the top level when not
locked): step_s, or STEP_SECONDS x perf(top) / perf(level).
"""
import os
import signal
import sys
import time

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 100
dt = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
gate = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
checkpoint = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
done = 0


def read_curve(path):
    """[(mhz, step_s or None, perf or None)], highest clock first."""
    rows, cols = [], None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            fields = [x.strip().strip('"') for x in s.split(",")]
            if cols is None:
                cols = [x.lower() for x in fields]
                continue
            v = dict(zip(cols, fields))
            mhz = float(v["clock_mhz"]) if "clock_mhz" in v else float(v["clock_hz"]) / 1e6
            rows.append((round(mhz), float(v["step_s"]) if "step_s" in v else None,
                         float(v["perf"]) if "perf" in v else None))
    return sorted(rows, reverse=True)


curve = os.environ.get("FAKENVML_CURVE")
state = os.environ.get("FAKENVML_STATE")
levels = read_curve(curve) if curve and state else None


def step_time():
    """This step's time: dt, or the table's at the clock the GPU runs."""
    if not levels:
        return dt
    hi = None
    try:
        with open(state) as f:
            for line in f:
                w = line.split()
                if len(w) == 4 and w[0] == "0" and w[1] == "locked":
                    hi = int(w[3])
    except OSError:
        pass
    lv = levels[-1]
    for row in levels:
        if hi is None or row[0] <= hi:
            lv = row
            break
    if lv[1] is not None:
        return lv[1]
    return dt * levels[0][2] / lv[2]


def on_term(signum, frame):
    print("stopped at %d" % done, flush=True)
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGHUP, signal.SIG_IGN)


next_end = None


def step(i):
    """Step i (from 0): its time, and before the last one the gate.

    Steps end on a schedule (the last one's end plus this one's time), as
    a GPU's do whatever the host is doing: the host's own work and a late
    wake-up on a busy machine are not added to the next step.  Behind by
    more than a step (the gate, a stop), the schedule starts again from now.
    """
    global next_end
    if gate is not None and i == steps - 1:
        while not os.path.exists(gate):
            time.sleep(0.05)
    st = step_time()
    now = time.monotonic()
    if next_end is None or now > next_end + st:
        next_end = now
    next_end += st
    if next_end > now:
        time.sleep(next_end - now)


try:
    from tqdm import tqdm
except ImportError:
    tqdm = None



def train():
    global done
    if tqdm is not None:
        # mininterval 0: every step reaches the pipe, as a slow real step would.
        bar = tqdm(total=steps, desc="train", file=sys.stderr, mininterval=0,
                   miniters=1, ascii=False)
        for i in range(steps):
            step(i)
            done += 1
            bar.update(1)
        bar.close()
    else:
        t0 = time.monotonic()
        for i in range(steps):
            step(i)
            done += 1
            el = time.monotonic() - t0
            rate = done / el if el > 0 else 0.0
            rem = (steps - done) / rate if rate > 0 else 0.0
            sys.stderr.write("train: %d/%d [%02d:%02d<%02d:%02d, %.2fit/s]\n" % (
                done, steps, el // 60, el % 60, rem // 60, rem % 60, rate))
            sys.stderr.flush()


t_first = time.monotonic()
try:
    train()
except KeyboardInterrupt:
    if checkpoint:
        with open(checkpoint, "w") as f:
            f.write("checkpoint %d\n" % done)
    print("interrupted at %d" % done, flush=True)
    print("stopped at %d" % done, flush=True)
    sys.exit(128 + signal.SIGINT)

print("done %d" % done, flush=True)
print("took %.3f s" % (time.monotonic() - t_first), flush=True)
sys.exit(code)
