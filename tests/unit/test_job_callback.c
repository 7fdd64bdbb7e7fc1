/* contrib/dvfstop_callback.py run by /usr/bin/python3 under job_child_start, with
 * fake Trainer args/state objects; its lines are read back through the
 * progress file and the C parser.  Skipped (77) without /usr/bin/python3. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "timebase.h"
#include "job.h"

#define PY "/usr/bin/python3"

static const char driver[] =
	"import os, sys, tempfile, time\n"
	"sys.path.insert(0, sys.argv[1])\n"
	"from dvfstop_callback import DvfstopCallback\n"
	"class Args: per_device_train_batch_size = 8; gradient_accumulation_steps = 2; world_size = 1\n"
	"class State: global_step = 0; max_steps = 5; num_input_tokens_seen = 0; is_world_process_zero = True\n"
	"a, s, cb = Args(), State(), DvfstopCallback()\n"
	"cb.on_train_begin(a, s, None)\n"
	"for i in range(1, 6):\n"
	"    s.global_step = i\n"
	"    s.num_input_tokens_seen = i * 16 * 128\n"
	"    cb.on_step_end(a, s, None)\n"
	"cb.on_train_end(a, s, None)\n"
	"s.is_world_process_zero = False; s.global_step = 99\n"
	"cb.on_step_end(a, s, None)\n"
	"d = tempfile.mkdtemp(); f = os.path.join(d, 'fifo'); os.mkfifo(f)\n"
	"t = time.time(); DvfstopCallback(path=f).on_step_end(a, s, None)\n"
	"print('fifo without reader: %s' % ('quick' if time.time() - t < 2 else 'slow'))\n"
	"os.unlink(f); os.rmdir(d)\n"
	"del os.environ['DVFSTOP_PROGRESS']; DvfstopCallback().on_step_end(a, s, None)\n"
	"print('done')\n";

struct seen {
	int n;
	struct progress_event ev[16];
};

static void on_event(const struct progress_event *ev, int64_t now, void *ctx)
{
	struct seen *s = ctx;
	(void)now;
	if (s->n < 16)
		s->ev[s->n] = *ev;
	s->n++;
}

static void test_callback(void **state)
{
	(void)state;
	static char py[] = PY, c[] = "-c", dir[] = DVF_SRCDIR "/contrib";
	char *argv[] = { py, c, (char *)driver, dir, NULL };
	struct seen seen = { 0 };
	struct job_opts o = { .on_event = on_event, .ctx = &seen };
	char err[256];
	struct job *j = job_child_start(argv, &o, timebase_mono_ns(), err, sizeof err);
	if (!j)
		fail_msg("%s", err);
	int64_t end = timebase_mono_ns() + 20 * DVF_NS_PER_S;
	while (!job_drained(j)) {
		struct pollfd fds[2];
		poll(fds, (nfds_t)job_fds(j, fds, 2), 20);
		job_poll(j, timebase_mono_ns());
		assert_true(timebase_mono_ns() < end);
	}
	job_poll(j, timebase_mono_ns());
	for (int i = 0; i < job_ring_count(j); i++)
		fprintf(stderr, "python: %s\n", job_ring_line(j, i));
	assert_int_equal(job_state(j), JOB_EXITED);
	assert_int_equal(job_exit_code(j), 0);
	assert_int_equal(job_ring_count(j), 2);
	assert_string_equal(job_ring_line(j, 0), "fifo without reader: quick");
	assert_string_equal(job_ring_line(j, 1), "done");

	/* on_train_begin's step 0 (no tokens yet), then steps 1..5; nothing
	 * from a process other than rank 0 or without the variable */
	assert_int_equal(seen.n, 6);
	for (int i = 0; i < 6; i++) {
		const struct progress_event *ev = &seen.ev[i];
		assert_int_equal(ev->syntax, PROGRESS_STEP);
		assert_int_equal(ev->step.v, i);
		assert_int_equal(ev->total.v, 5);
		assert_true(ev->samples.ok);
		assert_int_equal(ev->samples.v, i * 8 * 2);     /* batch 8 x accumulation 2 */
		assert_int_equal(ev->tokens.ok, i > 0);
		if (i > 0)
			assert_int_equal(ev->tokens.v, i * 16 * 128);
	}
	struct progress_status st;
	progress_tracker_status(job_tracker(j), timebase_mono_ns(), &st);
	assert_int_equal(st.steps.v, 5);
	assert_true(st.seq_len.ok);
	assert_float_equal(st.seq_len.v, 128.0, 1e-9);   /* 16 samples of 128 tokens a step */
	job_free(j);
}

int main(void)
{
	if (access(PY, X_OK) != 0) {
		fprintf(stderr, "SKIP: %s not found\n", PY);
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
