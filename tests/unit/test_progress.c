/* progress_parse and the tracker, on literal lines and on real tqdm
 * captures (tests/fixtures/progress/, made by make.sh there). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "timebase.h"
#include "linebuf.h"
#include "progress.h"

#define FIX DVF_SRCDIR "/tests/fixtures/progress/"
#define S DVF_NS_PER_S

#define assert_m(m, val) do { assert_true((m).ok); assert_int_equal((m).v, (val)); } while (0)
#define assert_na(m) assert_false((m).ok)
#define assert_num(n, val, tol) do { assert_true((n).ok); assert_float_equal((n).v, (val), (tol)); } while (0)

static struct progress_event parse(const char *line, enum progress_syntax want)
{
	struct progress_event ev;
	enum progress_syntax got = progress_parse(line, &ev);
	if (got != want)
		fail_msg("'%s': got %s, want %s", line, progress_syntax_name(got), progress_syntax_name(want));
	assert_int_equal(ev.syntax, want);
	return ev;
}

static void test_tqdm_forms(void **state)
{
	(void)state;
	struct progress_event ev;

	ev = parse("12/500 [00:03<02:01, 4.01it/s]", PROGRESS_TQDM);
	assert_m(ev.step, 12);
	assert_m(ev.total, 500);
	assert_m(ev.elapsed_ns, 3 * S);
	assert_m(ev.remaining_ns, 121 * S);
	assert_num(ev.rate, 4.01, 1e-9);
	assert_na(ev.tokens);

	ev = parse("train:  12%|█▏        | 60/500 [00:13<01:36,  4.56it/s]", PROGRESS_TQDM);
	assert_m(ev.step, 60);
	assert_m(ev.total, 500);
	assert_num(ev.rate, 4.56, 1e-9);

	ev = parse("  0%|          | 0/40 [00:00<?, ?it/s]", PROGRESS_TQDM);
	assert_m(ev.step, 0);
	assert_na(ev.remaining_ns);
	assert_na(ev.rate);

	ev = parse("60it [00:13, 4.56it/s]", PROGRESS_TQDM);
	assert_m(ev.step, 60);
	assert_na(ev.total);
	assert_na(ev.remaining_ns);

	ev = parse("Map: 1.23kex [00:01, 1.02kex/s]", PROGRESS_TQDM);
	assert_m(ev.step, 1230);
	assert_num(ev.rate, 1020, 1e-6);

	/* tqdm switches to seconds per step below 1 step/s */
	ev = parse("slow:  33%|███▎      | 1/3 [00:01<00:02,  1.10s/it]", PROGRESS_TQDM);
	assert_num(ev.rate, 1 / 1.10, 1e-9);

	/* SI-scaled counts, a postfix, hours */
	ev = parse(" 8%|▊         | 10.0k/123k [00:00<00:00, 3.19Mtok/s]", PROGRESS_TQDM);
	assert_m(ev.step, 10000);
	assert_m(ev.total, 123000);
	assert_num(ev.rate, 3.19e6, 1e-3);
	ev = parse("epoch 1:  50%|█████     | 10/20 [00:00<00:00, 232.55it/s, loss=1.5]", PROGRESS_TQDM);
	assert_m(ev.step, 10);
	ev = parse("375/1000 [1:02:03<1:43:25, 10.00s/it]", PROGRESS_TQDM);
	assert_m(ev.elapsed_ns, 3723 * S);
	assert_m(ev.remaining_ns, (3600 + 43 * 60 + 25) * S);
	/* the "100k/123k [...] " redraw keeps a trailing pad blank */
	ev = parse(" 81%|████████  | 100k/123k [00:00<00:00, 3.08Mtok/s] ", PROGRESS_TQDM);
	assert_m(ev.step, 100000);
}

