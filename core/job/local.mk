# core/job/: The fine-tune: the child, an attached --pid, its progress.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/job/libjob.a
core_job_libjob_a_CPPFLAGS = $(I_BASE) $(I_JOB) $(DVF_DEFS)
core_job_libjob_a_SOURCES = \
	core/job/job.c core/job/job.h core/job/progress.c core/job/progress.h
# the job's pieces (job_priv.h)
core_job_libjob_a_SOURCES += core/job/job_child.c core/job/job_pid.c core/job/job_priv.h
