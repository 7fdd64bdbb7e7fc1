#!/bin/sh
# dvfstop set-up: install what is missing (Debian/Ubuntu/JetPack), build from
# scratch, then start the demo or run every test.
#
#   scripts/setup.sh demo     build and start `dvfstop --demo`
#   scripts/setup.sh test     build and run every test (what CI runs)
#   scripts/setup.sh quick    build and run a quick subset: every unit test and
#                             a few fast integration and terminal tests (a minute
#                             or two; the whole suite before a commit is `test`)
#   scripts/setup.sh build    only build (in _build/)
#   scripts/setup.sh deps     only install the Debian packages
#
# Runs as root, or as a user with sudo for the package step.
set -eu

cd "$(dirname "$0")/.."
top=$(pwd)
what=${1:-build}
shift 2>/dev/null || true

# Build dependencies (what configure needs) and test tools.
BUILD_PKGS="build-essential autoconf automake pkg-config libncurses-dev libcsv-dev libjson-c-dev libmicrohttpd-dev"
TEST_PKGS="libcmocka-dev tmux clang valgrind python3 python3-tqdm prometheus systemd debhelper dpkg-dev lintian"

deps() {
	pkgs=$BUILD_PKGS
	case $what in test|quick) pkgs="$pkgs $TEST_PKGS";; esac
	missing=""
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
	if [ -n "$missing" ]; then
		echo "setup: installing$missing"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
	fi
	[ "$what" = test ] && fuzz_runtime
	return 0
}

# libFuzzer ships with clang's compiler-rt.  Newer Debian and Ubuntu split it
# into libclang-rt-N-dev (N: the default clang's major version, 14 on
# bookworm, 18 on noble); older ones (jammy) keep it in libclang-common-N-dev,
# which clang already pulls in.  Install the split package only when linking
# a fuzzer fails and the archive has one.
fuzz_runtime() {
	t=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-setup.XXXXXX")
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$t/f.c"
	if ! clang -fsanitize=fuzzer -o "$t/f" "$t/f.c" 2>/dev/null; then
		v=$(clang -dumpversion | cut -d. -f1)
		if apt-cache show "libclang-rt-$v-dev" >/dev/null 2>&1; then
			echo "setup: installing libclang-rt-$v-dev (libFuzzer for clang $v)"
			DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "libclang-rt-$v-dev" >/dev/null
		else
			echo "setup: clang $v cannot link -fsanitize=fuzzer and no libclang-rt-$v-dev is packaged" >&2
		fi
	fi
	rm -rf "$t"
}

# Count what a `make check` ran, from its test-suite.log summary.
count() { # DIR
	pass=$(sed -n 's/^# PASS: *//p' "$1/test-suite.log" | head -n1)
	fail=$(sed -n 's/^# FAIL: *//p' "$1/test-suite.log" | head -n1)
	skip=$(sed -n 's/^# SKIP: *//p' "$1/test-suite.log" | head -n1)
	npass=$((npass + ${pass:-0})); nfail=$((nfail + ${fail:-0})); nskip=$((nskip + ${skip:-0}))
}
npass=0; nfail=0; nskip=0
# Terminal and replay tests measure time: one test a core keeps them honest.
jobs=$(nproc)
# The quick subset: the unit tests (all of them: seconds) and these, the
# command line, the docs, the layers, the fixtures, a replay, the exporter,
# the dashboard and its uptime.
QUICK_TESTS="tests/integration/cli.sh tests/integration/docs-options.sh tests/integration/layers.sh
	tests/integration/batch-fixtures.sh tests/integration/replay_roundtrip.sh tests/integration/prom_textfile.sh
	tests/tui/dashboard.sh tests/tui/uptime.sh"
DISTCHECK_TESTS="tests/unit/test_options tests/unit/test_jetson tests/unit/test_policy_tree tests/integration/batch-fixtures.sh tests/integration/policy.sh"

