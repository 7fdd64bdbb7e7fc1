#include "config.h"
#include "control.h"
#include "cfmt.h"
#include "control_priv.h"
#include "guard.h"
#include "stopsig.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The driver follows a write within a devfreq poll (25 ms on nvgpu); the
 * verdict waits a little longer before blaming anything. */
#define VERIFY_FIRST_NS (50 * DVF_NS_PER_MS)
#define VERIFY_LAST_NS  (200 * DVF_NS_PER_MS)
/* Orin's software throttling starts in the 90s (°C); above this a low clock
 * is put down to heat. */
#define HOT_MC 95000


static const char *const ctl_file[GUARD_NFILES] = { "governor", "min_freq", "max_freq" };

/* Messages are cut to fit on purpose. */
void control_set_msg(struct control *c, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(c->msg, sizeof c->msg, f, ap);
	va_end(ap);
}

/* ---- pure helpers ------------------------------------------------------ */

const char *control_mode_name(enum control_mode m)
{
	switch (m) {
	case CTL_PIN: return "pin";
	case CTL_CAP: return "cap";
	case CTL_DEFAULT: break;
	}
	return "default";
}

const char *control_by_name(enum control_by b)
{
	switch (b) {
	case CTL_BY_POLICY: return "policy";
	case CTL_BY_SWEEP: return "sweep";
	case CTL_BY_GOVERNOR: return "governor";
	case CTL_BY_USER: break;
	}
	return "user";
}

void control_fmt_mhz(int64_t hz, char *buf, size_t len)
{
	cfmt_mhz(hz, buf, len, true);
}

int control_check_level(const struct dvf_info *in, int64_t hz, char *msg, size_t len)
{
	if (in->n_levels <= 0) {
		cfmt(msg, len, "the GPU clock table of this board is unknown; nothing written");
		return EINVAL;
	}
	if (sample_level_index(in, hz) >= 0)
		return 0;
	char v[32], lo[32], hi[32];
	control_fmt_mhz(hz, v, sizeof v);
	control_fmt_mhz(in->level_hz[0], lo, sizeof lo);
	control_fmt_mhz(in->level_hz[in->n_levels - 1], hi, sizeof hi);
	if (hz < in->level_hz[0]) {
		cfmt(msg, len, "%s is below the lowest GPU clock level (%s); nothing written", v, lo);
		return EINVAL;
	}
	if (hz > in->level_hz[in->n_levels - 1]) {
		cfmt(msg, len, "%s is above the highest GPU clock level (%s); nothing written", v, hi);
		return EINVAL;
	}
	int i = 0;
	while (i + 1 < in->n_levels && in->level_hz[i + 1] < hz)
		i++;
	control_fmt_mhz(in->level_hz[i], lo, sizeof lo);
	control_fmt_mhz(in->level_hz[i + 1], hi, sizeof hi);
	/* short enough for an 80-column status line */
	cfmt(msg, len, "%s is not a GPU clock level (nearest %s, %s); nothing written", v, lo, hi);
	return EINVAL;
}

int control_level_mhz(const struct dvf_info *in, int64_t mhz, int64_t *hz, char *msg, size_t len)
{
	/* People type whole MHz: 1300 means the 1300.5 MHz level. */
	for (int i = 0; i < in->n_levels; i++) {
		if (in->level_hz[i] / 1000000 == mhz) {
			*hz = in->level_hz[i];
			return 0;
		}
	}
	if (mhz <= 0 || mhz > INT64_MAX / 1000000) {
		cfmt(msg, len, "%lld MHz is not a GPU clock; nothing written", (long long)mhz);
		return EINVAL;
	}
	/* Whole MHz that is a level itself; *hz is set whenever 0 is returned
	 * (gcc with LTO, Ubuntu's default, warned of an unset hz in dvfstopd). */
	int err = control_check_level(in, mhz * 1000000, msg, len);
	if (!err)
		*hz = mhz * 1000000;
	return err;
}

