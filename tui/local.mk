# tui/: The dashboard (ncurses).  Layout, cell buffers, renderers, themes and panels
# are pure (no curses) and unit-tested; tui.c and keys.c drive curses.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += tui/libtui.a
tui_libtui_a_CPPFLAGS = $(I_BASE) $(I_L2) $(I_ENGINE) $(I_TUI) $(DVF_DEFS)
tui_libtui_a_SOURCES = \
	tui/cellbuf.c tui/cellbuf.h tui/ctl_keys.c tui/ctl_keys.h \
	tui/job_panel.c tui/job_panel.h tui/keys.c tui/layout.c \
	tui/layout.h tui/panels.c tui/panels.h tui/policy_panel.c \
	tui/policy_panel.h tui/render.c tui/render.h tui/replay_keys.c \
	tui/replay_keys.h tui/sweep_chart.c tui/sweep_chart.h tui/sweep_panel.c \
	tui/sweep_panel.h tui/theme.c \
	tui/theme.h tui/tui.c tui/tui.h tui/tui_int.h
