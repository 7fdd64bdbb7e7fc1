/* prom_render: the Prometheus exposition text of a prom_view (prom.h),
 * built in memory, the same for the textfile and /metrics.  Pure: prom.c
 * serves and writes what this returns. */
#include "config.h"
#include "prom.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the exposition text --------------------------------------------------- */

struct fam {
	const char *name, *type, *help;
	bool started;
};

struct emit {
	FILE *fp;
	const char *board;
	const char *run_id, *job_name;  /* NULL or "": no label */
};

/* A label value with the three escapes the format has.  The format has
 * none for other controls and wants UTF-8: those are shown as '?'
 * (text_safe), so a hostile rail label can reach no terminal that prints
 * the scrape, nor make Prometheus refuse it. */
static void put_label(FILE *fp, const char *raw)
{
	size_t n = strlen(raw) + 1;
	char small[256];
	char *safe = n <= sizeof small ? small : malloc(n);
	if (!safe) {
		fputc('?', fp);
		return;
	}
	memcpy(safe, raw, n);
	text_safe_lines(safe);   /* '\n' has its escape below; a tab is fine */
	for (const char *v = safe; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", fp);
		else if (*v == '"')
			fputs("\\\"", fp);
		else if (*v == '\n')
			fputs("\\n", fp);
		else
			fputc(*v, fp);
	}
	if (safe != small)
		free(safe);
}

/* ,NAME="VALUE" when the value is known. */
static void put_pair(FILE *fp, const char *name, const char *v)
{
	if (!name || !v || !*v)
		return;
	fprintf(fp, ",%s=\"", name);
	put_label(fp, v);
	fputc('"', fp);
}

/* board="..." and the run's labels, which every series carries. */
static void put_common(struct emit *e)
{
	fputs("board=\"", e->fp);
	put_label(e->fp, e->board);
	fputc('"', e->fp);
	put_pair(e->fp, "run_id", e->run_id);
	put_pair(e->fp, "job_name", e->job_name);
}

/* One series with up to two labels of its own; the family's HELP and TYPE
 * go first, once, so a family with no valid series is left out entirely. */
static void series2(struct emit *e, struct fam *f, const char *lname, const char *lval,
		    const char *lname2, const char *lval2, const char *value)
{
	if (!f->started) {
		fprintf(e->fp, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help, f->name, f->type);
		f->started = true;
	}
	fprintf(e->fp, "%s{", f->name);
	put_common(e);
	if (lname) {
		fprintf(e->fp, ",%s=\"", lname);
		put_label(e->fp, lval);
		fputc('"', e->fp);
	}
	put_pair(e->fp, lname2, lval2);
	fprintf(e->fp, "} %s\n", value);
}

static void series(struct emit *e, struct fam *f, const char *lname, const char *lval, const char *value)
{
	series2(e, f, lname, lval, NULL, NULL, value);
}

static void series_d(struct emit *e, struct fam *f, const char *lname, const char *lval, double v)
{
	char b[48];
	snprintf(b, sizeof b, "%.12g", v);
	series(e, f, lname, lval, b);
}

static void series_i(struct emit *e, struct fam *f, const char *lname, const char *lval, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", (long long)v);
	series(e, f, lname, lval, b);
}

/* A metric scaled to its base unit, only when valid. */
static void series_m(struct emit *e, struct fam *f, const char *lname, const char *lval, struct dvf_m m, double scale)
{
	if (m.ok)
		series_d(e, f, lname, lval, (double)m.v * scale);
}

/* The board besides the GPU and the rails: per-core load by cluster,
 * memory, the EMC, the fan, the GPU's processes.  n/a: no series. */
