/* The sweep: the pure search on synthetic curves, and the engine on the
 * simulated Orin with its noise on (real session path: simulated tree ->
 * jetson source -> energy -> sweep; the clock pinned through the source). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "session.h"
#include "sim.h"
#include "sim_model.h"
#include "sweep.h"
#include "sweep_driver.h"
#include "sweepdata.h"

static const int64_t orin[] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				 918000000, 1020000000, 1122000000, 1224000000, 1300500000 };

static void cfg_orin(struct sweep_cfg *c, enum sweep_mode mode, int start)
{
	memset(c, 0, sizeof *c);
	c->mode = mode;
	c->n_levels = 11;
	memcpy(c->level_hz, orin, sizeof orin);
	c->start = start;
	c->settle_ns = 2000000000;
	c->dwell_steps = 40;
}

/* Fill point i as if measured: J/step e, s/step t, noise-free sub-windows. */
static void fake(struct sweep_point *p, double e, double t)
{
	p->windows++;
	p->steps += 40;
	p->energy_j += e * 40;
	p->time_s += t * 40;
	for (int k = 0; k < SWEEP_SUBWIN; k++)
		p->sub_jps[p->n_sub++] = e;
}

static void search_walks_downhill(void **st)
{
	(void)st;
	/* a U with its minimum at index 3, start at 7 */
	double curve[11] = { 1.3, 1.1, 0.95, 0.80, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2 };
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_ADAPTIVE, 7);
	struct sweep_point pts[DVF_MAX_LEVELS];
	memset(pts, 0, sizeof pts);
	int order[16], n = 0, next;
	while ((next = sweep_next(&c, pts)) >= 0 && n < 16) {
		order[n++] = next;
		fake(&pts[next], curve[next], 1.0 / orin[next]);
	}
	/* 7, then left while the left keeps winning (6, 5, 4, 3), then 2 which
	 * is worse: 3's right (4) is known, so the walk ends without ever
	 * measuring 8. */
	int want[] = { 7, 6, 5, 4, 3, 2 };
	assert_int_equal(n, 6);
	for (int i = 0; i < n; i++)
		assert_int_equal(order[i], want[i]);
	assert_int_equal(sweep_select_best(&c, pts), 3);
}

static void search_remeasures_close_calls(void **st)
{
	(void)st;
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_ADAPTIVE, 5);
	struct sweep_point pts[DVF_MAX_LEVELS];
	memset(pts, 0, sizeof pts);
	/* 5 and 4 within noise: sub-windows spread +-3 % */
	double e[11] = { 0 };
	e[4] = 1.005; e[5] = 1.0; e[6] = 1.2;
	for (int i = 4; i <= 6; i++) {
		pts[i].windows = 1;
		pts[i].steps = 40;
		pts[i].energy_j = e[i] * 40;
		pts[i].time_s = 10;
		double d[4] = { -0.03, 0.03, -0.03, 0.03 };
		for (int k = 0; k < 4; k++)
			pts[i].sub_jps[pts[i].n_sub++] = e[i] * (1 + d[k]);
	}
	int next = sweep_next(&c, pts);
	assert_true(next == 4 || next == 5 || next == 3);
	/* far apart: no re-measure once both neighbours are known */
	pts[4].energy_j = 1.5 * 40;
	for (int k = 0; k < 4; k++)
		pts[4].sub_jps[k] = 1.5;
	assert_int_equal(sweep_next(&c, pts), -1);
}

/* Fill point i as if measured by the governor's search: J/step e, s/step
 * t, four sub-windows of 10 steps spread +-rel. */
static void fake_noisy(struct sweep_point *p, double e, double t, double rel)
{
	static const double d[4] = { -1, 1, 1, -1 };
	p->windows++;
	p->steps += 40;
	p->energy_j += e * 40;
	p->time_s += t * 40;
	for (int k = 0; k < 4 && p->n_sub < SWEEP_MAX_SUB; k++) {
		p->sub_jps[p->n_sub] = e * (1 + rel * d[k]);
		p->sub_sps[p->n_sub] = t;
		p->sub_steps[p->n_sub++] = 10;
	}
}

