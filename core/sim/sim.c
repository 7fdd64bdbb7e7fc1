/* sim: the simulated AGX Orin's dynamics.  The devfreq driver and a
 * podgov-like governor, rail-gating, the fine-tune's phases, the INA3221
 * sensors, temperatures, CPU counters; all advanced event by event so
 * energy is integrated exactly and runs are reproducible for a seed
 * whatever the pace of sim_advance calls.  The pieces: sim_devfreq.c (the
 * devfreq driver and its governors), sim_out.c (what the tree shows),
 * sim_dir.c (the folder it lives in), sim_tree*.c (the tree). */
#include "config.h"
#include "sim_priv.h"
#include "atdeath.h"
#include "timebase.h"
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

/* INA3221 reading pace: a new averaged value every 20 ms (update_interval) */
#define SENSOR_NS (20 * DVF_NS_PER_MS)
/* thermal time constant of the module with its heat sink */
#define THERMAL_TAU_S 25.0
/* how often the fault file is looked at, in real time */
#define FAULT_CHECK_NS (100 * DVF_NS_PER_MS)

static const int64_t sim_orin_levels[SIM_ORIN_LEVELS] = {
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

/* ---- fault injection -------------------------------------------------- */

static void sim_check_faults(struct sim *s)
{
	int64_t now = timebase_mono_ns();
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

/* Under a measured table a step is a share of work (0 to 1) done at 1 over
 * the table's step time at the clock it runs at: at one level it takes the
 * table's time, and under a moving clock its energy is the levels' energies
 * weighted by the share of the step each ran, never below the table's
 * least (the table says nothing finer).  Its phases' shares are the
 * model's split at the clock the step starts at, fixed for the step.
 * Scaling each phase by the table's factor at the clock it ran at instead
 * mixed shares taken at different clocks: under the board's own governor
 * (low while the CPU works, high while the GPU does) a step cost less than
 * any level of its table, and took longer than the table's time there. */
static void sim_curve_step_start(struct sim *s, double stall_s)
{
	const struct sim_model *m = &s->model;
	double f = (double)s->cur_hz, t = sim_model_step_time_s(m, f);
	s->frac[0] = sim_model_phase_time_s(m, f, SIM_PH_CPU) / t;
	s->frac[1] = sim_model_phase_time_s(m, f, SIM_PH_COMPUTE) / t;
	s->frac[2] = 1.0 - s->frac[0] - s->frac[1];
	if (s->frac[2] < 0)
		s->frac[2] = 0;
	s->stall_left_s = stall_s;
	s->rem = s->frac[0];
}

/* Seconds a whole step takes at f under the table (this step's jitter). */
static double sim_curve_step_s(const struct sim *s, double f_hz)
{
	return sim_model_step_time_s(&s->model, f_hz) * s->step_jit;
}

static void sim_start_step(struct sim *s)
{
	const struct sim_model *m = &s->model;
	double nz = s->cfg.noise;
	/* Step-time jitter grows with the share of CPU time (Python, data
	 * loading), so small models are noisier. */
	double top = (double)sim_devfreq_top_hz(s);
	double t_cpu = sim_model_phase_time_s(m, (double)s->cur_hz, SIM_PH_CPU);
	double cpu_share = sim_model_phase_time_s(m, top, SIM_PH_CPU) / sim_model_step_time_s(m, top);
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
	/* Occasional data-loading stalls (a slow batch, a worker refill):
	 * CPU and storage time, as long at any GPU clock, so sized by the CPU
	 * phase at the top clock.  Under a measured table the CPU phase at
	 * the current clock is stretched with the whole step, and a stall
	 * sized from it lasted 2.2 times longer at 306 MHz than at 1300.5 on
	 * the Energyinfra sweep: no data loader waits on the GPU's clock
	 * (without a table the CPU phase is the same at every clock and
	 * nothing changes). */
	if (u1 < fmin(0.5, nz * 0.02))
		extra = sim_model_phase_time_s(m, top, SIM_PH_CPU) * (1.0 + 3.0 * u2);
	/* A scheduled stall (--sim-phases stall=, a checkpoint save): the CPU
	 * works, the GPU waits. */
	extra += s->stall_s;
	s->stall_s = 0;
	s->phase = SIM_PH_CPU;
	if (s->has_curve) {
		sim_curve_step_start(s, extra);
		return;
	}
	s->rem = t_cpu * s->step_jit + extra;
}

/* The models play the measured table, if there is one, as the workload
 * the simulator was configured with (its training step at the configured
 * sequence length) measured it. */
static void sim_play_curve(struct sim *s)
{
	if (!s->has_curve)
		return;
	sim_model_play_curve(&s->train_model, &s->curve, &s->base_model);
	sim_model_play_curve(&s->eval_model, &s->curve, &s->base_model);
}

/* What follows training step s->steps in the phase schedule: a new
 * sequence length, a stall, an evaluation pass. */
static void sim_phase_turn(struct sim *s)
{
	const struct sim_phases *p = &s->phases;
	int seq = sim_phases_seq_at(p, s->steps, s->cfg.seq_len);
	if (seq != s->train_model.seq_len) {
		sim_model_init_cal(&s->train_model, s->train_model.cm, seq, s->cfg.batch, SIM_WORK_TRAIN, &s->power);
		sim_model_init_cal(&s->eval_model, s->train_model.cm, seq, s->cfg.batch, SIM_WORK_EVAL, &s->power);
		sim_play_curve(s);
		s->model = s->train_model;
	}
	s->stall_s += sim_phases_stall_after(p, s->steps);
	if (sim_phases_eval_after(p, s->steps)) {
		s->eval_left = p->eval_batches;
		s->model = s->eval_model;
	}
}

static void sim_step_done(struct sim *s)
{
	if (s->eval_left > 0) {
		/* an evaluation batch: the Trainer's step count stands still (its
		 * bar pauses while a second bar counts eval batches) */
		if (--s->eval_left == 0)
			s->model = s->train_model;
		sim_start_step(s);
		return;
	}
	s->steps++;
	s->last_step_ns = s->t_ns;
	s->tokens += (long long)s->model.seq_len * s->model.batch;
	if (s->progress)
		fprintf(s->progress, "step %lld tokens %lld samples %lld\n", (long long)s->steps, s->tokens,
			(long long)s->model.batch * s->steps);
	if (s->cfg.total_steps > 0 && s->steps >= s->cfg.total_steps) {
		s->phase = SIM_PH_IDLE;
		s->rem = 0;
	} else {
		sim_phase_turn(s);
		sim_start_step(s);
	}
}

static void sim_next_phase(struct sim *s)
{
	switch (s->phase) {
	case SIM_PH_CPU:
		s->phase = SIM_PH_COMPUTE;
		s->rem = s->has_curve ? s->frac[1] : s->model.cycles * s->step_jit;
		s->railgated = false;   /* work for the GPU powers it up */
		break;
	case SIM_PH_COMPUTE:
		s->phase = SIM_PH_MEM;
		s->rem = s->has_curve ? s->frac[2] : s->model.t_mem_s * s->step_jit;
		break;
	case SIM_PH_MEM:
		sim_step_done(s);
		break;
	default:
		break;
	}
}

bool sim_training(const struct sim *s)
{
	return s->phase == SIM_PH_CPU || s->phase == SIM_PH_COMPUTE || s->phase == SIM_PH_MEM;
}

static bool sim_gpu_busy(const struct sim *s)
{
	return s->phase == SIM_PH_COMPUTE || s->phase == SIM_PH_MEM;
}

/* Time (ns) until the current phase ends at the current clock. */
static int64_t sim_phase_left_ns(const struct sim *s)
{
	if (!sim_training(s))
		return INT64_MAX;
	double sec;
	if (s->has_curve)
		sec = s->stall_left_s + s->rem * sim_curve_step_s(s, (double)s->cur_hz);
	else
		sec = s->phase == SIM_PH_COMPUTE ? s->rem / (double)s->cur_hz : s->rem;
	double ns = ceil(sec * 1e9);
	return ns > 9e18 ? INT64_MAX : (int64_t)ns;
}

/* Is the CPU phase still in the stall before its own work?  (It matters
 * only under a measured table, whose busy power the stall does not draw.) */
static bool sim_stalling(const struct sim *s)
{
	return s->has_curve && s->phase == SIM_PH_CPU && s->stall_left_s > 0;
}

/* Time (ns) until the stall ends, under a table; INT64_MAX when none. */
static int64_t sim_stall_left_ns(const struct sim *s)
{
	if (!sim_stalling(s))
		return INT64_MAX;
	double ns = ceil(s->stall_left_s * 1e9);
	return ns > 9e18 ? INT64_MAX : (int64_t)ns;
}

static void sim_power_now(const struct sim *s, double mw[SIM_N_RAILS])
{
	enum sim_phase ph = sim_stalling(s) ? SIM_PH_STALL : s->phase;
	for (int r = 0; r < SIM_N_RAILS; r++)
		mw[r] = sim_model_phase_power_mw(&s->model, (double)s->cur_hz, ph, r, s->step_act);
	if (s->railgated)
		mw[SIM_RAIL_GPU_SOC] = sim_model_phase_power_mw(&s->model, (double)s->cur_hz, SIM_PH_GATED,
								SIM_RAIL_GPU_SOC, 1.0);
}

/* ---- ticks ------------------------------------------------------------ */

static void sim_sensor_tick(struct sim *s)
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
static void sim_run_segment(struct sim *s, int64_t dt)
{
	if (dt <= 0)
		return;
	double sec = (double)dt / 1e9;
	double mw[SIM_N_RAILS];
	sim_power_now(s, mw);
	for (int r = 0; r < SIM_N_RAILS; r++) {
		s->true_mj[r] += mw[r] * sec;
		s->win_mj[r] += mw[r] * sec;
	}
	s->heat_mj[0] += (mw[0] + mw[1] + mw[2]) * sec;
	s->heat_mj[1] += mw[0] * sec;
	s->heat_mj[2] += mw[1] * sec;
	if (sim_gpu_busy(s))
		s->busy_ns += dt;
	for (int c = 0; c < SIM_N_CPUS; c++) {
		double b = sim_model_core_busy(s->phase, c);
		s->jiffies[c][0] += b * sec * 100.0;
		s->jiffies[c][1] += (1.0 - b) * sec * 100.0;
		s->cpu_busy_ns[c / 4] += b * (double)dt;
	}
	s->cpu_win_ns += dt;

	if (!sim_training(s))
		return;
	if (sim_stalling(s)) {
		/* a segment ends where the stall does, give or take the ns */
		s->stall_left_s = s->stall_left_s > sec ? s->stall_left_s - sec : 0;
	} else if (s->has_curve) {
		s->rem -= sec / sim_curve_step_s(s, (double)s->cur_hz);
	} else if (s->phase == SIM_PH_COMPUTE) {
		s->rem -= sec * (double)s->cur_hz;
	} else {
		s->rem -= sec;
	}
}

/* ---- public ----------------------------------------------------------- */

void sim_advance(struct sim *s, int64_t t_ns)
{
	sim_check_faults(s);
	sim_devfreq_read_controls(s);
	while (s->t_ns < t_ns) {
		int64_t next = t_ns;
		if (s->next_poll_ns < next)
			next = s->next_poll_ns;
		if (s->next_sensor_ns < next)
			next = s->next_sensor_ns;
		int64_t left = sim_phase_left_ns(s);
		bool phase_ends = left <= next - s->t_ns;
		if (phase_ends)
			next = s->t_ns + left;
		int64_t stall = sim_stall_left_ns(s);
		if (stall < next - s->t_ns) {
			next = s->t_ns + stall;   /* the stall ends: the power changes */
			phase_ends = false;
		}
		sim_run_segment(s, next - s->t_ns);
		s->t_ns = next;
		if (phase_ends)
			sim_next_phase(s);
		if (s->t_ns == s->next_poll_ns) {
			sim_devfreq_tick(s);
			s->next_poll_ns += POLL_NS;
		}
		if (s->t_ns == s->next_sensor_ns) {
			sim_sensor_tick(s);
			s->next_sensor_ns += SENSOR_NS;
		}
	}
	sim_out_write(s);
}

/* The configuration with its defaults filled in, and its model; NULL with
 * err said when a value is out of range. */
static const struct catalog_model *sim_cfg_check(struct sim_cfg *cfg, struct sim_power *pw,
						 struct sim_phases *ph, struct sim_curve *cv, char *err,
						 size_t errlen)
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
	if (sim_power_parse(c.power, pw, err, errlen) < 0 || sim_phases_parse(c.phases, ph, err, errlen) < 0)
		return NULL;
	cv->n = 0;
	if (c.curve && *c.curve && sim_curve_load(c.curve, cv, err, errlen) < 0)
		return NULL;
	*cfg = c;
	return cm;
}

int sim_cfg_validate(const struct sim_cfg *cfg, char *err, size_t errlen)
{
	struct sim_cfg c = *cfg;
	struct sim_power pw;
	struct sim_phases ph;
	struct sim_curve *cv = malloc(sizeof *cv);
	if (!cv) {
		snprintf(err, errlen, "simulator: out of memory");
		return -1;
	}
	int rc = sim_cfg_check(&c, &pw, &ph, cv, err, errlen) ? 0 : -1;
	free(cv);
	return rc;
}

struct sim *sim_create(const struct sim_cfg *cfg, char *err, size_t errlen)
{
	struct sim_cfg c = *cfg;
	struct sim_power pw;
	struct sim_phases ph;
	struct sim *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "simulator: out of memory");
		return NULL;
	}
	const struct catalog_model *cm = sim_cfg_check(&c, &pw, &ph, &s->curve, err, errlen);
	if (!cm) {
		free(s);
		return NULL;
	}
	s->has_curve = s->curve.n > 0;
	sim_tree_init(s);
	s->cfg = c;
	s->cfg.model = cm->name;
	s->cfg.dir = NULL;
	s->cfg.progress_path = NULL;
	s->cfg.power = NULL;
	s->cfg.phases = NULL;
	s->cfg.curve = NULL;
	s->power = pw;
	sim_model_init_cal(&s->base_model, cm, c.seq_len, c.batch, SIM_WORK_TRAIN, &s->power);
	s->train_model = s->base_model;
	sim_model_init_cal(&s->eval_model, cm, c.seq_len, c.batch, SIM_WORK_EVAL, &s->power);
	sim_play_curve(s);
	s->model = s->train_model;
	s->phases = ph;
	sim_phases_resolve(&s->phases, c.seed, c.total_steps, c.seq_len);
	sim_rng_seed(&s->rng, c.seed);
	sim_rng_seed(&s->sensor_rng, c.seed ^ 0x5e45045e45045e45ULL);

	if (s->has_curve) {
		s->n_levels = s->curve.n;
		memcpy(s->levels, s->curve.hz, (size_t)s->n_levels * sizeof s->levels[0]);
	} else {
		s->n_levels = SIM_ORIN_LEVELS;
		memcpy(s->levels, sim_orin_levels, sizeof sim_orin_levels);
	}
	s->gov = GOV_PODGOV;
	s->cur_hz = s->target_hz = s->levels[0];
	s->podgov_3d = true;
	s->last_step_ns = -1;
	s->podgov_req_hz = sim_devfreq_top_hz(s);
	s->set_freq_hz = s->levels[0];
	s->railgate_enable = true;
	s->railgated = true;
	sim_devfreq_freq_range(s);
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
	if (sim_dir_prepare(s, err, errlen) < 0) {
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

	sim_start_step(s);
	/* The readings at t = 0: what the board draws in its first state. */
	double mw[SIM_N_RAILS];
	sim_power_now(s, mw);
	memcpy(s->sensor_mw, mw, sizeof mw);
	s->heat_ns = 0;
	for (int z = 0; z < s->n_zones; z++)
		s->temp_mc[z] = s->zone_kind[z] == ZK_BOARD ? 31000 : s->zone_kind[z] == ZK_DIODE ? 33000 : 45000;
	sim_out_write(s);
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

int sim_curve_rows(const struct sim *s, int *played)
{
	*played = s->curve.n;
	return s->curve.n > 0 ? s->curve.n_table : 0;
}

int64_t sim_last_step_ns(const struct sim *s)
{
	return s->last_step_ns;
}

int64_t sim_now_ns(const struct sim *s)
{
	return s->t_ns;
}

int64_t sim_tokens_done(const struct sim *s)
{
	return s->tokens;
}

bool sim_evaluating(const struct sim *s)
{
	return s->eval_left > 0 && sim_training(s);
}

int sim_seq_len_now(const struct sim *s)
{
	return s->model.seq_len;
}

void sim_schedule(const struct sim *s, char *buf, size_t len)
{
	sim_phases_format(&s->phases, buf, len);
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
