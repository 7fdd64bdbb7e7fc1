#include "config.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Lowest to full: eighth blocks, and an ASCII ladder of the same length. */
static const char *const block[SPARK_STEPS + 1] = {
	" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█",
};
static const char ascii_ladder[SPARK_STEPS + 1] = " _.-~=+*#";

static const char *const eighth[8] = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };

/* Append s to out at *o; false when it does not fit. */
static bool put(char *out, size_t outlen, size_t *o, const char *s)
{
	size_t n = strlen(s);
	if (*o + n + 1 > outlen)
		return false;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return true;
}

int render_spark_units(double v, bool ok, double lo, double hi, int rows)
{
	if (!ok || isnan(v) || rows < 1)
		return 0;
	int total = rows * SPARK_STEPS;
	double frac = hi > lo ? (v - lo) / (hi - lo) : 1.0;
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	return 1 + (int)lround(frac * (total - 1));
}

void render_spark_range(const double *v, const bool *ok, int n, int width, double min_hi,
		 double *lo, double *hi)
{
	*lo = 0;
	*hi = min_hi;
	for (int i = n - width > 0 ? n - width : 0; i < n; i++)
		if (ok[i] && v[i] > *hi)
			*hi = v[i];
}

double render_nice_ceil(double x)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	if (!(x > 0) || isinf(x))
		return x;
	double p = pow(10, floor(log10(x)));
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * p >= x * (1 - 1e-9))
			return steps[i] * p;
	return 10 * p;
}

void render_nice_span(double *lo, double *hi)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double span = *hi - *lo;
	if (!(span > 0) || isinf(span))
		return;
	double want = span / 4, p = pow(10, floor(log10(want))), step = 10 * p;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * p >= want * (1 - 1e-9)) {
			step = steps[i] * p;
			break;
		}
	bool from_zero = *lo >= 0;
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
	if (from_zero && *lo < 0)
		*lo = 0;
}

int render_spark(const double *v, const bool *ok, int n, double lo, double hi,
		 int width, int rows, int row, bool utf8, char *out, size_t outlen)
{
	size_t o = 0;
	if (outlen == 0)
		return -1;
	out[0] = '\0';
	if (rows < 1)
		rows = 1;
	int from_bottom = rows - 1 - row;
	int first = n - width;   /* value shown in cell 0; negative = no data yet */
	for (int x = 0; x < width; x++) {
		int i = first + x;
		int u = 0;
		if (i >= 0 && i < n)
			u = render_spark_units(v[i], ok[i], lo, hi, rows) - from_bottom * SPARK_STEPS;
		if (u < 0)
			u = 0;
		if (u > SPARK_STEPS)
			u = SPARK_STEPS;
		char a[2] = { ascii_ladder[u], '\0' };
		if (!put(out, outlen, &o, utf8 ? block[u] : a))
			return -1;
	}
	return (int)o;
}

int render_bar(double frac, bool ok, int width, bool utf8, char *out, size_t outlen)
{
	size_t o = 0;
	if (outlen == 0)
		return -1;
	out[0] = '\0';
	if (width < 0)
		width = 0;
	if (!ok || isnan(frac)) {
		int start = (width - 3) / 2;
		for (int x = 0; x < width; x++) {
			char c[2] = { ' ', '\0' };
			if (width >= 3 && x >= start && x < start + 3)
				c[0] = "n/a"[x - start];
			if (!put(out, outlen, &o, c))
				return -1;
		}
		return (int)o;
	}
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	long e = lround(frac * width * 8);  /* eighths filled */
	for (int x = 0; x < width; x++) {
		long f = e - (long)x * 8;
		const char *s;
		if (f >= 8)
			s = utf8 ? "█" : "#";
		else if (f <= 0)
			s = " ";
		else
			s = utf8 ? eighth[f] : (f >= 4 ? "#" : " ");
		if (!put(out, outlen, &o, s))
			return -1;
	}
	return (int)o;
}

int render_scale_pos(int i, int n, int width)
{
	if (n <= 1 || width <= 1)
		return 0;
	/* Rounded, so both ends land on the first and last cell. */
	return (int)(((long)i * (width - 1) + (n - 1) / 2) / (n - 1));
}

static int nearest(const int64_t *lv, int n, int64_t hz)
{
	int best = -1;
	int64_t bd = 0;
	for (int i = 0; i < n; i++) {
		int64_t d = lv[i] > hz ? lv[i] - hz : hz - lv[i];
		if (best < 0 || d < bd) {
			best = i;
			bd = d;
		}
	}
	return best;
}

int render_scale(const int64_t *level_hz, int n, struct dvf_m min_hz, struct dvf_m max_hz,
		 struct dvf_m cur_hz, int width, bool utf8, char *out, size_t outlen)
{
	enum { LINE, RANGE, TICK, RTICK, LMIN, LMAX, CUR };
	static const char *const u8[] = { "─", "━", "┼", "╋", "[", "]", "●" };
	static const char *const as[] = { "-", "=", "+", "#", "[", "]", "O" };
	size_t o = 0;
	if (outlen == 0)
		return -1;
	out[0] = '\0';
	if (width <= 0)
		return 0;

	int lo = 0, hi = width - 1;  /* range cells; all of it when limits are unknown */
	int pmin = -1, pmax = -1, pcur = -1;
	if (n > 0 && min_hz.ok)
		lo = pmin = render_scale_pos(nearest(level_hz, n, min_hz.v), n, width);
	if (n > 0 && max_hz.ok)
		hi = pmax = render_scale_pos(nearest(level_hz, n, max_hz.v), n, width);
	if (n > 0 && cur_hz.ok)
		pcur = render_scale_pos(nearest(level_hz, n, cur_hz.v), n, width);

	for (int x = 0; x < width; x++) {
		bool in = x >= lo && x <= hi;
		bool tick = false;
		for (int i = 0; i < n && !tick; i++)
			tick = render_scale_pos(i, n, width) == x;
		int k = in ? (tick ? RTICK : RANGE) : (tick ? TICK : LINE);
		if (n == 0)
			k = -1;
		else if (x == pcur)
			k = CUR;
		else if (x == pmin)
			k = LMIN;
		else if (x == pmax)
			k = LMAX;
		if (!put(out, outlen, &o, k < 0 ? " " : utf8 ? u8[k] : as[k]))
			return -1;
	}
	return (int)o;
}

int render_w_prec(double w)
{
	w = fabs(w);
	return w >= 99.95 ? 0 : w >= 9.995 ? 1 : 2;
}

int render_jstep_prec(double j)
{
	j = fabs(j);
	return j >= 999.95 ? 0 : j >= 99.995 ? 1 : j >= 9.9995 ? 2 : j >= 0.99995 ? 3 : 4;
}

char *render_fmt_m(char *buf, size_t len, struct dvf_m m, double scale, int prec, const char *unit)
{
	if (!m.ok)
		snprintf(buf, len, "n/a");
	else if (unit && *unit)
		snprintf(buf, len, "%.*f %s", prec, (double)m.v * scale, unit);
	else
		snprintf(buf, len, "%.*f", prec, (double)m.v * scale);
	return buf;
}

char *render_duration(char *buf, size_t len, double s)
{
	if (!(s >= 0)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	long t = (long)s;
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

char *render_time_left(char *buf, size_t len, double s)
{
	if (!(s >= 0) || s > 1e9) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	long t = (long)s;
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
	return buf;
}
