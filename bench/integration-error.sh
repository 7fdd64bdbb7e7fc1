#!/bin/sh
# integration-error: energy integration error against the simulator's
# ground truth at 10, 100 and 1000 Hz (bench/integration-error.c).
#
#   bench/integration-error.sh [SECONDS [SEEDS]]
#       simulated seconds per run (default 60), seeds per model (default 3);
#       environment: BUILD (build folder), CC
#
# Budgets (issue 9): < 0.5 % at 10 Hz, < 0.1 % at 100 Hz.  Exit 1 if missed.
set -eu
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-interr.XXXXXX")
trap 'rm -rf "$work"' EXIT
bench_cc "$work/integration-error" "$top/bench/integration-error.c"
"$work/integration-error" "$@"
