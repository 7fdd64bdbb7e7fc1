/* sim_devfreq: the simulated devfreq driver: the clock levels, the
 * governors' files (some appear and vanish with the governor), what a
 * reader wrote to them, and the poll tick (load, rail-gating, podgov). */
#include "config.h"
#include "sim_priv.h"
#include "io.h"
#include "timebase.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nvgpu's default rail-gating delay (ga10b railgate_delay 500 ms) */
#define RAILGATE_DELAY_NS (500 * DVF_NS_PER_MS)
/* podgov: load target 700 per-mille (reference 1.4); we step down only
 * below 550 so that a load at the target does not make the clock dither */
#define PODGOV_UP_PM 700.0
#define PODGOV_DOWN_PM 550.0
/* podgov's smoothing: an average over ~10 polls */
#define PODGOV_EMA 0.1

/* ---- the devfreq driver ---------------------------------------------- */

int64_t sim_devfreq_top_hz(const struct sim *s)
{
	return s->levels[s->n_levels - 1];
}

int sim_devfreq_level_of(const struct sim *s, int64_t hz)
{
	for (int i = 0; i < s->n_levels; i++)
		if (s->levels[i] >= hz)
			return i;
	return s->n_levels - 1;
}

/* nvgpu's round_clk_rate: the first table entry >= the request. */
static int64_t sim_devfreq_round_up(const struct sim *s, int64_t hz)
{
	return s->levels[sim_devfreq_level_of(s, hz)];
}

/* devfreq's get_freq_range(): the QoS requests clamped to the table; a
 * minimum above the maximum reads back as the maximum. */
void sim_devfreq_freq_range(struct sim *s)
{
	int64_t lo = s->levels[0], hi = sim_devfreq_top_hz(s);
	int64_t qmin = s->qos_min_khz * 1000, qmax = s->qos_max_khz * 1000;
	if (qmin > lo)
		lo = qmin;
	if (s->qos_max_khz > 0 && qmax < hi)
		hi = qmax;
	if (lo > hi)
		lo = hi;
	s->rd_min_hz = lo;
	s->rd_max_hz = hi;
}

static void sim_devfreq_trim(char *b)
{
	size_t n = strlen(b);
	while (n && (isspace((unsigned char)b[n - 1]) || b[n - 1] == '\0'))
		b[--n] = '\0';
}

/* Read a control file; returns 1 with its trimmed text when someone wrote
 * something new, 0 when it holds what we put there. */
static int sim_devfreq_control_read(struct sim_file *f, char *buf, size_t len)
{
	if (f->fd < 0)
		return 0;
	char was[sizeof f->cur];
	bool had = f->cached;
	size_t was_len = f->len;
	if (had)
		memcpy(was, f->cur, f->len + 1);
	int n = sim_file_read(f, buf, len);
	if (n < 0)
		return 0;
	/* A writer with O_TRUNC empties the file before its bytes land (a
	 * sysfs store is one step; a plain file is two).  The first empty read
	 * is taken as a write under way: the cache stays, so nothing is put
	 * back over it.  Still empty a poll later, it was an empty write. */
	if (n == 0 && had && was_len > 0 && !f->empty_seen) {
		f->empty_seen = true;
		f->len = was_len;
		f->cached = true;
		memcpy(f->cur, was, was_len + 1);
		return 0;
	}
	f->empty_seen = false;
	bool same = had && f->len == was_len && memcmp(buf, was, was_len) == 0;
	sim_devfreq_trim(buf);
	return !same;
}

static void sim_devfreq_gov_files(struct sim *s)
{
	char rel[320], v[32];
	bool pod = s->gov == GOV_PODGOV;
	if (pod) {
		snprintf(rel, sizeof rel, "%s/enable_3d_scaling", s->gpu_dev);
		sim_file_appear(s, &s->f_3d, rel, s->podgov_3d ? "1\n" : "0\n");
		snprintf(rel, sizeof rel, "%s/user", s->gpu_dev);
		sim_file_appear(s, &s->f_user, rel, s->podgov_user ? "1\n" : "0\n");
		snprintf(rel, sizeof rel, "%s/freq_request", s->gpu_dev);
		snprintf(v, sizeof v, "%lld\n", (long long)s->podgov_req_hz);
		sim_file_appear(s, &s->f_freq_req, rel, v);
	} else {
		sim_file_vanish(&s->f_3d);
		sim_file_vanish(&s->f_user);
		sim_file_vanish(&s->f_freq_req);
	}
	snprintf(rel, sizeof rel, "%s/userspace/set_freq", s->gpu_devfreq);
	if (s->gov == GOV_USERSPACE) {
		snprintf(v, sizeof v, "%lld\n", (long long)s->set_freq_hz);
		sim_file_appear(s, &s->f_set_freq, rel, v);
	} else if (s->f_set_freq.fd >= 0) {
		sim_file_vanish(&s->f_set_freq);
		char d[512];
		snprintf(d, sizeof d, "%s/userspace", s->gpu_devfreq);
		sim_file_rmdir(s, d);
	}
}

/* What control wrote since the last advance, taken as the driver would:
 * bad values are refused (the file keeps its old value, as EINVAL would). */
