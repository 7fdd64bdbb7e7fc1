# core/sim fragment (owned by the sim work): the simulated AGX Orin.
libdvfstop_a_SOURCES += \
	core/sim.c core/sim.h core/sim_priv.h \
	core/sim_tree.c \
	core/sim_model.c core/sim_model.h

EXTRA_DIST += docs/simulator.md
