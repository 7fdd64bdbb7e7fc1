# core/export/: Exporters: the CSV recorder and its sidecar, Prometheus.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/export/libexport.a
core_export_libexport_a_CPPFLAGS = $(I_BASE) $(I_EXPORT) $(DVF_DEFS)
core_export_libexport_a_SOURCES = \
	core/export/prom.c core/export/prom.h core/export/prom_mhd.c core/export/prom_mhd.h core/export/prom_render.c core/export/recorder.c core/export/recorder.h
