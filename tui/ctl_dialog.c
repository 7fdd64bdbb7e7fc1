/* ctl_dialog: the clock control's words and dialogs (see ctl_dialog.h). */
#include "config.h"
#include "ctl_dialog.h"

#include <stdio.h>
#include <string.h>

#include "cellbuf.h"
#include "layout.h"
#include "theme.h"

void ctl_dialog_who(enum control_mode m, int64_t hz, enum control_by by, const char *governor,
	     char *buf, size_t len)
{
	char f[32];
	if (m == CTL_DEFAULT) {
		snprintf(buf, len, "board default (%s)", governor && governor[0] ? governor : "governor n/a");
		return;
	}
	control_fmt_mhz(hz, f, sizeof f);
	const char *verb = m == CTL_PIN ? "pinned" : "capped";
	if (by == CTL_BY_USER)
		snprintf(buf, len, "%s by you at %s", verb, f);
	else
		snprintf(buf, len, "%s at %s (%s)", verb, f, control_by_name(by));
}

static int level_or_nearest(const struct dvf_info *in, int64_t hz)
{
	int i = hz > 0 ? sample_level_index(in, hz) : -1;
	if (i < 0 && hz > 0)
		i = sample_level_nearest(in, hz);
	return i;
}

void ctl_dialog_init(struct ctl_dialog *d, const struct dvf_info *in, enum control_mode mode,
		     int64_t target_hz, int64_t cur_hz)
{
	memset(d, 0, sizeof *d);
	d->mode = mode == CTL_CAP ? CTL_CAP : CTL_PIN;
	d->cur_hz = cur_hz;
	int n = in ? in->n_levels : 0;
	int i = mode != CTL_DEFAULT ? level_or_nearest(in, target_hz) : -1;
	if (i < 0)
		i = level_or_nearest(in, cur_hz);
	d->sel = i >= 0 ? i : n - 1;
	if (d->sel < 0)
		d->sel = 0;
}

/* Text of the dialog, fixed lines around the level list. */
static const char *hint_text(bool utf8)
{
	return utf8 ? "↑↓ level  0-9 MHz  Enter set  c pin/cap  Esc close"
		    : "Up/Down level  0-9 MHz  Enter set  c pin/cap  Esc close";
}

/* Rows besides the list and the error lines: two borders, the mode line,
 * the typed value, the hints. */
enum { DLG_FIXED_ROWS = 5, DLG_ERR_ROWS = 2, DLG_MIN_W = 40, DLG_MAX_W = 64 };

void ctl_dialog_size(const struct ctl_dialog *d, const struct dvf_info *in, int max_w, int max_h,
		     int *w, int *h)
{
	(void)d;
	int n = in ? in->n_levels : 0;
	int want_w = cellbuf_strcols(hint_text(false)) + 4;
	if (want_w < DLG_MIN_W)
		want_w = DLG_MIN_W;
	if (want_w > DLG_MAX_W)
		want_w = DLG_MAX_W;
	int want_h = DLG_FIXED_ROWS + DLG_ERR_ROWS + (n > 0 ? n : 1);
	*w = want_w < max_w ? want_w : max_w;
	*h = want_h < max_h ? want_h : max_h;
}

/* Write text over up to rows lines of width w from (x, y), breaking at
 * spaces.  Returns the lines used. */
