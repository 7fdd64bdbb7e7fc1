#!/usr/bin/env python3
"""pyreader: how popular Python Jetson monitors read sysfs.

Every sample opens, reads and closes every file of a list and converts the
value to an int, at a fixed rate (absolute deadlines, like dvfstop).

    pyreader.py LISTFILE INTERVAL_MS DURATION_S

Prints "samples N" when done."""
import sys
import time


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: pyreader.py LISTFILE INTERVAL_MS DURATION_S\n")
        return 2
    with open(sys.argv[1]) as f:
        paths = [p.strip() for p in f if p.strip()]
    interval = float(sys.argv[2]) / 1000.0
    duration = float(sys.argv[3])
    start = time.monotonic()
    nxt = start
    samples = 0
    values = {}
    while nxt - start < duration:
        delay = nxt - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        for p in paths:
            try:
                with open(p) as fh:
                    text = fh.read().strip()
                values[p] = int(text.split()[1]) if text.startswith("cpu") else int(text)
            except (OSError, ValueError, IndexError):
                values[p] = None
        samples += 1
        nxt += interval
    print("samples %d files %d" % (samples, len(paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