int control_plan(const struct ctl_state *cur, const struct ctl_state *want,
		 struct ctl_state steps[3], char what[3])
{
	struct ctl_state s = *cur;
	int n = 0;
	if (want->governor[0] && strcmp(want->governor, cur->governor) != 0) {
		cfmt(s.governor, sizeof s.governor, "%s", want->governor);
		steps[n] = s;
		what[n++] = 'g';
	}
	char seq[2];
	int k = guard_order(cur->min_hz, cur->max_hz, want->min_hz, want->max_hz, seq);
	for (int i = 0; i < k; i++) {
		if (seq[i] == 'M')
			s.max_hz = want->max_hz;
		else
			s.min_hz = want->min_hz;
		steps[n] = s;
		what[n++] = seq[i];
	}
	return n;
}

/* ---- opening ------------------------------------------------------------ */

static bool is_perm(int err)
{
	return err == EACCES || err == EPERM || err == EROFS;
}

static void readonly_perm(struct control *c, const char *path)
{
	c->ro = true;
	if (c->helper_why[0])
		control_set_msg(c, "read-only: no permission to write %s. To set GPU clocks start dvfstopd "
				"(%s) or run dvfstop as root (sudo dvfstop ...); monitoring works as it is",
				path, c->helper_why);
	else
		control_set_msg(c, "read-only: no permission to write %s. To set GPU clocks run dvfstop as "
				"root (sudo dvfstop ...); monitoring works as it is", path);
}

/* Look for a state left by a killed run without taking control. */
static void peek_stale(struct control *c)
{
	char m[512];
	struct guard_cfg gc = { .root = c->cfg.root, .source = c->cfg.ops ? c->cfg.ops->name : "",
				.dir = c->cfg.state_dir, .lock = false, .api = c->api,
				.one_gpu = c->cfg.one_gpu, .gpu = c->cfg.gpu };
	c->g = guard_open(&gc, m, sizeof m);
	if (c->g && guard_stale(c->g))
		cfmt(c->msg + strlen(c->msg), sizeof c->msg - strlen(c->msg), "; %s", m);
}

/* An api state goes back through the source itself. */
static int restore_through_source(void *ctx, const struct ctl_state *st)
{
	struct control *c = ctx;
	return c->cfg.ops->ctl_write(c->cfg.src, st);
}

struct control *control_open(const struct control_cfg *cfg)
{
	struct control *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->cfg = *cfg;
	if (!c->cfg.root || !*c->cfg.root)
		c->cfg.root = "/";
	const struct source_ops *ops = cfg->ops;

	c->api = ops && !ops->ctl_path;
	if (cfg->readonly) {
		c->ro = true;
		control_set_msg(c, "read-only (--readonly): the GPU clock is never changed");
		peek_stale(c);
		return c;
	}
	const char *table = ops && ops->ctl_path && cfg->src && cfg->info && cfg->info->n_levels <= 0 ?
			    ops->ctl_path(cfg->src, "available_frequencies") : NULL;
	if (table) {
		/* the source said why when it opened (a link, too long, > 64 levels) */
		c->ro = true;
		control_set_msg(c, "read-only: no usable GPU clock table in %s (unreadable, refused, or not a list of "
			"levels in Hz); dvfstop writes only the table's values", table);
		return c;
	}
	if (!ops || !ops->ctl_read || !ops->ctl_write || !cfg->src ||
	    !cfg->info || cfg->info->n_levels <= 0) {
		c->ro = true;
		control_set_msg(c, "read-only: the %s source cannot change the GPU clock",
			ops ? ops->name : "current");
		return c;
	}
	for (int f = 0; f < GUARD_NFILES && !c->api; f++) {
		const char *p = ops->ctl_path(cfg->src, ctl_file[f]);
		if (!p || strlen(p) >= sizeof c->path[f]) {
			c->ro = true;
			control_set_msg(c, "read-only: the GPU %s file is not known", ctl_file[f]);
			return c;
		}
		cfmt(c->path[f], sizeof c->path[f], "%s", p);
	}
	const char *cp = c->api ? NULL : ops->ctl_path(cfg->src, "cur_freq");
	if (cp)
		cfmt(c->cur_path, sizeof c->cur_path, "%s", cp);
	if (!realpath(c->cfg.root, c->real_root))
		cfmt(c->real_root, sizeof c->real_root, "%s", c->cfg.root);
	if (cfg->helper_socket && cfg->helper && !cfg->helper_after_lock && cfg->helper->open(c)) {
		if (c->hc)
			stopsig_install(cfg->graceful_signals);
		return c;
	}
	for (int f = 0; f < GUARD_NFILES && !c->api; f++) {
		/* opened for writing as a write would (without writing): a file
		 * that is a link, or leads out of the root, is refused before
		 * anything is saved or written */
		int e = io_check_in(c->real_root, c->path[f], O_WRONLY);
		if (is_perm(e)) {
			readonly_perm(c, c->path[f]);
			peek_stale(c);
			return c;
		}
		if (e == ELOOP || e == EXDEV || e == ENOTSUP || e == EISDIR || e == EMLINK) {
			c->ro = true;
			control_set_msg(c, "read-only: the GPU %s file %s is %s; nothing written", ctl_file[f], c->path[f],
				io_strerror(e));
			return c;
		}
	}

