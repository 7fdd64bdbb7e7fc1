# core/parse fragment (owned by the parse work): line intake, progress,
# tegrastats, the fine-tune child process.
libdvfstop_a_SOURCES += \
	core/linebuf.c core/linebuf.h \
	core/progress.c core/progress.h
libdvfstop_a_SOURCES += core/tegrastats.c core/tegrastats.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_tegrastats
TESTS += tests/unit/test_tegrastats
tests_unit_test_tegrastats_SOURCES = tests/unit/test_tegrastats.c
tests_unit_test_tegrastats_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tegrastats_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += \
	tests/fixtures/tegrastats/README \
	tests/fixtures/tegrastats/jp5_agx_orin.txt \
	tests/fixtures/tegrastats/jp6_agx_orin.txt \
	tests/fixtures/tegrastats/jp7_agx_orin.txt \
	tests/fixtures/tegrastats/thor.txt \
	tests/fixtures/tegrastats/older.txt \
	tests/fixtures/tegrastats/malformed.txt

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_progress_linebuf
TESTS += tests/unit/test_progress_linebuf
tests_unit_test_progress_linebuf_SOURCES = tests/unit/test_progress_linebuf.c
tests_unit_test_progress_linebuf_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_progress_linebuf_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_progress
TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_progress_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += \
	tests/fixtures/progress/make.sh \
	tests/fixtures/progress/tqdm_basic.txt \
	tests/fixtures/progress/tqdm_colour.txt \
	tests/fixtures/progress/tqdm_unknown.txt \
	tests/fixtures/progress/tqdm_scaled.txt \
	tests/fixtures/progress/tqdm_slow.txt \
	tests/fixtures/progress/hf_trainer.txt \
	tests/fixtures/progress/hf_trainer_quoted.txt
EXTRA_DIST += docs/progress.md docs/tegrastats.md
libdvfstop_a_SOURCES += core/job.c core/job.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job
TESTS += tests/unit/test_job
tests_unit_test_job_SOURCES = tests/unit/test_job.c
tests_unit_test_job_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_callback
TESTS += tests/unit/test_job_callback
tests_unit_test_job_callback_SOURCES = tests/unit/test_job_callback.c
tests_unit_test_job_callback_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_callback_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += contrib/dvfstop_callback.py
