# tui/: the headless sweep command (joins session, control and policy).
libdvfstop_a_SOURCES += tui/cmd_sweep.c tui/cmd_sweep.h
