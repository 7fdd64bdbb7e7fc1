#include "config.h"
#include "sweep_driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_user.h"
#include "options.h"
#include "session.h"
#include "sweepdata.h"
#include "session_workload.h"

/* ---- configuration -------------------------------------------------------- */

int sweep_driver_config(const struct sweep_request *rq, struct sweep_cfg *c, char *err, size_t len)
{
	memset(c, 0, sizeof *c);
	c->mode = rq->mode;
	c->select = rq->select;
	c->max_slowdown = rq->max_slowdown;
	if (sweep_parse_dwell(rq->dwell, &c->dwell_steps, &c->dwell_ns) != 0) {
		snprintf(err, len, "%s: '%s' is not like 40steps, 10s or 500ms", rq->dwell_name, rq->dwell);
		return -1;
	}
	if (!(rq->settle_s >= 0) || rq->settle_s > SWEEP_SETTLE_MAX_S) {
		snprintf(err, len, "%s: %g is not a number of seconds (0 to %d)", rq->settle_name, rq->settle_s,
			 SWEEP_SETTLE_MAX_S);
		return -1;
	}
	c->settle_ns = (int64_t)(rq->settle_s * 1e9);
	return 0;
}

/* Add one level, keeping them ascending. */
static void add_level(struct sweep_cfg *c, int64_t hz)
{
	int k = c->n_levels++;
	while (k > 0 && c->level_hz[k - 1] > hz) {
		c->level_hz[k] = c->level_hz[k - 1];
		k--;
	}
	c->level_hz[k] = hz;
}

/* Those of spec: whole MHz as people type them, each a level of the
 * board's table. */
static int levels_of_spec(const char *spec, const struct dvf_info *in, struct sweep_cfg *c, char *err,
			  size_t len)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", spec);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long long mhz = strtoll(tok, &end, 10);
		int64_t hz;
		if (end == tok || *end || mhz <= 0) {
			snprintf(err, len, "--levels: '%s' is not a clock in MHz", tok);
			return -1;
		}
		if (control_level_mhz(in, mhz, &hz, err, len) != 0)
			return -1;
		if (c->n_levels >= DVF_MAX_LEVELS)
			break;
		add_level(c, hz);
	}
	int w = 0;
	for (int i = 0; i < c->n_levels; i++) /* drop duplicates */
		if (w == 0 || c->level_hz[w - 1] != c->level_hz[i])
			c->level_hz[w++] = c->level_hz[i];
	c->n_levels = w;
	return 0;
}

int sweep_driver_levels(const struct sweep_request *rq, const struct dvf_info *in, struct sweep_cfg *c,
			char *err, size_t len)
{
	c->n_levels = 0;
	if (rq->levels) {
		if (levels_of_spec(rq->levels, in, c, err, len) < 0)
			return -1;
	} else {
		for (int i = 0; i < in->n_levels && i < DVF_MAX_LEVELS; i++)
			c->level_hz[c->n_levels++] = in->level_hz[i];
		if (c->n_levels <= 0) {
			snprintf(err, len, "the board has no clock table");
			return -1;
		}
	}
	c->n_levels = sweep_even_levels(c->level_hz, c->n_levels, rq->count);
	return 0;
}

int sweep_driver_prepare(const struct sweep_request *rq, const struct dvf_info *in, int start, struct sweep_cfg *c,
			 char *err, size_t len)
{
	if (sweep_driver_config(rq, c, err, len) != 0 || sweep_driver_levels(rq, in, c, err, len) != 0)
		return -1;
	c->start = c->mode == SWEEP_ADAPTIVE ? start : -1;
	return sweep_validate(c, err, len) < 0 ? -1 : 0;
}

/* ---- the run ---------------------------------------------------------------- */

void sweep_driver_start(struct sweep_driver *d, const struct sweep_cfg *c, struct control *ctl,
			enum control_by by, bool release, int64_t now)
{
	memset(d, 0, sizeof *d);
	d->ctl = ctl;
	d->release = release;
	d->prev_mode = control_mode(ctl);
	d->prev_hz = control_target_hz(ctl);
	d->prev_by = by;
	sweep_init(&d->sw, c);
	d->level = -1;
	d->running = true;
	d->t_start = d->t_end = now;
}

