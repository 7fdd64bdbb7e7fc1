# core/cli/: Front ends without a terminal: --batch and the sub-commands.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/cli/libcli.a
core_cli_libcli_a_CPPFLAGS = $(I_BASE) $(I_L2) $(I_ENGINE) $(I_CLI) $(DVF_DEFS)
core_cli_libcli_a_SOURCES = core/cli/cmd_convert.c core/cli/cmd_convert.h \
	core/cli/batch.c core/cli/batch.h core/cli/cmd_fit.c core/cli/cmd_fit.h \
	core/cli/cmd_evaluate.c core/cli/cmd_evaluate.h \
	core/cli/cmd_policy.c core/cli/cmd_policy.h core/cli/cmd_recommend.c core/cli/cmd_recommend.h core/cli/cmd_sweep.c core/cli/cmd_sweep.h \
	core/cli/cmd_restore.c core/cli/cmd_restore.h core/cli/commands.c core/cli/commands.h \
	core/cli/cmd.c core/cli/cmd.h
