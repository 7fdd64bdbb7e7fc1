/* session_summary: what a run leaves behind: the summary as text (the
 * end of --batch, the dashboard's exit) and as JSON (--json, the
 * recording's sidecar). */
#include "config.h"
#include "session.h"
#include "session_priv.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "govern.h"
#include "govern_trade.h"
#include "job.h"
#include "source.h"
#include "sim.h"
#include "session_workload.h"

/* The job's pid, exit_code, signal and exit_status (128+N for signal N),
 * null where not known. */
static void add_exit_json(const struct session *s, json_object *j)
{
	enum job_state st = s->job ? job_state(s->job) : JOB_GONE;
	pid_t pid = s->job ? job_pid(s->job) : 0;
	json_object_object_add(j, "pid", pid > 0 ? json_object_new_int64(pid) : NULL);
	json_object_object_add(j, "exit_code", st == JOB_EXITED ? json_object_new_int(job_exit_code(s->job)) : NULL);
	json_object_object_add(j, "signal", st == JOB_SIGNALED ? json_object_new_int(job_signal(s->job)) : NULL);
	int es = s->job ? job_exit_status(s->job) : -1;
	json_object_object_add(j, "exit_status", es >= 0 ? json_object_new_int(es) : NULL);
	json_object_object_add(j, "left_running", json_object_new_boolean(st == JOB_DETACHED));
}

/* A record of the profile cache the governor started from (null: none):
 * what it held, when, and what its verification window said. */
static json_object *cache_json(const struct govern *g)
{
	if (!g->cached && !g->cache_verdict)
		return NULL;
	const struct gcache_rec *r = &g->cache;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "held_hz", r->held_hz ? json_object_new_int64(r->held_hz) : NULL);
	json_object_object_add(o, "j_per_step", json_object_new_double(r->jps));
	json_object_object_add(o, "s_per_step", json_object_new_double(r->sps));
	json_object_object_add(o, "baseline_j_per_step", json_object_new_double(r->base_jps));
	json_object_object_add(o, "date", json_object_new_string(r->date));
	json_object_object_add(o, "dvfstop_version", json_object_new_string(r->version));
	json_object_object_add(o, "verified", g->cache_verdict ? json_object_new_boolean(g->cache_verdict > 0) : NULL);
	return o;
}

/* The profile's trade (govern_trade.h): per budget its level, J/step and
 * saving, null where n/a (with why); null as a whole in a rehearsal, whose
 * J/step are not the job's. */
static json_object *trade_json(const struct govern *g, bool rehearsal)
{
	if (rehearsal)
		return NULL;
	struct govern_trade t;
	govern_trade_of(g, &t);
	json_object *a = json_object_new_array();
	for (int k = 0; k < GOVERN_TRADE_N; k++) {
		const struct govern_trade_pt *b = &t.b[k];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "max_slowdown", json_object_new_double(b->budget));
		json_object_object_add(o, "level_hz", b->ok ? json_object_new_int64(b->hz) : NULL);
		json_object_object_add(o, "j_per_step", b->ok ? json_object_new_double(b->jps) : NULL);
		json_object_object_add(o, "slowdown", b->ok ? json_object_new_double(b->slowdown) : NULL);
		json_object_object_add(o, "saving_pct", b->ok && b->saving_ok ? json_object_new_double(b->saving * 100) : NULL);
		json_object_object_add(o, "why_na", b->ok ? NULL : json_object_new_string(b->why));
		json_object_array_add(a, o);
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "top_hz", t.top_hz > 0 ? json_object_new_int64(t.top_hz) : NULL);
	json_object_object_add(o, "top_s_per_step", t.top_ok ? json_object_new_double(t.top_sps) : NULL);
	json_object_object_add(o, "top_from_model", json_object_new_boolean(t.top_model));
	json_object_object_add(o, "baseline_j_per_step", t.base_ok ? json_object_new_double(t.base_jps) : NULL);
	json_object_object_add(o, "budgets", a);
	return o;
}

