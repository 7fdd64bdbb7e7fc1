# core/sim/: The simulated AGX Orin: a physical model and the sysfs tree it keeps.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/sim/libsim.a
core_sim_libsim_a_CPPFLAGS = $(I_BASE) $(I_SIM) $(DVF_DEFS)
core_sim_libsim_a_SOURCES = \
	core/sim/sim.c core/sim/sim.h core/sim/sim_model.c core/sim/sim_model.h core/sim/sim_rng.c core/sim/sim_rng.h \
	core/sim/sim_priv.h core/sim/sim_tree.c
# the tree's pieces (sim_priv.h)
core_sim_libsim_a_SOURCES += core/sim/sim_file.c core/sim/sim_rm.c core/sim/sim_tree_board.c \
	core/sim/sim_tree_gpu.c
core_sim_libsim_a_SOURCES += core/sim/sim_devfreq.c core/sim/sim_dir.c core/sim/sim_out.c core/sim/sim_mem.c
# the power calibrations and the fine-tune's phases (sim_power.h, sim_phases.h)
core_sim_libsim_a_SOURCES += core/sim/sim_power.c core/sim/sim_power.h core/sim/sim_phases.c core/sim/sim_phases.h
# measured curves it can play instead of its own physics (sim_curve.h)
core_sim_libsim_a_SOURCES += core/sim/sim_curve.c core/sim/sim_curve.h
