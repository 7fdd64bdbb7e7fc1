# policy/: fitting (dvfstop fit), evaluation (dvfstop evaluate), sweep data,
# and the characterisation dataset (make data).
libdvfstop_a_SOURCES += \
	policy/sweepdata.c policy/sweepdata.h \
	policy/cmd_fit.c policy/cmd_fit.h

# The simulated characterisation dataset (docs/method.md).  The CSVs are
# committed; `make data` rebuilds them (same seeds, same files).
.PHONY: data
data: dvfstop$(EXEEXT)
	$(SHELL) $(srcdir)/data/characterise.sh $(abs_builddir)/dvfstop$(EXEEXT) $(srcdir)/data

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sweepdata tests/unit/test_fit
TESTS += tests/unit/test_sweepdata tests/unit/test_fit
tests_unit_test_sweepdata_SOURCES = tests/unit/test_sweepdata.c
tests_unit_test_sweepdata_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sweepdata_LDADD = $(TEST_LDADD)
tests_unit_test_fit_SOURCES = tests/unit/test_fit.c
tests_unit_test_fit_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_fit_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/fit.sh tests/integration/fit-characterisation.sh
EXTRA_DIST += tests/integration/fit.sh tests/integration/fit-characterisation.sh docs/method.md \
	data/characterise.sh data/characterisation.csv data/evaluation.csv \
	tests/fixtures/sweeps/constant-features.csv \
	tests/fixtures/sweeps/empty.csv \
	tests/fixtures/sweeps/features-differ.csv \
	tests/fixtures/sweeps/missing-columns.csv \
	tests/fixtures/sweeps/no-maxn.csv \
	tests/fixtures/sweeps/no-util.csv \
	tests/fixtures/sweeps/non-numeric.csv \
	tests/fixtures/sweeps/one-class.csv \
	tests/fixtures/sweeps/one-level.csv \
	tests/fixtures/sweeps/one-split.csv \
	tests/fixtures/sweeps/single-row.csv \
	tests/fixtures/sweeps/single-workload.csv \
	tests/fixtures/sweeps/ties.csv \
	tests/fixtures/sweeps/two-splits.csv
