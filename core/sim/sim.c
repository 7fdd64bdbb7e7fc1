/* sim: the simulated AGX Orin's dynamics.  The devfreq driver and a
 * podgov-like governor, rail-gating, the fine-tune's phases, the INA3221
 * sensors, temperatures, CPU counters; all advanced event by event so
 * energy is integrated exactly and runs are reproducible for a seed
 * whatever the pace of sim_advance calls. */
#include "config.h"
#include "sim_priv.h"
#include "atdeath.h"
#include "clock.h"
#include "io.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* devfreq polling of nvgpu (polling_ms = 25, reference 1.2) */
#define POLL_NS (25 * DVF_NS_PER_MS)
/* INA3221 reading pace: a new averaged value every 20 ms (update_interval) */
#define SENSOR_NS (20 * DVF_NS_PER_MS)
/* nvgpu's default rail-gating delay (ga10b railgate_delay 500 ms) */
#define RAILGATE_DELAY_NS (500 * DVF_NS_PER_MS)
/* podgov: load target 700 per-mille (reference 1.4); we step down only
 * below 550 so that a load at the target does not make the clock dither */
#define PODGOV_UP_PM 700.0
#define PODGOV_DOWN_PM 550.0
/* podgov's smoothing: an average over ~10 polls */
#define PODGOV_EMA 0.1
/* thermal time constant of the module with its heat sink */
#define THERMAL_TAU_S 25.0
/* how often the fault file is looked at, in real time */
#define FAULT_CHECK_NS (100 * DVF_NS_PER_MS)

static const int64_t orin_levels[SIM_N_LEVELS] = {
	306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
	918000000, 1020000000, 1122000000, 1224000000, 1300500000,
};

void sim_cfg_defaults(struct sim_cfg *cfg)
{
	*cfg = (struct sim_cfg){
		.model = "bert-base",
		.seq_len = 128,
		.batch = 16,
		.total_steps = 2000,
		.seed = 1,
		.noise = 1.0,
		.layout = SIM_JP6,
	};
}

/* ---- the devfreq driver ---------------------------------------------- */

static int64_t top_hz(const struct sim *s)
{
	return s->levels[SIM_N_LEVELS - 1];
}

static int level_of(const struct sim *s, int64_t hz)
{
	for (int i = 0; i < SIM_N_LEVELS; i++)
		if (s->levels[i] >= hz)
			return i;
	return SIM_N_LEVELS - 1;
}

/* nvgpu's round_clk_rate: the first table entry >= the request. */
static int64_t round_up(const struct sim *s, int64_t hz)
{
	return s->levels[level_of(s, hz)];
}

/* devfreq's get_freq_range(): the QoS requests clamped to the table; a
 * minimum above the maximum reads back as the maximum. */
