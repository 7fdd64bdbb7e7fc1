# core/engine/: The engine: the session pipeline, the sweep driver, the option table.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/engine/libengine.a
core_engine_libengine_a_CPPFLAGS = $(I_BASE) $(I_L2) $(I_ENGINE) $(DVF_DEFS)
core_engine_libengine_a_SOURCES = \
	core/engine/options.c core/engine/options.h core/engine/options_check.c core/engine/options_parse.c core/engine/options_save.c core/engine/options_save.h core/engine/session.c core/engine/session.h \
	core/engine/session_job.c core/engine/session_open.c core/engine/session_summary.c core/engine/session_priv.h \
	core/engine/sweep.c core/engine/sweep.h core/engine/sweep_search.c core/engine/sweep_driver.c \
	core/engine/sweep_driver.h \
	core/engine/player.c core/engine/player.h \
	core/engine/session_workload.c core/engine/session_workload.h core/engine/workload_resolve.c core/engine/workload_resolve.h \
	core/engine/recommend.c core/engine/recommend.h \
	core/engine/govern.c core/engine/govern.h core/engine/govern_priv.h core/engine/govern_win.c \
	core/engine/govern_describe.c core/engine/govern_probe.c core/engine/govern_profile.c core/engine/govern_saved.c core/engine/govern_driver.c core/engine/govern_driver.h \
	core/engine/govern_cache.c core/engine/govern_cache.h \
	core/engine/govern_trade.c core/engine/govern_trade.h \
	core/engine/engine.c core/engine/engine.h