static void test_tqdm_lookalikes(void **state)
{
	(void)state;
	static const char *const not_progress[] = {
		"2024/12/05 [12:00:01, INFO] started",
		"12/05 [12:00:01, INFO] started",
		"copied 3/4 files",
		"loaded /data/run/12/500 [00:00<00:00, 1.0it/s]",
		"ratio 3/4 [00:01]",
		"ratio 3/4 [00:61, 1it/s]",
		"ratio 3/4 [0:1, 1it/s]",
		"ratio 3/4[00:01, 1it/s]",
		"at 12:00 [05:00, 3it/s]",
		"12 [00:01, 3it/s]",
		"x/4 [00:01<00:02, 3it/s]",
		"3/4 [00:01<00:02, 3it]",
		"3/4 [00:01<00:02, fast/s]",
		"3/4 [00:01<00:02 3it/s]",
		"3/4x [00:01<00:02, 3it/s]",
		"",
		"[",
		" [00:01, 1it/s]",
		"Epoch 3/10",
		/* counts that are not numbers (the fuzzer's find: NaN passed the
		 * range check and became INT64_MIN) */
		"nanit [00:00, 466.02it/s]",
		"nan/10 [00:00<00:01, 3.00it/s]",
		"3/nan [00:00<00:01, 3.00it/s]",
		"infit [00:00, 466.02it/s]",
		"3/inf [00:00<00:01, 3.00it/s]",
	};
	for (size_t i = 0; i < sizeof not_progress / sizeof not_progress[0]; i++)
		parse(not_progress[i], PROGRESS_NONE);
}

static void test_hf_dicts(void **state)
{
	(void)state;
	struct progress_event ev;

	ev = parse("{'loss': 0.6931, 'grad_norm': 1.2, 'learning_rate': 4.9e-05, 'epoch': 0.01}", PROGRESS_HF_LOG);
	assert_num(ev.loss, 0.6931, 1e-12);
	assert_num(ev.grad_norm, 1.2, 1e-12);
	assert_num(ev.learning_rate, 4.9e-05, 1e-18);
	assert_num(ev.epoch, 0.01, 1e-12);
	assert_na(ev.step);
	assert_false(ev.runtime_s.ok);

	/* newer transformers quote the numbers */
	ev = parse("{'loss': '2.345', 'grad_norm': '0.8', 'learning_rate': '1e-05', 'epoch': '1'}", PROGRESS_HF_LOG);
	assert_num(ev.loss, 2.345, 1e-12);
	assert_num(ev.learning_rate, 1e-05, 1e-18);
	assert_num(ev.epoch, 1.0, 0);

	ev = parse("{'train_runtime': 151.2345, 'train_samples_per_second': 19.839, "
		   "'train_steps_per_second': 2.48, 'train_loss': 0.5123456789, 'epoch': 3.0}",
		   PROGRESS_HF_SUMMARY);
	assert_num(ev.runtime_s, 151.2345, 1e-9);
	assert_num(ev.samples_per_s, 19.839, 1e-9);
	assert_num(ev.steps_per_s, 2.48, 1e-12);
	assert_num(ev.loss, 0.5123456789, 1e-12);
	assert_num(ev.epoch, 3.0, 0);

	/* an evaluation dict is a log line: it carries the epoch */
	ev = parse("{'eval_loss': 0.59, 'eval_runtime': 0.0187, 'epoch': 1.0}", PROGRESS_HF_LOG);
	assert_false(ev.loss.ok);
	assert_num(ev.epoch, 1.0, 0);

	/* values that are not numbers are skipped, not fatal */
	ev = parse("{'loss': nan, 'grad_norm': inf, 'note': 'a, b}', 'x': tensor(1.5, device='cuda:0'), 'epoch': 0.5}",
		   PROGRESS_HF_LOG);
	assert_true(ev.loss.ok && ev.loss.v != ev.loss.v);   /* NaN */
	assert_num(ev.epoch, 0.5, 0);

	parse("{'lr': 0.1, 'momentum': 0.9}", PROGRESS_NONE);    /* no Trainer key */
	parse("{}", PROGRESS_NONE);
	parse("{'loss': 0.5", PROGRESS_NONE);
	parse("{'loss': 0.5} trailing", PROGRESS_NONE);
	parse("{'loss' 0.5}", PROGRESS_NONE);
	parse("{loss: 0.5}", PROGRESS_NONE);
	parse("config = {'loss': 'mse'}", PROGRESS_NONE);
}

