/* nvml_ctl: the NVML source's clock control (the source table's ctl_read
 * and ctl_write, nvml.c): the same locked clocks on every GPU still
 * answering, or the driver's default back. */
#include "config.h"
#include "nvml_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool control_offered(const struct source *s)
{
	return s->api.lock_clocks && s->api.reset_clocks && s->info.n_levels > 0;
}

/* The first GPU still answering, or NULL. */
static const struct nvml_gpu *first_alive(const struct source *s)
{
	for (int i = 0; i < s->n; i++)
		if (!s->g[i].lost)
			return &s->g[i];
	return NULL;
}

int nvml_ctl_read(struct source *s, struct ctl_state *st)
{
	if (!control_offered(s))
		return ENOTSUP;
	const struct nvml_gpu *g = first_alive(s);
	if (!g)
		return ENODEV;
	memset(st, 0, sizeof *st);
	if (g->locked) {
		snprintf(st->governor, sizeof st->governor, "locked");
		st->min_hz = (int64_t)g->lock_min * 1000000;
		st->max_hz = (int64_t)g->lock_max * 1000000;
	} else {
		snprintf(st->governor, sizeof st->governor, "default");
		st->min_hz = s->info.level_hz[0];
		st->max_hz = s->info.level_hz[s->info.n_levels - 1];
	}
	return 0;
}

static unsigned hz_to_mhz(int64_t hz)
{
	return (unsigned)((hz + 500000) / 1000000);
}

/* One GPU to the range (or reset).  0 or an errno, with a message. */
static int write_gpu(struct source *s, struct nvml_gpu *g, bool reset, unsigned mn, unsigned mx)
{
	const struct nvml_api *a = &s->api;
	nvml_ret r = reset ? a->reset_clocks(g->dev) : a->lock_clocks(g->dev, mn, mx);
	if (r == NVML_ERROR_GPU_IS_LOST)
		(void)nvml_got(s, g, r, 0);
	if (r != NVML_SUCCESS) {
		char t[160], what[64];
		if (reset)
			snprintf(what, sizeof what, "reset the locked clocks");
		else
			snprintf(what, sizeof what, "lock the clocks to %u-%u MHz", mn, mx);
		if (!g->lost)
			nvml_set_msg(s, "GPU %d: cannot %s: %s%s", g->index, what, nvml_api_ret_text(a, r, t, sizeof t),
				r == NVML_ERROR_NO_PERMISSION ?
				"; clock locks need root (or CAP_SYS_ADMIN in a container)" : "");
		return nvml_api_errno(r);
	}
	g->locked = !reset;
	g->lock_min = reset ? 0 : mn;
	g->lock_max = reset ? 0 : mx;
	return 0;
}

/* The state asked for becomes a locked range on every GPU, or the driver's
 * default when it spans the whole table and does not say "locked" (so the
 * saved default state written back is a reset, and a pin written over
 * "default" is a lock).  Every GPU still answering is asked, even after one
 * refuses (a reset must reach them all); the first error is returned. */
int nvml_ctl_write(struct source *s, const struct ctl_state *st)
{
	if (!control_offered(s))
		return ENOTSUP;
	if (!first_alive(s))
		return ENODEV;
	if (st->min_hz <= 0 || st->max_hz < st->min_hz || st->max_hz > 100000LL * 1000000)
		return EINVAL;
	int64_t lo = s->info.level_hz[0], hi = s->info.level_hz[s->info.n_levels - 1];
	bool reset = strcmp(st->governor, "locked") != 0 && st->min_hz <= lo && st->max_hz >= hi;
	unsigned mn = hz_to_mhz(st->min_hz), mx = hz_to_mhz(st->max_hz);
	int err = 0;
	for (int i = 0; i < s->n; i++) {
		if (s->g[i].lost)
			continue;
		int e = write_gpu(s, &s->g[i], reset, mn, mx);
		if (e && !err)
			err = e;
	}
	return err;
}
