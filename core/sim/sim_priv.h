/* sim_priv: the simulator's state, shared by sim.c (the board's dynamics)
 * and sim_tree.c (the sysfs tree).  Not for other modules. */
#ifndef DVF_SIM_PRIV_H
#define DVF_SIM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"
#include "sim_model.h"
#include "sim_phases.h"

enum {
	SIM_ORIN_LEVELS = 11,   /* AGX Orin's table; a curve (--sim-curve) brings its own */
	SIM_N_CPUS = 12,
	SIM_N_POLICIES = 3,
	SIM_MAX_ZONES = 11,
	SIM_MAX_OWN_FAULTS = 24,
};

/* A file the simulator rewrites in place: kept open, pwrite at 0, and
 * ftruncate, so a reader's open fd sees every new value. */
struct sim_file {
	int fd;             /* -1: absent */
	char *path;         /* absolute */
	char cur[64];       /* what it holds (when it fits) */
	size_t len;
	bool cached;        /* cur is valid */
	bool empty_seen;    /* read empty once: a writer may be mid-way */
};

/* One INA3221 channel the simulator drives. */
struct sim_chan {
	int rail;                    /* enum sim_rail */
	struct sim_file in, curr, shunt;
	double nominal_mv;           /* bus voltage with no load */
	double droop_mv_per_a;       /* supply path resistance */
};

/* Thermal zone kinds, for the thermal model. */
enum { ZK_CPU, ZK_GPU, ZK_CV, ZK_SOC0, ZK_SOC1, ZK_SOC2, ZK_BOARD, ZK_DIODE, ZK_TJ };

enum sim_gov { GOV_PODGOV = 0, GOV_WMARK, GOV_USERSPACE, GOV_PERFORMANCE, GOV_N };

struct sim {
	struct sim_cfg cfg;
	char *root;            /* absolute */
	bool private_dir;      /* remove at the end */
	struct sim_model model;    /* the step under way: training or evaluation */
	struct sim_power power;    /* the calibration (cfg.power) */
	struct sim_curve curve;    /* the measured table it plays (cfg.curve) */
	bool has_curve;
	struct sim_model base_model; /* the workload the table was measured on */
	struct sim_model train_model, eval_model; /* at the current sequence length */
	struct sim_phases phases;  /* cfg.phases, resolved */
	int64_t eval_left;         /* evaluation batches left in the pass under way */
	double stall_s;            /* input-pipeline stall due before the next step */
	long long tokens;          /* training tokens so far */
	struct sim_rng rng;        /* workload noise */
	struct sim_rng sensor_rng; /* sensor noise: kept apart so that reading
	                              more often does not change the workload */

	/* tree */
	char gpu_dev[160];     /* relative to root */
	char gpu_devfreq[200];
	int hw_fan, hw_tach, hw_ina40, hw_ina41;
	int n_zones;

	struct sim_file f_cur, f_target, f_min, f_max, f_gov, f_load, f_is_rg,
		f_railgate, f_trans, f_3d, f_user, f_freq_req, f_set_freq;
	struct sim_file f_stat, f_pwm, f_rpm, f_mc_all, f_emc_rate, f_meminfo, f_nvmap, f_nvmap_maps;
	struct sim_file f_cpu_cur[SIM_N_POLICIES], f_cpuinfo_cur[SIM_N_POLICIES];
	struct sim_file f_zone[SIM_MAX_ZONES];
	bool zone_offline[SIM_MAX_ZONES];
	int zone_kind[SIM_MAX_ZONES];
	struct sim_chan chan[4];
	int n_chan;
	struct sim_file f_sum40, f_sum41;

	char own_fault[SIM_MAX_OWN_FAULTS][256];
	int n_own_faults;
	char *fault_path;
	int64_t fault_check_real_ns;
	int64_t fault_mtime_ns;
	long long fault_size;
	bool fault_seen;

	/* clock and governor */
	int64_t levels[DVF_MAX_LEVELS];    /* ascending */
	int n_levels;
	enum sim_gov gov;
	int64_t qos_min_khz, qos_max_khz;  /* requests; max 0 = none */
	int64_t cur_hz, target_hz;
	int64_t rd_min_hz, rd_max_hz;      /* what min_freq/max_freq read back */
	bool podgov_3d;                    /* enable_3d_scaling */
	bool podgov_user;
	int64_t podgov_req_hz;
	int64_t set_freq_hz;               /* userspace */
	bool railgate_enable;
	bool railgated;
	int64_t idle_ns;                   /* GPU idle time, for rail-gating */
	double load_ema;                   /* per-mille */
	int load_pm;
	int64_t busy_ns;                   /* busy time in the current poll */
	uint64_t trans_count[DVF_MAX_LEVELS][DVF_MAX_LEVELS];
	int64_t time_in_ms_ns[DVF_MAX_LEVELS];
	int64_t last_trans_ns;
	int64_t trans_written_ns;
	uint64_t total_trans;

	/* time */
	int64_t t_ns;
	int64_t next_poll_ns;
	int64_t next_sensor_ns;

	/* fine-tune */
	enum sim_phase phase;
	double rem;             /* cycles (compute) or seconds (cpu, mem) left */
	/* under a measured table (sim_curve_step_start): rem is the share of
	 * the step left in its phase, the phases' shares are fixed when the
	 * step starts, and a stall is seconds of its own, before the CPU's */
	double frac[3];         /* the CPU, compute and memory phases' shares */
	double stall_left_s;
	double step_act;        /* this step's GPU activity factor */
	double step_jit;        /* this step's time factor */
	int64_t steps;
	int64_t last_step_ns;        /* when the last step completed; -1 none */
	FILE *progress;

