# tests/: unit tests (cmocka), integration and terminal tests (shell + tmux).
# Each folder's fragment adds its own; this one holds the shared pieces.
EXTRA_DIST += tests/lib.sh
EXTRA_DIST += tests/clocks.sh tests/train.py

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_energy tests/unit/test_history tests/unit/test_options tests/unit/test_io
TESTS += tests/unit/test_energy tests/unit/test_history tests/unit/test_options tests/unit/test_io
tests_unit_test_energy_SOURCES = tests/unit/test_energy.c
tests_unit_test_energy_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_energy_LDADD = $(TEST_LDADD)
tests_unit_test_history_SOURCES = tests/unit/test_history.c
tests_unit_test_history_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_history_LDADD = $(TEST_LDADD)
tests_unit_test_options_SOURCES = tests/unit/test_options.c
tests_unit_test_options_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_options_LDADD = $(TEST_LDADD)
tests_unit_test_io_SOURCES = tests/unit/test_io.c
tests_unit_test_io_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_io_LDADD = $(TEST_LDADD)
else
check-local:
	@echo "cmocka is missing: unit tests not built (install the Debian package libcmocka-dev)"; exit 1
endif

TESTS += tests/integration/batch-fixtures.sh
EXTRA_DIST += tests/integration/batch-fixtures.sh
# A board's files are never opened through a link, nor a value cut (issue 25).
TESTS += tests/integration/sysfs-links.sh
EXTRA_DIST += tests/integration/sysfs-links.sh
EXTRA_DIST += docs/hardware/h200-sweep.md docs/hardware/h200-sweep.csv docs/hardware/h200-restore.md
EXTRA_DIST += docs/reference/jetson-sysfs.md docs/reference/energy-anchors.md
# Every option of every --help is in the man page.
TESTS += tests/integration/docs-options.sh
EXTRA_DIST += tests/integration/docs-options.sh
# Command-line mistakes get a message naming what was wrong.
TESTS += tests/integration/cli.sh
EXTRA_DIST += tests/integration/cli.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_groundtruth
TESTS += tests/unit/test_groundtruth
tests_unit_test_groundtruth_SOURCES = tests/unit/test_groundtruth.c
tests_unit_test_groundtruth_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_groundtruth_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sweep
TESTS += tests/unit/test_sweep
tests_unit_test_sweep_SOURCES = tests/unit/test_sweep.c
tests_unit_test_sweep_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sweep_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/sweep.sh
EXTRA_DIST += tests/integration/sweep.sh
# The fine-tune is the user's: real time, exit status, hang-up, sweep, --pid.
TESTS += tests/integration/job-user.sh
EXTRA_DIST += tests/integration/job-user.sh

# The main paths under valgrind (skipped in sanitizer builds).
TESTS += tests/integration/valgrind.sh
EXTRA_DIST += tests/integration/valgrind.sh
# Slow sysfs reads backing off (core/io.c), in --batch and on the dashboard.
TESTS += tests/integration/faults-slow.sh tests/tui/slow.sh
EXTRA_DIST += tests/integration/faults-slow.sh tests/tui/slow.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_session_msg
TESTS += tests/unit/test_session_msg
tests_unit_test_session_msg_SOURCES = tests/unit/test_session_msg.c
tests_unit_test_session_msg_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_session_msg_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_stats
TESTS += tests/unit/test_job_stats
tests_unit_test_job_stats_SOURCES = tests/unit/test_job_stats.c
tests_unit_test_job_stats_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_stats_LDADD = $(TEST_LDADD)
endif
# Files made in shared places, the config file's trust, recorder and replay
# bounds (docs/security.md).
TESTS += tests/integration/files.sh tests/tui/files.sh
EXTRA_DIST += tests/integration/files.sh tests/tui/files.sh