/* A curve falling to the top of the table, 4 % a level: when the bound on
 * windows comes while the walk still goes uphill in clock (downhill in
 * energy), the level after the best is read before the best is held.  On
 * the drawn curve that showed it (drawn-3-monotone of bench/govern.sh
 * --seed 463733675) the search held 1700 MHz, 4.5 % over 1800, without
 * ever reading 1800. */
static void search_reads_past_the_bound_downhill(void **st)
{
	(void)st;
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_INTERVALS, 5);
	c.max_windows = 8;
	struct sweep_point pts[DVF_MAX_LEVELS];
	memset(pts, 0, sizeof pts);
	double e[11], t[11];
	for (int i = 0; i < 11; i++) {
		e[i] = 1 + 0.04 * (10 - i);
		t[i] = 0.01 + 30e6 / (double)orin[i];
	}
	/* the bound reached: 8 windows on 5, 6, 7, 9 (a stride), the best 9 */
	fake_noisy(&pts[5], e[5], t[5], 0.01);
	fake_noisy(&pts[5], e[5], t[5], 0.01);
	fake_noisy(&pts[6], e[6], t[6], 0.01);
	fake_noisy(&pts[6], e[6], t[6], 0.01);
	fake_noisy(&pts[7], e[7], t[7], 0.01);
	fake_noisy(&pts[7], e[7], t[7], 0.01);
	fake_noisy(&pts[9], e[9], t[9], 0.01);
	fake_noisy(&pts[9], e[9], t[9], 0.01);
	assert_int_equal(sweep_next(&c, pts), 10);
	/* read: it is the best, and its other side is measured */
	fake_noisy(&pts[10], e[10], t[10], 0.01);
	assert_int_equal(sweep_search_pick(&c, pts), 10);
	int next = sweep_next(&c, pts);
	assert_true(next != 8);   /* no new level past the bound where the best is bracketed */
	/* a bottom already bracketed (9 within noise of 10's neighbour 8 is
	 * not asked): past the bound, no unmeasured level is read */
	memset(pts, 0, sizeof pts);
	double u[11] = { 1.3, 1.2, 1.1, 1.0, 0.9, 0.85, 0.9, 1.0, 1.1, 1.2, 1.3 };
	for (int i = 4; i <= 7; i++) {
		fake_noisy(&pts[i], u[i], t[i], 0.01);
		fake_noisy(&pts[i], u[i], t[i], 0.01);
	}
	assert_int_equal(sweep_search_pick(&c, pts), 5);
	next = sweep_next(&c, pts);
	assert_true(next < 0 || (next >= 4 && next <= 7));
	/* a gentle side, 0.8 % a level (a V's long side on a measured table):
	 * neighbours within a window's noise of each other, the trend over
	 * five levels beyond it: past the bound the next level is read (the
	 * walk started at 2) */
	c.start = 2;
	memset(pts, 0, sizeof pts);
	for (int i = 0; i <= 4; i++) {
		fake_noisy(&pts[i], 1 + 0.008 * (4 - i), t[i], 0.02);
		if (i < 3)
			fake_noisy(&pts[i], 1 + 0.008 * (4 - i), t[i], 0.02);
	}
	assert_int_equal(sweep_search_pick(&c, pts), 4);
	assert_int_equal(sweep_next(&c, pts), 5);
	/* the same levels alike (a flat bottom): nothing more is read */
	memset(pts, 0, sizeof pts);
	for (int i = 0; i <= 4; i++) {
		fake_noisy(&pts[i], 1, t[i], 0.02);
		if (i < 3)
			fake_noisy(&pts[i], 1, t[i], 0.02);
	}
	next = sweep_next(&c, pts);
	assert_true(next != 5);
	/* the whole walk from 816 MHz on the falling curve ends on the top */
	c.start = 5;
	memset(pts, 0, sizeof pts);
	int n = 0;
	while ((next = sweep_next(&c, pts)) >= 0 && n < 20) {
		fake_noisy(&pts[next], e[next], t[next], 0.01);
		n++;
	}
	assert_true(n < 20);
	assert_int_equal(sweep_search_pick(&c, pts), 10);
}

