/* sweep_fixture: the hand-made sweep fixtures (tests/fixtures/sweeps) as
 * the unit tests of the policy's maths read them (test_fit.c,
 * test_policy_score.c).  Include after cmocka.h and sweepdata.h. */
#ifndef DVF_TEST_SWEEP_FIXTURE_H
#define DVF_TEST_SWEEP_FIXTURE_H

#include <stdio.h>

#define SWEEP_FIXTURE_DIR DVF_SRCDIR "/tests/fixtures/sweeps/"

/* d: the fixture called name, loaded and finished; the test fails with the
 * reader's message where it cannot be. */
static inline void sweep_fixture_load(struct sweepdata *d, const char *name)
{
	char path[512], err[1024];
	snprintf(path, sizeof path, "%s%s", SWEEP_FIXTURE_DIR, name);
	char *paths[] = { path };
	sweepdata_init(d);
	if (sweepdata_load(d, paths, 1, err, sizeof err))
		fail_msg("%s: %s", path, err);
}

#endif