	char m[512];
	const char *const paths[GUARD_NFILES] = { c->path[GUARD_GOV], c->path[GUARD_MIN],
						  c->path[GUARD_MAX] };
	struct guard_cfg gc = { .root = c->cfg.root, .source = ops->name, .dir = cfg->state_dir,
				.lock = true, .api = c->api, .paths = c->api ? NULL : paths,
				.one_gpu = cfg->one_gpu, .gpu = cfg->gpu,
				.levels = cfg->info->level_hz, .n_levels = cfg->info->n_levels };
	c->g = guard_open(&gc, m, sizeof m);
	if (c->g)
		guard_set_restorer(c->g, restore_through_source, c);
	if (!c->g) {
		c->ro = true;
		control_set_msg(c, "read-only: %s (without a state file the clocks could not be given "
			"back after a crash)", m);
		return c;
	}
	if (!guard_owner(c->g) && cfg->helper_socket && cfg->helper && cfg->helper_after_lock &&
	    cfg->helper->open(c)) {
		/* dvfstopd holds this board's lock: through it, then */
		guard_close(c->g);
		c->g = NULL;
		if (c->hc)
			stopsig_install(cfg->graceful_signals);
		return c;
	}
	if (!guard_owner(c->g)) {
		c->ro = true;
		c->holder = guard_holder(c->g);
		if (c->holder)
			control_set_msg(c, "read-only: another dvfstop (pid %ld) controls the GPU clock; quit "
				"it first (it gives the clocks back)", c->holder);
		else
			control_set_msg(c, "read-only: another dvfstop controls the GPU clock%s%s",
				m[0] ? ": " : "", m);
		return c;
	}
	stopsig_install(cfg->graceful_signals);
	if (guard_blocked(c->g)) {
		/* A state file nobody can use: its clocks must not be lost. */
		c->ro = true;
		control_set_msg(c, "read-only: %s", guard_block_msg(c->g));
		return c;
	}
	if (m[0])
		control_set_msg(c, "%s", m);
	else
		control_set_msg(c, "clock control: direct%s", geteuid() == 0 ? " (root)" : "");
	return c;
}

/* ---- actions ------------------------------------------------------------ */

static void describe_setting(enum control_mode m, int64_t hz, char *buf, size_t len)
{
	if (m == CTL_DEFAULT) {
		cfmt(buf, len, "default");
		return;
	}
	char f[32];
	control_fmt_mhz(hz, f, sizeof f);
	cfmt(buf, len, "%s %s", control_mode_name(m), f);
}

