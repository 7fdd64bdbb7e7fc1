#include "config.h"
#include "job_panel.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "render.h"
#include "theme.h"

void job_panel_fill(const struct session *s, struct job_view *v)
{
	v->have = session_job_stats(s, &v->js);
	v->child = s->job != NULL;
	snprintf(v->name, sizeof v->name, "%s", s->job_name);
	snprintf(v->log_path, sizeof v->log_path, "%s", s->job_log);
	v->n_lines = 0;
	if (!s->job)
		return;
	int n = job_ring_count(s->job);
	int first = n > JOB_VIEW_LINES ? n - JOB_VIEW_LINES : 0;
	for (int i = first; i < n; i++) {
		const char *l = job_ring_line(s->job, i);
		snprintf(v->line[v->n_lines++], JOB_VIEW_LINE_LEN, "%s", l ? l : "");
	}
}

static void put_text(struct cellbuf *cb, int *x, int y, int x1, int role, const char *s)
{
	if (*x < x1)
		*x += cellbuf_putn(cb, *x, y, role, s, x1 - *x);
}

static void put_fmt(struct cellbuf *cb, int *x, int y, int x1, int role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void put_fmt(struct cellbuf *cb, int *x, int y, int x1, int role, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	put_text(cb, x, y, x1, role, buf);
}

/* How the state reads: running plainly, a clean end good, anything else
 * (an exit code, a signal, gone) a warning. */
static int state_role(const struct job_view *v)
{
	if (v->js.running)
		return ROLE_VALUE;
	if (strcmp(v->js.state, "exited with code 0") == 0 || strcmp(v->js.state, "finished") == 0)
		return ROLE_GOOD;
	return ROLE_WARN;
}

static void put_energy(struct cellbuf *cb, int *x, int y, int x1, double j)
{
	if (j >= 36000)
		put_fmt(cb, x, y, x1, ROLE_VALUE, "%.3f Wh", j / 3600.0);
	else
		put_fmt(cb, x, y, x1, ROLE_VALUE, "%.*f J", j >= 999.95 ? 0 : 1, j);   /* a projection: no tenths past 1 kJ */
}

int job_panel_rows(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct job_stats *js = &v->js;
	int x;
	char d[32];
	if (y > ymax)
		return y;
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "job     ");
	if (!v->have) {
		put_text(cb, &x, y, x1, ROLE_INACTIVE, "no job");
	} else {
		/* The state first: the name may be long and is clipped. */
		put_text(cb, &x, y, x1, state_role(v), js->state);
		put_text(cb, &x, y, x1, ROLE_LABEL, "  ");
		put_text(cb, &x, y, x1, ROLE_VALUE, v->name);
	}
	if (++y > ymax)
		return y;
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "J/step  ");
	if (v->have && js->jps_ok)
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%.*f", render_jstep_prec(js->j_per_step), js->j_per_step);
	else
		put_text(cb, &x, y, x1, v->have ? ROLE_NA : ROLE_INACTIVE, v->have ? "n/a" : "--");
	put_text(cb, &x, y, x1, ROLE_LABEL, "   steps/s ");
	if (v->have && js->st.steps_per_s.ok && js->running)
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%.2f", js->st.steps_per_s.v);
	else if (v->have && js->st.steps_per_s.ok)
		/* Ended: the mean over the job's own span (session_job_stats). */
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%.2f mean", js->st.steps_per_s.v);
	else
		put_text(cb, &x, y, x1, v->have ? ROLE_NA : ROLE_INACTIVE, v->have ? "n/a" : "--");
	if (++y > ymax)
		return y;
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "steps   ");
	if (v->have && js->steps.ok) {
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%lld", (long long)js->steps.v);
		if (js->st.total.ok)
			put_fmt(cb, &x, y, x1, ROLE_LABEL, " of %lld", (long long)js->st.total.v);
	} else {
		put_text(cb, &x, y, x1, v->have ? ROLE_NA : ROLE_INACTIVE, v->have ? "n/a" : "--");
	}
	if (v->have && !js->running) {
		put_text(cb, &x, y, x1, ROLE_LABEL, "   ended");
	} else {
		put_text(cb, &x, y, x1, ROLE_LABEL, "   left ");
		if (v->have && js->st.eta_ns.ok)
			put_text(cb, &x, y, x1, ROLE_VALUE,
				 render_time_left(d, sizeof d, (double)js->st.eta_ns.v * 1e-9));
		else
			put_text(cb, &x, y, x1, v->have ? ROLE_NA : ROLE_INACTIVE, v->have ? "n/a" : "--");
	}
	if (++y > ymax)
		return y;
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "energy  ");
	if (v->have)
		put_energy(cb, &x, y, x1, js->energy_j);
	else
		put_text(cb, &x, y, x1, ROLE_INACTIVE, "--");
	put_text(cb, &x, y, x1, ROLE_LABEL, js->running ? "   projected " : "   total over ");
	if (v->have && js->running && js->proj_ok)
		put_energy(cb, &x, y, x1, js->projected_j);
	else if (v->have && !js->running)
		put_text(cb, &x, y, x1, ROLE_VALUE, render_duration(d, sizeof d, js->elapsed_s));
	else
		put_text(cb, &x, y, x1, v->have ? ROLE_NA : ROLE_INACTIVE, v->have ? "n/a" : "--");
	return y + 1;
}

