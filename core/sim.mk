# core/sim fragment (owned by the sim work): the simulated AGX Orin.
libdvfstop_a_SOURCES += \
	core/sim.c core/sim.h core/sim_priv.h \
	core/sim_tree.c \
	core/sim_model.c core/sim_model.h

EXTRA_DIST += docs/simulator.md

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim tests/unit/test_sim_model
TESTS += tests/unit/test_sim tests/unit/test_sim_model
tests_unit_test_sim_SOURCES = tests/unit/test_sim.c
tests_unit_test_sim_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_LDADD = $(TEST_LDADD)
tests_unit_test_sim_model_SOURCES = tests/unit/test_sim_model.c
tests_unit_test_sim_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_model_LDADD = $(TEST_LDADD)
endif