static void prom_board(struct emit *e, const struct dvf_info *in, const struct dvf_sample *c)
{
	char b[48], core[16];
	struct fam f_core = { "dvfstop_cpu_core_utilization_ratio", "gauge",
			      "Utilisation of each CPU core, 0 to 1; label cluster: its cpufreq policy.", false };
	for (int i = 0; i < in->n_cores && i < DVF_MAX_CORES; i++) {
		if (!c->core_util_pm[i].ok)
			continue;
		int k = in->core_cluster[i];
		snprintf(core, sizeof core, "cpu%d", i);
		snprintf(b, sizeof b, "%.12g", (double)c->core_util_pm[i].v * 1e-3);
		series2(e, &f_core, "cpu", core, "cluster", k >= 0 && k < in->n_clusters ? in->cluster_name[k] : "", b);
	}
	struct fam f_mu = { "dvfstop_memory_used_bytes", "gauge",
			    "RAM in use (MemTotal - MemAvailable) and swap in use; label memory: ram or swap.", false };
	series_m(e, &f_mu, "memory", "ram", c->ram_used_kb, 1024);
	series_m(e, &f_mu, "memory", "swap", c->swap_used_kb, 1024);
	struct fam f_mt = { "dvfstop_memory_total_bytes", "gauge", "RAM and swap there are; label memory: ram or swap.", false };
	series_m(e, &f_mt, "memory", "ram", c->ram_total_kb, 1024);
	series_m(e, &f_mt, "memory", "swap", c->swap_total_kb, 1024);
	struct fam f_emc = { "dvfstop_emc_frequency_hertz", "gauge", "Memory (EMC) clock.", false };
	series_m(e, &f_emc, NULL, NULL, c->emc_hz, 1);
	struct fam f_emu = { "dvfstop_emc_utilization_ratio", "gauge", "Memory controller activity, 0 to 1.", false };
	series_m(e, &f_emu, NULL, NULL, c->emc_load_pm, 1e-3);
	struct fam f_pwm = { "dvfstop_fan_pwm_ratio", "gauge", "Fan drive (PWM), 0 to 1.", false };
	series_m(e, &f_pwm, NULL, NULL, c->fan_pwm, 1.0 / 255);
	struct fam f_rpm = { "dvfstop_fan_speed_rpm", "gauge", "Fan speed from its tachometer.", false };
	series_m(e, &f_rpm, NULL, NULL, c->fan_rpm, 1);
	struct fam f_np = { "dvfstop_gpu_processes", "gauge", "Processes holding GPU memory.", false };
	series_m(e, &f_np, NULL, NULL, c->gpu_procs, 1);
	struct fam f_pm = { "dvfstop_gpu_process_memory_bytes", "gauge",
			    "GPU memory of the largest processes using the GPU; labels pid and process.", false };
	for (int i = 0; c->gpu_procs.ok && i < DVF_MAX_GPU_PROCS && i < c->gpu_procs.v; i++) {
		if (c->gpu_proc[i].mem_kb < 0)
			continue;
		snprintf(core, sizeof core, "%lld", (long long)c->gpu_proc[i].pid);
		snprintf(b, sizeof b, "%lld", (long long)c->gpu_proc[i].mem_kb * 1024);
		series2(e, &f_pm, "pid", core, "process", c->gpu_proc[i].name, b);
	}
}

/* Each GPU of a node (NVML), with a gpu label: its clock, utilisation,
 * power, memory, temperature and its driver's energy counter. */
static void per_gpu(struct emit *e, const struct dvf_info *in, const struct dvf_sample *c)
{
	struct fam f[] = {
		{ "dvfstop_gpu_frequency_hertz", "gauge", "Current GPU clock.", false },
		{ "dvfstop_gpu_utilization_ratio", "gauge", "GPU utilisation, 0 to 1.", false },
		{ "dvfstop_gpu_power_watts", "gauge", "Board power of each GPU of a node (NVML).", false },
		{ "dvfstop_gpu_memory_used_bytes", "gauge", "Memory used on each GPU of a node (NVML).", false },
		{ "dvfstop_gpu_memory_total_bytes", "gauge", "Memory of each GPU of a node (NVML).", false },
		{ "dvfstop_gpu_temperature_celsius", "gauge", "Temperature of each GPU of a node (NVML).", false },
		{ "dvfstop_gpu_energy_counter_joules_total", "counter",
		  "Each GPU's energy counter (NVML, since the driver loaded): for rate() and increase().", false },
	};
	char id[DVF_MAX_GPUS][12];
	for (int i = 0; i < in->n_gpus && i < DVF_MAX_GPUS; i++)
		snprintf(id[i], sizeof id[i], "%d", in->gpu_index[i]);
	/* Family by family: each one's HELP and TYPE once, its series together. */
	for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
		for (int i = 0; i < in->n_gpus && i < DVF_MAX_GPUS; i++) {
			const struct dvf_gpu_sample *g = &c->gpu[i];
			const struct dvf_m m[] = { g->freq_hz, g->load_pm, g->mw, g->mem_used_b, g->mem_total_b,
						   g->temp_mc, g->energy_mj };
			static const double scale[] = { 1, 1e-3, 1e-3, 1, 1, 1e-3, 1e-3 };
			series_m(e, &f[k], "gpu", id[i], m[k], scale[k]);
		}
}

