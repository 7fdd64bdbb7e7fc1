# tests/fuzz: libFuzzer targets, one per parser (policy files, config files,
# tegrastats lines, sysfs values, progress lines, HF config.json, themes,
# session CSV replay, sweep CSV, the --prom-listen address and the
# Prometheus exposition text, dvfstopd's request lines, --sim-curve tables, the
# governor's profile cache records, --sim-phases and --sim-power specs).  `make fuzz` builds
# them into tests/fuzz/bin with clang, compiling the library's own sources
# with the fuzzer and sanitizer flags (the gcc-built libdvfstop.a cannot be
# used);
# `tests/fuzz/run.sh` runs each on its corpus (tests/fuzz/corpus/TARGET).
CLANG = clang
FUZZ_TARGETS = policy config tegrastats sysfs progress hfconfig theme replay sweepcsv prom helper_proto simcurve govcache simspec
FUZZ_BIN = tests/fuzz/bin

.PHONY: fuzz fuzz-clean
fuzz: config.h
	@CLANG='$(CLANG)' $(SHELL) $(srcdir)/tests/fuzz/build.sh $(FUZZ_BIN) $(srcdir) \
	  '$(FUZZ_TARGETS)' '$(DVF_LIB_FILES)' '$(CURSES_LIBS) $(CSV_LIBS) $(JSONC_LIBS) $(LIBS)' \
	  -- -I$(builddir) $(AM_CPPFLAGS) $(JSONC_CFLAGS) $(MHD_CFLAGS) $(CURSES_CFLAGS)

fuzz-clean:
	rm -rf $(FUZZ_BIN)

EXTRA_DIST += tests/fuzz/fuzz.mk tests/fuzz/build.sh tests/fuzz/run.sh tests/fuzz/fuzz.h \
	tests/fuzz/fuzz_util.c tests/fuzz/fuzz_policy.c tests/fuzz/fuzz_config.c \
	tests/fuzz/fuzz_tegrastats.c tests/fuzz/fuzz_sysfs.c tests/fuzz/fuzz_progress.c \
	tests/fuzz/fuzz_hfconfig.c tests/fuzz/fuzz_theme.c tests/fuzz/fuzz_replay.c tests/fuzz/fuzz_sweepcsv.c tests/fuzz/fuzz_prom.c \
	tests/fuzz/fuzz_helper_proto.c tests/fuzz/fuzz_simcurve.c tests/fuzz/fuzz_govcache.c tests/fuzz/fuzz_simspec.c \
	tests/fuzz/corpus

# Fault injection tests (files vanishing, EIO/EAGAIN/garbage, devfreq
# writes refused, the disk filling while recording): robustness beside the
# fuzzers, so they live in this fragment.
TESTS += tests/integration/faults-rails.sh tests/integration/faults-io.sh
EXTRA_DIST += tests/integration/faults-rails.sh tests/integration/faults-io.sh

# The benchmarks (bench/, run by hand) and their write-up.
EXTRA_DIST += docs/performance.md bench/lib.sh bench/sampling.sh bench/floor.c \
	bench/runcpu.c bench/pyreader.py bench/integration-error.sh \
	bench/integration-error.c bench/sweep-efficiency.sh bench/govern.sh bench/sweep-truth.c \
	bench/terminal-bytes.sh bench/convert-memory.sh bench/rss.sh bench/daemon-size.sh \
	bench/sampling-instr.sh bench/sampling-ab.sh tests/fuzz/seed.sh tests/fuzz/.gitignore
