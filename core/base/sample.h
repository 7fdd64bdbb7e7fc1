/* sample: one reading of every metric, each with a validity bit and a fixed unit.
 *
 * A metric that could not be read is invalid: shown as "n/a", stored as a gap,
 * never as zero.  Units are part of the field names (hz, khz, pm = per-mille,
 * mv, ma, mw, mc = milli-degrees Celsius, ns). */
#ifndef DVF_SAMPLE_H
#define DVF_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

enum {
	DVF_MAX_RAILS = 8,
	DVF_MAX_CLUSTERS = 16,       /* cpufreq policies, or a tegrastats log's cores */
	DVF_MAX_ZONES = 16,
	DVF_MAX_LEVELS = 64,
	DVF_NAME_LEN = 32,
	/* a devfreq governor's name: what the clock guard keeps whole (a file
	 * of up to 63 bytes with its newline), so control reads what it saves */
	DVF_GOV_LEN = 64,
	DVF_MAX_CORES = 32,          /* CPU cores with a load of their own */
	DVF_MAX_GPU_PROCS = 8,       /* GPU processes kept (the largest first): a table's worth */
	DVF_PROC_NAME_LEN = 16,      /* a process name as the kernel keeps it (comm) */
	DVF_MAX_GPUS = 16,           /* GPUs of one node watched together (NVML) */
	DVF_MAX_ATTR = 16,           /* processes a sample's energy attribution names */
};

/* One metric: a value and whether it is real. */
struct dvf_m {
	int64_t v;
	bool ok;
};

static inline struct dvf_m dvf_m_val(int64_t v) { return (struct dvf_m){ v, true }; }
static inline struct dvf_m dvf_m_na(void) { return (struct dvf_m){ 0, false }; }

struct dvf_rail_sample {
	struct dvf_m mv;  /* bus voltage, mV */
	struct dvf_m ma;  /* current, mA */
	struct dvf_m mw;  /* power = mV * mA / 1000, mW */
};

/* A process using the GPU, with the GPU memory it holds. */
struct dvf_gpu_proc {
	int64_t pid;
	int64_t mem_kb;               /* KiB; -1 where the driver does not say */
	char name[DVF_PROC_NAME_LEN];
	uint32_t gpus;                /* NVML: bit i for the GPU of index i it runs on
	                                 (indices under 32); 0 where not said (a Jetson) */
	struct dvf_m attr_mj;         /* NVML: the GPU energy attributed to it since it was
	                                 first seen (docs/attribution.md); n/a where none is */
	bool job;                     /* it is the followed job or one of its children */
};

/* A process's part of the GPU energy of one sample's interval. */
struct dvf_proc_energy {
	int64_t pid;
	int64_t uj;                   /* microjoules */
};

/* One GPU of a node (NVML).  The sample's own GPU fields are the node's:
 * docs/nvml.md, "Several GPUs". */
struct dvf_gpu_sample {
	struct dvf_m freq_hz;         /* graphics clock */
	struct dvf_m load_pm;         /* utilisation, per-mille */
	struct dvf_m mw;              /* board power */
	struct dvf_m mem_used_b;      /* memory used, bytes */
	struct dvf_m mem_total_b;     /* memory, bytes */
	struct dvf_m temp_mc;         /* temperature, m°C */
	struct dvf_m energy_mj;       /* its energy counter (arbitrary origin); n/a where none */
};

struct dvf_sample {
	int64_t t_ns;                 /* time from the clock interface */
	uint64_t seq;                 /* sample number since the source opened */

	struct dvf_m gpu_freq_hz;     /* cur_freq */
	struct dvf_m gpu_min_hz;      /* min_freq (effective lower limit) */
	struct dvf_m gpu_max_hz;      /* max_freq (effective upper limit) */
	struct dvf_m gpu_load_pm;     /* utilisation, per-mille 0..1000 */
	char gpu_governor[DVF_GOV_LEN];   /* "" when unreadable */

	struct dvf_rail_sample rail[DVF_MAX_RAILS]; /* indexed like dvf_info.rail */
	struct dvf_m total_mw;        /* the board's total rule applied; n/a if any part is */
	struct dvf_m hw_energy_mj;    /* a hardware energy counter (NVML), mJ from an arbitrary origin; n/a where none */

	struct dvf_m cpu_khz[DVF_MAX_CLUSTERS];     /* per cpufreq policy */
	struct dvf_m cpu_util_pm;     /* all CPUs, per-mille, from /proc/stat deltas */
	struct dvf_m temp_mc[DVF_MAX_ZONES];        /* per thermal zone; offline = n/a */
	struct dvf_m core_util_pm[DVF_MAX_CORES];   /* per CPU core (dvf_info.n_cores); offline = n/a */

	/* Memory and the rest of the board (jtop's MEM and INFO pages). */
	struct dvf_m ram_total_kb;    /* /proc/meminfo MemTotal */
	struct dvf_m ram_used_kb;     /* MemTotal - MemAvailable */
	struct dvf_m swap_total_kb;   /* SwapTotal (0 is a real value: no swap) */
	struct dvf_m swap_used_kb;    /* SwapTotal - SwapFree */
	struct dvf_m emc_hz;          /* memory (EMC) clock */
	struct dvf_m emc_load_pm;     /* memory controller activity, per-mille */
	struct dvf_m fan_pwm;         /* fan drive, 0..255 */
	struct dvf_m fan_rpm;         /* fan tachometer */
	/* Processes using the GPU: how many (n/a where the platform does not
	 * say: dvf_info.gpu_procs_why tells why), the largest few of them. */
	struct dvf_m gpu_procs;
	struct dvf_gpu_proc gpu_proc[DVF_MAX_GPU_PROCS];