void control_emit(struct control *c, enum control_mode mode, int64_t hz, enum control_by by)
{
	struct control_event ev = {
		.t_ns = c->cfg.clock ? timebase_now(c->cfg.clock) : 0,
		.old_mode = c->mode, .new_mode = mode,
		.old_hz = c->mode == CTL_DEFAULT ? 0 : c->hz,
		.new_hz = mode == CTL_DEFAULT ? 0 : hz,
		.by = by,
	};
	char was[48], now[48];
	describe_setting(c->mode, c->hz, was, sizeof was);
	describe_setting(mode, hz, now, sizeof now);
	cfmt(ev.text, sizeof ev.text, "%s (was %s)", now, was);
	c->mode = mode;
	c->hz = mode == CTL_DEFAULT ? 0 : hz;
	if (c->fn)
		c->fn(&ev, c->fn_ctx);
}

static const char *by_prefix(enum control_by by)
{
	return by == CTL_BY_USER ? "" : by == CTL_BY_POLICY ? "policy: " : by == CTL_BY_SWEEP ? "sweep: " : "governor: ";
}

/* Save the originals before the first write; nothing is written without. */
static int ensure_saved(struct control *c, char *note, size_t len)
{
	note[0] = '\0';
	if (guard_saved(c->g))
		return 0;
	const char *paths[GUARD_NFILES] = { c->path[GUARD_GOV], c->path[GUARD_MIN], c->path[GUARD_MAX] };
	char m[512];
	int err;
	if (c->api) {
		struct ctl_state cur;
		err = c->cfg.ops->ctl_read(c->cfg.src, &cur);
		if (err)
			cfmt(m, sizeof m, "cannot read the clock settings: %s", strerror(err));
		else
			err = guard_save_api(c->g, &cur, c->cfg.info->gpu_node, m, sizeof m);
	} else {
		err = guard_save(c->g, paths, c->cfg.info->level_hz[0], c->cfg.info->gpu_node, m, sizeof m);
	}
	if (err) {
		control_set_msg(c, "not changing the GPU clock: %s", m);
		return err;
	}
	c->wrote = false;
	cfmt(note, len, "%s", m);
	return 0;
}

/* Write was back (the settings before an action whose later write
 * failed), so a half-done change never stays.  True when every write of
 * the way back worked. */
static bool roll_back(struct control *c, const struct ctl_state *was)
{
	const struct source_ops *ops = c->cfg.ops;
	struct ctl_state now, steps[3];
	char what[3];
	if (ops->ctl_read(c->cfg.src, &now) != 0)
		return false;
	int n = control_plan(&now, was, steps, what);
	for (int i = 0; i < n; i++)
		if (ops->ctl_write(c->cfg.src, &steps[i]) != 0)
			return false;
	return true;
}

static int fail_write(struct control *c, const char *action, char what, int err, int done,
		      bool rolled)
{
	char f[PATH_MAX];
	if (c->api)
		cfmt(f, sizeof f, "the clock settings of %s", c->cfg.info->gpu_node);
	else
		cfmt(f, sizeof f, "%s", what == 'g' ? c->path[GUARD_GOV] :
		    what == 'M' ? c->path[GUARD_MAX] : c->path[GUARD_MIN]);
	if (is_perm(err) && !c->wrote && done == 0) {
		/* Refused before anything changed: nothing to give back. */
		guard_discard(c->g);
		readonly_perm(c, f);
		return err;
	}
	if (rolled) {
		control_set_msg(c, "%s failed: writing %s: %s; undone, the clock is as it was", action, f,
			strerror(err));
		return err;
	}
	struct ctl_state now;
	if (c->cfg.ops->ctl_read(c->cfg.src, &now) == 0) {
		char lo[32], hi[32];
		control_fmt_mhz(now.min_hz, lo, sizeof lo);
		control_fmt_mhz(now.max_hz, hi, sizeof hi);
		control_set_msg(c, "%s failed: writing %s: %s%s; now min %s, max %s (default puts the "
			"originals back)", action, f, strerror(err),
			done ? " (after an earlier write went through)" : "", lo, hi);
	} else {
		control_set_msg(c, "%s failed: writing %s: %s", action, f, strerror(err));
	}
	return err;
}

