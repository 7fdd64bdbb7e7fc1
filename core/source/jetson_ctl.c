/* jetson_ctl: the GPU clock limits (governor, min_freq, max_freq), written
 * in an order the kernel accepts. */
#include "config.h"
#include "jetson.h"
#include "jetson_priv.h"
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *jetson_ctl_path(struct source *s, const char *file)
{
	if (!file || !*file || strchr(file, '/') || jetson_path_join3(s->ctl_buf, sizeof s->ctl_buf, s->node, "/", file))
		return NULL;
	return s->ctl_buf;
}

int jetson_ctl_read(struct source *s, struct ctl_state *st)
{
	if (io_read(&s->gov, st->governor, sizeof st->governor) < 0)
		return s->gov.err ? s->gov.err : EIO;
	if (!io_read_i64(&s->min, &st->min_hz))
		return s->min.err ? s->min.err : EIO;
	if (!io_read_i64(&s->max, &st->max_hz))
		return s->max.err ? s->max.err : EIO;
	return 0;
}

static int jetson_ctl_write_hz(struct source *s, const char *file, int64_t hz)
{
	char v[32];
	const char *p = jetson_ctl_path(s, file);
	if (!p)
		return ENAMETOOLONG;
	snprintf(v, sizeof v, "%lld", (long long)hz);
	return io_write_in(s->prefix, p, v);
}

int jetson_ctl_write(struct source *s, const struct ctl_state *st)
{
	s->seldom_read = false;   /* the next sample shows what was written */
	if (st->min_hz <= 0 || st->max_hz <= 0 || st->min_hz > st->max_hz)
		return EINVAL;
	int first = 0;
	char cur[DVF_GOV_LEN];
	if (st->governor[0] && (io_read(&s->gov, cur, sizeof cur) < 0 || strcmp(cur, st->governor) != 0)) {
		const char *p = jetson_ctl_path(s, "governor");
		first = p ? io_write_in(s->prefix, p, st->governor) : ENAMETOOLONG;
	}
	/* Never ask for min > max on the way (JP4 kernels refuse it):
	 * raising writes max first, lowering writes min first. */
	int64_t cur_max, cur_min;
	bool have_max = io_read_i64(&s->max, &cur_max);
	bool raising = !have_max || st->max_hz > cur_max;
	/* A limit that already reads as asked is not written again: control
	 * hands one changed limit at a time and names that file when the
	 * write fails, so the file written must be the one that failed. */
	bool keep_max = have_max && cur_max == st->max_hz;
	bool keep_min = io_read_i64(&s->min, &cur_min) && cur_min == st->min_hz;
	int err = raising ? jetson_ctl_write_hz(s, "max_freq", st->max_hz) :
		  keep_min ? 0 : jetson_ctl_write_hz(s, "min_freq", st->min_hz);
	/* the second write is only safe once the first has landed */
	if (!err)
		err = raising ? (keep_min ? 0 : jetson_ctl_write_hz(s, "min_freq", st->min_hz)) :
		      keep_max ? 0 : jetson_ctl_write_hz(s, "max_freq", st->max_hz);
	return first ? first : err;
}