static void exhaustive_order_and_selectors(void **st)
{
	(void)st;
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_EXHAUSTIVE, -1);
	struct sweep_point pts[DVF_MAX_LEVELS];
	memset(pts, 0, sizeof pts);
	/* energy U with min at 3; time falls with the clock */
	double e[11] = { 1.4, 1.2, 1.05, 0.9, 0.92, 0.95, 1.0, 1.05, 1.1, 1.15, 1.2 };
	for (int k = 0; k < 11; k++) {
		int next = sweep_next(&c, pts);
		assert_int_equal(next, 10 - k); /* top first, then down */
		fake(&pts[next], e[next], 1300.5e6 / (double)orin[next]);
	}
	assert_int_equal(sweep_next(&c, pts), -1);
	assert_int_equal(sweep_select_best(&c, pts), 3);
	/* within 10 % slowdown of the top: t <= 1.1 -> f >= 1182 MHz -> 1224 */
	c.select = SEL_SLOWDOWN;
	c.max_slowdown = 0.10;
	assert_int_equal(sweep_select_best(&c, pts), 9);
	/* energy-delay product: e * t; index 6: 1.0 * 1.42 ... computed */
	c.select = SEL_EDP;
	int best = -1;
	double bv = 0;
	for (int i = 0; i < 11; i++) {
		double v = e[i] * 1300.5e6 / (double)orin[i];
		if (best < 0 || v < bv) {
			best = i;
			bv = v;
		}
	}
	assert_int_equal(sweep_select_best(&c, pts), best);
}

static void even_levels(void **st)
{
	(void)st;
	int64_t hz[11];
	for (int i = 0; i < 11; i++)
		hz[i] = 100 + i;                 /* 100..110 */
	assert_int_equal(sweep_even_levels(hz, 11, 0), 11);
	assert_int_equal(sweep_even_levels(hz, 11, 11), 11);
	assert_int_equal(sweep_even_levels(hz, 11, 20), 11);
	assert_int_equal(sweep_even_levels(hz, 11, 3), 3);
	assert_int_equal(hz[0], 100);    /* both ends and the middle */
	assert_int_equal(hz[1], 105);
	assert_int_equal(hz[2], 110);

	/* 100 clocks down to 8: ends kept, strictly ascending, near-even steps */
	int64_t many[100];
	for (int i = 0; i < 100; i++)
		many[i] = 1000 + 10 * i;
	assert_int_equal(sweep_even_levels(many, 100, 8), 8);
	assert_int_equal(many[0], 1000);
	assert_int_equal(many[7], 1990);
	for (int i = 1; i < 8; i++) {
		int64_t step = many[i] - many[i - 1];
		assert_true(step >= 140 && step <= 150);   /* 990 / 7 = 141.4 */
	}
	int64_t one[4] = { 1, 2, 3, 4 };
	assert_int_equal(sweep_even_levels(one, 4, 1), 1);
	assert_int_equal(one[0], 4);                       /* the top */
}

static void dwell_parsing(void **st)
{
	(void)st;
	int64_t s, ns;
	assert_int_equal(sweep_parse_dwell("40steps", &s, &ns), 0);
	assert_int_equal(s, 40);
	assert_int_equal(sweep_parse_dwell("25", &s, &ns), 0);
	assert_int_equal(s, 25);
	assert_int_equal(sweep_parse_dwell("10s", &s, &ns), 0);
	assert_int_equal(ns, 10000000000LL);
	assert_int_equal(sweep_parse_dwell("500ms", &s, &ns), 0);
	assert_int_equal(ns, 500000000);
	assert_int_equal(sweep_parse_dwell("2.5steps", &s, &ns), -1);
	assert_int_equal(sweep_parse_dwell("-3s", &s, &ns), -1);
	assert_int_equal(sweep_parse_dwell("ten", &s, &ns), -1);
	assert_int_equal(sweep_parse_dwell("5min", &s, &ns), -1);
}