/* The writes of an action, in guard_order's order, the originals saved first. */
static int apply_direct(struct control *c, enum control_mode mode, int64_t hz, const char *action,
			char *note, size_t note_len)
{
	char m[512];
	int err = ensure_saved(c, note, note_len);
	if (err)
		return err;
	const struct source_ops *ops = c->cfg.ops;
	struct ctl_state cur, want;
	err = ops->ctl_read(c->cfg.src, &cur);
	if (err) {
		control_set_msg(c, "%s: cannot read the GPU clock settings: %s", action, strerror(err));
		return err;
	}
	want = cur;
	want.max_hz = hz;
	if (mode == CTL_PIN) {
		want.min_hz = hz;
	} else {
		/* A cap lets the governor go as low as it could before. */
		int64_t m0 = guard_saved_hz(c->g, GUARD_MIN);
		want.min_hz = m0 > 0 && m0 <= hz && sample_level_index(c->cfg.info, m0) >= 0 ?
			      m0 : c->cfg.info->level_hz[0];
	}
	struct ctl_state steps[3];
	char what[3];
	int n = control_plan(&cur, &want, steps, what);
	for (int i = 0; i < n; i++) {
		/* The governor goes back at exit only once dvfstop writes it. */
		if (what[i] == 'g' && (err = guard_mark(c->g, GUARD_GOV, m, sizeof m)) != 0) {
			control_set_msg(c, "not changing the GPU governor: %s", m);
			return err;
		}
		err = ops->ctl_write(c->cfg.src, &steps[i]);
		if (err)
			return fail_write(c, action, what[i], err, i, i > 0 && roll_back(c, &cur));
		c->wrote = true;
	}
	return 0;
}

static int apply(struct control *c, enum control_mode mode, int64_t hz, enum control_by by)
{
	if (c->ro)
		return EPERM;   /* the read-only message stays */
	char m[512], action[64];
	int err = control_check_level(c->cfg.info, hz, m, sizeof m);
	if (err) {
		control_set_msg(c, "%s", m);
		return err;
	}
	describe_setting(mode, hz, action, sizeof action);
	char note[512];
	err = c->hc ? c->cfg.helper->apply(c, mode, hz, action, note, sizeof note) :
		      apply_direct(c, mode, hz, action, note, sizeof note);
	if (err)
		return err;
	char f[32];
	control_fmt_mhz(hz, f, sizeof f);
	control_emit(c, mode, hz, by);
	c->verify.pending = true;
	c->verify.t0 = c->cfg.clock ? timebase_now(c->cfg.clock) : 0;
	if (mode == CTL_PIN)
		control_set_msg(c, "%sGPU clock pinned at %s%s%s", by_prefix(by), f, note[0] ? "; " : "", note);
	else
		control_set_msg(c, "%sGPU clock capped at %s (the governor scales below)%s%s", by_prefix(by),
			f, note[0] ? "; " : "", note);
	return 0;
}

int control_pin(struct control *c, int64_t hz, enum control_by by)
{
	return apply(c, CTL_PIN, hz, by);
}

int control_cap(struct control *c, int64_t hz, enum control_by by)
{
	return apply(c, CTL_CAP, hz, by);
}

int control_default(struct control *c, enum control_by by)
{
	if (c->ro)
		return EPERM;
	c->verify.pending = false;
	if (c->hc ? !c->helper_wrote : !guard_saved(c->g)) {
		c->mode = CTL_DEFAULT;
		c->hz = 0;
		control_set_msg(c, "the GPU clock is at its default (dvfstop has not changed it)");
		return 0;
	}
	int err;
	if (c->hc) {
		err = c->cfg.helper->restore(c, by_prefix(by));
	} else {
		char m[512];
		err = guard_restore(c->g, m, sizeof m);
		control_set_msg(c, "%s%s", by_prefix(by), m);
	}
	if (err)
		return err;
	control_emit(c, CTL_DEFAULT, 0, by);
	return 0;
}