void sim_devfreq_read_controls(struct sim *s)
{
	char b[64];
	int64_t v;

	if (sim_devfreq_control_read(&s->f_gov, b, sizeof b)) {
		int g = -1;
		for (int i = 0; i < GOV_N; i++)
			if (strcmp(b, sim_gov_name[i]) == 0)
				g = i;
		if (g >= 0 && g != (int)s->gov) {
			if (g == GOV_USERSPACE)
				s->set_freq_hz = s->cur_hz;
			s->gov = (enum sim_gov)g;
			sim_devfreq_gov_files(s);
		}
	}
	char gl[40];
	snprintf(gl, sizeof gl, "%s\n", sim_gov_name[s->gov]);
	sim_file_put(&s->f_gov, gl);

	bool range_changed = false;
	if (sim_devfreq_control_read(&s->f_min, b, sizeof b) && io_parse_i64(b, &v) && v >= 0) {
		s->qos_min_khz = v / 1000;                      /* rounded down */
		range_changed = true;
	}
	if (sim_devfreq_control_read(&s->f_max, b, sizeof b) && io_parse_i64(b, &v) && v >= 0) {
		s->qos_max_khz = v == 0 ? 0 : (v + 999) / 1000; /* rounded up; 0: none */
		range_changed = true;
	}
	if (range_changed)
		sim_devfreq_freq_range(s);
	sim_file_put_i64(&s->f_min, s->rd_min_hz);
	sim_file_put_i64(&s->f_max, s->rd_max_hz);

	if (sim_devfreq_control_read(&s->f_railgate, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
		s->railgate_enable = v == 1;
	sim_file_put_i64(&s->f_railgate, s->railgate_enable);

	if (s->gov == GOV_PODGOV) {
		if (sim_devfreq_control_read(&s->f_3d, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
			s->podgov_3d = v == 1;
		sim_file_put_i64(&s->f_3d, s->podgov_3d);
		if (sim_devfreq_control_read(&s->f_user, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
			s->podgov_user = v == 1;
		sim_file_put_i64(&s->f_user, s->podgov_user);
		if (sim_devfreq_control_read(&s->f_freq_req, b, sizeof b) && io_parse_i64(b, &v) && v >= 0)
			s->podgov_req_hz = v;
		sim_file_put_i64(&s->f_freq_req, s->podgov_req_hz);
	}
	if (s->gov == GOV_USERSPACE) {
		if (sim_devfreq_control_read(&s->f_set_freq, b, sizeof b) && io_parse_i64(b, &v) && v >= 0)
			s->set_freq_hz = v;
		sim_file_put_i64(&s->f_set_freq, s->set_freq_hz);
	}
}

/* ---- the poll tick ------------------------------------------------------ */

void sim_devfreq_tick(struct sim *s)
{
	s->load_pm = s->railgated ? 0 : (int)llround(1000.0 * (double)s->busy_ns / (double)POLL_NS);
	if (s->load_pm > 1000)
		s->load_pm = 1000;
	s->busy_ns = 0;
	s->load_ema += PODGOV_EMA * ((double)s->load_pm - s->load_ema);

	if (!sim_training(s) && s->load_pm == 0)
		s->idle_ns += POLL_NS;
	else
		s->idle_ns = 0;
	if (s->railgate_enable && s->idle_ns >= RAILGATE_DELAY_NS)
		s->railgated = true;
	if (!s->railgate_enable)
		s->railgated = false;

	int64_t target;
	int i = sim_devfreq_level_of(s, s->cur_hz);
	/* podgov's load tracking (wmark_active moves the same way here) */
	if (s->load_ema > PODGOV_UP_PM && i < s->n_levels - 1)
		i++;
	else if (s->load_ema < PODGOV_DOWN_PM && i > 0)
		i--;
	if (s->gov == GOV_PERFORMANCE || (s->gov == GOV_PODGOV && !s->podgov_3d))
		target = sim_devfreq_top_hz(s);
	else if (s->gov == GOV_USERSPACE)
		target = s->set_freq_hz;
	else if (s->gov == GOV_PODGOV && s->podgov_user)
		target = s->podgov_req_hz;
	else
		target = s->levels[i];
	if (target < s->rd_min_hz)
		target = s->rd_min_hz;
	if (target > s->rd_max_hz)
		target = s->rd_max_hz;
	int64_t eff = sim_devfreq_round_up(s, target);

	int from = sim_devfreq_level_of(s, s->cur_hz);
	s->time_in_ms_ns[from] += s->t_ns - s->last_trans_ns;
	s->last_trans_ns = s->t_ns;
	if (eff != s->cur_hz) {
		int to = sim_devfreq_level_of(s, eff);
		s->trans_count[from][to]++;
		s->total_trans++;
		s->cur_hz = eff;
		sim_tree_gpu_trans_stat(s);
	}
	s->target_hz = eff;

	/* schedutil: next_f = 1.25 x max x util, within the policy's limits */
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		double util = s->cpu_win_ns ? s->cpu_busy_ns[p] / (4.0 * (double)s->cpu_win_ns) : 0;
		double khz = 1.25 * 2201600.0 * util;
		static const int64_t steps[] = { 729600, 960000, 1190400, 1420800, 1651200, 1881600, 2112000, 2201600 };
		int64_t pick = steps[0];
		for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
			pick = steps[k];
			if ((double)steps[k] >= khz)
				break;
		}
		s->cpu_khz[p] = pick;
		s->cpu_busy_ns[p] = 0;
	}
	s->cpu_win_ns = 0;
}