int sweep_driver_pin(struct sweep_driver *d)
{
	int want = sweep_level(&d->sw);
	if (!d->running || want < 0 || want == d->level)
		return 0;
	if (control_pin(d->ctl, d->sw.cfg.level_hz[want], CTL_BY_SWEEP) != 0) {
		snprintf(d->err, sizeof d->err, "%s", control_msg(d->ctl));
		sweep_abort(&d->sw);
		return -1;
	}
	d->level = want;
	return 0;
}

int sweep_driver_feed(struct sweep_driver *d, const struct dvf_sample *s, const struct energy *e)
{
	if (!d->running)
		return -1;
	return sweep_feed(&d->sw, s, e);
}

void sweep_driver_abort(struct sweep_driver *d, const char *why)
{
	if (!d->running)
		return;
	sweep_abort(&d->sw);
	if (why)
		snprintf(d->sw.msg, sizeof d->sw.msg, "sweep aborted (%.100s) after %d windows", why, d->sw.windows);
}

int sweep_driver_finish(struct sweep_driver *d, int64_t now)
{
	if (!d->running)
		return 0;
	d->running = false;
	d->level = -1;
	d->t_end = now;
	d->err[0] = '\0';
	if (!d->ctl || control_readonly(d->ctl))
		return 0;
	/* In the name of whoever had set them: the user's own pin given back
	 * is the user's again, not "pinned (sweep)". */
	int err;
	if (d->release)
		err = control_release(d->ctl);
	else if (d->prev_mode == CTL_PIN)
		err = control_pin(d->ctl, d->prev_hz, d->prev_by);
	else if (d->prev_mode == CTL_CAP)
		err = control_cap(d->ctl, d->prev_hz, d->prev_by);
	else
		err = control_default(d->ctl, d->prev_by);
	if (!err)
		return 0;
	snprintf(d->err, sizeof d->err, "%s", control_msg(d->ctl));
	return -1;
}

/* ---- the result ------------------------------------------------------------- */

static double point_util(const struct sweep_point *p)
{
	return p->util_n ? p->util_sum / p->util_n : -1;
}

void sweep_driver_print_table(const struct sweep *sw, FILE *fp)
{
	fprintf(fp, "%10s %10s %10s %8s %7s %7s %8s %6s\n", "clock_MHz", "J/step", "s/step", "W", "steps",
		"windows", "spread%", "util%");
	for (int i = sw->cfg.n_levels - 1; i >= 0; i--) {
		const struct sweep_point *p = &sw->pts[i];
		char mark = i == sw->best ? '*' : ' ';
		if (!sweep_point_measured(p)) {
			fprintf(fp, "%9.1f%c %10s\n", p->hz * 1e-6, mark, "-");
			continue;
		}
		fprintf(fp, "%9.1f%c %10.4f %10.4f %8.3f %7lld %7d %8.2f %6.1f\n", p->hz * 1e-6, mark, sweep_jps(p),
			sweep_sps(p), sweep_mean_w(p), (long long)p->steps, p->windows, sweep_spread(p) * 100,
			p->util_n ? p->util_sum / p->util_n : 0.0);
	}
}

/* One CSV row's cells: names as given, numbers plain, unknowns empty. */
struct csv_cells {
	char num[SD_NCOL][32];
	const char *cell[SD_NCOL];
};

static void cell_num(struct csv_cells *r, enum sd_col k, bool known, int prec, double v)
{
	r->num[k][0] = '\0';
	if (known)
		snprintf(r->num[k], sizeof r->num[k], "%.*f", prec, v);
	r->cell[k] = r->num[k];
}

static void cell_int(struct csv_cells *r, enum sd_col k, bool known, long long v)
{
	r->num[k][0] = '\0';
	if (known)
		snprintf(r->num[k], sizeof r->num[k], "%lld", v);
	r->cell[k] = r->num[k];
}

