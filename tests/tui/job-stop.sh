#!/bin/sh
# Stopping the fine-tune from the dashboard (issue 34, item 2): q then k,
# and Ctrl-C, reach the job dvfstop started as SIGINT first, as Ctrl-C in a
# shell would, so a script's KeyboardInterrupt handler runs (tests/train.py
# writes its checkpoint) and dvfstop exits with the job's 130; stderr says
# the sequence.  A job that ignores SIGINT gets SIGTERM --stop-grace later,
# one that ignores SIGTERM too SIGKILL as long again; a further Ctrl-C
# sends the next signal at once.
. "$top_srcdir/tests/tui/tmux.sh"
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3: skipped"; exit 77; }
TRAIN="/usr/bin/python3 $top_srcdir/tests/train.py"

start 100 30
# q, then k: SIGINT; the job's handler writes its checkpoint.
dvfstop --demo --refresh 200 -- $TRAIN 5000 0.05 0 "''" "'$T/ckpt-k'"
expect_screen "train.py runs" 'steps +[0-9]+ of 5000' 60
keys q
expect_screen "q: the question" 'k stop it'
keys k
# (the summary printed at exit may scroll the line off: read the scrollback too)
expect_history "k: stderr says SIGINT first, then SIGTERM and SIGKILL" 'SIGINT now, SIGTERM 10 s later, SIGKILL 10 s after that'
expect_screen "k: dvfstop exits with the job's status (SIGINT: 130)" 'DVFSTOP-EXIT=130' 60
until_ok test -s "$T/ckpt-k"
expect_grep "k: the job's KeyboardInterrupt handler wrote its checkpoint" '^checkpoint [0-9][0-9]*' "$T/ckpt-k"

# Ctrl-C: the same.
clear_screen
dvfstop --demo --refresh 200 -- $TRAIN 5000 0.05 0 "''" "'$T/ckpt-c'"
expect_screen "Ctrl-C run: train.py runs" 'steps +[0-9]+ of 5000' 60
keys C-c
expect_history "Ctrl-C: SIGINT first" 'SIGINT now'
expect_screen "Ctrl-C: dvfstop exits 130" 'DVFSTOP-EXIT=130' 60
until_ok test -s "$T/ckpt-c"
expect_grep "Ctrl-C: the checkpoint" '^checkpoint [0-9][0-9]*' "$T/ckpt-c"

# A job that ignores SIGINT and SIGTERM: SIGKILL after two graces of 1 s.
clear_screen
dvfstop --demo --refresh 200 --stop-grace 1 -- sh -c "'trap \"\" INT TERM; while :; do sleep 1; done'"
expect_screen "deaf job: running" 'job +running'
keys q
expect_screen "deaf job: the question" 'k stop it'
keys k
expect_screen "deaf job: SIGKILL after SIGINT and SIGTERM (137)" 'DVFSTOP-EXIT=137' 60

# A further Ctrl-C: the next signal at once (the grace is 60 s, the test's
# wait shorter: SIGTERM came from the second Ctrl-C).
clear_screen
dvfstop --demo --refresh 200 --stop-grace 60 -- sh -c "'trap \"\" INT; while :; do sleep 1; done'"
expect_screen "INT-deaf job: running" 'job +running'
keys C-c
expect_screen "Ctrl-C: the stop begins with SIGINT" 'Ctrl-C again sends the next at once'
keys C-c
expect_screen "Ctrl-C again: SIGTERM at once" 'SIGTERM to sh'
expect_screen "Ctrl-C again: the job ends (143)" 'DVFSTOP-EXIT=143'
finish
