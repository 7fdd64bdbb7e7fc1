# core/replay fragment: session replay (CSV, tegrastats) and the Prometheus exporter.
libdvfstop_a_SOURCES += \
	core/replay.c core/replay.h \
	core/prom.c core/prom.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_replay tests/unit/test_prom tests/unit/test_prom_http
TESTS += tests/unit/test_replay tests/unit/test_prom tests/unit/test_prom_http
tests_unit_test_replay_SOURCES = tests/unit/test_replay.c
tests_unit_test_replay_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_replay_LDADD = $(TEST_LDADD)
tests_unit_test_prom_SOURCES = tests/unit/test_prom.c
tests_unit_test_prom_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_prom_LDADD = $(TEST_LDADD)
tests_unit_test_prom_http_SOURCES = tests/unit/test_prom_http.c
tests_unit_test_prom_http_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_prom_http_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/replay_roundtrip.sh tests/integration/replay_damaged.sh tests/integration/replay_tegrastats.sh \
	tests/integration/prom_textfile.sh tests/integration/prom_http.sh
EXTRA_DIST += tests/integration/replay_roundtrip.sh tests/integration/replay_damaged.sh tests/integration/replay_tegrastats.sh \
	tests/integration/prom_textfile.sh tests/integration/prom_http.sh \
	tests/fixtures/sessions/agx-orin-10s.csv tests/fixtures/sessions/agx-orin-10s.csv.meta.json \
	tests/fixtures/sessions/damaged.csv tests/fixtures/sessions/wrong-header.csv \
	docs/replay.md docs/prometheus.md
TESTS += tests/integration/job_figures.sh
EXTRA_DIST += tests/integration/job_figures.sh
# The dashboard's /metrics (a terminal test).
TESTS += tests/tui/prom.sh
EXTRA_DIST += tests/tui/prom.sh
