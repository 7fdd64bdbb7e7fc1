/* tegrastats: parse one line of NVIDIA's tegrastats output.
 *
 * Formats (docs/tegrastats.md): every Jetson generation from TX1 (L4T R28,
 * R32: rails "VDD_IN 2286/2286" in mW without a unit, "GR3D_FREQ p%@MHz",
 * "IRAM ...", "MTS fg 0% bg 0%") through Xavier and Orin (R35, R36: rails
 * "VDD_IN 5000mW/5000mW", "GR3D_FREQ p%@[MHz,...]") to JetPack 7
 * (temperatures "cpu@52.968C/52.968C", rails "cur/avg/max") and Thor
 * ("GR3D_FREQ @[1000,1000,1000]"); non-root lines without "@MHz".  The
 * leading "MM-DD-YYYY HH:MM:SS" timestamp (--logfile, newer releases) is
 * optional.
 *
 * The fields dvfstop needs (the timestamp, RAM, CPU, GR3D_FREQ, the rails)
 * must be well formed: a malformed one fails the line.  Any other field it
 * does not know, or whose value has a shape it does not know (IRAM, MTS,
 * SWAP, EMC_FREQ, an engine, a temperature), is skipped and its name kept
 * in skipped[], so that a new JetPack's new field costs nothing.
 *
 * Units follow the field names: util in per-mille, clocks in MHz as printed,
 * temperatures in milli-degrees C, power in mW, memory in kB.  An offline
 * core or engine ("off"), a sensor reading -256C, and anything not on the
 * line are invalid, never zero. */
#ifndef DVF_TEGRASTATS_H
#define DVF_TEGRASTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

enum {
	TEGRASTATS_MAX_CPUS = 32,
	TEGRASTATS_MAX_GPCS = 8,
	TEGRASTATS_MAX_TEMPS = 24,
	TEGRASTATS_MAX_RAILS = 16,
	TEGRASTATS_MAX_ENGINES = 24,
	TEGRASTATS_MAX_SKIPPED = 16,
	TEGRASTATS_NAME_LEN = 32,
};

struct tegrastats_cpu {
	bool online;            /* false for "off" */
	struct dvf_m util_pm;
	struct dvf_m mhz;       /* n/a when printed without "@MHz" (non-root) */
};

/* Another unit: NVENC, VIC, APE, NVDLA0 ... ("NAME off", "NAME p%@MHz",
 * "NAME @MHz", "NAME MHz"). */
struct tegrastats_engine {
	char name[TEGRASTATS_NAME_LEN];
	bool online;
	struct dvf_m util_pm;
	struct dvf_m mhz;
};

struct tegrastats_temp {
	char name[TEGRASTATS_NAME_LEN];   /* as printed: "tj", "CPU", "soc2" */
	struct dvf_m mc;        /* n/a when the sensor reads -256C (offline) */
	struct dvf_m max_mc;    /* JetPack 7's second value, when present */
};

struct tegrastats_rail {
	char name[TEGRASTATS_NAME_LEN];   /* "VDD_GPU_SOC"; "NC" = not connected */
	struct dvf_m cur_mw;
	struct dvf_m avg_mw;
	struct dvf_m max_mw;    /* JetPack 7's third value, when present */
};

struct tegrastats_rec {
	bool has_time;
	int year, month, day, hour, min, sec;

	struct dvf_m ram_used_kb, ram_total_kb;
	struct dvf_m lfb_blocks, lfb_block_kb;    /* largest free block: N x size */
	struct dvf_m swap_used_kb, swap_total_kb, swap_cached_kb;

	int n_cpus;
	struct tegrastats_cpu cpu[TEGRASTATS_MAX_CPUS];

	struct dvf_m emc_util_pm, emc_mhz;

	bool has_gpu;                 /* a GR3D_FREQ field was present */
	struct dvf_m gpu_util_pm;     /* n/a on Thor (no percent printed) */
	int n_gpcs;                   /* entries in "@[a,b]"; 1 for "p%@MHz" */
	struct dvf_m gpc_mhz[TEGRASTATS_MAX_GPCS];  /* 0 = that GPC rail-gated */
	struct dvf_m gpu_mhz;         /* the highest GPC clock */

	int n_engines;
	struct tegrastats_engine engine[TEGRASTATS_MAX_ENGINES];
	int n_temps;
	struct tegrastats_temp temp[TEGRASTATS_MAX_TEMPS];
	int n_rails;
	struct tegrastats_rail rail[TEGRASTATS_MAX_RAILS];

	/* Fields skipped (not needed, or of a shape not known), by name, each
	 * once, in line order; a temperature by its sensor name. */
	int n_skipped;
	char skipped[TEGRASTATS_MAX_SKIPPED][TEGRASTATS_NAME_LEN];
};

/* Parse one line (a trailing newline is allowed).  Returns 0, or -1 with a
 * message in err naming the field, its position (1-based column) and what
 * was expected; out is then partly filled and must not be used.  Fields
 * skipped are no error: out->skipped names them. */
int tegrastats_parse(const char *line, struct tegrastats_rec *out, char *err, size_t errlen);

/* Lookups by name (exact, case-sensitive); NULL when absent. */
const struct tegrastats_rail *tegrastats_rail(const struct tegrastats_rec *r, const char *name);
const struct tegrastats_temp *tegrastats_temp(const struct tegrastats_rec *r, const char *name);
const struct tegrastats_engine *tegrastats_engine(const struct tegrastats_rec *r, const char *name);

#endif
