# policy/: fitting (dvfstop fit), evaluation (dvfstop evaluate), sweep data,
# and the characterisation dataset (make data).
libdvfstop_a_SOURCES += \
	policy/sweepdata.c policy/sweepdata.h \
	policy/cmd_fit.c policy/cmd_fit.h