/* A sweep's start, one function for the dashboard and `dvfstop sweep`:
 * the options refused with their own names, the levels from the board's
 * table (or those asked for), an adaptive search's start kept. */
static void prepare_from_request(void **st)
{
	(void)st;
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	in.n_levels = 11;
	memcpy(in.level_hz, orin, sizeof orin);
	struct sweep_request rq = { .mode = SWEEP_ADAPTIVE, .select = SEL_ENERGY, .dwell = "40steps",
				    .settle_s = 2, .dwell_name = "--dwell", .settle_name = "--settle" };
	struct sweep_cfg c;
	char err[512] = "";
	assert_int_equal(sweep_driver_prepare(&rq, &in, 3, &c, err, sizeof err), 0);
	assert_int_equal(c.n_levels, 11);
	assert_memory_equal(c.level_hz, orin, sizeof orin);
	assert_int_equal(c.start, 3);
	assert_int_equal(c.dwell_steps, 40);
	assert_true(c.settle_ns == 2000000000);
	/* an exhaustive sweep starts nowhere in particular */
	rq.mode = SWEEP_EXHAUSTIVE;
	assert_int_equal(sweep_driver_prepare(&rq, &in, 3, &c, err, sizeof err), 0);
	assert_int_equal(c.start, -1);
	/* a bad dwell or settle named as each front end calls it */
	rq.dwell = "ten";
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), -1);
	assert_string_equal(err, "--dwell: 'ten' is not like 40steps, 10s or 500ms");
	rq.dwell_name = "sweep-dwell";
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), -1);
	assert_string_equal(err, "sweep-dwell: 'ten' is not like 40steps, 10s or 500ms");
	rq.dwell = "10s";
	rq.settle_s = -1;
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "--settle: -1 is not a number of seconds"));
	rq.settle_s = 0;
	/* the levels asked for, ascending, duplicates dropped; a start beyond
	 * them refused */
	rq.mode = SWEEP_ADAPTIVE;
	rq.levels = "612,306,612,1300";
	assert_int_equal(sweep_driver_prepare(&rq, &in, 2, &c, err, sizeof err), 0);
	assert_int_equal(c.n_levels, 3);
	assert_true(c.level_hz[0] == 306000000 && c.level_hz[1] == 612000000 && c.level_hz[2] == 1300500000);
	assert_int_equal(c.start, 2);
	assert_true(c.dwell_ns == 10000000000LL);
	assert_int_equal(sweep_driver_prepare(&rq, &in, 3, &c, err, sizeof err), -1);
	assert_string_equal(err, "sweep start level out of range");
	rq.levels = "700";
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "700"));
	/* that many of the board's levels, both ends kept */
	rq.levels = NULL;
	rq.count = 3;
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), 0);
	assert_int_equal(c.n_levels, 3);
	assert_true(c.level_hz[0] == orin[0] && c.level_hz[2] == orin[10]);
	/* a board without a table */
	in.n_levels = 0;
	assert_int_equal(sweep_driver_prepare(&rq, &in, -1, &c, err, sizeof err), -1);
	assert_string_equal(err, "the board has no clock table");
}

/* --select and --max-slowdown, one parser for dvfstop sweep and the
 * governor. */