int job_panel_compact(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct job_stats *js = &v->js;
	int x;
	char d[32];
	if (!v->have || y > ymax)
		return y;
	/* J/step, progress and the time left: what a short terminal keeps. */
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "J/step ");
	if (js->jps_ok)
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%.*f", render_jstep_prec(js->j_per_step), js->j_per_step);
	else
		put_text(cb, &x, y, x1, ROLE_NA, "n/a");
	put_text(cb, &x, y, x1, ROLE_LABEL, "  ");
	if (js->steps.ok) {
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%lld", (long long)js->steps.v);
		if (js->st.total.ok)
			put_fmt(cb, &x, y, x1, ROLE_LABEL, "/%lld", (long long)js->st.total.v);
	} else {
		put_text(cb, &x, y, x1, ROLE_NA, "n/a");
	}
	if (js->running && js->st.eta_ns.ok) {
		put_text(cb, &x, y, x1, ROLE_LABEL, "  left ");
		put_text(cb, &x, y, x1, ROLE_VALUE, render_time_left(d, sizeof d, (double)js->st.eta_ns.v * 1e-9));
	} else if (!js->running) {
		/* How it ended, shortest: "exit 0" for "exited with code 0". */
		const char *pre = "exited with code ";
		char st[sizeof js->state + 8];
		if (strncmp(js->state, pre, strlen(pre)) == 0)
			snprintf(st, sizeof st, "exit %s", js->state + strlen(pre));
		else
			snprintf(st, sizeof st, "%s", js->state[0] ? js->state : "ended");
		put_text(cb, &x, y, x1, ROLE_LABEL, "  ");
		put_text(cb, &x, y, x1, state_role(v), st);
	}
	if (++y > ymax)
		return y;
	/* The job's energy and where it is heading. */
	x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "energy ");
	put_energy(cb, &x, y, x1, js->energy_j);
	if (js->running) {
		put_text(cb, &x, y, x1, ROLE_LABEL, "  projected ");
		if (js->proj_ok)
			put_energy(cb, &x, y, x1, js->projected_j);
		else
			put_text(cb, &x, y, x1, ROLE_NA, "n/a");
	} else {
		put_text(cb, &x, y, x1, ROLE_LABEL, "  over ");
		put_text(cb, &x, y, x1, ROLE_VALUE, render_duration(d, sizeof d, js->elapsed_s));
	}
	return y + 1;
}

int job_panel_tail(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	int rows = ymax - y + 1;
	if (rows <= 0 || v->n_lines == 0)
		return y;
	int first = v->n_lines > rows ? v->n_lines - rows : 0;
	for (int i = first; i < v->n_lines; i++, y++)
		cellbuf_putn(cb, x0, y, ROLE_INACTIVE, v->line[i], x1 - x0);
	return y;
}

