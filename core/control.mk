# core/control fragment: clock control and the guard that gives the clocks back.
libdvfstop_a_SOURCES += \
	core/control.c core/control.h \
	core/guard.c core/guard.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_control tests/unit/test_guard
TESTS += tests/unit/test_control tests/unit/test_guard
tests_unit_test_control_SOURCES = tests/unit/test_control.c tests/unit/test_control_fake.c tests/unit/test_control_fake.h
tests_unit_test_control_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_control_LDADD = $(TEST_LDADD)
tests_unit_test_guard_SOURCES = tests/unit/test_guard.c tests/unit/test_control_fake.c tests/unit/test_control_fake.h
tests_unit_test_guard_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_guard_LDADD = $(TEST_LDADD)
endif

# A control action loop on the simulator, driven by restore-signals.sh.
check_PROGRAMS += tests/unit/test_control_loop
tests_unit_test_control_loop_SOURCES = tests/unit/test_control_loop.c
tests_unit_test_control_loop_LDADD = $(DVF_LIBS)

TESTS += tests/integration/restore-signals.sh
EXTRA_DIST += tests/integration/restore-signals.sh docs/control.md
TESTS += tests/integration/restore-batch.sh
EXTRA_DIST += tests/integration/restore-batch.sh
# A restore that fails (io fault table) and NVML resets on every exit path.
TESTS += tests/integration/restore-fail.sh tests/integration/nvml-signals.sh tests/tui/restore-fail.sh
EXTRA_DIST += tests/integration/restore-fail.sh tests/integration/nvml-signals.sh tests/tui/restore-fail.sh
# Every default-fatal signal gives the clocks back (batch, sweep, dashboard;
# Jetson tree and fake NVML); the state file and lock file hardening.
TESTS += tests/integration/signal-table.sh
EXTRA_DIST += tests/integration/signal-table.sh
TESTS += tests/integration/guard-state.sh
EXTRA_DIST += tests/integration/guard-state.sh
EXTRA_DIST += docs/security.md
