# tui/: The dashboard (ncurses).  Two libraries:
# - libtuiview.a, the pure part: layout, cell buffers, renderers, themes
#   and the panels' renderers turn a view (a copy of the session's figures)
#   into cells.  Compiled without $(CURSES_CFLAGS), and none of its files
#   includes curses or a header that does (tests/integration/layers.sh), so
#   every size and view is unit-tested without a terminal.
# - libtui.a, the part that drives curses: the loop (tui.c), the panel
#   table (panel_table.c), the key table (keys.c) and the key handlers.  It
#   holds libtuiview's objects too, so linking it is enough.
# Both are compiled with the include paths of their own folder and the
# layers below only (Makefile.am, "Layers"): an include from a layer above
# does not build.
noinst_LIBRARIES += tui/libtuiview.a tui/libtui.a
tui_libtuiview_a_CPPFLAGS = $(I_BASE) $(I_L2) $(I_ENGINE) $(I_TUI) $(DVF_DEFS)
tui_libtuiview_a_CFLAGS = $(WARN_CFLAGS) $(SAN_CFLAGS)
tui_libtuiview_a_SOURCES = \
	tui/cellbuf.c tui/cellbuf.h tui/ctl_dialog.c tui/ctl_dialog.h \
	tui/job_panel.c tui/job_panel.h \
	tui/layout.c tui/layout.h tui/level_rows.c tui/level_rows.h tui/panel.c tui/panel.h tui/panel_gpu.c tui/panel_priv.h tui/panel_rows.c tui/pen.c tui/pen.h tui/sys_rows.c tui/sys_rows.h \
	tui/gpu_rows.c tui/gpu_rows.h tui/render.c tui/render.h tui/replay_view.c tui/replay_view.h tui/scroll.c tui/scroll.h \
	tui/sweep_chart.c tui/sweep_chart.h tui/theme.c tui/theme.h \
	tui/tui_view.h tui/job_view.h tui/policy_view.h tui/sweep_view.h tui/govern_view.h
tui_libtui_a_CPPFLAGS = $(I_BASE) $(I_L2) $(I_ENGINE) $(I_TUI) $(DVF_DEFS)
tui_libtui_a_SOURCES = \
	tui/ctl_keys.c tui/ctl_keys.h tui/govern_keys.c tui/govern_keys.h tui/job_keys.c tui/job_keys.h \
	tui/keys.c tui/mouse.c tui/mouse.h tui/panel_ctx.c tui/panel_ctx.h tui/panel_table.c tui/panel_table.h \
	tui/govern_panel.c tui/govern_panel.h tui/policy_panel.c tui/policy_panel.h tui/proc_keys.c tui/proc_keys.h tui/replay_keys.c \
	tui/replay_keys.h tui/sweep_panel.c tui/sweep_panel.h \
	tui/tui.c tui/tui.h tui/tui_int.h tui/tui_theme.c tui/zoom_keys.c tui/zoom_keys.h
tui_libtui_a_LIBADD = $(tui_libtuiview_a_OBJECTS)
tui_libtui_a_DEPENDENCIES = $(tui_libtuiview_a_OBJECTS)
DVF_LIB_FILES += $(tui_libtuiview_a_SOURCES)