static void test_step_lines(void **state)
{
	(void)state;
	struct progress_event ev;

	ev = parse("step 12", PROGRESS_STEP);
	assert_m(ev.step, 12);
	assert_na(ev.total);
	assert_na(ev.tokens);
	ev = parse("step 12 tokens 49152 samples 96 total 500", PROGRESS_STEP);
	assert_m(ev.step, 12);
	assert_m(ev.tokens, 49152);
	assert_m(ev.samples, 96);
	assert_m(ev.total, 500);
	ev = parse("  step\t7 total 9  samples 3\n", PROGRESS_STEP);
	assert_m(ev.step, 7);
	assert_m(ev.total, 9);
	assert_m(ev.samples, 3);

	static const char *const bad[] = {
		"step", "step x", "step -1", "steps 5", "Step 5", "step 5x",
		"step 5 tokens", "step 5 tokens x", "step 5 tokens 1 tokens 2",
		"step 5 of 10", "step 99999999999999999999", "stepping 5",
		"step 5 tokens5",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		parse(bad[i], PROGRESS_NONE);
	assert_string_equal(progress_syntax_name(PROGRESS_STEP), "step");
}

/* ---- fixtures through linebuf --------------------------------------- */

struct run {
	struct progress_tracker tr;
	int64_t now;
	int n[5];                  /* events per syntax */
	int64_t last_step, last_total;
	bool monotonic;
	int distinct;
};

static void on_line(const struct linebuf_line *ln, void *ctx)
{
	struct run *r = ctx;
	struct progress_event ev;
	enum progress_syntax s = progress_parse(ln->s, &ev);
	r->n[s]++;
	if (s == PROGRESS_TQDM) {
		if (ev.step.v < r->last_step && ev.total.v == r->last_total)
			r->monotonic = false;
		if (ev.step.v != r->last_step || ev.total.v != r->last_total)
			r->distinct++;
		r->last_step = ev.step.v;
		r->last_total = ev.total.ok ? ev.total.v : -1;
	}
	progress_tracker_add(&r->tr, &ev, r->now);
	r->now += S / 100;
}

static void run_fixture(const char *name, struct run *r)
{
	char path[512];
	snprintf(path, sizeof path, FIX "%s", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	memset(r, 0, sizeof *r);
	r->monotonic = true;
	r->last_step = -1;
	progress_tracker_init(&r->tr, 10 * S);
	struct linebuf lb;
	linebuf_init(&lb);
	char buf[97];   /* odd chunks, as a pipe might deliver them */
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		linebuf_feed(&lb, buf, n, on_line, r);
	linebuf_flush(&lb, on_line, r);
	fclose(f);
}

static void test_fixture_tqdm(void **state)
{
	(void)state;
	static struct run r;
	struct progress_status st;

	/* make.sh: 50 steps, a bar drawn for each count 0..50 */
	run_fixture("tqdm_basic.txt", &r);
	assert_int_equal(r.last_step, 50);
	assert_int_equal(r.last_total, 50);
	assert_true(r.monotonic);
	assert_int_equal(r.distinct, 51);
	progress_tracker_status(&r.tr, r.now, &st);
	assert_m(st.steps, 50);
	assert_m(st.total, 50);
	assert_m(st.eta_ns, 0);

	run_fixture("tqdm_colour.txt", &r);       /* 20 steps, green, postfix */
	assert_int_equal(r.last_step, 20);
	assert_int_equal(r.distinct, 21);

	run_fixture("tqdm_unknown.txt", &r);      /* 60 steps, no total */
	assert_int_equal(r.last_step, 60);
	assert_int_equal(r.last_total, -1);
	progress_tracker_status(&r.tr, r.now, &st);
	assert_na(st.total);
	assert_na(st.eta_ns);
	assert_true(st.steps_per_s.ok);

	run_fixture("tqdm_scaled.txt", &r);       /* 123456 tokens, shown as 123k */
	assert_int_equal(r.last_step, 123000);
	assert_int_equal(r.last_total, 123000);

	run_fixture("tqdm_slow.txt", &r);         /* 3 steps of 1.1 s */
	assert_int_equal(r.last_step, 3);
	assert_int_equal(r.n[PROGRESS_NONE], 0);
}

static void check_trainer(const char *name)
{
	static struct run r;
	struct progress_status st;

	/* make.sh: 40 training steps; logs every 10; an 8-step evaluation bar
	 * after steps 20 and 40; the summary with train_loss 0.6187654321 */
	run_fixture(name, &r);
	assert_int_equal(r.n[PROGRESS_HF_LOG], 4 + 2);
	assert_int_equal(r.n[PROGRESS_HF_SUMMARY], 1);
	assert_true(r.tr.ignored >= 2 * 9);       /* the evaluation bars */
	progress_tracker_status(&r.tr, r.now, &st);
	assert_m(st.steps, 40);
	assert_m(st.total, 40);
	assert_true(st.finished);
	assert_num(st.epoch, 2.0, 0);
	assert_num(st.loss, 0.6187654321, 1e-4);  /* the quoted form keeps 4 digits */
}

static void test_fixture_trainer(void **state)
{
	(void)state;
	check_trainer("hf_trainer.txt");
	check_trainer("hf_trainer_quoted.txt");
}

/* ---- tracker --------------------------------------------------------- */

static void add_step(struct progress_tracker *t, int64_t step, int64_t total, int64_t now)
{
	struct progress_event ev;
	char line[128];
	if (total >= 0)
		snprintf(line, sizeof line, "step %lld total %lld", (long long)step, (long long)total);
	else
		snprintf(line, sizeof line, "step %lld", (long long)step);
	assert_int_equal(progress_parse(line, &ev), PROGRESS_STEP);
	assert_true(progress_tracker_add(t, &ev, now));
}

static void add_bar(struct progress_tracker *t, int64_t n, int64_t total, int64_t now, bool used)
{
	struct progress_event ev;
	char line[128];
	snprintf(line, sizeof line, "%lld/%lld [00:01<00:02, 3.00it/s]", (long long)n, (long long)total);
	assert_int_equal(progress_parse(line, &ev), PROGRESS_TQDM);
	assert_int_equal(progress_tracker_add(t, &ev, now), used);
}

static void test_tracker_rate_eta(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;
	progress_tracker_init(&t, 10 * S);

	progress_tracker_status(&t, 0, &st);
	assert_na(st.steps);
	assert_false(st.steps_per_s.ok);
	assert_na(st.eta_ns);

	add_step(&t, 0, 100, 0);
	progress_tracker_status(&t, 0, &st);
	assert_false(st.steps_per_s.ok);           /* one point is no rate */
	assert_na(st.eta_ns);

	/* 10 steps/s for 2 s */
	add_step(&t, 10, -1, 1 * S);
	add_step(&t, 20, -1, 2 * S);
	progress_tracker_status(&t, 2 * S, &st);
	assert_m(st.steps, 20);
	assert_m(st.total, 100);                   /* kept from the first line */
	assert_num(st.steps_per_s, 10.0, 1e-9);
	assert_m(st.eta_ns, 8 * S);                /* 80 steps left at 10/s */

	/* stalled: 8 s without a step; the rate decays to 20 steps / 10 s */
	progress_tracker_status(&t, 10 * S, &st);
	assert_num(st.steps_per_s, 2.0, 1e-9);
	assert_m(st.eta_ns, 40 * S);

	/* the window moves: only the last 10 s count */
	for (int i = 3; i <= 30; i++)
		add_step(&t, 20 + (i - 2) * 2, -1, i * S);   /* now 2 steps/s */
	progress_tracker_status(&t, 30 * S, &st);
	assert_num(st.steps_per_s, 2.0, 1e-9);

	/* done: ETA 0 */
	add_step(&t, 100, -1, 31 * S);
	progress_tracker_status(&t, 31 * S, &st);
	assert_m(st.eta_ns, 0);
}

/* Many steps: the ring of points wrapped, the window's oldest point found
 * inside it (by a binary search, in time order). */
static void test_tracker_ring_window(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;
	progress_tracker_init(&t, 10 * S);
	for (int k = 0; k <= 300; k++)   /* 20 steps/s for 15 s */
		add_step(&t, k, -1, (int64_t)k * S / 20);
	for (int j = 1; j <= 50; j++)    /* then 10 steps/s for 5 s */
		add_step(&t, 300 + j, -1, 15 * S + (int64_t)j * S / 10);
	/* the ring keeps the last PROGRESS_POINTS (steps 223-350, from
	 * 11.15 s), all inside the window */
	progress_tracker_status(&t, 20 * S, &st);
	assert_num(st.steps_per_s, 127.0 / 8.85, 1e-9);
	/* at 22 s the window starts at 12 s: step 240 */
	progress_tracker_status(&t, 22 * S, &st);
	assert_num(st.steps_per_s, 110.0 / 8.0, 1e-9);
}

static void test_tracker_slow_steps(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;
	progress_tracker_init(&t, 10 * S);
	/* steps every 20 s, longer than the window */
	add_step(&t, 0, -1, 0);
	add_step(&t, 1, -1, 20 * S);
	progress_tracker_status(&t, 20 * S, &st);
	assert_num(st.steps_per_s, 0.05, 1e-12);
	add_step(&t, 2, -1, 40 * S);
	progress_tracker_status(&t, 45 * S, &st);
	assert_num(st.steps_per_s, 0.05, 1e-12);
}

/* A log's backlog read at one instant (re-attaching with --progress on a
 * job's tqdm log): its counts share one time and none of them is a rate;
 * the rate is that of the steps made after it. */
static void test_tracker_backlog(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;
	progress_tracker_init(&t, 10 * S);
	for (int n = 1; n <= 300; n++)
		add_bar(&t, n, 1000, 5 * S, true);
	progress_tracker_status(&t, 5 * S, &st);
	assert_m(st.steps, 300);
	assert_false(st.steps_per_s.ok);           /* one instant is no rate */
	add_bar(&t, 319, 1000, 6 * S, true);
	add_bar(&t, 338, 1000, 7 * S, true);
	progress_tracker_status(&t, 7 * S, &st);
	assert_num(st.steps_per_s, 19.0, 1e-9);
	int64_t at;
	assert_true(progress_tracker_step_time(&t, &at));
	assert_int_equal(at, 7 * S);
}

static void test_tracker_seq_len(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;
	struct progress_event ev;
	progress_tracker_init(&t, 10 * S);
	progress_parse("step 1 tokens 4096 samples 32", &ev);
	progress_tracker_add(&t, &ev, 0);
	progress_parse("step 3 tokens 12288 samples 96", &ev);
	progress_tracker_add(&t, &ev, 1 * S);
	progress_tracker_status(&t, 1 * S, &st);
	assert_num(st.seq_len, 128.0, 1e-12);
	assert_m(st.tokens, 12288);
	assert_m(st.samples, 96);
	assert_num(st.steps_per_s, 2.0, 1e-12);
	assert_num(st.tokens_per_s, 8192.0, 1e-9); /* 4096 tokens/step x 2 steps/s */

	/* tqdm lines are ignored once explicit step lines have been seen */
	add_bar(&t, 400, 500, 2 * S, false);
	progress_tracker_status(&t, 2 * S, &st);
	assert_m(st.steps, 3);
}

static void test_tracker_bars(void **state)
{
	(void)state;
	struct progress_tracker t;
	struct progress_status st;

	/* an evaluation bar while training runs is not training progress */
	progress_tracker_init(&t, 10 * S);
	add_bar(&t, 0, 375, 0, true);
	add_bar(&t, 120, 375, 1 * S, true);
	add_bar(&t, 5, 50, 2 * S, false);
	add_bar(&t, 50, 50, 3 * S, false);
	add_bar(&t, 121, 375, 4 * S, true);
	progress_tracker_status(&t, 4 * S, &st);
	assert_m(st.steps, 121);
	assert_m(st.total, 375);

	/* an evaluation that ran first does not hide the training bar */
	progress_tracker_init(&t, 10 * S);
	add_bar(&t, 50, 50, 0, true);
	add_bar(&t, 3, 375, 1 * S, true);
	progress_tracker_status(&t, 1 * S, &st);
	assert_m(st.steps, 3);
	assert_m(st.total, 375);

	/* one bar per epoch: steps add up, the bar's total is not the run's */
	progress_tracker_init(&t, 10 * S);
	add_bar(&t, 0, 100, 0, true);
	add_bar(&t, 100, 100, 1 * S, true);
	add_bar(&t, 0, 100, 2 * S, true);
	add_bar(&t, 30, 100, 3 * S, true);
	progress_tracker_status(&t, 3 * S, &st);
	assert_m(st.steps, 130);
	assert_na(st.total);
	assert_na(st.eta_ns);

	/* the Trainer's summary ends training; a later bar is evaluation */
	progress_tracker_init(&t, 10 * S);
	add_bar(&t, 40, 40, 0, true);
	struct progress_event ev;
	progress_parse("{'train_runtime': 1.0, 'train_loss': 0.25, 'epoch': 2.0}", &ev);
	assert_true(progress_tracker_add(&t, &ev, 1 * S));
	add_bar(&t, 8, 8, 2 * S, false);
	progress_tracker_status(&t, 2 * S, &st);
	assert_m(st.steps, 40);
	assert_true(st.finished);
	assert_num(st.loss, 0.25, 0);

	/* a non-progress event is ignored */
	memset(&ev, 0, sizeof ev);
	assert_false(progress_tracker_add(&t, &ev, 3 * S));

	/* Counts near INT64_MAX (the fuzzer's find): a restarted bar whose
	 * steps would overflow is not a step; nothing wraps. */
	progress_tracker_init(&t, 10 * S);
	const int64_t huge = 8198552921648689613LL;
	char line[96];
	snprintf(line, sizeof line, "%lldit [00:00, 466.02it/s]", (long long)huge);
	assert_int_equal(progress_parse(line, &ev), PROGRESS_TQDM);
	assert_true(progress_tracker_add(&t, &ev, 0));
	progress_tracker_status(&t, 0, &st);
	assert_true(st.steps.ok && st.steps.v > huge - 10000);  /* parsed through a double */
	const int64_t first = st.steps.v;
	assert_int_equal(progress_parse("17it [00:00, 465.45it/s]", &ev), PROGRESS_TQDM);
	assert_true(progress_tracker_add(&t, &ev, 1 * S));   /* a new bar: offset huge */
	progress_tracker_status(&t, 1 * S, &st);
	assert_m(st.steps, first + 17);
	assert_int_equal(progress_parse(line, &ev), PROGRESS_TQDM);
	assert_false(progress_tracker_add(&t, &ev, 2 * S));  /* huge + huge */
	assert_int_equal(progress_parse("3it [00:00, 465.45it/s]", &ev), PROGRESS_TQDM);
	assert_true(progress_tracker_add(&t, &ev, 3 * S));   /* the refused bar left no trace */
	progress_tracker_status(&t, 3 * S, &st);
	assert_m(st.steps, first + 17 + 3);
	assert_int_equal(progress_parse(line, &ev), PROGRESS_TQDM);
	assert_false(progress_tracker_add(&t, &ev, 4 * S));
	progress_tracker_status(&t, 4 * S, &st);
	assert_m(st.steps, first + 17 + 3);

	/* An ETA beyond int64 nanoseconds is n/a, not a wrapped number:
	 * 1 step in 10 s with 9e18 steps to go. */
	progress_tracker_init(&t, 100 * S);
	add_bar(&t, 1, 9000000000000000000LL, 0, true);
	add_bar(&t, 2, 9000000000000000000LL, 10 * S, true);
	progress_tracker_status(&t, 10 * S, &st);
	assert_num(st.steps_per_s, 0.1, 1e-9);
	assert_na(st.eta_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tqdm_forms),
		cmocka_unit_test(test_tqdm_lookalikes),
		cmocka_unit_test(test_hf_dicts),
		cmocka_unit_test(test_step_lines),
		cmocka_unit_test(test_fixture_tqdm),
		cmocka_unit_test(test_fixture_trainer),
		cmocka_unit_test(test_tracker_rate_eta),
		cmocka_unit_test(test_tracker_ring_window),
		cmocka_unit_test(test_tracker_slow_steps),
		cmocka_unit_test(test_tracker_backlog),
		cmocka_unit_test(test_tracker_seq_len),
		cmocka_unit_test(test_tracker_bars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