	/* energy and sensors */
	double true_mj[SIM_N_RAILS];
	double win_mj[SIM_N_RAILS];        /* sensor window */
	double sensor_mw[SIM_N_RAILS];     /* last reading (noisy) */
	double win_total_mj;
	double temp_mc[SIM_MAX_ZONES];
	double heat_mj[3];                 /* total, gpu, cpu energy since the last thermal step */
	int64_t heat_ns;

	/* /proc/stat */
	double jiffies[SIM_N_CPUS][2];     /* busy, idle in 1/100 s */
	double cpu_busy_ns[SIM_N_POLICIES];
	int64_t cpu_win_ns;
	int64_t cpu_khz[SIM_N_POLICIES];
	uint64_t stat_written[SIM_N_CPUS][2];
	bool stat_dirty;
};

/* devfreq polling of nvgpu (polling_ms = 25, reference 1.2) */
#define POLL_NS (25 * DVF_NS_PER_MS)

/* sim.c */
/* Is a step under way (CPU, compute or memory phase)? */
bool sim_training(const struct sim *s);
/* sim_devfreq.c */
int64_t sim_devfreq_top_hz(const struct sim *s);
int sim_devfreq_level_of(const struct sim *s, int64_t hz);
void sim_devfreq_freq_range(struct sim *s);
void sim_devfreq_read_controls(struct sim *s);
void sim_devfreq_tick(struct sim *s);
/* sim_out.c */
void sim_out_write(struct sim *s);
/* sim_mem.c: meminfo, nvmap, the EMC clock and activity */
void sim_mem_write(struct sim *s);
/* sim_dir.c */
int sim_dir_prepare(struct sim *s, char *err, size_t errlen);

/* sim_tree.c: the builder, used by sim_tree_gpu.c and sim_tree_board.c.
 * The first failure sticks and is reported once. */
struct tb {
	struct sim *s;
	int err;
	char what[320];
	char dir[512];   /* the folder last opened, and its fd (or -1) */
	int dfd;
	int root_fd;     /* the tree's root (or -1) */
};
void sim_tree_fail(struct tb *b, int err, const char *rel);
int sim_tree_parent(const char *abs, bool make, const char **leaf);
int sim_tree_abs_path(const struct sim *s, const char *rel, char *out, size_t len);
int sim_tree_cached_parent(struct tb *b, const char *abs, const char **leaf);
int sim_tree_create(int dfd, const char *leaf, int flags);
void sim_tree_putn(struct tb *b, const char *rel, const char *data, size_t n);
void sim_tree_put(struct tb *b, const char *rel, const char *text);
void sim_tree_putf(struct tb *b, const char *rel, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sim_tree_link(struct tb *b, const char *rel, const char *target);
void sim_tree_dir(struct tb *b, const char *rel);
void sim_tree_open_live(struct tb *b, struct sim_file *f, const char *rel, const char *content);
/* sim_tree_gpu.c */
void sim_tree_gpu_decoys(struct tb *b, const char *host1x);
void sim_tree_gpu_put(struct tb *b, bool jp6);
/* Rewrite trans_stat from the counters. */
void sim_tree_gpu_trans_stat(struct sim *s);
/* sim_tree_board.c */
void sim_tree_board_nvpmodel(struct tb *b, bool jp6);
void sim_tree_board_ina(struct tb *b, bool jp6, int addr, int hw);
void sim_tree_board_cpu(struct tb *b);
void sim_tree_board_thermal(struct tb *b, bool jp6);
void sim_tree_board_fan(struct tb *b);
void sim_tree_board_emc(struct tb *b, bool jp6);
/* sim_tree.c */
/* Set every kept file to "absent" (before building). */
void sim_tree_init(struct sim *s);
int sim_tree_build(struct sim *s, char *err, size_t errlen);
void sim_tree_close(struct sim *s);
/* sim_file.c */
int sim_file_open_in(struct sim_file *f, const char *abs, int dfd, const char *leaf, const char *content);
int sim_file_open(struct sim *s, struct sim_file *f, const char *rel, const char *content);
void sim_file_close(struct sim_file *f);
/* Put content in place when it differs from what the file holds. */
void sim_file_put(struct sim_file *f, const char *s);
/* Read what the file holds now (another process may have written it). */
int sim_file_read(struct sim_file *f, char *buf, size_t len);
/* Create or remove a file that exists only under some governors. */
void sim_file_appear(struct sim *s, struct sim_file *f, const char *rel, const char *content);
void sim_file_vanish(struct sim_file *f);
/* Put "V\n". */
void sim_file_put_i64(struct sim_file *f, int64_t v);
/* Remove the empty folder root/rel (a governor's folder that goes away). */
void sim_file_rmdir(struct sim *s, const char *rel);
void sim_tree_add_own_faults(struct sim *s);
/* sim_rm.c */
/* Remove a tree (absolute path; or name in folder dfd), never following
 * a link out of it. */
int sim_rm_tree(const char *dir);
/* The same from a signal handler (async-signal-safe; dir is the path). */
void sim_rm_tree_now(void *dir);
int sim_rm_tree_at(int dfd, const char *name);
extern const char *const sim_gov_name[GOV_N];

#endif
