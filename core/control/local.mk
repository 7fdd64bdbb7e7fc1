# core/control/: Clock control and the guard that always gives the clocks back.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/control/libcontrol.a
core_control_libcontrol_a_CPPFLAGS = $(I_BASE) $(I_CONTROL) $(DVF_DEFS)
core_control_libcontrol_a_SOURCES = \
	core/control/control.c core/control/control.h core/control/guard.c core/control/guard.h
# TEMPORARY exception to the layers, listed in tests/integration/layers.sh
# too: guard.c holds `dvfstop restore`, which opens sources.
core_control_libcontrol_a_CPPFLAGS += $(I_SOURCE)