/* The level the board runs at now, for a step out of default mode. */
static int current_level(struct control *c)
{
	const struct dvf_info *in = c->cfg.info;
	int64_t hz = c->last_cur_hz;
	if (hz <= 0 && c->cur_path[0] && !io_slurp_i64_in(c->real_root, c->cur_path, &hz))
		hz = 0;
	if (hz <= 0) {
		struct ctl_state st;
		hz = c->cfg.ops->ctl_read(c->cfg.src, &st) == 0 ? st.max_hz : in->level_hz[in->n_levels - 1];
	}
	return sample_level_nearest(in, hz);
}

int control_step(struct control *c, int dir, enum control_by by)
{
	if (c->ro)
		return EPERM;
	const struct dvf_info *in = c->cfg.info;
	enum control_mode mode = c->mode == CTL_DEFAULT ? CTL_PIN : c->mode;
	int i = c->mode == CTL_DEFAULT ? current_level(c) : sample_level_index(in, c->hz);
	if (i < 0)
		i = 0;
	int j = i + (dir > 0 ? 1 : -1);
	if (c->mode == CTL_DEFAULT && (j < 0 || j >= in->n_levels))
		j = i;   /* from default, pin where it runs rather than refuse */
	if (j < 0 || j >= in->n_levels) {
		char f[32];
		control_fmt_mhz(in->level_hz[i], f, sizeof f);
		control_set_msg(c, "already at the %s GPU clock level (%s)", dir > 0 ? "highest" : "lowest", f);
		return ERANGE;
	}
	return apply(c, mode, in->level_hz[j], by);
}

int control_switch(struct control *c, enum control_by by)
{
	if (c->ro)
		return EPERM;
	if (c->mode == CTL_DEFAULT) {
		control_set_msg(c, "no clock set: pin or cap one first");
		return EINVAL;
	}
	return apply(c, c->mode == CTL_PIN ? CTL_CAP : CTL_PIN, c->hz, by);
}

int control_apply_opts(struct control *c, int64_t set_clock_mhz, int64_t cap_mhz)
{
	if (!set_clock_mhz && !cap_mhz)
		return 0;
	if (set_clock_mhz && cap_mhz) {
		control_set_msg(c, "--set-clock and --cap together: choose one");
		return EINVAL;
	}
	if (c->ro)
		return EPERM;
	int64_t hz;
	char m[512];
	int err = control_level_mhz(c->cfg.info, set_clock_mhz ? set_clock_mhz : cap_mhz, &hz, m, sizeof m);
	if (err) {
		control_set_msg(c, "%s %lld: %s", set_clock_mhz ? "--set-clock" : "--cap",
			(long long)(set_clock_mhz ? set_clock_mhz : cap_mhz), m);
		return err;
	}
	return set_clock_mhz ? control_pin(c, hz, CTL_BY_USER) : control_cap(c, hz, CTL_BY_USER);
}

/* ---- readback ------------------------------------------------------------- */

static bool runs_as_told(const struct control *c, const struct dvf_sample *s)
{
	if (!s->gpu_freq_hz.ok)
		return false;
	if (c->mode == CTL_PIN)
		return s->gpu_freq_hz.v == c->hz;
	return s->gpu_freq_hz.v <= c->hz;
}