/* What the governor's profile measured at each slowdown budget against
 * the top level (label budget: "0", "0.05", "0.1"): the cheapest measured
 * level within it, its J/step and its saving against the baseline.  A
 * budget no measured level meets is left out, never 0. */
static void fleet_trade(struct emit *e, const struct prom_view *v)
{
	struct fam f_hz = { "dvfstop_governor_trade_frequency_hertz", "gauge",
			    "The cheapest GPU clock the governor's profile measured within the step-time budget (label budget: 0.05 is 5 % slower than the top level); absent where none was measured within it.", false };
	struct fam f_jps = { "dvfstop_governor_trade_energy_per_step_joules", "gauge",
			     "That clock's energy per training step, as the profile measured it.", false };
	struct fam f_sav = { "dvfstop_governor_trade_saving_ratio", "gauge",
			     "That clock's saving in energy per step against the baseline at the user's clocks, as a fraction (0.1: 10 % less; negative: more).", false };
	struct fam *fams[] = { &f_hz, &f_jps, &f_sav };
	char lb[32];
	for (size_t k = 0; k < sizeof fams / sizeof fams[0]; k++)
		for (int i = 0; i < v->n_trade && i < PROM_TRADE_MAX; i++) {
			const struct prom_trade *t = &v->trade[i];
			if (!t->ok)
				continue;
			snprintf(lb, sizeof lb, "%g", t->budget);
			if (k == 0)
				series_i(e, fams[k], "budget", lb, t->hz);
			else if (k == 1)
				series_d(e, fams[k], "budget", lb, t->jps);
			else if (t->saving_ok)
				series_d(e, fams[k], "budget", lb, t->saving);
		}
}

/* The governor: its state, the level it pins, and the energy it saved.
 * The saving is net (the baseline's cost of the governed steps less what
 * they used), so it falls while a profile measures dearer levels; the two
 * counters beside it only rise, for rate(). */
static void fleet_governor(struct emit *e, const struct prom_view *v)
{
	if (!v->gov_state)
		return;
	struct fam f_on = { "dvfstop_governor_info", "gauge",
			    "Always 1 while a governor was started; label state: warm-up, verify, baseline, profile, hold, suspended, ended, off.", false };
	series_i(e, &f_on, "state", v->gov_state, 1);
	struct fam f_hz = { "dvfstop_gpu_governed_frequency_hertz", "gauge",
			    "The GPU clock the governor pins now; absent while it pins none.", false };
	series_m(e, &f_hz, NULL, NULL, v->governed_hz, 1);
	struct fam f_reh = { "dvfstop_governor_rehearsal", "gauge",
			     "1 when the governor rehearses on the simulated board with a real job, whose steps the simulated clock does not drive: no energy saved is exported; else 0.", false };
	series_i(e, &f_reh, NULL, NULL, v->gov_rehearsal ? 1 : 0);
	if (!v->saved_ok)
		return;
	struct fam f_saved = { "dvfstop_energy_saved_joules_total", "counter",
			       "Energy the governor saved against the baseline J/step measured at the user's clocks (net: a profile's dearer levels count against it).", false };
	series_d(e, &f_saved, NULL, NULL, v->saved_j);
	struct fam f_base = { "dvfstop_governed_baseline_joules_total", "counter",
			      "What the governed training steps would have used at the baseline J/step.", false };
	series_d(e, &f_base, NULL, NULL, v->baseline_j);
	struct fam f_used = { "dvfstop_governed_energy_joules_total", "counter",
			      "What the governed training steps used.", false };
	series_d(e, &f_used, NULL, NULL, v->governed_j);
	fleet_trade(e, v);
}

/* The clocks dvfstop chose: the one it set (absent while the board's clock
 * is as dvfstop found it) and the one its policy recommends (absent while
 * nothing is recommended). */