void job_panel_log_rect(int cols, int rows, int *x, int *y, int *w, int *h)
{
	/* The lower half of the screen, above the key line, nearly full width:
	 * the panels above stay readable. */
	*w = cols - 4 > 20 ? cols - 4 : cols;
	*h = rows / 2 > 5 ? rows / 2 : rows - 1;
	if (*h > rows - 1)
		*h = rows - 1;
	if (*h < 1)
		*h = 1;
	*x = (cols - *w) / 2;
	*y = rows - 1 - *h;
	if (*y < 0)
		*y = 0;
}

/* Rows a line takes in the pane: wrapped, one per w columns. */
static int log_line_rows(const char *line, int w, bool nowrap)
{
	int cols = cellbuf_strcols(line);
	return nowrap || cols <= w ? 1 : (cols + w - 1) / w;
}

/* The lines from the row pos->back rows above the newest, wrapped at
 * x1 - x0 columns (or cut and panned), into rows y0..y1. */
static void log_lines(const struct job_view *v, struct cellbuf *cb, int x0, int y0, int x1, int y1,
		      struct job_log_pos *pos)
{
	int w = x1 - x0, rows = y1 - y0 + 1, total = 0;
	for (int i = 0; i < v->n_lines; i++)
		total += log_line_rows(v->line[i], w, pos->nowrap);
	int most = total > rows ? total - rows : 0;
	if (pos->back > most)
		pos->back = most;
	if (pos->back < 0)
		pos->back = 0;
	int skip = total > rows ? total - rows - pos->back : 0, y = y0;
	for (int i = 0; i < v->n_lines && y <= y1; i++) {
		const char *l = v->line[i];
		if (pos->nowrap) {
			if (skip > 0)
				skip--;
			else
				cellbuf_putn(cb, x0, y++, ROLE_INACTIVE, cellbuf_skip_cols(l, pos->x), w);
			continue;
		}
		int n = log_line_rows(l, w, false);
		for (int k = 0; k < n && y <= y1; k++, l = cellbuf_skip_cols(l, w)) {
			if (skip > 0)
				skip--;
			else
				cellbuf_putn(cb, x0, y++, ROLE_INACTIVE, l, w);
		}
	}
}

void job_panel_log(const struct job_view *v, struct cellbuf *cb, struct job_log_pos *pos)
{
	char title[256];
	cellbuf_clear(cb, ROLE_HELP);
	/* the title says where the pane is when it does not follow the end */
	char where[64] = "";
	if (pos->back > 0 || pos->nowrap) {
		int n = 0;
		if (pos->back > 0)
			n = snprintf(where, sizeof where, " (%d rows up, End follows", pos->back);
		if (pos->nowrap)
			snprintf(where + n, sizeof where - (size_t)n, "%s", n ? "; lines cut)" : " (lines cut)");
		else
			snprintf(where + n, sizeof where - (size_t)n, ")");
	}
	snprintf(title, sizeof title, "log: %s%s", v->have ? v->name : "no job", where);
	cellbuf_box(cb, ROLE_BORDER_FOCUS, title, ROLE_TITLE_FOCUS);
	int x0 = 2, x1 = cb->w - 2, ymax = cb->h - 2;
	if (x1 <= x0 || ymax < 1)
		return;
	/* Last row: the state and where the whole log is. */
	int x = x0;
	if (v->have) {
		put_text(cb, &x, ymax, x1, state_role(v), v->js.state);
		if (v->log_path[0])
			put_fmt(cb, &x, ymax, x1, ROLE_INACTIVE, "  full log: %s", v->log_path);
	}
	put_text(cb, &x, ymax, x1, ROLE_INACTIVE, "  l or Esc closes, PgUp/PgDn scroll, W wraps");
	if (ymax - 1 < 1)
		return;
	if (!v->child) {
		cellbuf_putn(cb, x0, 1, ROLE_INACTIVE,
			v->have ? "no output to show: the fine-tune is not a child of dvfstop (run it as -- CMD)"
				: "no fine-tune followed: run dvfstop [options] -- CMD ARGS", x1 - x0);
		return;
	}
	if (v->n_lines == 0) {
		cellbuf_putn(cb, x0, 1, ROLE_INACTIVE, "no output yet", x1 - x0);
		return;
	}
	log_lines(v, cb, x0, 1, x1, ymax - 1, pos);
}
