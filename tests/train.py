#!/usr/bin/python3
"""A stand-in fine-tune for dvfstop's tests: it prints tqdm progress on stderr.

Run by Debian's /usr/bin/python3 (python3-tqdm); where tqdm is missing it
prints plain "N/M [elapsed<remaining, rate]" lines of the same shape.

    train.py STEPS [STEP_SECONDS] [EXIT_CODE] [GATE]

STEPS training steps of STEP_SECONDS each (default 0.05), then exit with
EXIT_CODE (default 0).  With GATE (a path) the last step waits until that
file exists, so a test decides when the run may finish, whatever the
machine's speed.  It writes "done N" to stdout at the end, so a test
can tell that the run finished rather than being stopped.  SIGTERM ends it
with 128+15 after printing "stopped at N".  SIGHUP is ignored, as a
fine-tune under nohup would: an SSH hang-up reaches dvfstop, not the job.
"""
import os
import signal
import sys
import time

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 100
dt = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
gate = sys.argv[4] if len(sys.argv) > 4 else None
done = 0


def on_term(signum, frame):
    print("stopped at %d" % done, flush=True)
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGHUP, signal.SIG_IGN)


def step(i):
    """Step i (from 0): its time, and before the last one the gate."""
    if gate is not None and i == steps - 1:
        while not os.path.exists(gate):
            time.sleep(0.05)
    time.sleep(dt)


try:
    from tqdm import tqdm
except ImportError:
    tqdm = None

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

print("done %d" % done, flush=True)
sys.exit(code)
