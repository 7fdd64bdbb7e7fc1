/* render: pure text renderers for the dashboard's small graphics and
 * numbers.  Each returns a string of exactly `width` columns (UTF-8 block
 * characters, or ASCII when utf8 is false), so they are tested as text.
 *
 * Invalid data is never drawn as zero: a gap in a sparkline is blank, an
 * invalid bar says n/a, an invalid number prints "n/a". */
#ifndef DVF_RENDER_H
#define DVF_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Steps of one character cell (eighths in UTF-8 blocks; the ASCII ladder
 * has the same count so scaling is identical in both). */
enum { SPARK_STEPS = 8 };

/* Sparkline row `row` (0 = top) of a `rows`-high graph of the last `width`
 * of n values (oldest first) scaled from lo to hi.  ok[i] false is a gap
 * (blank in every row); a valid value, even lo, shows at least the lowest
 * step, so a gap and a zero look different.  With fewer values than width,
 * the graph is right-aligned (no data yet = blank).  Returns bytes written
 * (excluding NUL), or -1 if out is too small (4 * width + 1 always does). */
int render_spark(const double *v, const bool *ok, int n, double lo, double hi,
		 int width, int rows, int row, bool utf8, char *out, size_t outlen);
/* Steps (0..rows*SPARK_STEPS) a value gets: 0 only for a gap. */
int render_spark_units(double v, bool ok, double lo, double hi, int rows);
/* lo = 0 and hi = the largest valid value of the last `width` values (at
 * least min_hi), the usual scale for power and clock graphs. */
void render_spark_range(const double *v, const bool *ok, int n, int width, double min_hi,
		 double *lo, double *hi);
/* The scale's top rounded up to the next of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5,
 * 6, 8 times a power of ten (x itself when not above 0): a graph scaled to
 * it keeps its cells while its largest value moves within one step, where
 * a scale that follows every new maximum redraws the whole graph. */
double render_nice_ceil(double x);
/* lo and hi widened outwards to multiples of a step of 1, 2, 2.5 or 5
 * times a power of ten, at least a quarter of the span, for a graph of
 * the values' own span (labelled at lo and hi) that rescales only when a
 * value crosses such a multiple. */
void render_nice_span(double *lo, double *hi);

/* A bar of `width` cells filled to frac (0..1, clamped), in eighths with
 * UTF-8; with ok false the bar is blank with "n/a" in its middle. */
int render_bar(double frac, bool ok, int width, bool utf8, char *out, size_t outlen);

/* The GPU clock scale: the board's levels spread over `width` cells, the
 * range between the min and max limits drawn heavier with '[' and ']' at the
 * limits, and the current clock marked (●, ASCII 'O').  Invalid limits or
 * clock are simply not marked.  n == 0 gives a blank scale. */
int render_scale(const int64_t *level_hz, int n, struct dvf_m min_hz, struct dvf_m max_hz,
		 struct dvf_m cur_hz, int width, bool utf8, char *out, size_t outlen);
/* Cell of level i on such a scale. */
int render_scale_pos(int i, int n, int width);

/* Decimals for a power of w watts: three significant digits (0.48, 6.55,
 * 22.1, 595 W), about what a rail's sensor resolves (INA3221: tens of mW
 * at 20 W), so the last digit shown is not noise that changes every frame. */
int render_w_prec(double w);
/* Decimals for a J/step of j: four significant digits (10.48, 0.9873),
 * finer than a run's own spread, coarser than its noise. */
int render_jstep_prec(double j);
/* Number with unit: v * scale with prec decimals and " unit", or "n/a". */
char *render_fmt_m(char *buf, size_t len, struct dvf_m m, double scale, int prec, const char *unit);
/* Seconds as H:MM:SS (or M:SS under an hour); "n/a" when negative. */
char *render_duration(char *buf, size_t len, double s);
/* A time still to come, with its units so it cannot be read as a time of
 * day: "45s", "14m52s", "2h05m" (no seconds from an hour up); "n/a" when
 * s is negative or not a number. */
char *render_time_left(char *buf, size_t len, double s);

#endif
