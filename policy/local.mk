# policy/: Policies: decision trees, built-ins, evaluation with the path, scoring against sweeps, CART, sweep data.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += policy/libpolicy.a
policy_libpolicy_a_CPPFLAGS = $(I_BASE) $(I_POLICY) $(DVF_DEFS)
policy_libpolicy_a_SOURCES = \
	policy/policy_builtin.c policy/policy_builtin.h policy/cart.c policy/cart.h \
	policy/policy_eval.c policy/policy_eval.h policy/sweepdata.c policy/sweepdata.h \
	policy/policy_tree.c policy/policy_tree.h policy/policy_score.c policy/policy_score.h

# The simulated characterisation dataset (docs/method.md).  The CSVs are
# committed; `make data` rebuilds them (same seeds, same files).
.PHONY: data
data: dvfstop$(EXEEXT)
	$(SHELL) $(srcdir)/data/characterise.sh $(abs_builddir)/dvfstop$(EXEEXT) $(srcdir)/data
