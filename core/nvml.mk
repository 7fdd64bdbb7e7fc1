# core/nvml fragment (owned by the nvml work): the NVML source, its fake
# libnvidia-ml for the tests, and their tests.
libdvfstop_a_SOURCES += core/nvml.c core/nvml.h

# The fake library is built by `make check` with a plain rule (no libtool in
# this project).  Two builds of one file: the full one and a legacy one with
# only the older, unversioned entry points.
FAKENVML_LIBS = tests/fakenvml/libnvidia-ml.so.1 tests/fakenvml/legacy/libnvidia-ml.so.1
FAKENVML_CFLAGS = $(WARN_CFLAGS) $(CFLAGS) -shared -fPIC -fvisibility=hidden
check_SCRIPTS += $(FAKENVML_LIBS)
CLEANFILES += $(FAKENVML_LIBS)
EXTRA_DIST += tests/fakenvml/fakenvml.c tests/integration/nvml.sh docs/nvml.md \
	bench/h200-sweep.sh bench/matmul.cu

tests/fakenvml/libnvidia-ml.so.1: $(srcdir)/tests/fakenvml/fakenvml.c
	@$(MKDIR_P) tests/fakenvml
	$(AM_V_CC)$(CC) $(FAKENVML_CFLAGS) -o $@ $(srcdir)/tests/fakenvml/fakenvml.c

tests/fakenvml/legacy/libnvidia-ml.so.1: $(srcdir)/tests/fakenvml/fakenvml.c
	@$(MKDIR_P) tests/fakenvml/legacy
	$(AM_V_CC)$(CC) $(FAKENVML_CFLAGS) -DFAKENVML_LEGACY -o $@ $(srcdir)/tests/fakenvml/fakenvml.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_nvml
TESTS += tests/unit/test_nvml
tests_unit_test_nvml_SOURCES = tests/unit/test_nvml.c
tests_unit_test_nvml_CPPFLAGS = $(AM_CPPFLAGS) -DFAKENVML_DIR='"$(abs_top_builddir)/tests/fakenvml"'
tests_unit_test_nvml_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_nvml_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/nvml.sh