	/* Energy attribution (NVML; docs/attribution.md): each process's part
	 * of the GPUs' energy since the previous sample.  attr_n: how many
	 * parts (0: no process busy, the energy was idle); n/a where the
	 * driver gives no per-process samples (dvf_info.attr_why says why). */
	struct dvf_m attr_n;
	struct dvf_proc_energy attr[DVF_MAX_ATTR];
	/* The followed job's (its pid and its children's) attributed energy
	 * since its figures began, mJ (filled by the session); n/a where the
	 * attribution is, or no process is followed. */
	struct dvf_m job_attr_mj;

	/* Fine-tune progress (filled by the progress module when one is followed). */
	struct dvf_m steps;           /* completed training steps */
	struct dvf_m tokens;          /* tokens processed, when reported */
	struct dvf_m step_ns;         /* when `steps` was reached (session clock): a
	                                 progress line's arrival, the simulator's step;
	                                 n/a where not known */

	/* Wall-clock time of the reading, ns since 1970 (a recording's
	 * unix_time_s); n/a where the source does not know it. */
	struct dvf_m unix_ns;

	/* Each GPU of the node, indexed like dvf_info.gpu_index (n_gpus of them). */
	struct dvf_gpu_sample gpu[DVF_MAX_GPUS];
};

enum dvf_board {
	DVF_BOARD_UNKNOWN = 0,
	DVF_BOARD_AGX_ORIN,
	DVF_BOARD_ORIN_NX,   /* Orin NX and Orin Nano: VDD_IN is the total */
};

/* What does not change while a source is open. */
struct dvf_info {
	char source[DVF_NAME_LEN];    /* "jetson", "replay", ... */
	char mem_clock[8];            /* what the memory clock is called: "" a Jetson's EMC, "mem" NVML's */
	bool discrete;                /* discrete GPUs (NVML): the machine is its driver, not L4T */
	char mode[DVF_NAME_LEN];      /* "live", "simulated", "replay" */
	char board_name[96];          /* /proc/device-tree/model */
	enum dvf_board board;
	char l4t[DVF_NAME_LEN];       /* e.g. "R36.4.4"; "" when unknown */
	char power_mode[DVF_NAME_LEN];/* nvpmodel mode name, e.g. "MAXN"; "" when unknown */
	int power_mode_id;            /* -1 when unknown */

	int n_levels;                 /* GPU clock table, ascending, Hz */
	int64_t level_hz[DVF_MAX_LEVELS];
	char gpu_node[256];           /* devfreq node found (for messages) */

	int n_rails;
	char rail_name[DVF_MAX_RAILS][DVF_NAME_LEN];
	bool rail_in_total[DVF_MAX_RAILS];
	char total_rule[128];         /* how the total is made, in words */
	bool total_known;             /* false: a board we do not know, total = sum */

	int n_clusters;
	char cluster_name[DVF_MAX_CLUSTERS][DVF_NAME_LEN]; /* "policy0" ... */
	int n_zones;
	char zone_name[DVF_MAX_ZONES][DVF_NAME_LEN];

	int n_cores;                  /* cores listed in core_util_pm (highest number + 1) */
	int core_cluster[DVF_MAX_CORES]; /* index in cluster_name; -1 when not known */
	char gpu_procs_why[96];       /* why the GPU's processes are n/a; "" when known */
	char attr_why[128];           /* why the energy attribution is n/a; "" when known */
	/* NVML: the driver's version ("550.54.15") and the CUDA version it
	 * supports ("12.4"); "" where not known (a Jetson has L4T instead). */
	char driver[DVF_NAME_LEN];
	char cuda[DVF_NAME_LEN];
	/* The GPUs watched one by one (NVML; a recording of them): 0 where the
	 * source has no per-GPU view (a Jetson, the simulator). */
	int n_gpus;
	int gpu_index[DVF_MAX_GPUS];  /* each one's number (NVML's index) */
};

/* Index of the level equal to hz, or -1. */
int sample_level_index(const struct dvf_info *in, int64_t hz);
/* Index of the level nearest to hz (ties go to the lower level), or -1 if none. */
int sample_level_nearest(const struct dvf_info *in, int64_t hz);
/* A clock table longer than DVF_MAX_LEVELS (an NVML GPU lists more than a
 * hundred clocks, a measured curve may too) is kept as an evenly spread
 * subset: the indices of max of n ascending levels, the lowest and the
 * highest always among them, into idx.  Returns how many (n where n <= max). */
int sample_levels_pick(int n, int max, int *idx);
/* Make every name in *in safe to print (text_safe: a control byte becomes
 * '?'); each source calls it as it opens, since those names come from
 * files (a tree's model, rail labels, a recording's columns). */
void sample_info_safe(struct dvf_info *in);
/* The same for a sample's names (the governor, the GPU's processes). */
void sample_safe(struct dvf_sample *s);

#endif
