# core/base/: Plain data: samples with validity, monotonic time, energy integration, history,
# io helpers, line intake, text made safe to print, workload features, the model catalog, the source interface.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/base/libbase.a
core_base_libbase_a_CPPFLAGS = $(I_BASE) $(DVF_DEFS)
core_base_libbase_a_SOURCES = core/base/atdeath.c core/base/atdeath.h core/base/attrib.c core/base/attrib.h \
	core/base/catalog.c core/base/catalog.h core/base/timebase.c core/base/timebase.h \
	core/base/energy.c core/base/energy.h core/base/history.c core/base/history.h \
	core/base/io.c core/base/io_fault.c core/base/io.h core/base/io_user.c core/base/io_user.h core/base/linebuf.c core/base/linebuf.h \
	core/base/sample.c core/base/sample.h core/base/source_ops.h core/base/statehome.c core/base/statehome.h \
	core/base/text.c core/base/text.h \
	core/base/workload.c core/base/workload.h
