#include "config.h"
#include "sim_model.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- workload: how much work one step is ------------------------------
 *
 * Training FLOPs per token follow Kaplan et al. 2020 ("Scaling laws for
 * neural language models", eq. 2.1): 6 N + 6 n_layer n_ctx d_model, with N
 * the non-embedding parameters, 12 n_layer d_model^2 for a standard block
 * (attention 4 d^2, MLP 8 d^2).  Embedding lookups cost no FLOPs, but a
 * decoder's LM head is a (vocab x d) matmul on every token: we take it as
 * half of the remaining parameters (Pythia unties input and output
 * embeddings; for tied models this undercounts the head by half, a small
 * error next to the blocks). */

/* Achieved GPU throughput in FLOP per GPU cycle.  AGX Orin's Ampere GPU has
 * 2048 CUDA cores and 64 tensor cores (16 SMs); NVIDIA quotes ~5.3 FP32
 * TFLOPS and ~42 dense FP16 tensor TFLOPS at 1.3 GHz, i.e. ~4100 FP32 and
 * ~32800 FP16 FLOP/cycle.  Hugging Face fine-tunes at batch 8-32 reach a
 * modest share of that (small GEMMs, mixed FP32/TF32 kernels): 3000
 * FLOP/cycle (3.9 TFLOPS at 1.3 GHz) gives BERT-base seq 128 batch 16
 * ~2.5 steps/s at MAXN, in line with reported AGX Orin fine-tune speeds. */
#define FLOP_PER_CYCLE 3000.0

/* Achieved DRAM bandwidth of memory-bound kernels.  AGX Orin 64GB: 256-bit
 * LPDDR5 at 3199 MHz = 204.8 GB/s peak; elementwise kernels typically reach
 * about half of peak. */
#define MEM_BW_BPS 100e9

/* Bytes moved per token, per layer, per hidden unit by the memory-bound
 * kernels (layer norms, softmax, GELU, dropout, residual adds, their
 * backward passes): about 60 passes over an FP32 activation of width d. */
#define ACT_BYTES_PER_TOKEN_LAYER_HIDDEN 240.0

/* Optimizer and gradient traffic per parameter per step with AdamW in FP32:
 * read param, grad, m, v (16 B), write param, m, v (12 B), write and zero
 * the gradient (8 B). */
#define OPT_BYTES_PER_PARAM 36.0

/* GPU-idle CPU time per step: the Trainer's Python bookkeeping, the
 * collate and host-to-device copy, the loss.item() synchronisation
 * (fixed part); kernel launches the GPU cannot hide (per layer: ~40
 * kernels forward+backward+optimizer at ~15 us each on a Cortex-A78AE);
 * per-sample collation. */
#define T_CPU_FIXED_S 0.025
#define T_CPU_PER_LAYER_S 0.0006
#define T_CPU_PER_SAMPLE_S 0.0002

/* ---- voltage ----------------------------------------------------------
 *
 * Orin's GPU runs at its minimum voltage (~0.6 V) at the bottom of the
 * table; the DVFS table then raises the voltage ever faster toward the top
 * (a near-quadratic rise is typical of 8 nm-class parts; ~1.0 V at the
 * top clock).  NVIDIA does not publish the ga10b table; these two end
 * points and the quadratic shape are our assumption, and they are what
 * makes energy per step U-shaped (dynamic energy per cycle ~ V^2).  They
 * are the reference calibration's vmin, vmax and vcurve = 2 (sim_power.c);
 * other calibrations change them. */
#define F_VKNEE_HZ 306e6        /* voltage flat at and below this clock */
#define F_VTOP_HZ 1300.5e6      /* V_MAX here */

/* ---- power ------------------------------------------------------------ */

/* Effective switched capacitance of the GPU at full compute activity:
 * 15 nF x 1.0 V^2 x 1.3005 GHz = 19.5 W, so VDD_GPU_SOC reads ~20-23 W in
 * a dense MAXN fine-tune, as AGX Orin training runs report.
 * The reference calibration's ceff_nf = 15 (sim_power.c). */
/* Switching activity of memory-bound kernels relative to compute: the SMs
 * keep their clocks and schedulers running while they wait on DRAM, so
 * these kernels burn most of the dynamic power without finishing sooner at
 * a higher clock; this is what makes the top clocks wasteful.
 * The reference calibration's act_mem = 0.8 (sim_power.c). */
/* Between kernels (CPU phase) the GPU is clock-gated but not rail-gated. */
#define GPU_ACT_IDLE 0.02
/* GPU leakage at V_MAX, scaling ~V^3 (DIBL makes subthreshold leakage
 * grow faster than linearly with V).
 * The reference calibration's leak_w = 1.0 (sim_power.c). */
/* The SoC share of VDD_GPU_SOC (fabrics, memory controller, engines):
 * idle tegrastats on AGX Orin shows VDD_GPU_SOC ~2.3 W with the GPU idle
 * (R35 and R36 lines in docs/reference/jetson-sysfs.md 6).
 * The reference calibration's soc_w = 1.8 (sim_power.c). */

/* VDD_CPU_CV: an idle baseline (OS, background daemons; idle lines show
 * 0.4-1.6 W), plus the data loader on several cores during the CPU phase,
 * plus the Python main thread launching kernels while the GPU runs. */
#define CPU_BASE_W 0.8
#define CPU_ACTIVE_W 2.2
#define CPU_LAUNCH_W 1.0

/* VIN_SYS_5V0: the 5 V system rail (DRAM, I/O, always-on, regulators),
 * ~4.0 W idle (R35 idle line: 4025 mW), plus DRAM energy per byte. LPDDR5
 * costs ~3 pJ/bit of interface and core energy, i.e. ~25 pJ/byte.
 * The reference calibration's sys_w = 4.0 (sim_power.c). */
#define DRAM_J_PER_BYTE 25e-12
#define DRAM_IDLE_BPS 2e9        /* display, OS, refresh traffic */
/* GEMMs reuse tiles from cache; they use ~20% of the achieved bandwidth. */
#define DRAM_GEMM_SHARE 0.2
/* VDDQ_VDD2_1V8AO: the DRAM I/O and always-on supply, ~0.3 W idle (R35
 * line: 301 mW), carrying ~35% of the DRAM dynamic power.  It is a branch
 * of VIN_SYS_5V0 and never adds to the module total. */
#define VDDQ_BASE_W 0.30
#define VDDQ_DRAM_SHARE 0.35

/* An evaluation batch is the forward pass alone: a third of the training
 * FLOPs (Kaplan et al.: forward 2N, backward 4N per token), about a third of
 * the activation traffic, no optimizer traffic, and a third of the kernel
 * launches; the Trainer's per-batch bookkeeping and collation stay (the eval
 * loop also gathers logits and labels to the host). */
#define EVAL_SHARE (1.0 / 3.0)

int sim_model_init_cal(struct sim_model *m, const struct catalog_model *cm, int seq_len, int batch,
		       enum sim_work work, const struct sim_power *pw)
{
	if (!m || !cm || seq_len < 1 || seq_len > 65536 || batch < 1 || batch > 65536 ||
	    cm->layers < 1 || cm->hidden < 1 || cm->params < 1 || (work != SIM_WORK_TRAIN && work != SIM_WORK_EVAL))
		return -1;
	double L = cm->layers, h = cm->hidden, p = (double)cm->params;
	double nonemb = fmin(12.0 * L * h * h, p);
	double head = cm->type == MODEL_DECODER ? (p - nonemb) / 2.0 : 0.0;
	double tokens = (double)seq_len * batch;
	bool ev = work == SIM_WORK_EVAL;
	double share = ev ? EVAL_SHARE : 1.0;

	*m = (struct sim_model){ .cm = cm, .seq_len = seq_len, .batch = batch, .work = work,
				 .pw = pw ? *pw : *sim_power_reference() };
	m->flops = share * tokens * (6.0 * (nonemb + head) + 6.0 * L * seq_len * h);
	m->cycles = m->flops / FLOP_PER_CYCLE;
	m->mem_bytes = share * tokens * L * h * ACT_BYTES_PER_TOKEN_LAYER_HIDDEN + (ev ? 0.0 : OPT_BYTES_PER_PARAM * p);
	m->t_mem_s = m->mem_bytes / MEM_BW_BPS;
	m->t_cpu_s = T_CPU_FIXED_S + share * T_CPU_PER_LAYER_S * L + T_CPU_PER_SAMPLE_S * batch;
	return 0;
}

int sim_model_init(struct sim_model *m, const struct catalog_model *cm, int seq_len, int batch)
{
	return sim_model_init_cal(m, cm, seq_len, batch, SIM_WORK_TRAIN, NULL);
}

static double sim_model_volts_pw(const struct sim_power *pw, double f_hz)
{
	if (f_hz <= F_VKNEE_HZ)
		return pw->v_min;
	double x = (f_hz - F_VKNEE_HZ) / (F_VTOP_HZ - F_VKNEE_HZ);
	/* x * x for the reference's exponent 2: the very numbers it always gave */
	double shape = pw->v_curve == 2.0 ? x * x : pow(x, pw->v_curve);
	return pw->v_min + (pw->v_max - pw->v_min) * shape;
}

double sim_model_gpu_volts(double f_hz)
{
	return sim_model_volts_pw(sim_power_reference(), f_hz);
}

double sim_model_volts(const struct sim_model *m, double f_hz)
{
	return sim_model_volts_pw(&m->pw, f_hz);
}

/* ---- a measured table (--sim-curve) -------------------------------------
 *
 * A table gives, per clock level, the step time and the step-averaged power
 * of one workload (the base), and nothing finer.  So while a step runs the
 * board draws the table's power throughout (a profile within the step would
 * be invented, and sampled at the step's own period it would bias what a
 * sampler measures), and the model keeps what the table does not say: how
 * the step splits into its CPU, compute and memory phases (each phase's time
 * is the model's times the table's step time over the model's own, one
 * factor per clock: the GPU's utilisation is the model's), how the power
 * splits over the rails without gpu_w, and what the board draws when idle.
 * By construction the base workload's energy per step at a level is
 * power_w x step_s there. */

void sim_model_play_curve(struct sim_model *m, const struct sim_curve *c, const struct sim_model *base)
{
	const struct sim_model *b = base ? base : m;
	double cycles = b->cycles, mem_bytes = b->mem_bytes, t_mem = b->t_mem_s, t_cpu = b->t_cpu_s;
	m->curve = c;
	m->base_cycles = cycles;
	m->base_mem_bytes = mem_bytes;
	m->base_t_mem_s = t_mem;
	m->base_t_cpu_s = t_cpu;
}

/* The base workload under the model's own physics. */
static struct sim_model curve_base(const struct sim_model *m)
{
	struct sim_model b = *m;
	b.curve = NULL;
	b.cycles = m->base_cycles;
	b.mem_bytes = m->base_mem_bytes;
	b.t_mem_s = m->base_t_mem_s;
	b.t_cpu_s = m->base_t_cpu_s;
	return b;
}

/* The table's step time of the base workload at f. */
static double curve_step_s(const struct sim_curve *c, const struct sim_model *base, double f_hz)
{
	if (c->kind == SIM_CURVE_STEP_S)
		return sim_curve_at(c, c->time, f_hz);
	/* relative performance: the base's own step time at the top level
	 * sets the scale */
	double top = (double)c->hz[c->n - 1];
	return sim_model_step_time_s(base, top) * c->time[c->n - 1] / sim_curve_at(c, c->time, f_hz);
}

/* What the table makes of the model's phase times at f: the table's step
 * time over the base workload's own (1 without a table). */
static double time_scale(const struct sim_model *m, double f_hz)
{
	if (!m->curve)
		return 1.0;
	struct sim_model b = curve_base(m);
	return curve_step_s(m->curve, &b, f_hz) / sim_model_step_time_s(&b, f_hz);
}

/* The factors on the model's GPU rail and on the others (CPU_CV, SYS_5V0
 * and VDDQ within it) that map the base workload's own step average onto
 * the table's power at f: without gpu_w one factor for all, which keeps the
 * model's GPU share of the board. */
static void curve_power_scale(const struct sim_model *m, double f_hz, double *k_gpu, double *k_rest)
{
	const struct sim_curve *c = m->curve;
	struct sim_model b = curve_base(m);
	double p = 1000.0 * sim_curve_at(c, c->power_w, f_hz);
	if (!c->has_gpu) {
		*k_gpu = *k_rest = p / sim_model_power_mw(&b, f_hz, SIM_RAIL_TOTAL);
		return;
	}
	double g = 1000.0 * sim_curve_at(c, c->gpu_w, f_hz);
	*k_gpu = g / sim_model_power_mw(&b, f_hz, SIM_RAIL_GPU_SOC);
	*k_rest = (p - g) / (sim_model_power_mw(&b, f_hz, SIM_RAIL_CPU_CV) + sim_model_power_mw(&b, f_hz, SIM_RAIL_SYS_5V0));
}

/* ---- time and power of a step -------------------------------------------- */

static double own_phase_time_s(const struct sim_model *m, double f_hz, enum sim_phase ph)
{
	switch (ph) {
	case SIM_PH_CPU: return m->t_cpu_s;
	case SIM_PH_COMPUTE: return f_hz > 0 ? m->cycles / f_hz : INFINITY;
	case SIM_PH_MEM: return m->t_mem_s;
	default: return 0;
	}
}

double sim_model_phase_time_s(const struct sim_model *m, double f_hz, enum sim_phase ph)
{
	double t = own_phase_time_s(m, f_hz, ph);
	return m->curve ? t * time_scale(m, f_hz) : t;
}

double sim_model_step_time_s(const struct sim_model *m, double f_hz)
{
	return sim_model_phase_time_s(m, f_hz, SIM_PH_CPU) +
	       sim_model_phase_time_s(m, f_hz, SIM_PH_COMPUTE) +
	       sim_model_phase_time_s(m, f_hz, SIM_PH_MEM);
}

double sim_model_util(const struct sim_model *m, double f_hz)
{
	double busy = sim_model_phase_time_s(m, f_hz, SIM_PH_COMPUTE) +
		      sim_model_phase_time_s(m, f_hz, SIM_PH_MEM);
	return busy / sim_model_step_time_s(m, f_hz);
}

/* DRAM traffic (bytes/s) in a phase. */
static double phase_dram_bps(const struct sim_model *m, double f_hz, enum sim_phase ph)
{
	switch (ph) {
	case SIM_PH_COMPUTE: return DRAM_IDLE_BPS + DRAM_GEMM_SHARE * MEM_BW_BPS;
	case SIM_PH_MEM: return DRAM_IDLE_BPS + (m->t_mem_s > 0 ? m->mem_bytes / m->t_mem_s : 0);
	default: (void)f_hz; return DRAM_IDLE_BPS;
	}
}

static double phase_gpu_w(const struct sim_power *pw, double f_hz, enum sim_phase ph, double act)
{
	if (ph == SIM_PH_GATED)
		return pw->soc_w;
	double v = sim_model_volts_pw(pw, f_hz);
	double leak = pw->leak_w * pow(v / pw->v_max, 3.0);
	double a = ph == SIM_PH_COMPUTE ? 1.0 : ph == SIM_PH_MEM ? pw->act_mem : GPU_ACT_IDLE;
	return pw->soc_w + leak + a * act * (pw->ceff_nf / 1e9) * v * v * f_hz;
}

static double phase_cpu_w(enum sim_phase ph)
{
	switch (ph) {
	case SIM_PH_CPU:
	case SIM_PH_STALL: return CPU_BASE_W + CPU_ACTIVE_W;
	case SIM_PH_COMPUTE:
	case SIM_PH_MEM: return CPU_BASE_W + CPU_LAUNCH_W;
	default: return CPU_BASE_W;
	}
}

static double own_phase_power_mw(const struct sim_model *m, double f_hz, enum sim_phase ph, int rail,
				 double gpu_activity)
{
	double dram_w = DRAM_J_PER_BYTE * phase_dram_bps(m, f_hz, ph);
	double w;
	switch (rail) {
	case SIM_RAIL_GPU_SOC: w = phase_gpu_w(&m->pw, f_hz, ph, gpu_activity); break;
	case SIM_RAIL_CPU_CV: w = phase_cpu_w(ph); break;
	case SIM_RAIL_SYS_5V0: w = m->pw.sys_w + dram_w; break;
	case SIM_RAIL_VDDQ: w = VDDQ_BASE_W + VDDQ_DRAM_SHARE * dram_w; break;
	case SIM_RAIL_TOTAL:
		w = phase_gpu_w(&m->pw, f_hz, ph, gpu_activity) + phase_cpu_w(ph) + m->pw.sys_w + dram_w;
		break;
	default: w = 0; break;
	}
	return w * 1000.0;
}

/* A rail's power under the model's own physics in a phase; for the
 * phases of a step under a table, its own step average (the table gives
 * the step's mean power and no profile within the step). */
static double own_rail_mw(const struct sim_model *m, double f_hz, enum sim_phase ph, int rail, double act)
{
	if (ph != SIM_PH_CPU && ph != SIM_PH_COMPUTE && ph != SIM_PH_MEM)
		return own_phase_power_mw(m, f_hz, ph, rail, act);
	double e = 0, t = 0;
	for (int p = SIM_PH_CPU; p <= SIM_PH_MEM; p++) {
		double dt = own_phase_time_s(m, f_hz, (enum sim_phase)p);
		e += dt * own_phase_power_mw(m, f_hz, (enum sim_phase)p, rail, act);
		t += dt;
	}
	return t > 0 ? e / t : 0;
}

double sim_model_phase_power_mw(const struct sim_model *m, double f_hz, enum sim_phase ph,
				int rail, double gpu_activity)
{
	if (!m->curve)
		return own_phase_power_mw(m, f_hz, ph, rail, gpu_activity);
	double k_gpu, k_rest;
	curve_power_scale(m, f_hz, &k_gpu, &k_rest);
	switch (rail) {
	case SIM_RAIL_GPU_SOC:
		return k_gpu * own_rail_mw(m, f_hz, ph, rail, gpu_activity);
	case SIM_RAIL_CPU_CV:
	case SIM_RAIL_SYS_5V0:
	case SIM_RAIL_VDDQ:
		return k_rest * own_rail_mw(m, f_hz, ph, rail, gpu_activity);
	case SIM_RAIL_TOTAL:
		return k_gpu * own_rail_mw(m, f_hz, ph, SIM_RAIL_GPU_SOC, gpu_activity) +
		       k_rest * (own_rail_mw(m, f_hz, ph, SIM_RAIL_CPU_CV, gpu_activity) +
				 own_rail_mw(m, f_hz, ph, SIM_RAIL_SYS_5V0, gpu_activity));
	default:
		return 0;
	}
}

double sim_model_power_mw(const struct sim_model *m, double f_hz, int rail)
{
	double e = 0, t = 0;
	for (int ph = SIM_PH_CPU; ph <= SIM_PH_MEM; ph++) {
		double dt = sim_model_phase_time_s(m, f_hz, (enum sim_phase)ph);
		e += dt * sim_model_phase_power_mw(m, f_hz, (enum sim_phase)ph, rail, 1.0);
		t += dt;
	}
	return t > 0 ? e / t : 0;
}

double sim_model_energy_per_step_j(const struct sim_model *m, double f_hz)
{
	return sim_model_power_mw(m, f_hz, SIM_RAIL_TOTAL) / 1000.0 * sim_model_step_time_s(m, f_hz);
}

int64_t sim_model_optimum_hz(const struct sim_model *m, const int64_t *levels, int n)
{
	int64_t best = 0;
	double best_e = INFINITY;
	for (int i = 0; i < n; i++) {
		double e = sim_model_energy_per_step_j(m, (double)levels[i]);
		if (e < best_e) {
			best_e = e;
			best = levels[i];
		}
	}
	return best;
}

double sim_model_core_busy(enum sim_phase ph, int core)
{
	/* Background (OS, daemons) keeps every core ~2% busy. */
	const double bg = 0.02;
	switch (ph) {
	case SIM_PH_CPU:
	case SIM_PH_STALL:
		return core == 0 ? 1.0 : core <= 3 ? 0.5 : bg;
	case SIM_PH_COMPUTE:
	case SIM_PH_MEM:
		/* the main thread launches and then spins in cudaStreamSynchronize */
		return core == 0 ? 0.6 : core <= 3 ? 0.05 : bg;
	default:
		return bg;
	}
}
