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

# The fixture trees are sysfs-like: relative symlinks that loop (a devfreq
# node's `device` points back up to its parent) and paths longer than 99
# characters.  Automake's default `tar chof` dereferences links and writes
# v7 headers; both break on them.  Archive links as links, POSIX format.