static void fleet_clocks(struct emit *e, const struct prom_view *v)
{
	struct fam f_set = { "dvfstop_gpu_clock_set_hertz", "gauge",
			     "The GPU clock dvfstop holds set (mode pin or cap, by user, policy or sweep); absent while the clock is as dvfstop found it.", false };
	if (v->ctl_mode && v->ctl_hz > 0) {
		char b[32];
		snprintf(b, sizeof b, "%lld", (long long)v->ctl_hz);
		series2(e, &f_set, "mode", v->ctl_mode, "by", v->ctl_by, b);
	}
	struct fam f_rec = { "dvfstop_gpu_recommended_frequency_hertz", "gauge",
			     "The GPU clock the dashboard's policy recommends; absent while nothing is recommended.", false };
	series_m(e, &f_rec, NULL, NULL, v->recommended_hz, 1);
	fleet_governor(e, v);
}

/* The followed fine-tune: whether it runs, and its energy per step. */
static void fleet_job(struct emit *e, const struct prom_view *v)
{
	struct fam f_run = { "dvfstop_training_running", "gauge",
			     "1 while the followed fine-tune runs, 0 once it has ended; absent when none is followed.", false };
	if (v->job_followed)
		series_i(e, &f_run, NULL, NULL, v->job_running ? 1 : 0);
	struct fam f_jps = { "dvfstop_training_energy_per_step_joules", "gauge",
			     "Board energy per training step of the followed fine-tune, since it started.", false };
	if (v->jps_ok)
		series_d(e, &f_jps, NULL, NULL, v->j_per_step);
}

/* The followed job's part of the GPU energy, an attribution
 * (docs/attribution.md), with the job's labels; absent where n/a. */
static void fleet_attribution(struct emit *e, const struct prom_view *v)
{
	struct fam f_e = { "dvfstop_job_attributed_energy_joules_total", "counter",
			   "GPU energy attributed to the followed job's processes by their share of per-process SM "
			   "utilisation (NVML), since its figures began; an attribution, not a measurement.", false };
	if (v->job_followed && v->cur)
		series_m(e, &f_e, NULL, NULL, v->cur->job_attr_mj, 1e-3);
	struct fam f_jps = { "dvfstop_job_attributed_energy_per_step_joules", "gauge",
			     "Attributed GPU energy per training step of the followed job (an attribution).", false };
	if (v->job_followed && v->attr_jps_ok)
		series_d(e, &f_jps, NULL, NULL, v->attr_j_per_step);
}