/* The governor: where it stands, what it held, what it saved.  A
 * rehearsal (session_rehearsal) saves nothing: its energy saved is null. */
static json_object *governor_json(const struct govern *g, bool rehearsal)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "state", json_object_new_string(govern_state_name(g->state)));
	json_object_object_add(o, "rehearsal", json_object_new_boolean(rehearsal));
	if (rehearsal)
		json_object_object_add(o, "rehearsal_why", json_object_new_string(OPTIONS_REHEARSAL_WHY));
	json_object_object_add(o, "held_hz", g->held >= 0 ? json_object_new_int64(g->cfg.level_hz[g->held]) : NULL);
	json_object_object_add(o, "select", json_object_new_string(sweep_select_name(g->cfg.select)));
	json_object_object_add(o, "profiles", json_object_new_int(g->profiles));
	json_object_object_add(o, "first_profile_steps",
			       g->first_profile_steps >= 0 ? json_object_new_int64(g->first_profile_steps) : NULL);
	json_object_object_add(o, "verification_windows", json_object_new_int(g->verify_windows));
	json_object_object_add(o, "from_cache", cache_json(g));
	json_object_object_add(o, "baseline_j_per_step", g->base_ok ? json_object_new_double(g->base_jps) : NULL);
	json_object_object_add(o, "baseline", json_object_new_string(govern_base_cached(g)
		? "the cached profile's, rescaled by the verification window"
		: govern_base_moving(g) ? "measured at the user's clocks while the board's governor moved them (uncertain)"
					: "measured at the user's clocks"));
	json_object_object_add(o, "baseline_clocks_moving", json_object_new_boolean(govern_base_moving(g)));
	json_object_object_add(o, "baseline_hz", g->base_ok && g->base_level >= 0
				? json_object_new_int64(g->cfg.level_hz[g->base_level]) : NULL);
	json_object_object_add(o, "energy_saved_j", g->base_ok && !rehearsal ? json_object_new_double(g->saved_j) : NULL);
	json_object_object_add(o, "energy_saved_pct", g->base_ok && !rehearsal ? json_object_new_double(govern_saved_pct(g)) : NULL);
	json_object_object_add(o, "saved_steps", json_object_new_int64(g->save_steps));
	json_object_object_add(o, "holds_user_clocks", json_object_new_boolean(g->hold_user));
	json_object_object_add(o, "watch_window_steps", g->hold_n > 0 ? json_object_new_int64(g->hold_n) : NULL);
	json_object_object_add(o, "last_decision", json_object_new_string(govern_last(g)));
	json_object_object_add(o, "trade", trade_json(g, rehearsal));
	return o;
}

static void print_governor(const struct govern *g, bool rehearsal, FILE *fp)
{
	char d[200];
	govern_describe(g, d, sizeof d);
	fprintf(fp, "governor: %s%s\n", rehearsal ? "rehearsal, " : "", d);
	if (rehearsal)
		fprintf(fp, "  %-18s %s: the machinery ran; its J/step are not the job's and no saving is counted\n", "rehearsal",
			OPTIONS_REHEARSAL_WHY);
	if (g->held >= 0)
		fprintf(fp, "  %-18s %9.1f MHz\n", "held", g->cfg.level_hz[g->held] * 1e-6);
	fprintf(fp, "  %-18s %d", "profiles", g->profiles);
	if (g->cache_verdict > 0)
		fprintf(fp, " (this job's cached profile of %s, verified in %d window)", g->cache.date, g->verify_windows);
	else if (g->first_profile_steps >= 0)
		fprintf(fp, " (the first took %lld steps%s)", (long long)g->first_profile_steps,
			g->cache_verdict < 0 ? "; the cached profile did not fit" : "");
	fputc('\n', fp);
	if (rehearsal) {
		fprintf(fp, "  %-18s n/a (a rehearsal: no saving is counted)\n", "energy saved");
		return;
	}
	if (!g->base_ok) {
		fprintf(fp, "  %-18s n/a (no baseline measured yet)\n", "energy saved");
		return;
	}
	fprintf(fp, "  %-18s %12.4f J/step at the user's clocks (%s)\n", "baseline", g->base_jps,
		govern_base_cached(g) ? "the cached profile's, rescaled"
		: govern_base_moving(g) ? "measured while the board's governor moved them: uncertain, it wanders over minutes"
					: "measured");
	fprintf(fp, "  %-18s %12.3f J over %lld steps (%.1f %%)\n", "energy saved", g->saved_j,
		(long long)g->save_steps, govern_saved_pct(g));
	/* what the profile measured at 0, 5 and 10 % slower than the top level */
	struct govern_trade t;
	char tl[200];
	govern_trade_of(g, &t);
	govern_trade_format(&t, false, tl, sizeof tl);
	bool any = false;
	for (int k = 0; k < GOVERN_TRADE_N; k++)
		any |= t.b[k].ok;
	fprintf(fp, "  %-18s %s%s\n", "trade", tl, any ? " (than the top level; J/step against the baseline)" : "");
}