static void select_parsing(void **st)
{
	(void)st;
	enum sweep_select sel = SEL_EDP;
	assert_int_equal(sweep_parse_select("energy", &sel), 0);
	assert_int_equal(sel, SEL_ENERGY);
	assert_int_equal(sweep_parse_select("slowdown", &sel), 0);
	assert_int_equal(sel, SEL_SLOWDOWN);
	assert_int_equal(sweep_parse_select("edp", &sel), 0);
	assert_int_equal(sel, SEL_EDP);
	assert_int_equal(sweep_parse_select("fast", &sel), -1);
	assert_int_equal(sweep_parse_select("", &sel), -1);
	double f = 0;
	assert_int_equal(sweep_parse_slowdown("10%", &f), 0);
	assert_float_equal(f, 0.10, 1e-12);
	assert_int_equal(sweep_parse_slowdown("2.5", &f), 0);
	assert_float_equal(f, 0.025, 1e-12);
	assert_int_equal(sweep_parse_slowdown("0", &f), -1);
	assert_int_equal(sweep_parse_slowdown("ten", &f), -1);
	assert_int_equal(sweep_parse_slowdown("10%%", &f), -1);
	assert_int_equal(sweep_parse_slowdown("2000%", &f), -1);
}

/* ---- on the simulator ------------------------------------------------------ */

struct run {
	int best;
	int windows;
	int64_t steps;
	double jps[DVF_MAX_LEVELS];
};

/* A time-dwell sweep that starts before the job's first step (a slow
 * Python start) waits for it: the stall time counts from the sweep's
 * first sample, not from the clock's zero (CI saw 'no step for too long'
 * at the first sample on a machine up for more than 120 s). */
static void stall_counts_from_the_start(void **st)
{
	(void)st;
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_EXHAUSTIVE, 0);
	c.dwell_steps = 0;
	c.dwell_ns = 1000000000;
	c.stall_ns = 10 * (int64_t)1000000000;
	struct sweep sw;
	sweep_init(&sw, &c);
	struct energy e;
	memset(&e, 0, sizeof e);
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	int64_t t0 = 500 * (int64_t)1000000000; /* a machine up for minutes */
	s.t_ns = t0;
	assert_true(sweep_feed(&sw, &s, &e) >= 0);
	s.t_ns = t0 + 9 * (int64_t)1000000000;
	assert_true(sweep_feed(&sw, &s, &e) >= 0);
	/* steps begin: the stall clock restarts at each new step */
	s.steps.ok = true;
	s.steps.v = 1;
	assert_true(sweep_feed(&sw, &s, &e) >= 0);
	s.t_ns += 9 * (int64_t)1000000000;
	assert_true(sweep_feed(&sw, &s, &e) >= 0);
	/* then no step for longer than stall_ns: the sweep fails, saying why */
	s.t_ns += 2 * (int64_t)1000000000;
	assert_int_equal(sweep_feed(&sw, &s, &e), -1);
	assert_non_null(strstr(sw.msg, "no step for too long"));
}

static void pin(struct session *s, int64_t hz)
{
	struct ctl_state st = { "nvhost_podgov", hz, hz };
	assert_int_equal(s->ops->ctl_write(s->src, &st), 0);
}

static struct run sweep_sim(const char *model, int seq, uint64_t seed, enum sweep_mode mode, int start, int64_t dwell)
{
	struct dvf_opts o;
	options_defaults(&o);
	o.demo = true;
	o.batch = true;
	o.sim_speed = 0;
	o.sim_model = model;
	o.sim_seq_len = seq;
	o.sim_steps = 0; /* endless: the sweep decides */
	o.seed = (int64_t)seed;
	struct session s;
	char err[512];
	assert_int_equal(session_open(&s, &o, err, sizeof err), 0);
	struct sweep_cfg c;
	cfg_orin(&c, mode, start);
	c.dwell_steps = dwell;
	struct sweep sw;
	sweep_init(&sw, &c);
	int level = sweep_level(&sw);
	pin(&s, orin[level]);
	for (int guard = 0; guard < 2000000; guard++) {
		timebase_sleep_until(&s.clock, session_due(&s));
		assert_int_equal(session_sample(&s), 0);
		int l = sweep_feed(&sw, &s.cur, &s.energy);
		if (l < 0)
			break;
		if (l != level) {
			level = l;
			pin(&s, orin[level]);
		}
	}
	assert_int_equal(sw.state, SW_DONE);
	struct run r = { sw.best, sw.windows, sw.steps_used, { 0 } };
	for (int i = 0; i < 11; i++)
		r.jps[i] = sweep_point_measured(&sw.pts[i]) ? sweep_jps(&sw.pts[i]) : 0;
	session_close(&s);
	return r;
}