static void row_cells(struct csv_cells *r, const struct sweep *sw, const struct sweep_point *p,
		      const struct sweep_workload *w, double wutil)
{
	r->cell[SD_WORKLOAD] = w->name;
	r->cell[SD_MODEL] = w->model;
	r->cell[SD_MODEL_TYPE] = w->model_type;
	cell_int(r, SD_LAYERS, w->layers > 0, w->layers);
	cell_int(r, SD_HIDDEN, w->hidden > 0, w->hidden);
	cell_num(r, SD_PARAMS, w->params_m > 0, 3, w->params_m);
	cell_int(r, SD_SEQ, w->seq_len > 0, w->seq_len);
	cell_int(r, SD_BATCH, w->batch > 0, w->batch);
	cell_num(r, SD_UTIL, wutil >= 0, 1, wutil);
	cell_num(r, SD_LEVEL, true, 1, p->hz * 1e-6);
	cell_num(r, SD_JPS, true, 6, sweep_jps(p));
	cell_num(r, SD_SPS, true, 6, sweep_sps(p));
	cell_num(r, SD_MEAN_W, true, 4, sweep_mean_w(p));
	cell_int(r, SD_STEPS, true, (long long)p->steps);
	cell_int(r, SD_WINDOWS, true, p->windows);
	cell_num(r, SD_SPREAD, true, 3, sweep_spread(p) * 100);
	cell_num(r, SD_LEVEL_UTIL, point_util(p) >= 0, 1, point_util(p));
	r->cell[SD_BOARD] = w->board;
	r->cell[SD_SOURCE] = w->source;
	cell_int(r, SD_SEED, w->seed >= 0, w->seed);
	r->cell[SD_MODE] = sweep_mode_name(sw->cfg.mode);
}

int sweep_driver_write_csv(const char *path, const struct sweep *sw, const struct sweep_workload *w,
			   bool append, char *msg, size_t len)
{
	/* never through a link, never to a FIFO or a device (io_user.h) */
	struct io_user_why why;
	FILE *fp = io_user_fopen_write(path, append ? IO_USER_APPEND : IO_USER_TRUNC, &why);
	if (!fp) {
		int e = errno;
		char b[256];
		snprintf(msg, len, "cannot write %s: %s", path, io_user_strerror(e, &why, b, sizeof b));
		return e;
	}
	struct stat st;
	if (fstat(fileno(fp), &st) == 0 && st.st_size == 0)   /* new, or empty: the header first */
		sweepdata_write_header(fp);
	/* The workload's utilisation feature: at the highest measured level
	 * (the closest to what MAXN would show). */
	double wutil = -1;
	for (int i = sw->cfg.n_levels - 1; i >= 0 && wutil < 0; i--)
		if (sweep_point_measured(&sw->pts[i]))
			wutil = point_util(&sw->pts[i]);
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		if (!sweep_point_measured(p))
			continue;
		struct csv_cells r;
		row_cells(&r, sw, p, w, wutil);
		sweepdata_write_row(fp, r.cell);
	}
	int err = ferror(fp) ? EIO : 0;
	if (fclose(fp) != 0 && !err)
		err = errno;
	if (err)
		snprintf(msg, len, "writing %s: %s", path, strerror(err));
	return err;
}

void sweep_driver_workload(const struct session *s, const char *name, struct sweep_workload *w, char *label,
			   size_t len)
{
	const struct dvf_opts *o = s->opts;
	struct workload wl;
	const char *model;
	char err[600];
	session_workload_fixed(s, &wl, &model, err, sizeof err); /* its messages were said when the session opened */
	model = model ? model : "";
	int64_t seq = workload_has(&wl, WL_SEQ_LEN) ? (int64_t)wl.f[WL_SEQ_LEN].v : 0;
	snprintf(label, len, "%s/seq%lld", model[0] ? model : "unknown", (long long)seq);
	*w = (struct sweep_workload){
		.name = name ? name : label,
		.model = model,
		.model_type = workload_has(&wl, WL_MODEL_TYPE)
			? catalog_model_type_name((enum model_type)(int)wl.f[WL_MODEL_TYPE].v) : "",
		.layers = workload_has(&wl, WL_LAYERS) ? (int)wl.f[WL_LAYERS].v : 0,
		.hidden = workload_has(&wl, WL_HIDDEN) ? (int)wl.f[WL_HIDDEN].v : 0,
		.params_m = workload_has(&wl, WL_PARAMS_M) ? wl.f[WL_PARAMS_M].v : 0,
		.seq_len = (int)seq,
		.batch = o->demo ? (int)o->sim_batch : 0,
		.board = s->info->board_name,
		.source = s->info->mode,
		.seed = o->demo ? (long long)o->seed : -1,
	};
}