/* A node of several GPUs: each one's last clock, load and power, and the
 * energy its own counter counted over the run. */
static json_object *gpus_json(const struct session *s)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < s->info->n_gpus && i < DVF_MAX_GPUS; i++) {
		const struct dvf_gpu_sample *g = &s->cur.gpu[i];
		json_object *o = json_object_new_object();
		int64_t mj;
		json_object_object_add(o, "index", json_object_new_int(s->info->gpu_index[i]));
		json_object_object_add(o, "gpu_freq_hz", g->freq_hz.ok ? json_object_new_int64(g->freq_hz.v) : NULL);
		json_object_object_add(o, "gpu_util_pct",
				       g->load_pm.ok ? json_object_new_double((double)g->load_pm.v / 10) : NULL);
		json_object_object_add(o, "power_w", g->mw.ok ? json_object_new_double((double)g->mw.v * 1e-3) : NULL);
		json_object_object_add(o, "energy_j", energy_counter_mj(&s->gpu_hw[i], &mj) ?
				       json_object_new_double((double)mj * 1e-3) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static void print_gpus(const struct session *s, FILE *fp)
{
	fprintf(fp, "GPUs (last sample; energy by each GPU's counter):\n");
	for (int i = 0; i < s->info->n_gpus && i < DVF_MAX_GPUS; i++) {
		const struct dvf_gpu_sample *g = &s->cur.gpu[i];
		char f[24] = "n/a", l[24] = "n/a", w[24] = "n/a", e[24] = "n/a";
		int64_t mj;
		if (g->freq_hz.ok)
			snprintf(f, sizeof f, "%.1f MHz", (double)g->freq_hz.v * 1e-6);
		if (g->load_pm.ok)
			snprintf(l, sizeof l, "%.1f %%", (double)g->load_pm.v / 10);
		if (g->mw.ok)
			snprintf(w, sizeof w, "%.3f W", (double)g->mw.v * 1e-3);
		if (energy_counter_mj(&s->gpu_hw[i], &mj))
			snprintf(e, sizeof e, "%.3f J", (double)mj * 1e-3);
		fprintf(fp, "  gpu %-14d %12s %9s %12s %14s\n", s->info->gpu_index[i], f, l, w, e);
	}
}

/* Whether the summary has an attribution line: a process followed, or a
 * replayed recording whose column has the job's attributed energy (an
 * empty column, a board without attribution, says nothing: as live). */
static bool attributed(const struct session *s)
{
	return (s->job && job_pid(s->job) > 0) || (s->replay_job && s->job_attr_seen);
}

/* The job's attributed part of the GPU energy (docs/attribution.md). */
static json_object *attribution_json(const struct job_stats *js)
{
	json_object *a = json_object_new_object();
	json_object_object_add(a, "method", json_object_new_string(ATTRIBUTION_METHOD));
	json_object_object_add(a, "energy_j", js->attr_ok ? json_object_new_double(js->attr_j) : NULL);
	json_object_object_add(a, "j_per_step", js->attr_jps_ok ? json_object_new_double(js->attr_j_per_step) : NULL);
	if (!js->attr_ok)
		json_object_object_add(a, "why", json_object_new_string(js->attr_why));
	return a;
}

static void print_attribution(const struct job_stats *js, FILE *fp)
{
	if (!js->attr_ok) {
		fprintf(fp, "  %-18s attribution n/a: %s\n", "attributed", js->attr_why);
		return;
	}
	fprintf(fp, "  %-18s %12.3f J (attribution: %s)\n", "attributed", js->attr_j, ATTRIBUTION_METHOD);
	if (js->attr_jps_ok)
		fprintf(fp, "  %-18s %12.4f J/step (attribution)\n", "attributed/step", js->attr_j_per_step);
}

static json_object *summary_json(const struct session *s)
{
	const struct dvf_info *in = s->info;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "duration_s", json_object_new_double(session_elapsed_s(s)));
	json_object_object_add(o, "samples", json_object_new_int64((int64_t)s->n_samples));
	json_object *rails = json_object_new_array();
	for (int i = 0; i <= in->n_rails; i++) {
		int ch = i == in->n_rails ? ENERGY_TOTAL : i;
		const struct energy_chan *c = &s->energy.ch[ch];
		json_object *r = json_object_new_object();
		json_object_object_add(r, "name", json_object_new_string(ch == ENERGY_TOTAL ? "total" : in->rail_name[i]));
		json_object_object_add(r, "energy_j", json_object_new_double(c->mj * 1e-3));
		double mw;
		if (energy_mean_mw(&s->energy, ch, &mw))
			json_object_object_add(r, "mean_w", json_object_new_double(mw * 1e-3));
		else
			json_object_object_add(r, "mean_w", NULL);
		const struct dvf_m *last = ch == ENERGY_TOTAL ? &s->cur.total_mw : &s->cur.rail[i].mw;
		json_object_object_add(r, "last_mw", last->ok ? json_object_new_int64(last->v) : NULL);
		json_object_object_add(r, "bridged_s", json_object_new_double((double)c->bridged_ns * 1e-9));
		json_object_object_add(r, "lost_s", json_object_new_double((double)c->lost_ns * 1e-9));
		json_object_array_add(rails, r);
	}
	json_object_object_add(o, "rails", rails);
	json_object_object_add(o, "total_rule", json_object_new_string(in->total_rule));
	/* what the policy was told (workload_resolve.h), so that a replay can
	 * tell it again */
	struct workload wl;
	const char *model;
	char werr[512];
	session_workload_fixed(s, &wl, &model, werr, sizeof werr);
	int64_t seq_len = workload_has(&wl, WL_SEQ_LEN) ? (int64_t)wl.f[WL_SEQ_LEN].v : 0;
	if (model || seq_len > 0) {
		json_object *w = json_object_new_object();
		json_object_object_add(w, "model", model ? json_object_new_string(model) : NULL);
		json_object_object_add(w, "seq_len", seq_len > 0 ? json_object_new_int64(seq_len) : NULL);
		json_object_object_add(o, "workload", w);
	}
	const struct dvf_sample *c = &s->cur;
	json_object_object_add(o, "gpu_freq_hz", c->gpu_freq_hz.ok ? json_object_new_int64(c->gpu_freq_hz.v) : NULL);
	json_object_object_add(o, "gpu_util_pct", c->gpu_load_pm.ok ? json_object_new_double((double)c->gpu_load_pm.v / 10) : NULL);
	int64_t hw_mj;
	if (energy_counter_mj(&s->hw, &hw_mj)) {
		double hw = (double)hw_mj * 1e-3;
		double integ = s->energy.ch[ENERGY_TOTAL].mj * 1e-3;
		json_object_object_add(o, "hw_energy_j", json_object_new_double(hw));
		json_object_object_add(o, "hw_vs_integrated_pct",
				       hw > 0 ? json_object_new_double((integ - hw) / hw * 100) : NULL);
	} else {
		json_object_object_add(o, "hw_energy_j", NULL);
		json_object_object_add(o, "hw_vs_integrated_pct", NULL);
	}
	if (in->n_gpus > 1)
		json_object_object_add(o, "gpus", gpus_json(s));
	/* the simulated board's ground truth: what a perfect meter would have
	 * read (no sensor noise, no sampling error), to score the measured */
	if (s->sim)
		json_object_object_add(o, "sim_true_energy_j", json_object_new_double(sim_true_energy_mj(s->sim, -1) * 1e-3));
	struct job_stats js;
	if (session_job_stats(s, &js)) {
		json_object *j = json_object_new_object();
		json_object_object_add(j, "name", json_object_new_string(s->job_name));
		json_object_object_add(j, "state", json_object_new_string(js.state));
		if (s->job_log[0])
			json_object_object_add(j, "log", json_object_new_string(s->job_log));
		add_exit_json(s, j);
		json_object_object_add(j, "steps", js.steps.ok ? json_object_new_int64(js.steps.v) : NULL);
		json_object_object_add(j, "total_steps", js.st.total.ok ? json_object_new_int64(js.st.total.v) : NULL);
		json_object_object_add(j, "energy_j", json_object_new_double(js.energy_j));
		json_object_object_add(j, "duration_s", json_object_new_double(js.elapsed_s));
		json_object_object_add(j, "j_per_step", js.jps_ok ? json_object_new_double(js.j_per_step) : NULL);
		json_object_object_add(j, "steps_per_s", js.st.steps_per_s.ok ? json_object_new_double(js.st.steps_per_s.v) : NULL);
		json_object_object_add(j, "projected_energy_j", js.proj_ok ? json_object_new_double(js.projected_j) : NULL);
		if (attributed(s))
			json_object_object_add(j, "attribution", attribution_json(&js));
		json_object_object_add(o, "job", j);
	}
	if (s->gov)
		json_object_object_add(o, "governor", governor_json(s->gov, session_rehearsal(s)));
	return o;
}

static void print_w(FILE *fp, const char *label, bool ok, double mw)
{
	if (ok)
		fprintf(fp, "  %-18s %9.3f W\n", label, mw * 1e-3);
	else
		fprintf(fp, "  %-18s %9s\n", label, "n/a");
}

/* The exit status as a shell would give it, or that the job goes on. */
static void print_exit(const struct session *s, FILE *fp)
{
	if (!s->job)
		return;
	enum job_state st = job_state(s->job);
	if (st == JOB_EXITED)
		fprintf(fp, "  %-18s %d (exit code %d)\n", "exit status", job_exit_status(s->job), job_exit_code(s->job));
	else if (st == JOB_SIGNALED)
		fprintf(fp, "  %-18s %d (signal %d, %s)\n", "exit status", job_exit_status(s->job), job_signal(s->job),
			strsignal(job_signal(s->job)));
	else if (st == JOB_DETACHED)
		fprintf(fp, "  %-18s pid %d goes on (not stopped by dvfstop)\n", "left running", (int)job_pid(s->job));
}

json_object *session_summary_json(const struct session *s)
{
	return summary_json(s);
}

void session_summary(const struct session *s, FILE *fp, bool json)
{
	if (json) {
		json_object *j = summary_json(s);
		fprintf(fp, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY));
		json_object_put(j);
		return;
	}
	const struct dvf_info *in = s->info;
	const struct dvf_sample *c = &s->cur;
	fprintf(fp, "dvfstop summary: %s (%s)\n", in->board_name[0] ? in->board_name : "unknown board", in->mode);
	fprintf(fp, "  duration          %10.3f s, %llu samples\n", session_elapsed_s(s), (unsigned long long)s->n_samples);
	fprintf(fp, "energy (J) and mean power (W):\n");
	for (int i = 0; i <= in->n_rails; i++) {
		int ch = i == in->n_rails ? ENERGY_TOTAL : i;
		double mw = 0;
		bool ok = energy_mean_mw(&s->energy, ch, &mw);
		const char *name = ch == ENERGY_TOTAL ? "total" : in->rail_name[i];
		const struct energy_chan *e = &s->energy.ch[ch];
		if (ok)
			fprintf(fp, "  %-18s %12.3f J  %9.3f W mean%s\n", name, e->mj * 1e-3, mw * 1e-3,
				ch != ENERGY_TOTAL && !in->rail_in_total[i] ? "  (not in total)" : "");
		else
			fprintf(fp, "  %-18s %12s    %9s\n", name, "n/a", "n/a");
		if (e->lost_ns > 0 || e->bridged_ns > 0)
			fprintf(fp, "  %-18s gaps: %.3f s bridged, %.3f s not integrated\n", "", e->bridged_ns * 1e-9, e->lost_ns * 1e-9);
	}
	fprintf(fp, "  %-18s %.3f Wh\n", "total", s->energy.ch[ENERGY_TOTAL].mj / 3.6e6);
	int64_t hw_mj;
	if (energy_counter_mj(&s->hw, &hw_mj)) {
		/* The counter is the better figure where it exists; the difference
		 * says how well sampled power stood for it. */
		double hw = (double)hw_mj * 1e-3;
		double integ = s->energy.ch[ENERGY_TOTAL].mj * 1e-3;
		fprintf(fp, "  %-18s %12.3f J  (integrated %.3f J, diff %+.2f %%)\n", "hw counter", hw, integ,
			hw > 0 ? (integ - hw) / hw * 100 : 0.0);
	}
	fprintf(fp, "  total rule: %s\n", in->total_rule);
	fprintf(fp, "last sample:\n");
	if (c->gpu_freq_hz.ok)
		fprintf(fp, "  %-18s %9.1f MHz\n", "gpu clock", c->gpu_freq_hz.v * 1e-6);
	else
		fprintf(fp, "  %-18s %9s\n", "gpu clock", "n/a");
	if (c->gpu_load_pm.ok)
		fprintf(fp, "  %-18s %9.1f %%\n", "gpu utilisation", c->gpu_load_pm.v / 10.0);
	else
		fprintf(fp, "  %-18s %9s\n", "gpu utilisation", "n/a");
	for (int i = 0; i < in->n_rails; i++)
		print_w(fp, in->rail_name[i], c->rail[i].mw.ok, (double)c->rail[i].mw.v);
	print_w(fp, "total", c->total_mw.ok, (double)c->total_mw.v);
	if (in->n_gpus > 1)
		print_gpus(s, fp);
	struct job_stats js;
	if (session_job_stats(s, &js)) {
		fprintf(fp, "fine-tune: %s (%s)\n", s->job_name, js.state);
		if (s->job_log[0])
			fprintf(fp, "  %-18s %s\n", "log", s->job_log);
		print_exit(s, fp);
		if (js.steps.ok && js.st.total.ok)
			fprintf(fp, "  %-18s %lld of %lld\n", "steps", (long long)js.steps.v, (long long)js.st.total.v);
		else if (js.steps.ok)
			fprintf(fp, "  %-18s %lld\n", "steps", (long long)js.steps.v);
		else if (s->job && !job_is_child(s->job))
			fprintf(fp, "  %-18s %s (%s)\n", "steps", "n/a", session_steps_hint(s));
		else
			fprintf(fp, "  %-18s %s\n", "steps", "n/a");
		fprintf(fp, "  %-18s %12.3f J over %.1f s\n", "energy", js.energy_j, js.elapsed_s);
		if (js.jps_ok)
			fprintf(fp, "  %-18s %12.4f J/step\n", "per step", js.j_per_step);
		if (js.st.steps_per_s.ok)
			fprintf(fp, "  %-18s %12.3f steps/s\n", "rate", js.st.steps_per_s.v);
		if (js.proj_ok)
			fprintf(fp, "  %-18s %12.1f J (%.4f Wh) at step %lld\n", "projected", js.projected_j,
				js.projected_j / 3600.0, (long long)js.st.total.v);
		if (attributed(s))
			print_attribution(&js, fp);
	}
	if (s->gov)
		print_governor(s->gov, session_rehearsal(s), fp);
}
