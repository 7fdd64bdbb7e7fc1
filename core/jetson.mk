# core/jetson fragment (owned by the jetson work)
libdvfstop_a_SOURCES += core/jetson.c core/jetson.h
EXTRA_DIST += tests/fixtures

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_jetson
TESTS += tests/unit/test_jetson
tests_unit_test_jetson_SOURCES = tests/unit/test_jetson.c
tests_unit_test_jetson_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_jetson_LDADD = $(TEST_LDADD)
endif