static void freq_range(struct sim *s)
{
	int64_t lo = s->levels[0], hi = top_hz(s);
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

static void put_i64(struct sim_file *f, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld\n", (long long)v);
	sim_file_put(f, b);
}

static void trim(char *b)
{
	size_t n = strlen(b);
	while (n && (isspace((unsigned char)b[n - 1]) || b[n - 1] == '\0'))
		b[--n] = '\0';
}

/* Read a control file; returns 1 with its trimmed text when someone wrote
 * something new, 0 when it holds what we put there. */
static int control_read(struct sim_file *f, char *buf, size_t len)
{
	if (f->fd < 0)
		return 0;
	char was[sizeof f->cur];
	bool had = f->cached;
	size_t was_len = f->len;
	if (had)
		memcpy(was, f->cur, f->len + 1);
	if (sim_file_read(f, buf, len) < 0)
		return 0;
	bool same = had && f->len == was_len && memcmp(buf, was, was_len) == 0;
	trim(buf);
	return !same;
}

static void gov_files(struct sim *s)
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
static void read_controls(struct sim *s)
{
	char b[64];
	int64_t v;

	if (control_read(&s->f_gov, b, sizeof b)) {
		int g = -1;
		for (int i = 0; i < GOV_N; i++)
			if (strcmp(b, sim_gov_name[i]) == 0)
				g = i;
		if (g >= 0 && g != (int)s->gov) {
			if (g == GOV_USERSPACE)
				s->set_freq_hz = s->cur_hz;
			s->gov = (enum sim_gov)g;
			gov_files(s);
		}
	}
	char gl[40];
	snprintf(gl, sizeof gl, "%s\n", sim_gov_name[s->gov]);
	sim_file_put(&s->f_gov, gl);

	bool range_changed = false;
	if (control_read(&s->f_min, b, sizeof b) && io_parse_i64(b, &v) && v >= 0) {
		s->qos_min_khz = v / 1000;                      /* rounded down */
		range_changed = true;
	}
	if (control_read(&s->f_max, b, sizeof b) && io_parse_i64(b, &v) && v >= 0) {
		s->qos_max_khz = v == 0 ? 0 : (v + 999) / 1000; /* rounded up; 0: none */
		range_changed = true;
	}
	if (range_changed)
		freq_range(s);
	put_i64(&s->f_min, s->rd_min_hz);
	put_i64(&s->f_max, s->rd_max_hz);

	if (control_read(&s->f_railgate, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
		s->railgate_enable = v == 1;
	put_i64(&s->f_railgate, s->railgate_enable);

	if (s->gov == GOV_PODGOV) {
		if (control_read(&s->f_3d, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
			s->podgov_3d = v == 1;
		put_i64(&s->f_3d, s->podgov_3d);
		if (control_read(&s->f_user, b, sizeof b) && io_parse_i64(b, &v) && (v == 0 || v == 1))
			s->podgov_user = v == 1;
		put_i64(&s->f_user, s->podgov_user);
		if (control_read(&s->f_freq_req, b, sizeof b) && io_parse_i64(b, &v) && v >= 0)
			s->podgov_req_hz = v;
		put_i64(&s->f_freq_req, s->podgov_req_hz);
	}
	if (s->gov == GOV_USERSPACE) {
		if (control_read(&s->f_set_freq, b, sizeof b) && io_parse_i64(b, &v) && v >= 0)
			s->set_freq_hz = v;
		put_i64(&s->f_set_freq, s->set_freq_hz);
	}
}

/* ---- fault injection -------------------------------------------------- */

static void check_faults(struct sim *s)
{
	int64_t now = clock_mono_ns();
	if (s->fault_check_real_ns && now - s->fault_check_real_ns < FAULT_CHECK_NS)
		return;
	s->fault_check_real_ns = now;
	struct stat st;
	bool exists = stat(s->fault_path, &st) == 0;
	int64_t mt = exists ? (int64_t)st.st_mtim.tv_sec * DVF_NS_PER_S + st.st_mtim.tv_nsec : 0;
	if (exists == s->fault_seen && (!exists || (mt == s->fault_mtime_ns && st.st_size == s->fault_size)))
		return;
	s->fault_seen = exists;
	s->fault_mtime_ns = mt;
	s->fault_size = exists ? (long long)st.st_size : 0;
	io_fault_clear();
	if (exists)
		io_fault_load(s->fault_path);
	sim_tree_add_own_faults(s);
}

/* ---- the fine-tune ---------------------------------------------------- */

static void start_step(struct sim *s)
{
	const struct sim_model *m = &s->model;
	double nz = s->cfg.noise;
	/* Step-time jitter grows with the share of CPU time (Python, data
	 * loading), so small models are noisier. */
	double cpu_share = m->t_cpu_s / sim_model_step_time_s(m, (double)top_hz(s));
	double sigma = nz * (0.01 + 0.06 * cpu_share);
	double n1 = sim_rng_normal(&s->rng), n2 = sim_rng_normal(&s->rng);
	double u1 = sim_rng_uniform(&s->rng), u2 = sim_rng_uniform(&s->rng);
	s->step_jit = exp(sigma * n1);
	s->step_act = 1.0 + nz * 0.02 * n2;
	if (s->step_act < 0.8)
		s->step_act = 0.8;
	if (s->step_act > 1.2)
		s->step_act = 1.2;
	double extra = 0;
	/* Occasional data-loading stalls (a slow batch, a worker refill). */
	if (u1 < fmin(0.5, nz * 0.02))
		extra = m->t_cpu_s * (1.0 + 3.0 * u2);
	s->phase = SIM_PH_CPU;
	s->rem = m->t_cpu_s * s->step_jit + extra;
}

static void step_done(struct sim *s)
{
	s->steps++;
	if (s->progress) {
		long long tok = (long long)s->model.seq_len * s->model.batch * s->steps;
		fprintf(s->progress, "step %lld tokens %lld samples %lld\n", (long long)s->steps, tok,
			(long long)s->model.batch * s->steps);
	}
	if (s->cfg.total_steps > 0 && s->steps >= s->cfg.total_steps) {
		s->phase = SIM_PH_IDLE;
		s->rem = 0;
	} else {
		start_step(s);
	}
}

static void next_phase(struct sim *s)
{
	switch (s->phase) {
	case SIM_PH_CPU:
		s->phase = SIM_PH_COMPUTE;
		s->rem = s->model.cycles * s->step_jit;
		s->railgated = false;   /* work for the GPU powers it up */
		break;
	case SIM_PH_COMPUTE:
		s->phase = SIM_PH_MEM;
		s->rem = s->model.t_mem_s * s->step_jit;
		break;
	case SIM_PH_MEM:
		step_done(s);
		break;
	default:
		break;
	}
}

static bool training(const struct sim *s)
{
	return s->phase == SIM_PH_CPU || s->phase == SIM_PH_COMPUTE || s->phase == SIM_PH_MEM;
}

static bool gpu_busy(const struct sim *s)
{
	return s->phase == SIM_PH_COMPUTE || s->phase == SIM_PH_MEM;
}

/* Time (ns) until the current phase ends at the current clock. */
static int64_t phase_left_ns(const struct sim *s)
{
	if (!training(s))
		return INT64_MAX;
	double sec = s->phase == SIM_PH_COMPUTE ? s->rem / (double)s->cur_hz : s->rem;
	double ns = ceil(sec * 1e9);
	return ns > 9e18 ? INT64_MAX : (int64_t)ns;
}

static void power_now(const struct sim *s, double mw[SIM_N_RAILS])
{
	enum sim_phase ph = s->phase;
	for (int r = 0; r < SIM_N_RAILS; r++)
		mw[r] = sim_model_phase_power_mw(&s->model, (double)s->cur_hz, ph, r, s->step_act);
	if (s->railgated)
		mw[SIM_RAIL_GPU_SOC] = sim_model_phase_power_mw(&s->model, (double)s->cur_hz, SIM_PH_GATED,
								SIM_RAIL_GPU_SOC, 1.0);
}

/* ---- ticks ------------------------------------------------------------ */

static void governor_tick(struct sim *s)
{
	s->load_pm = s->railgated ? 0 : (int)llround(1000.0 * (double)s->busy_ns / (double)POLL_NS);
	if (s->load_pm > 1000)
		s->load_pm = 1000;
	s->busy_ns = 0;
	s->load_ema += PODGOV_EMA * ((double)s->load_pm - s->load_ema);

	if (!training(s) && s->load_pm == 0)
		s->idle_ns += POLL_NS;
	else
		s->idle_ns = 0;
	if (s->railgate_enable && s->idle_ns >= RAILGATE_DELAY_NS)
		s->railgated = true;
	if (!s->railgate_enable)
		s->railgated = false;

	int64_t target;
	int i = level_of(s, s->cur_hz);
	/* podgov's load tracking (wmark_active moves the same way here) */
	if (s->load_ema > PODGOV_UP_PM && i < SIM_N_LEVELS - 1)
		i++;
	else if (s->load_ema < PODGOV_DOWN_PM && i > 0)
		i--;
	if (s->gov == GOV_PERFORMANCE || (s->gov == GOV_PODGOV && !s->podgov_3d))
		target = top_hz(s);
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
	int64_t eff = round_up(s, target);

	int from = level_of(s, s->cur_hz);
	s->time_in_ms_ns[from] += s->t_ns - s->last_trans_ns;
	s->last_trans_ns = s->t_ns;
	if (eff != s->cur_hz) {
		int to = level_of(s, eff);
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

static void sensor_tick(struct sim *s)
{
	double nz = s->cfg.noise;
	for (int r = 0; r < SIM_N_RAILS; r++) {
		double avg = s->win_mj[r] / ((double)SENSOR_NS / 1e9);
		s->win_mj[r] = 0;
		/* INA3221 reading noise: ~1% of the reading plus a floor */
		double rd = avg * (1.0 + nz * 0.01 * sim_rng_normal(&s->sensor_rng)) +
			    nz * 10.0 * sim_rng_normal(&s->sensor_rng);
		s->sensor_mw[r] = rd > 0 ? rd : 0;
	}

	/* Temperatures: first-order lag toward a steady state set by power. */
	double dt = (double)(s->t_ns - s->heat_ns) / 1e9;
	if (dt > 0) {
		double p_tot = s->heat_mj[0] / dt / 1000.0, p_gpu = s->heat_mj[1] / dt / 1000.0,
		       p_cpu = s->heat_mj[2] / dt / 1000.0;
		double k = 1.0 - exp(-dt / THERMAL_TAU_S);
		/* steady states: a shared heat sink (0.35 K/W of module power)
		 * plus each block's own heating; tj is the hottest die sensor */
		double base = 42.0 + 0.35 * p_tot;
		double tmax = 0;
		for (int z = 0; z < s->n_zones; z++) {
			double ss;
			switch (s->zone_kind[z]) {
			case ZK_CPU: ss = base + 1.5 * p_cpu; break;
			case ZK_GPU: ss = base + 0.6 * p_gpu; break;
			case ZK_SOC0: ss = base + 0.3 * p_gpu - 0.5; break;
			case ZK_SOC1: ss = base + 0.3 * p_gpu; break;
			case ZK_SOC2: ss = base + 0.3 * p_gpu - 1.5; break;
			case ZK_BOARD: ss = 30.0 + 0.1 * p_tot; break;
			case ZK_DIODE: ss = 32.0 + 0.15 * p_tot; break;
			default: continue;      /* cv: offline; tj: below */
			}
			s->temp_mc[z] += (ss * 1000.0 - s->temp_mc[z]) * k;
			if (s->zone_kind[z] <= ZK_SOC2 && s->temp_mc[z] > tmax)
				tmax = s->temp_mc[z];
		}
		for (int z = 0; z < s->n_zones; z++)
			if (s->zone_kind[z] == ZK_TJ)
				s->temp_mc[z] = tmax + 400.0;
	}
	s->heat_mj[0] = s->heat_mj[1] = s->heat_mj[2] = 0;
	s->heat_ns = s->t_ns;
}

/* Run the current state for dt ns: energy, busy time, CPU time. */
static void run_segment(struct sim *s, int64_t dt)
{
	if (dt <= 0)
		return;
	double sec = (double)dt / 1e9;
	double mw[SIM_N_RAILS];
	power_now(s, mw);
	for (int r = 0; r < SIM_N_RAILS; r++) {
		s->true_mj[r] += mw[r] * sec;
		s->win_mj[r] += mw[r] * sec;
	}
	s->heat_mj[0] += (mw[0] + mw[1] + mw[2]) * sec;
	s->heat_mj[1] += mw[0] * sec;
	s->heat_mj[2] += mw[1] * sec;
	if (gpu_busy(s))
		s->busy_ns += dt;
	for (int c = 0; c < SIM_N_CPUS; c++) {
		double b = sim_model_core_busy(s->phase, c);
		s->jiffies[c][0] += b * sec * 100.0;
		s->jiffies[c][1] += (1.0 - b) * sec * 100.0;
		s->cpu_busy_ns[c / 4] += b * (double)dt;
	}
	s->cpu_win_ns += dt;

	if (training(s)) {
		if (s->phase == SIM_PH_COMPUTE)
			s->rem -= sec * (double)s->cur_hz;
		else
			s->rem -= sec;
	}
}

/* ---- output ----------------------------------------------------------- */

static void write_stat(struct sim *s)
{
	bool changed = false;
	uint64_t v[SIM_N_CPUS][2];
	for (int c = 0; c < SIM_N_CPUS; c++)
		for (int k = 0; k < 2; k++) {
			v[c][k] = (uint64_t)s->jiffies[c][k];
			changed |= v[c][k] != s->stat_written[c][k];
			s->stat_written[c][k] = v[c][k];
		}
	if (!changed && s->f_stat.len)
		return;
	char buf[4096];
	size_t n = 0;
	uint64_t tu = 0, ts = 0, ti = 0;
	for (int c = 0; c < SIM_N_CPUS; c++) {
		/* busy time is 85% user, 15% system */
		tu += v[c][0] * 85 / 100;
		ts += v[c][0] - v[c][0] * 85 / 100;
		ti += v[c][1];
	}
	n += (size_t)snprintf(buf + n, sizeof buf - n, "cpu  %llu 0 %llu %llu 0 0 0 0 0 0\n",
			      (unsigned long long)tu, (unsigned long long)ts, (unsigned long long)ti);
	for (int c = 0; c < SIM_N_CPUS; c++) {
		uint64_t u = v[c][0] * 85 / 100;
		n += (size_t)snprintf(buf + n, sizeof buf - n, "cpu%d %llu 0 %llu %llu 0 0 0 0 0 0\n", c,
				      (unsigned long long)u, (unsigned long long)(v[c][0] - u),
				      (unsigned long long)v[c][1]);
	}
	uint64_t ctxt = (tu + ts) * 120 + ti * 8;
	snprintf(buf + n, sizeof buf - n,
		 "intr %llu\nctxt %llu\nbtime 1735689600\nprocesses %llu\nprocs_running %d\nprocs_blocked 0\n",
		 (unsigned long long)(ctxt * 2), (unsigned long long)ctxt,
		 (unsigned long long)(2000 + ctxt / 5000), training(s) ? 2 : 1);
	sim_file_put(&s->f_stat, buf);
}

static void write_rails(struct sim *s)
{
	double sum40 = 0, sum41 = 0;
	for (int i = 0; i < s->n_chan; i++) {
		struct sim_chan *c = &s->chan[i];
		double p = s->sensor_mw[c->rail];
		double i_a = p / c->nominal_mv;             /* first guess, A */
		/* bus voltage: the supply droops with the current; 8 mV LSB */
		double mv = c->nominal_mv - c->droop_mv_per_a * i_a;
		long long mv_q = llround(mv / 8.0) * 8;
		long long ma = llround(p * 1000.0 / (double)mv_q);
		put_i64(&c->in, mv_q);
		put_i64(&c->curr, ma);
		put_i64(&c->shunt, ma * 2);      /* 2 mOhm shunt: uV = mA x 2 */
		/* VIN_SYS_5V0 has summation disabled (reference 3.1) */
		if (c->rail == SIM_RAIL_VDDQ)
			sum41 += (double)ma * 2;
		else if (c->rail != SIM_RAIL_SYS_5V0)
			sum40 += (double)ma * 2;
	}
	put_i64(&s->f_sum40, (int64_t)sum40);
	put_i64(&s->f_sum41, (int64_t)sum41);
}

static void write_outputs(struct sim *s)
{
	/* trans_stat: on every transition (governor_tick) and once a second */
	if (s->t_ns - s->trans_written_ns >= DVF_NS_PER_S) {
		s->time_in_ms_ns[level_of(s, s->cur_hz)] += s->t_ns - s->last_trans_ns;
		s->last_trans_ns = s->t_ns;
		sim_tree_gpu_trans_stat(s);
		s->trans_written_ns = s->t_ns;
	}
	put_i64(&s->f_cur, s->cur_hz);
	put_i64(&s->f_target, s->target_hz);
	put_i64(&s->f_load, s->load_pm);
	sim_file_put(&s->f_is_rg, s->railgated ? "yes\n" : "no\n");
	write_rails(s);
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		put_i64(&s->f_cpu_cur[p], s->cpu_khz[p]);
		put_i64(&s->f_cpuinfo_cur[p], s->cpu_khz[p]);
	}
	double tj = 0;
	for (int z = 0; z < s->n_zones; z++) {
		if (s->zone_offline[z])
			continue;
		/* Orin's sensors read in 1/32 degree steps (e.g. 49468) */
		long long mc = llround(s->temp_mc[z] * 32.0 / 1000.0) * 1000 / 32;
		put_i64(&s->f_zone[z], mc);
		if (s->temp_mc[z] > tj)
			tj = s->temp_mc[z];
	}
	/* nvfancontrol-like: the fan follows the hottest sensor */
	double pwm = 69.0 + (tj / 1000.0 - 50.0) * 8.0;
	pwm = pwm < 0 ? 0 : pwm > 255 ? 255 : pwm;
	put_i64(&s->f_pwm, llround(pwm));
	put_i64(&s->f_rpm, llround(pwm * 26.8));
	if (s->f_mc_all.fd >= 0) {
		/* EMC activity share x EMC kHz, as jtop divides it back */
		double act = s->sensor_mw[SIM_RAIL_SYS_5V0] > 4100 ?
			     fmin(1.0, (s->sensor_mw[SIM_RAIL_SYS_5V0] - 4000.0) / 2500.0) : 0.02;
		put_i64(&s->f_mc_all, llround(act * 3199000.0));
	}
	write_stat(s);
	if (s->progress)
		fflush(s->progress);
}

/* ---- public ----------------------------------------------------------- */

void sim_advance(struct sim *s, int64_t t_ns)
{
	check_faults(s);
	read_controls(s);
	while (s->t_ns < t_ns) {
		int64_t next = t_ns;
		if (s->next_poll_ns < next)
			next = s->next_poll_ns;
		if (s->next_sensor_ns < next)
			next = s->next_sensor_ns;
		int64_t left = phase_left_ns(s);
		bool phase_ends = left <= next - s->t_ns;
		if (phase_ends)
			next = s->t_ns + left;
		run_segment(s, next - s->t_ns);
		s->t_ns = next;
		if (phase_ends)
			next_phase(s);
		if (s->t_ns == s->next_poll_ns) {
			governor_tick(s);
			s->next_poll_ns += POLL_NS;
		}
		if (s->t_ns == s->next_sensor_ns) {
			sensor_tick(s);
			s->next_sensor_ns += SENSOR_NS;
		}
	}
	write_outputs(s);
}

/* A --sim-dir of the user's: new, empty, or one dvfstop marked in an
 * earlier run (then the parts it made are removed, never following a
 * link).  Anything else is somebody's data; a folder of another user's is
 * refused, since we write a whole tree into it (as root, perhaps). */
static int check_user_dir(struct sim *s, char *err, size_t errlen)
{
	int fd = open(s->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "simulator: %s: %s", s->root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "simulator: %s belongs to uid %lu, not to you (uid %lu); "
			 "give a new or empty folder of yours", s->root, (unsigned long)st.st_uid,
			 (unsigned long)geteuid());
		close(fd);
		return -1;
	}
	struct stat ms;
	bool ours = fstatat(fd, ".dvfstop-sim", &ms, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(ms.st_mode) &&
		    ms.st_uid == geteuid();
	if (ours) {
		static const char *const top[] = { "sys", "proc", "etc", "var" };
		for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
			sim_rm_tree_at(fd, top[i]);
		close(fd);
		return 0;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		snprintf(err, errlen, "simulator: %s: %s", s->root, strerror(errno));
		close(fd);
		return -1;
	}
	const struct dirent *de;
	bool empty = true;
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	if (!empty) {
		snprintf(err, errlen, "simulator: %s is not empty and is not a simulator's folder "
			 "(no .dvfstop-sim in it); give a new or empty folder", s->root);
		return -1;
	}
	return 0;
}

static int prepare_dir(struct sim *s, char *err, size_t errlen)
{
	const char *d = s->cfg.dir;
	char tmpl[512];
	if (!d) {
		/* A simulated sysfs belongs in memory, as the real one is: the
		 * tree is written all the time, and on a slow disk building it
		 * alone took 150-270 ms before the first frame (20 ms in tmpfs). */
		const char *tmp = getenv("TMPDIR");
		if (!tmp || !*tmp)
			tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(tmpl, sizeof tmpl, "%s/dvfstop-sim.XXXXXX", tmp);
		if (!mkdtemp(tmpl)) {
			snprintf(err, errlen, "simulator: cannot make a folder in %s: %s", tmp, strerror(errno));
			return -1;
		}
		s->private_dir = true;
		d = tmpl;
	} else {
		if (mkdir(d, 0755) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "simulator: cannot make %s: %s", d, strerror(errno));
			return -1;
		}
	}
	s->root = realpath(d, NULL);
	if (!s->root) {
		snprintf(err, errlen, "simulator: %s: %s", d, strerror(errno));
		return -1;
	}
	return s->private_dir ? 0 : check_user_dir(s, err, errlen);
}

struct sim *sim_create(const struct sim_cfg *cfg, char *err, size_t errlen)
{
	struct sim_cfg c = *cfg;
	if (!c.model)
		c.model = "bert-base";
	if (!c.seq_len)
		c.seq_len = 128;
	if (!c.batch)
		c.batch = 16;
	const struct catalog_model *cm = catalog_find(c.model);
	if (!cm) {
		size_t n = (size_t)snprintf(err, errlen, "simulator: unknown model '%s'; known:", c.model);
		for (int i = 0; i < catalog_count && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, " %s", catalog_table[i].name);
		return NULL;
	}
	if (c.seq_len < 1 || c.seq_len > 65536 || c.batch < 1 || c.batch > 65536) {
		snprintf(err, errlen, "simulator: sequence length %d and batch %d must be within 1..65536",
			 c.seq_len, c.batch);
		return NULL;
	}
	if (!(c.noise >= 0 && c.noise <= 100)) {
		snprintf(err, errlen, "simulator: noise %g must be within 0..100", c.noise);
		return NULL;
	}
	if (c.total_steps < 0) {
		snprintf(err, errlen, "simulator: total steps %lld must be 0 (endless) or more",
			 (long long)c.total_steps);
		return NULL;
	}
	if (c.layout != SIM_JP6 && c.layout != SIM_JP5) {
		snprintf(err, errlen, "simulator: unknown layout %d", (int)c.layout);
		return NULL;
	}

	struct sim *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "simulator: out of memory");
		return NULL;
	}
	sim_tree_init(s);
	s->cfg = c;
	s->cfg.model = cm->name;
	s->cfg.dir = NULL;
	s->cfg.progress_path = NULL;
	sim_model_init(&s->model, cm, c.seq_len, c.batch);
	sim_rng_seed(&s->rng, c.seed);
	sim_rng_seed(&s->sensor_rng, c.seed ^ 0x5e45045e45045e45ULL);

	memcpy(s->levels, orin_levels, sizeof s->levels);
	s->gov = GOV_PODGOV;
	s->cur_hz = s->target_hz = s->levels[0];
	s->podgov_3d = true;
	s->podgov_req_hz = top_hz(s);
	s->set_freq_hz = s->levels[0];
	s->railgate_enable = true;
	s->railgated = true;
	freq_range(s);
	s->next_poll_ns = POLL_NS;
	s->next_sensor_ns = SENSOR_NS;
	for (int p = 0; p < SIM_N_POLICIES; p++)
		s->cpu_khz[p] = 729600;
	for (int cpu = 0; cpu < SIM_N_CPUS; cpu++) {
		/* a board up for a while: ~20 min of mostly idle time */
		s->jiffies[cpu][0] = 2400.0 + 37.0 * cpu;
		s->jiffies[cpu][1] = 117600.0 - 37.0 * cpu;
	}

	s->cfg.dir = cfg->dir;
	if (prepare_dir(s, err, errlen) < 0) {
		s->cfg.dir = NULL;
		sim_destroy(s);
		return NULL;
	}
	s->cfg.dir = NULL;
	/* A fatal signal (SEGV, ABRT ...) must not leave our tree in /dev/shm. */
	if (s->private_dir && s->root)
		atdeath_add(sim_rm_tree_now, s->root);
	char fp[600];
	snprintf(fp, sizeof fp, "%s/dvfstop-faults", s->root);
	s->fault_path = strdup(fp);
	if (!s->fault_path || sim_tree_build(s, err, errlen) < 0) {
		if (!s->fault_path)
			snprintf(err, errlen, "simulator: out of memory");
		sim_destroy(s);
		return NULL;
	}
	if (cfg->progress_path) {
		s->progress = fopen(cfg->progress_path, "a");
		if (!s->progress) {
			snprintf(err, errlen, "simulator: cannot open progress file %s: %s", cfg->progress_path,
				 strerror(errno));
			sim_destroy(s);
			return NULL;
		}
	}

	start_step(s);
	/* The readings at t = 0: what the board draws in its first state. */
	double mw[SIM_N_RAILS];
	power_now(s, mw);
	memcpy(s->sensor_mw, mw, sizeof mw);
	s->heat_ns = 0;
	for (int z = 0; z < s->n_zones; z++)
		s->temp_mc[z] = s->zone_kind[z] == ZK_BOARD ? 31000 : s->zone_kind[z] == ZK_DIODE ? 33000 : 45000;
	write_outputs(s);
	return s;
}

const char *sim_root(const struct sim *s)
{
	return s->root;
}

double sim_true_energy_mj(const struct sim *s, int rail)
{
	if (rail == SIM_RAIL_TOTAL)
		return s->true_mj[SIM_RAIL_GPU_SOC] + s->true_mj[SIM_RAIL_CPU_CV] + s->true_mj[SIM_RAIL_SYS_5V0];
	if (rail < 0 || rail >= SIM_N_RAILS)
		return 0;
	return s->true_mj[rail];
}

int64_t sim_steps_done(const struct sim *s)
{
	return s->steps;
}

int64_t sim_now_ns(const struct sim *s)
{
	return s->t_ns;
}




void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	sim_tree_close(s);
	if (s->progress)
		fclose(s->progress);
	if (s->private_dir && s->root) {
		atdeath_remove(sim_rm_tree_now, s->root);
		sim_rm_tree(s->root);
	}
	free(s->root);
	free(s->fault_path);
	free(s);
}
