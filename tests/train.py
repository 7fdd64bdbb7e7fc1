#!/usr/bin/python3
"""A stand-in fine-tune for dvfstop's tests: it prints tqdm progress on stderr.

Run by Debian's /usr/bin/python3 (python3-tqdm); where tqdm is missing it
prints plain "N/M [elapsed<remaining, rate]" lines of the same shape.

    train.py STEPS [STEP_SECONDS] [EXIT_CODE] [CHECKPOINT]

STEPS training steps of STEP_SECONDS each (default 0.05), then exit with
EXIT_CODE (default 0).  It writes "done N" to stdout at the end, so a test
can tell that the run finished rather than being stopped.  SIGTERM ends it
with 128+15 after printing "stopped at N".  SIGINT (Ctrl-C) raises
KeyboardInterrupt, which it catches as a real script saving a checkpoint
would: it writes "checkpoint N" to the file CHECKPOINT (when given),
prints "interrupted at N" and "stopped at N" and exits with 128+2.
SIGHUP is ignored, as a fine-tune under nohup would: an SSH hang-up
reaches dvfstop, not the job.
"""
import signal
import sys
import time

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 100
dt = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
checkpoint = sys.argv[4] if len(sys.argv) > 4 else None
done = 0


def on_term(signum, frame):
    print("stopped at %d" % done, flush=True)
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGHUP, signal.SIG_IGN)

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
        for _ in range(steps):
            time.sleep(dt)
            done += 1
            bar.update(1)
        bar.close()
    else:
        t0 = time.monotonic()
        for _ in range(steps):
            time.sleep(dt)
            done += 1
            el = time.monotonic() - t0
            rate = done / el if el > 0 else 0.0
            rem = (steps - done) / rate if rate > 0 else 0.0
            sys.stderr.write("train: %d/%d [%02d:%02d<%02d:%02d, %.2fit/s]\n" % (
                done, steps, el // 60, el % 60, rem // 60, rem % 60, rate))
            sys.stderr.flush()


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
sys.exit(code)
