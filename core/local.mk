# core/: telemetry, energy, history, recording, the main loop.  Not curses.
libdvfstop_a_SOURCES += \
	core/clock.c core/clock.h \
	core/io.c core/io.h \
	core/sample.c core/sample.h \
	core/source.c core/source.h \
	core/catalog.c core/catalog.h \
	core/commands.h
libdvfstop_a_SOURCES += \
	core/energy.c core/energy.h \
	core/history.c core/history.h \
	core/options.h core/session.h
libdvfstop_a_SOURCES += \
	core/options.c \
	core/recorder.c core/recorder.h \
	core/session.c \
	core/batch.c core/batch.h
libdvfstop_a_SOURCES += core/sweep.c core/sweep.h
# A child's exit ends the job; its process group goes with it.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_group
TESTS += tests/unit/test_job_group
tests_unit_test_job_group_SOURCES = tests/unit/test_job_group.c
tests_unit_test_job_group_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_group_LDADD = $(TEST_LDADD)
endif
# --batch ends when told (limits, one signal, a child's end) whatever it follows.
TESTS += tests/integration/batch-end.sh
EXTRA_DIST += tests/integration/batch-end.sh
