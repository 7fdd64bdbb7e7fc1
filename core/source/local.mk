# core/source/: Sources of samples: the registry and its backends (jetson sysfs, NVML,
# replay of a recording or tegrastats log).
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/source/libsource.a
core_source_libsource_a_CPPFLAGS = $(I_BASE) $(I_SOURCE) $(DVF_DEFS)
core_source_libsource_a_SOURCES = \
	core/source/jetson.c core/source/jetson.h core/source/nvml.c core/source/nvml.h \
	core/source/nvml_api.c core/source/nvml_attr.c core/source/nvml_ctl.c core/source/nvml_priv.h core/source/nvml_sample.c \
	core/source/replay.c core/source/replay.h core/source/replay_board.c core/source/replay_csv.c \
	core/source/replay_table.h core/source/replay_tegra.c core/source/source.c core/source/source.h \
	core/source/source_gpu.c core/source/source_gpu.h \
	core/source/tegrastats.c core/source/tegrastats.h \
	core/source/tegrastats_board.c core/source/tegrastats_board.h
# the jetson source's pieces (jetson_priv.h)
core_source_libsource_a_SOURCES += core/source/jetson_ctl.c core/source/jetson_discover.c \
	core/source/jetson_msg.c core/source/jetson_path.c core/source/jetson_priv.h \
	core/source/jetson_sample.c core/source/jetson_sys.c
# tables of /proc and debugfs: meminfo, per-core /proc/stat, CPU lists; nvmap's clients
core_source_libsource_a_SOURCES += core/source/procfs.c core/source/procfs.h \
	core/source/nvmap.c core/source/nvmap.h