/* ---- the driver on the simulator ------------------------------------------ */

struct drv_fix {
	char dir[64];
	struct dvf_opts o;
	struct session s;
	struct control *ctl;
};

static void drv_open(struct drv_fix *f)
{
	snprintf(f->dir, sizeof f->dir, "/tmp/test_sweep.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	setenv("DVFSTOP_STATE_DIR", f->dir, 1);
	options_defaults(&f->o);
	f->o.demo = true;
	f->o.batch = true;
	f->o.sim_speed = 0;
	f->o.sim_steps = 0;
	f->o.seed = 7;
	char err[512];
	assert_int_equal(session_open(&f->s, &f->o, err, sizeof err), 0);
	f->ctl = session_control_open(&f->s, false, false);
	assert_non_null(f->ctl);
	assert_false(control_readonly(f->ctl));
}

static void drv_close(struct drv_fix *f)
{
	control_close(f->ctl);
	session_close(&f->s);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	unsetenv("DVFSTOP_STATE_DIR");
}

/* Sample and drive until the sweep has pinned `levels` levels or ended. */
static void drv_run(struct drv_fix *f, struct sweep_driver *d, int levels)
{
	int seen = 0, last = -1;
	for (int guard = 0; guard < 200000 && seen < levels; guard++) {
		assert_int_equal(sweep_driver_pin(d), 0);
		if (d->level != last) {
			last = d->level;
			seen++;
			struct ctl_state st;
			assert_int_equal(f->s.ops->ctl_read(f->s.src, &st), 0);
			assert_true(st.max_hz == orin[d->level]); /* pinned through control */
		}
		timebase_sleep_until(&f->s.clock, session_due(&f->s));
		assert_int_equal(session_sample(&f->s), 0);
		if (sweep_driver_feed(d, &f->s.cur, &f->s.energy) < 0)
			break;
	}
	assert_true(seen >= levels || sweep_level(&d->sw) < 0);
}

/* An aborted sweep gives back the clocks set before it, in the name of
 * whoever had set them: the user's pin is the user's pin again. */
static void driver_abort_gives_back(void **st)
{
	(void)st;
	struct drv_fix f;
	drv_open(&f);
	assert_int_equal(control_pin(f.ctl, orin[3], CTL_BY_USER), 0);
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_EXHAUSTIVE, -1);
	c.settle_ns = 200000000;
	c.dwell_steps = 5;
	struct sweep_driver d;
	sweep_driver_start(&d, &c, f.ctl, CTL_BY_USER, false, f.s.cur.t_ns);
	drv_run(&f, &d, 2);
	assert_true(control_target_hz(f.ctl) != orin[3]);
	sweep_driver_abort(&d, "Esc");
	assert_int_equal(d.sw.state, SW_ABORTED);
	assert_non_null(strstr(d.sw.msg, "sweep aborted (Esc)"));
	assert_int_equal(sweep_driver_finish(&d, f.s.cur.t_ns), 0);
	assert_false(d.running);
	assert_int_equal(control_mode(f.ctl), CTL_PIN);
	assert_true(control_target_hz(f.ctl) == orin[3]);
	struct ctl_state cs;
	assert_int_equal(f.s.ops->ctl_read(f.s.src, &cs), 0);
	assert_true(cs.min_hz == orin[3] && cs.max_hz == orin[3]);
	/* a cap set before it comes back as a cap */
	assert_int_equal(control_cap(f.ctl, orin[8], CTL_BY_POLICY), 0);
	sweep_driver_start(&d, &c, f.ctl, CTL_BY_POLICY, false, f.s.cur.t_ns);
	drv_run(&f, &d, 1);
	sweep_driver_abort(&d, NULL);
	assert_int_equal(sweep_driver_finish(&d, f.s.cur.t_ns), 0);
	assert_int_equal(control_mode(f.ctl), CTL_CAP);
	assert_true(control_target_hz(f.ctl) == orin[8]);
	drv_close(&f);
}