build() { # build DIR [configure flags...]
	dir=$1; shift
	[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$top/configure" -q "$@" 2>/dev/null >/dev/null || "$top/configure" "$@"; } \
		&& make -j"$(nproc)" >/dev/null)
}

case "$what" in
deps)
	deps ;;
build)
	deps; build _build; echo "setup: built _build/dvfstop" ;;
demo)
	deps; build _build
	exec _build/dvfstop --demo "$@" ;;
quick)
	deps
	echo "== build (gcc, warnings as errors), the unit tests and a few others"
	build _build --enable-werror
	# The unit tests are the TESTS that are programs (tests/unit/...).
	unit=$(printf 'quick-list:\n\t@echo $(TESTS)\n' | make -s -C _build -f Makefile -f - quick-list |
		tr ' ' '\n' | grep '^tests/unit/' | tr '\n' ' ')
	make -C _build check -j"$jobs" TESTS="$unit $(echo $QUICK_TESTS)" >/dev/null ||
		{ grep -E '^(FAIL|ERROR)' _build/test-suite.log; count _build; echo "tests: $npass passed, $nfail failed"; exit 1; }
	count _build
	echo "tests: $npass passed, $nfail failed, $nskip skipped" ;;
test)
	deps
	echo "== build (gcc, warnings as errors) and unit, integration and terminal tests"
	build _build --enable-werror
	make -C _build check -j"$jobs" || { cat _build/test-suite.log; count _build; echo "tests: $npass passed, $nfail failed"; exit 1; }
	count _build
	echo "== the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer"
	build _build-san --enable-sanitizers CFLAGS="-O1 -g"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		make -C _build-san check -j"$jobs" || { cat _build-san/test-suite.log; count _build-san; echo "tests: $npass passed, $nfail failed"; exit 1; }
	count _build-san
	# At most about 2 minutes all told (the targets run.sh lists, one a core; the suite
	# must stay inside CI's 30 minutes on 2 cores): 20 s a target on 2
	# cores, up to 60 s with more.  Longer runs: FUZZ_SECONDS=N.
	nfuzz=$(set -- $(sed -n "s/^targets=\${\*:-\"\(.*\)\"}/\1/p" tests/fuzz/run.sh); echo $#)
	fuzz_s=$((120 * jobs / nfuzz)); [ "$fuzz_s" -gt 60 ] && fuzz_s=60
	echo "== fuzz every parser (FUZZ_SECONDS=${FUZZ_SECONDS:-$fuzz_s} s each, $jobs at a time)"
	make -C _build fuzz >/dev/null
	FUZZ_SECONDS=${FUZZ_SECONDS:-$fuzz_s} FUZZ_JOBS=$jobs FUZZ_BIN=_build/tests/fuzz/bin tests/fuzz/run.sh ||
		{ echo "fuzz: a target failed (its input is kept in the current folder)"; exit 1; }
	echo "== clang, warnings as errors"
	build _build-clang --enable-werror CC=clang
	# The tarball builds, installs and passes a smoke set of tests from a
	# read-only source tree (the whole suite has already run twice above).
	echo "== make distcheck"
	make -C _build distcheck TESTS="$DISTCHECK_TESTS" >/dev/null 2>&1 ||
		{ echo "distcheck failed"; make -C _build distcheck TESTS="$DISTCHECK_TESTS" 2>&1 | tail -40; exit 1; }
	# From the tarball distcheck left, in a scratch folder: dpkg-buildpackage,
	# lintian (no errors), the files of each .deb (docs/packaging.md).
	echo "== Debian packages"
	scripts/deb-check.sh "_build/dvfstop-$(sed -n 's/^PACKAGE_VERSION = //p' _build/Makefile).tar.gz" ||
		{ echo "Debian packages failed"; exit 1; }
	echo "tests: $npass passed, $nfail failed, $nskip skipped" ;;
*)
	echo "usage: scripts/setup.sh demo|test|quick|build|deps" >&2; exit 2 ;;
esac
