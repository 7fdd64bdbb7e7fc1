# tui/: the ncurses front end.  Layout, cell buffers, renderers, themes and
# panels are pure (no curses) and unit-tested; term/tui/keys drive curses.
libdvfstop_a_SOURCES += \
	tui/layout.c tui/layout.h \
	tui/cellbuf.c tui/cellbuf.h \
	tui/render.c tui/render.h \
	tui/theme.c tui/theme.h \
	tui/panels.c tui/panels.h \
	tui/keys.c tui/tui.c tui/tui.h tui/tui_int.h \
	tui/sweep_panel.c tui/sweep_panel.h \
	tui/job_panel.c tui/job_panel.h \
	tui/replay_keys.c tui/replay_keys.h \
	tui/ctl_keys.c tui/ctl_keys.h \
	tui/policy_panel.c tui/policy_panel.h

dist_themes_DATA += \
	themes/default.theme \
	themes/light.theme \
	themes/high-contrast.theme \
	themes/mono.theme

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_layout tests/unit/test_spark tests/unit/test_theme
TESTS += tests/unit/test_layout tests/unit/test_spark tests/unit/test_theme
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c
tests_unit_test_layout_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_layout_LDADD = $(TEST_LDADD)
tests_unit_test_spark_SOURCES = tests/unit/test_spark.c
tests_unit_test_spark_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_spark_LDADD = $(TEST_LDADD)
tests_unit_test_theme_SOURCES = tests/unit/test_theme.c
tests_unit_test_theme_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_theme_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_layout_panels
TESTS += tests/unit/test_layout_panels
tests_unit_test_layout_panels_SOURCES = tests/unit/test_layout_panels.c
tests_unit_test_layout_panels_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_layout_panels_LDADD = $(TEST_LDADD)
endif

# Terminal tests: the real binary in tmux (skipped without tmux).
TUI_TESTS = tests/tui/dashboard.sh tests/tui/record.sh tests/tui/resize.sh tests/tui/terms.sh
TUI_TESTS += tests/tui/sweep.sh tests/tui/job.sh tests/tui/quit.sh tests/tui/replay.sh tests/tui/help.sh tests/tui/valgrind.sh
TUI_TESTS += tests/tui/job_figures.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += tests/tui/tmux.sh $(TUI_TESTS)
EXTRA_DIST += docs/tui.md

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_tui_sweep
TESTS += tests/unit/test_tui_sweep
tests_unit_test_tui_sweep_SOURCES = tests/unit/test_tui_sweep.c
tests_unit_test_tui_sweep_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tui_sweep_LDADD = $(TEST_LDADD)
endif

# Clock control keys and the policy panel (ctl_keys.c, policy_panel.c).
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_ctl_keys tests/unit/test_policy_panel
TESTS += tests/unit/test_ctl_keys tests/unit/test_policy_panel
tests_unit_test_ctl_keys_SOURCES = tests/unit/test_ctl_keys.c
tests_unit_test_ctl_keys_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ctl_keys_LDADD = $(TEST_LDADD)
tests_unit_test_policy_panel_SOURCES = tests/unit/test_policy_panel.c
tests_unit_test_policy_panel_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_panel_LDADD = $(TEST_LDADD)
endif
TUI_CTL_TESTS = tests/tui/control.sh tests/tui/policy.sh
TESTS += $(TUI_CTL_TESTS)
EXTRA_DIST += $(TUI_CTL_TESTS)
# Faults while the dashboard runs (issue 9): sensor files, clock writes, a
# full disk; and the control's messages made to fit the screen.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_ctl_msg
TESTS += tests/unit/test_ctl_msg
tests_unit_test_ctl_msg_SOURCES = tests/unit/test_ctl_msg.c
tests_unit_test_ctl_msg_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ctl_msg_LDADD = $(TEST_LDADD)
endif
TUI_FAULT_TESTS = tests/tui/faults-rails.sh tests/tui/faults-ctl.sh tests/tui/faults-disk.sh
TESTS += $(TUI_FAULT_TESTS)
EXTRA_DIST += $(TUI_FAULT_TESTS)