/* A finished sweep's CSV, written through the one column table, reads
 * back as a dataset (the writer and the reader agree). */
static void driver_csv_reads_back(void **st)
{
	(void)st;
	struct drv_fix f;
	drv_open(&f);
	struct sweep_cfg c;
	cfg_orin(&c, SWEEP_EXHAUSTIVE, -1);
	c.n_levels = 3;
	c.settle_ns = 200000000;
	c.dwell_steps = 5;
	struct sweep_driver d;
	sweep_driver_start(&d, &c, f.ctl, CTL_BY_USER, false, f.s.cur.t_ns);
	drv_run(&f, &d, 100);
	assert_int_equal(sweep_driver_finish(&d, f.s.cur.t_ns), 0);
	assert_int_equal(d.sw.state, SW_DONE);
	assert_int_equal(control_mode(f.ctl), CTL_DEFAULT);
	char path[128], err[SD_ERR_LEN];
	snprintf(path, sizeof path, "%s/sweep.csv", f.dir);
	struct sweep_workload w = { .name = "bert,base/seq128", .model = "bert-base", .model_type = "encoder",
				    .layers = 12, .hidden = 768, .params_m = 110, .seq_len = 128, .batch = 16,
				    .board = "Orin", .source = "simulated", .seed = 7 };
	assert_int_equal(sweep_driver_write_csv(path, &d.sw, &w, false, err, sizeof err), 0);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char head[512];
	assert_non_null(fgets(head, sizeof head, fp));
	fclose(fp);
	assert_string_equal(head, "workload,model,model_type,layers,hidden,params_m,seq_len,batch,gpu_util_pct,"
			    "level_mhz,j_per_step,s_per_step,mean_w,steps,windows,spread_pct,util_pct,board,"
			    "source,seed,mode\r\n");
	struct sweepdata sd;
	sweepdata_init(&sd);
	char *paths[] = { path };
	assert_int_equal(sweepdata_load(&sd, paths, 1, err, sizeof err), 0);
	assert_int_equal(sd.n, 1);
	assert_string_equal(sd.w[0].name, "bert,base/seq128");
	assert_int_equal(sd.w[0].n_levels, 3);
	assert_true(fabs(sd.w[0].level[0].mhz - 306.0) < 1e-9);
	sweepdata_free(&sd);
	drv_close(&f);
}

static double true_jps(const char *model, int seq, int64_t hz)
{
	struct sim_model m;
	assert_int_equal(sim_model_init(&m, catalog_find(model), seq, 16), 0);
	return sim_model_energy_per_step_j(&m, (double)hz);
}

static void exhaustive_finds_true_optimum(void **st)
{
	(void)st;
	const char *models[] = { "bert-base", "pythia-410m" };
	for (int i = 0; i < 2; i++) {
		struct sim_model m;
		sim_model_init(&m, catalog_find(models[i]), 128, 16);
		int64_t opt = sim_model_optimum_hz(&m, orin, 11);
		struct run r = sweep_sim(models[i], 128, 11 + (uint64_t)i, SWEEP_EXHAUSTIVE, -1, 60);
		printf("# exhaustive %s: best %.1f MHz (true optimum %.1f MHz), %d windows, %lld steps\n",
		       models[i], orin[r.best] * 1e-6, opt * 1e-6, r.windows, (long long)r.steps);
		assert_int_equal(r.windows, 11);
		assert_int_equal(orin[r.best], opt);
	}
}

