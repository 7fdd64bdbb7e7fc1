/* sim_model: the physics of the simulated AGX Orin, as pure functions.
 *
 * A fine-tune step is three phases: the CPU prepares the batch and launches
 * (GPU idle), the GPU runs compute-bound kernels (time scales as 1/f), then
 * memory-bound kernels (time fixed by the memory clock).  Each phase draws
 * its own power on each rail.  Every constant, its reasoning and what it is
 * calibrated to is in sim_model.c and docs/simulator.md. */
#ifndef DVF_SIM_MODEL_H
#define DVF_SIM_MODEL_H

#include "sim_curve.h"
#include "sim_power.h"
#include "sim_rng.h"

#include <stdint.h>

#include "catalog.h"

/* Rails in the order of the simulated tree's labels. */
enum sim_rail {
	SIM_RAIL_GPU_SOC = 0,   /* VDD_GPU_SOC */
	SIM_RAIL_CPU_CV,        /* VDD_CPU_CV */
	SIM_RAIL_SYS_5V0,       /* VIN_SYS_5V0 (holds VDDQ_VDD2_1V8AO) */
	SIM_RAIL_VDDQ,          /* VDDQ_VDD2_1V8AO, part of VIN_SYS_5V0 */
	SIM_N_RAILS
};
#define SIM_RAIL_TOTAL (-1)     /* GPU_SOC + CPU_CV + SYS_5V0 */

enum sim_phase {
	SIM_PH_CPU = 0,   /* data loading, Python, launches: GPU idle but powered */
	SIM_PH_COMPUTE,   /* compute-bound kernels: cycles at the GPU clock */
	SIM_PH_MEM,       /* memory-bound kernels: time at the fixed EMC clock */
	SIM_PH_IDLE,      /* no fine-tune running, GPU powered */
	SIM_PH_GATED,     /* no fine-tune running, GPU rail-gated */
	SIM_PH_STALL,     /* a stall before a step's CPU phase (data loading, a
	                     checkpoint save): the CPU phase's power, but not
	                     part of the step's work (it matters with a table) */
	SIM_N_PHASES
};

/* What a step is: a training step (forward, backward, optimizer) or an
 * evaluation batch (forward only, no optimizer: docs/simulator.md). */
enum sim_work { SIM_WORK_TRAIN = 0, SIM_WORK_EVAL };

/* One workload: a catalog model, tokens per sample and samples per step,
 * the kind of step and the power calibration it runs under. */
struct sim_model {
	const struct catalog_model *cm;
	int seq_len;
	int batch;
	enum sim_work work;
	struct sim_power pw;
	double flops;       /* per step */
	double cycles;      /* GPU cycles of the compute-bound kernels per step */
	double mem_bytes;   /* DRAM traffic of the memory-bound kernels per step */
	double t_mem_s;     /* memory-bound kernel time per step */
	double t_cpu_s;     /* GPU-idle CPU time per step */
	/* A measured table it plays (--sim-curve; NULL: the model's own
	 * physics), and the workload the table was measured on: the training
	 * step at the configured sequence length, whose work the table's step
	 * time and power stand for (sim_model_play_curve). */
	const struct sim_curve *curve;
	double base_cycles, base_mem_bytes, base_t_mem_s, base_t_cpu_s;
};

/* 0, or -1 when the workload is out of range (NULL model, seq_len or batch
 * outside 1..65536). */
int sim_model_init(struct sim_model *m, const struct catalog_model *cm, int seq_len, int batch);
/* The same for a kind of step under a calibration (NULL: reference): what a
 * scorer asks for the noise-free truth of one phase of a fine-tune. */
int sim_model_init_cal(struct sim_model *m, const struct catalog_model *cm, int seq_len, int batch,
		       enum sim_work work, const struct sim_power *pw);

/* Play the table c (NULL: stop playing one) for m, base being the workload
 * the table was measured on (NULL: m itself).  Every function below then
 * follows the table: at a clock f, the base workload's step time is the
 * table's (step_s, or the base's own step time at the table's top level x
 * perf(top) / perf(f)), and while a step runs (any of its phases) the board
 * draws power_w (the GPU rail gpu_w) throughout; the phases keep the
 * model's shares of the step's time (so its GPU utilisation).  Idle states
 * (SIM_PH_STALL, IDLE, GATED) draw the model's power there, each rail
 * scaled by the factor that maps the model's step average onto the table
 * at f.  Another workload (an evaluation batch, another sequence length)
 * scales the table's time and power by its own model over the base's. */
void sim_model_play_curve(struct sim_model *m, const struct sim_curve *c, const struct sim_model *base);

/* GPU core voltage (V) at clock f: flat at the bottom, rising to the top
 * (the reference calibration; sim_model_volts: the model's own). */
double sim_model_gpu_volts(double f_hz);
double sim_model_volts(const struct sim_model *m, double f_hz);
/* Time of each phase of one step at f (s); phase SIM_PH_CPU/COMPUTE/MEM. */
double sim_model_phase_time_s(const struct sim_model *m, double f_hz, enum sim_phase ph);
double sim_model_step_time_s(const struct sim_model *m, double f_hz);
/* GPU-busy share of a step (0..1): what the load file shows on average. */
double sim_model_util(const struct sim_model *m, double f_hz);
/* Power (mW) of one rail (or SIM_RAIL_TOTAL) while in a phase, at f.
 * gpu_activity scales the GPU's switching power (1 nominal). */
double sim_model_phase_power_mw(const struct sim_model *m, double f_hz, enum sim_phase ph,
				int rail, double gpu_activity);
/* Step-averaged power of a rail (or SIM_RAIL_TOTAL) at a pinned clock f. */
double sim_model_power_mw(const struct sim_model *m, double f_hz, int rail);
/* Module energy per step (J) at a pinned clock f, noise-free. */
double sim_model_energy_per_step_j(const struct sim_model *m, double f_hz);
/* The level of levels[0..n) with the least energy per step (Hz); 0 if n < 1. */
int64_t sim_model_optimum_hz(const struct sim_model *m, const int64_t *levels, int n);

/* CPU busy share of each core (0..1) in a phase: core 0 runs the Python
 * main thread, cores 1-3 the data-loader workers, the rest background. */
double sim_model_core_busy(enum sim_phase ph, int core);


#endif