char *prom_render(const struct prom_view *v, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	if (!fp)
		return NULL;
	const struct dvf_info *in = v->info;
	/* A simulated board is never taken for a real one in a fleet's view:
	 * its name says so, as the summary's does. */
	char board[sizeof in->board_name + 16];
	snprintf(board, sizeof board, "%s%s", in->board_name[0] ? in->board_name : "unknown",
		 strcmp(in->mode, "simulated") == 0 ? " (simulated)" : "");
	struct emit e = { fp, board, v->run_id, v->job_followed ? v->job_name : NULL };

	struct fam info = { "dvfstop_info", "gauge", "Board, software and telemetry source of this dvfstop (always 1)." , false };
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", info.name, info.help, info.name, info.type);
	fputs("dvfstop_info{", fp);
	put_common(&e);
	fputs(",l4t=\"", fp);
	put_label(fp, in->l4t);
	fputs("\",power_mode=\"", fp);
	put_label(fp, in->power_mode);
	fputs("\",source=\"", fp);
	put_label(fp, in->source);
	fputs("\",mode=\"", fp);
	put_label(fp, in->mode);
	fputs("\",version=\"", fp);
	put_label(fp, PACKAGE_VERSION);
	fputs("\"} 1\n", fp);

	struct fam samples = { "dvfstop_samples_total", "counter", "Samples taken (or rows replayed).", false };
	series_i(&e, &samples, NULL, NULL, (int64_t)v->n_samples);

	const struct dvf_sample *c = v->cur;
	if (c) {
		struct fam f_hz = { "dvfstop_gpu_frequency_hertz", "gauge", "Current GPU clock.", false };
		struct fam f_min = { "dvfstop_gpu_min_frequency_hertz", "gauge", "Lower limit of the GPU clock (devfreq min_freq).", false };
		struct fam f_max = { "dvfstop_gpu_max_frequency_hertz", "gauge", "Upper limit of the GPU clock (devfreq max_freq).", false };
		struct fam f_util = { "dvfstop_gpu_utilization_ratio", "gauge", "GPU utilisation, 0 to 1.", false };
		struct fam f_gov = { "dvfstop_gpu_governor_info", "gauge", "The GPU's devfreq governor (always 1).", false };
		/* A node's GPUs (NVML) each with their gpu label; a Jetson's one GPU without. */
		if (in->n_gpus > 0)
			per_gpu(&e, in, c);
		else
			series_m(&e, &f_hz, NULL, NULL, c->gpu_freq_hz, 1);
		series_m(&e, &f_min, NULL, NULL, c->gpu_min_hz, 1);
		series_m(&e, &f_max, NULL, NULL, c->gpu_max_hz, 1);
		if (in->n_gpus == 0)
			series_m(&e, &f_util, NULL, NULL, c->gpu_load_pm, 1e-3);
		if (c->gpu_governor[0])
			series(&e, &f_gov, "governor", c->gpu_governor, "1");
		fleet_clocks(&e, v);

		struct fam f_w = { "dvfstop_rail_power_watts", "gauge", "Power of each INA3221 rail.", false };
		struct fam f_v = { "dvfstop_rail_voltage_volts", "gauge", "Bus voltage of each rail.", false };
		struct fam f_a = { "dvfstop_rail_current_amperes", "gauge", "Current of each rail.", false };
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_w, "rail", in->rail_name[i], c->rail[i].mw, 1e-3);
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_v, "rail", in->rail_name[i], c->rail[i].mv, 1e-3);
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_a, "rail", in->rail_name[i], c->rail[i].ma, 1e-3);
		struct fam f_tot = { "dvfstop_power_watts", "gauge", "Board power by the board's total rule.", false };
		series_m(&e, &f_tot, NULL, NULL, c->total_mw, 1e-3);
	}
	if (v->energy) {
		struct fam f_re = { "dvfstop_rail_energy_joules_total", "counter", "Energy of each rail since dvfstop started.", false };
		for (int i = 0; i < in->n_rails; i++)
			if (v->energy->ch[i].have)
				series_d(&e, &f_re, "rail", in->rail_name[i], v->energy->ch[i].mj * 1e-3);
		struct fam f_te = { "dvfstop_energy_joules_total", "counter", "Board energy (total rule) since dvfstop started.", false };
		if (v->energy->ch[ENERGY_TOTAL].have)
			series_d(&e, &f_te, NULL, NULL, v->energy->ch[ENERGY_TOTAL].mj * 1e-3);
	}
	if (c) {
		struct fam f_cu = { "dvfstop_cpu_utilization_ratio", "gauge", "Utilisation of all CPUs, 0 to 1.", false };
		series_m(&e, &f_cu, NULL, NULL, c->cpu_util_pm, 1e-3);
		struct fam f_cf = { "dvfstop_cpu_frequency_hertz", "gauge", "Clock of each cpufreq policy.", false };
		for (int i = 0; i < in->n_clusters; i++)
			series_m(&e, &f_cf, "policy", in->cluster_name[i], c->cpu_khz[i], 1e3);
		struct fam f_t = { "dvfstop_temperature_celsius", "gauge", "Temperature of each thermal zone.", false };
		for (int i = 0; i < in->n_zones; i++)
			series_m(&e, &f_t, "zone", in->zone_name[i], c->temp_mc[i], 1e-3);
		prom_board(&e, in, c);
		struct fam f_st = { "dvfstop_training_steps_total", "counter", "Training steps the followed fine-tune has completed.", false };
		if (c->steps.ok)
			series_i(&e, &f_st, NULL, NULL, c->steps.v);
		struct fam f_tk = { "dvfstop_training_tokens_total", "counter", "Tokens the followed fine-tune has processed.", false };
		if (c->tokens.ok)
			series_i(&e, &f_tk, NULL, NULL, c->tokens.v);
	}
	fleet_job(&e, v);
	fleet_attribution(&e, v);
	if (fclose(fp) != 0) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}