static int wrap(struct cellbuf *cb, int x, int y, int w, int rows, int role, const char *text)
{
	int used = 0;
	const char *p = text;
	while (*p && used < rows && w > 0) {
		while (*p == ' ')
			p++;
		int len = (int)strlen(p);
		int take = len;
		if (cellbuf_strcols(p) > w) {
			/* Cut at the last space that fits (byte offsets: messages
			 * are ASCII but for the degree sign, which cb counts). */
			take = 0;
			int cols = 0;
			for (int i = 0; p[i] && cols <= w; i++) {
				if ((p[i] & 0xc0) != 0x80)
					cols++;
				if (p[i] == ' ' && cols <= w + 1)
					take = i;
			}
			if (take == 0 || used == rows - 1)
				take = len;   /* clipped by cellbuf_putn */
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", take, p);
		cellbuf_putn(cb, x, y + used, role, line, w);
		p += take;
		used++;
	}
	return used;
}

void ctl_dialog_render(struct ctl_dialog *d, const struct dvf_info *in, struct cellbuf *cb)
{
	int n = in ? in->n_levels : 0;
	int W = cb->w - 4, x = 2;
	cellbuf_clear(cb, ROLE_HELP);
	cellbuf_box(cb, ROLE_BORDER_FOCUS, "set the GPU clock", ROLE_TITLE_FOCUS);
	if (W <= 0 || cb->h < 3)
		return;
	int y = 1;
	cellbuf_printf(cb, x, y++, ROLE_HELP, "Enter %s (c: %s instead)",
		  d->mode == CTL_PIN ? "pins: min = max" : "caps: max only",
		  d->mode == CTL_PIN ? "cap" : "pin");
	/* Rows left for the list after the typed line, errors and hints. */
	int list = cb->h - DLG_FIXED_ROWS - DLG_ERR_ROWS;
	if (list < 1)
		list = 1;
	if (list > n)
		list = n > 0 ? n : 1;
	/* Row r shows level n-1-(top+r): the highest first. */
	int row_of_sel = n - 1 - d->sel;
	if (row_of_sel < d->top)
		d->top = row_of_sel;
	if (row_of_sel >= d->top + list)
		d->top = row_of_sel - list + 1;
	if (d->top > n - list)
		d->top = n - list;
	if (d->top < 0)
		d->top = 0;
	if (n == 0)
		cellbuf_putn(cb, x, y, ROLE_NA, "clock table n/a", W);
	for (int r = 0; r < list && n > 0; r++) {
		int i = n - 1 - (d->top + r);
		if (i < 0)
			break;
		char f[32], line[96];
		control_fmt_mhz(in->level_hz[i], f, sizeof f);
		bool now = d->cur_hz > 0 && in->level_hz[i] == d->cur_hz;
		snprintf(line, sizeof line, "%s %2d  %-12s%s", i == d->sel ? ">" : " ", i + 1, f,
			 now ? " (runs now)" : "");
		cellbuf_putn(cb, x, y + r, i == d->sel ? ROLE_SCALE_CUR : ROLE_HELP, line, W);
		if (i == d->sel)
			cellbuf_role(cb, x, y + r, W, ROLE_SCALE_CUR);
	}
	y += list;
	cellbuf_printf(cb, x, y, ROLE_HELP, "MHz: ");
	cellbuf_printf(cb, x + 5, y++, ROLE_VALUE, "%s_", d->typed);
	if (d->err[0])
		wrap(cb, x, y, W, DLG_ERR_ROWS, ROLE_ERROR, d->err);
	y += DLG_ERR_ROWS;
	if (y < cb->h - 1)
		cellbuf_putn(cb, x, y, ROLE_INACTIVE, hint_text(cb->utf8), W);
}

int ctl_dialog_level_at(const struct ctl_dialog *d, const struct dvf_info *in, int h, int row)
{
	int n = in ? in->n_levels : 0;
	int list = h - DLG_FIXED_ROWS - DLG_ERR_ROWS;
	if (list < 1)
		list = 1;
	if (list > n)
		list = n;
	/* the list starts under the mode line, as ctl_dialog_render draws it */
	int r = row - 2;
	if (n <= 0 || r < 0 || r >= list)
		return -1;
	int i = n - 1 - (d->top + r);
	return i >= 0 && i < n ? i : -1;
}

static const char stale_q1[] = "a previous dvfstop left the GPU clock changed:";
static const char stale_q2[] = "restore it? y/n";

void ctl_dialog_stale_detail(const char *msg, char *out, size_t len)
{
	snprintf(out, len, "%s", msg);
	char *run = strstr(out, ": run `");
	if (run && strstr(run, "dvfstop restore"))
		*run = '\0';
}

void ctl_dialog_stale_size(const char *detail, int max_w, int *w, int *h)
{
	(void)detail;
	int want_w = DLG_MAX_W + 8;
	*w = want_w < max_w ? want_w : max_w;
	*h = 2 + 2 + 1 + 4;
}

void ctl_dialog_stale_render(const char *detail, struct cellbuf *cb)
{
	int W = cb->w - 4;
	cellbuf_clear(cb, ROLE_HELP);
	cellbuf_box(cb, ROLE_BORDER_FOCUS, "GPU clock", ROLE_TITLE_FOCUS);
	if (W <= 0 || cb->h < 4)
		return;
	cellbuf_putn(cb, 2, 1, ROLE_WARN, stale_q1, W);
	cellbuf_putn(cb, 2, 2, ROLE_KEY, stale_q2, W);
	if (cb->h > 5)
		wrap(cb, 2, 4, W, cb->h - 5, ROLE_HELP, detail);
}

/* Is the path at p..end a devfreq control file (governor, min_freq,
 * max_freq; a '.' may end the sentence)? */
static bool devfreq_file(const char *p, const char *end, const char **base)
{
	static const char *const names[] = { "governor", "min_freq", "max_freq" };
	const char *b = p;
	for (const char *q = p; q < end; q++)
		if (*q == '/')
			b = q + 1;
	size_t n = (size_t)(end - b);
	if (n > 0 && b[n - 1] == '.')
		n--;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (n == strlen(names[i]) && memcmp(b, names[i], n) == 0) {
			*base = b;
			return true;
		}
	return false;
}

void ctl_dialog_short_msg(const char *msg, char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return;
	for (const char *p = msg; *p && o + 1 < len;) {
		const char *base;
		if (*p == '/' && (p == msg || p[-1] == ' ')) {
			const char *end = p + strcspn(p, " :;,");
			if (devfreq_file(p, end, &base))
				p = base;
		}
		buf[o++] = *p++;
	}
	buf[o] = '\0';
}