static void adaptive_near_optimum_with_few_windows(void **st)
{
	(void)st;
	/* 20+ seeded workloads, noise on; start from the MLG-like guess (816 MHz
	 * for deep models, 612 for shallow ones, as the built-in tree would). */
	const char *models[] = { "bert-base", "bert-large", "pythia-160m", "pythia-410m", "bert-small",
				 "pythia-70m", "gpt2", "distilbert-base", "smollm-135m", "bert-medium", "pythia-1b" };
	int seqs[] = { 64, 128, 256 };
	int n = 0, windows = 0;
	double regret_sum = 0, regret_max = 0;
	for (int i = 0; i < 11; i++) {
		for (int k = 0; k < 2; k++) {
			const char *model = models[i];
			int seq = seqs[(i + k) % 3];
			const struct catalog_model *cm = catalog_find(model);
			int start = cm->layers <= 7 ? 3 : 5;
			struct run r = sweep_sim(model, seq, 100 + (uint64_t)(i * 2 + k), SWEEP_ADAPTIVE, start, 40);
			double best_true = 1e30;
			for (int l = 0; l < 11; l++)
				best_true = fmin(best_true, true_jps(model, seq, orin[l]));
			double regret = true_jps(model, seq, orin[r.best]) / best_true - 1;
			regret_sum += regret;
			regret_max = fmax(regret_max, regret);
			windows += r.windows;
			n++;
			printf("# adaptive %-16s seq %3d: %4.0f MHz, %d windows, regret %.2f %%\n", model, seq,
			       orin[r.best] * 1e-6, r.windows, regret * 100);
		}
	}
	printf("# adaptive over %d workloads: mean %.2f windows (exhaustive 11), mean regret %.2f %%, max %.2f %%\n",
	       n, (double)windows / n, regret_sum / n * 100, regret_max * 100);
	/* The budget: on average at most 5 windows (exhaustive needs
	 * 11) and at most 1.5 % energy above the optimum. */
	assert_true(n >= 20);
	assert_true((double)windows / n <= 5.0);
	assert_true(regret_sum / n <= 0.015);
}

/* A stall is slower than the rest by more than the stamps' quantum.  Steps
 * stamped on a 10 ms clock (a progress line read at a sample) read 80 or
 * 90 ms for a true 83.5: no stall among them, and the level's figures are
 * what it ran (they read 4 % cheaper and faster when the 90s were cut). */
static void stall_cut_not_quantisation(void **st)
{
	(void)st;
	double t[24], j[24];
	int n[24];
	for (int i = 0; i < 24; i++) {
		t[i] = i % 12 < 7 ? 0.080 : 0.090;   /* 14 of 80 ms, 10 of 90 */
		j[i] = t[i] * 96;                    /* 96 W throughout */
		n[i] = 1;
	}
	assert_true(sweep_search_stall_cut(t, 24) > 0.090);
	double jps, sps;
	int64_t steps;
	assert_true(sweep_search_subs_clean(j, t, n, 24, &jps, &sps, &steps));
	assert_int_equal(steps, 24);
	assert_true(fabs(sps - (14 * 0.080 + 10 * 0.090) / 24) < 1e-12);
	/* one real stall among even steps is still cut */
	for (int i = 0; i < 24; i++)
		t[i] = 0.0835 * (1 + 0.01 * ((i * 7) % 5 - 2));
	t[9] = 0.6;
	j[9] = 0.6 * 30;
	double cut = sweep_search_stall_cut(t, 24);
	assert_true(cut < 0.6 && cut > 0.0835);
	assert_true(sweep_search_subs_clean(j, t, n, 24, &jps, &sps, &steps));
	assert_int_equal(steps, 23);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(search_walks_downhill),
		cmocka_unit_test(search_remeasures_close_calls),
		cmocka_unit_test(search_reads_past_the_bound_downhill),
		cmocka_unit_test(exhaustive_order_and_selectors),
		cmocka_unit_test(even_levels),
		cmocka_unit_test(dwell_parsing),
		cmocka_unit_test(select_parsing),
		cmocka_unit_test(prepare_from_request),
		cmocka_unit_test(stall_counts_from_the_start),
		cmocka_unit_test(stall_cut_not_quantisation),
		cmocka_unit_test(exhaustive_finds_true_optimum),
		cmocka_unit_test(driver_abort_gives_back),
		cmocka_unit_test(driver_csv_reads_back),
		cmocka_unit_test(adaptive_near_optimum_with_few_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