static void why_elsewhere(const struct control *c, const struct dvf_sample *s, char *buf, size_t len)
{
	const struct dvf_info *in = c->cfg.info;
	char f[32];
	const char *pm = in->power_mode[0] ? in->power_mode : NULL;
	if (!s->gpu_freq_hz.ok) {
		cfmt(buf, len, "cur_freq cannot be read; the GPU may be rail-gated (powered down "
			 "while idle)");
		return;
	}
	if (s->gpu_max_hz.ok && s->gpu_max_hz.v < c->hz) {
		control_fmt_mhz(s->gpu_max_hz.v, f, sizeof f);
		cfmt(buf, len, "max_freq reads back %s, so a lower limit is in force (%s%s%s)", f,
			 pm ? "power mode " : "nvpmodel or another tool", pm ? pm : "",
			 pm ? " via nvpmodel" : "");
		return;
	}
	if (c->mode == CTL_PIN && s->gpu_min_hz.ok && s->gpu_min_hz.v != c->hz) {
		control_fmt_mhz(s->gpu_min_hz.v, f, sizeof f);
		cfmt(buf, len, "min_freq reads back %s: something else changed it", f);
		return;
	}
	if (s->gpu_freq_hz.v > c->hz) {
		cfmt(buf, len, "the driver runs it higher than asked");
		return;
	}
	int hot = -1;
	for (int i = 0; i < in->n_zones && i < DVF_MAX_ZONES; i++)
		if (s->temp_mc[i].ok && (hot < 0 || s->temp_mc[i].v > s->temp_mc[hot].v))
			hot = i;
	if (hot >= 0 && s->temp_mc[hot].v >= HOT_MC) {
		cfmt(buf, len, "thermal throttling (%s at %.1f °C)", in->zone_name[hot],
			 (double)s->temp_mc[hot].v / 1000.0);
		return;
	}
	if (s->gpu_load_pm.ok && s->gpu_load_pm.v == 0) {
		cfmt(buf, len, "the GPU is idle and may be rail-gated, or a cap outside devfreq "
			 "holds it (%s%s, thermal)", pm ? "power mode " : "nvpmodel", pm ? pm : "");
		return;
	}
	cfmt(buf, len, "a cap outside devfreq holds it (%s%s, thermal throttling, rail-gating)",
		 pm ? "power mode " : "nvpmodel", pm ? pm : "");
}

bool control_observe(struct control *c, const struct dvf_sample *s)
{
	if (c->hc && c->cfg.helper->check(c))
		return true;   /* the daemon went away: said once */
	if (s->gpu_freq_hz.ok)
		c->last_cur_hz = s->gpu_freq_hz.v;
	if (!c->verify.pending || c->mode == CTL_DEFAULT)
		return false;
	int64_t dt = s->t_ns - c->verify.t0;
	if (dt < VERIFY_FIRST_NS)
		return false;
	if (runs_as_told(c, s)) {
		c->verify.pending = false;
		return false;
	}
	if (dt < VERIFY_LAST_NS)
		return false;
	c->verify.pending = false;
	char want[32], got[32], why[256];
	control_fmt_mhz(c->hz, want, sizeof want);
	if (s->gpu_freq_hz.ok)
		control_fmt_mhz(s->gpu_freq_hz.v, got, sizeof got);
	else
		cfmt(got, sizeof got, "n/a");
	why_elsewhere(c, s, why, sizeof why);
	control_set_msg(c, "%s at %s, but the GPU runs at %s: %s",
		c->mode == CTL_PIN ? "pinned" : "capped", want, got, why);
	return true;
}

/* ---- the rest ------------------------------------------------------------- */

const char *control_msg(const struct control *c) { return c->msg; }
bool control_readonly(const struct control *c) { return c->ro; }
enum control_mode control_mode(const struct control *c) { return c->mode; }
int64_t control_target_hz(const struct control *c) { return c->hz; }
long control_holder(const struct control *c) { return c->holder; }

void control_on_event(struct control *c, control_event_fn fn, void *ctx)
{
	c->fn = fn;
	c->fn_ctx = ctx;
}

bool control_stale(const struct control *c)
{
	return c->g && guard_stale(c->g);
}

int control_restore_stale(struct control *c)
{
	if (!c->g)
		return 0;
	char m[512];
	int err = guard_restore_stale(c->g, m, sizeof m);
	control_set_msg(c, "%s", m);
	return err;
}

int control_release(struct control *c)
{
	if (c->hc) {
		int err = c->cfg.helper->release(c);
		if (!err) {
			c->mode = CTL_DEFAULT;
			c->hz = 0;
		}
		return err;
	}
	if (!c->g || !guard_saved(c->g))
		return 0;
	char m[512];
	int err = guard_restore(c->g, m, sizeof m);
	control_set_msg(c, "%s", m);
	if (!err) {
		c->mode = CTL_DEFAULT;
		c->hz = 0;
	}
	return err;
}

void control_close(struct control *c)
{
	if (!c)
		return;
	control_release(c);
	if (c->hc)
		c->cfg.helper->close(c);
	guard_close(c->g);
	free(c);
}
