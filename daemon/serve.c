#include "config.h"
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "control.h"
#include "io.h"
#include "jetson.h"
#include "nvml.h"
#include "sample.h"

struct serve {
	char root[PATH_MAX];
	char real_root[PATH_MAX];
	const char *state_dir;
	struct dvf_clock clock;
	const struct source_ops *ops;
	struct source *src;
	const struct dvf_info *info;
	struct control *ctl;
	unsigned long owner;        /* the controlling connection, 0: free */
	long owner_uid, owner_pid;
};

static struct control *open_control(struct serve *sv)
{
	struct control_cfg cc = { .ops = sv->ops, .src = sv->src, .info = sv->info, .clock = &sv->clock,
				  .root = sv->root, .graceful_signals = true, .state_dir = sv->state_dir };
	return control_open(&cc);
}

struct serve *serve_open(const struct serve_cfg *cfg, char *msg, size_t len, char *log, size_t loglen)
{
	struct serve *sv = calloc(1, sizeof *sv);
	if (!sv) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	snprintf(sv->root, sizeof sv->root, "%s", cfg->root && *cfg->root ? cfg->root : "/");
	if (!realpath(sv->root, sv->real_root))
		snprintf(sv->real_root, sizeof sv->real_root, "%s", sv->root);
	sv->state_dir = cfg->state_dir;
	clock_init_monotonic(&sv->clock);
	struct source_cfg sc = { .sysfs_root = sv->root, .interval_ns = 100 * DVF_NS_PER_MS,
				 .mode = "live", .clock = &sv->clock, .gpus = "0" };
	char e1[512] = "", e2[512] = "";
	/* A Jetson under the root; on a real root without one, NVML's GPU 0. */
	sv->ops = &source_jetson;
	sv->src = source_jetson.open(&sc, e1, sizeof e1);
	if (!sv->src && strcmp(sv->real_root, "/") == 0) {
		sv->ops = &source_nvml;
		sv->src = source_nvml.open(&sc, e2, sizeof e2);
	}
	if (!sv->src) {
		snprintf(msg, len, "no GPU to serve: %s%s%s", e1, e2[0] ? "; " : "", e2);
		free(sv);
		return NULL;
	}
	sv->info = sv->ops->info(sv->src);
	sv->ctl = open_control(sv);
	if (!sv->ctl) {
		snprintf(msg, len, "out of memory");
		serve_close(sv, NULL, 0);
		return NULL;
	}
	const char *m = control_msg(sv->ctl);
	if (control_stale(sv->ctl)) {
		int err = control_restore_stale(sv->ctl);
		snprintf(log, loglen, "a state left by a crashed run: %s%s", err ? "NOT put back: " : "",
			 control_msg(sv->ctl));
	} else {
		snprintf(log, loglen, "%s", m[0] ? m : "");
	}
	return sv;
}

void serve_close(struct serve *sv, char *log, size_t loglen)
{
	if (!sv)
		return;
	if (sv->ctl) {
		bool changed = control_mode(sv->ctl) != CTL_DEFAULT || sv->owner;
		int err = control_release(sv->ctl);
		if (log && (changed || err))
			snprintf(log, loglen, "%s", control_msg(sv->ctl));
		control_close(sv->ctl);
	}
	if (sv->src)
		sv->ops->close(sv->src);
	free(sv);
}

const char *serve_board(const struct serve *sv)
{
	return sv->info->board_name[0] ? sv->info->board_name : sv->info->gpu_node;
}

int serve_gpus(const struct serve *sv)
{
	(void)sv;
	return 1;
}

void serve_control(const struct serve *sv, unsigned long id, struct helper_proto_ctl *out)
{
	memset(out, 0, sizeof *out);
	if (!sv->owner)
		out->who = HP_FREE;
	else if (sv->owner == id)
		out->who = HP_YOU;
	else
		*out = (struct helper_proto_ctl){ .who = HP_OTHER, .uid = sv->owner_uid, .pid = sv->owner_pid };
}

static size_t reply_status(struct serve *sv, unsigned long id, int gpu, char *buf, size_t len)
{
	struct ctl_state st;
	int err = sv->ops->ctl_read ? sv->ops->ctl_read(sv->src, &st) : ENOTSUP;
	if (err) {
		char m[160];
		snprintf(m, sizeof m, "cannot read the GPU clock settings: %s", strerror(err));
		return helper_proto_fmt_err(buf, len, EIO, m);
	}
	struct dvf_m cur = dvf_m_na();
	const char *p = sv->ops->ctl_path ? sv->ops->ctl_path(sv->src, "cur_freq") : NULL;
	int64_t hz;
	if (p) {
		if (io_slurp_i64_in(sv->real_root, p, &hz) && hz > 0)
			cur = dvf_m_val(hz);
	} else {
		struct dvf_sample s;
		memset(&s, 0, sizeof s);
		if (sv->ops->sample(sv->src, &s) == 0)
			cur = s.gpu_freq_hz;
	}
	struct helper_proto_ctl c;
	serve_control(sv, id, &c);
	return helper_proto_fmt_status(buf, len, gpu, &st, cur, control_mode(sv->ctl),
				       control_target_hz(sv->ctl), &c);
}

/* Control is read-only because another dvfstop held the lock at start:
 * try again, it may have quit since. */
static void retry_control(struct serve *sv)
{
	if (!control_readonly(sv->ctl) || !control_holder(sv->ctl) || sv->owner)
		return;
	struct control *c = open_control(sv);
	if (!c)
		return;
	control_close(sv->ctl);
	sv->ctl = c;
}

/* pin and cap: only levels of the table, only by the controller or when
 * control is free. */
static void set_clock(struct serve *sv, const struct serve_who *who, const struct helper_proto_req *r,
		      char *buf, size_t len, char *log, size_t loglen)
{
	char m[512];
	int64_t hz;
	int err = helper_proto_resolve(sv->info, r, &hz, m, sizeof m);
	if (err) {
		helper_proto_fmt_err(buf, len, EINVAL, m);
		snprintf(log, loglen, "%s refused: %s", helper_proto_verb_name(r->verb), m);
		return;
	}
	retry_control(sv);
	err = r->verb == HP_PIN ? control_pin(sv->ctl, hz, CTL_BY_USER) : control_cap(sv->ctl, hz, CTL_BY_USER);
	if (err) {
		bool was_free = !sv->owner;
		if (was_free)
			control_release(sv->ctl);   /* a half-done first change does not stay */
		int code = control_readonly(sv->ctl) && control_holder(sv->ctl) ? EBUSY : EIO;
		helper_proto_fmt_err(buf, len, code, control_msg(sv->ctl));
		snprintf(log, loglen, "%s failed: %s", helper_proto_verb_name(r->verb), control_msg(sv->ctl));
		return;
	}
	if (!sv->owner) {
		sv->owner = who->id;
		sv->owner_uid = (long)who->uid;
		sv->owner_pid = (long)who->pid;
	}
	helper_proto_fmt_set(buf, len, r->verb, hz);
	snprintf(log, loglen, "%s", control_msg(sv->ctl));
}

/* default and restore */
static void give_back(struct serve *sv, const struct helper_proto_req *r, char *buf, size_t len,
		      char *log, size_t loglen)
{
	int err = 0;
	if (r->verb == HP_DEFAULT && sv->owner)
		err = control_default(sv->ctl, CTL_BY_USER);
	else if (r->verb == HP_RESTORE)
		err = control_release(sv->ctl);
	if (err && err != EPERM) {
		helper_proto_fmt_err(buf, len, EIO, control_msg(sv->ctl));
		snprintf(log, loglen, "%s failed: %s", helper_proto_verb_name(r->verb), control_msg(sv->ctl));
		return;
	}
	if (r->verb == HP_RESTORE && sv->owner) {
		snprintf(log, loglen, "restore: %s; control is free", control_msg(sv->ctl));
		sv->owner = 0;
	} else if (sv->owner) {
		snprintf(log, loglen, "default: %s", control_msg(sv->ctl));
	}
	helper_proto_fmt_ok(buf, len, r->verb);
}

bool serve_request(struct serve *sv, const struct serve_who *who, const struct helper_proto_req *r,
		   char *buf, size_t len, char *log, size_t loglen)
{
	log[0] = '\0';
	if (r->gpu >= serve_gpus(sv)) {
		char m[96];
		snprintf(m, sizeof m, "gpu %d: this daemon serves %d GPU (0)", r->gpu, serve_gpus(sv));
		helper_proto_fmt_err(buf, len, EINVAL, m);
		return false;
	}
	bool writes = r->verb == HP_PIN || r->verb == HP_CAP || r->verb == HP_DEFAULT || r->verb == HP_RESTORE;
	if (writes && sv->owner && sv->owner != who->id) {
		helper_proto_fmt_busy(buf, len, sv->owner_uid, sv->owner_pid);
		snprintf(log, loglen, "%s refused: uid=%ld pid=%ld controls", helper_proto_verb_name(r->verb),
			 sv->owner_uid, sv->owner_pid);
		return false;
	}
	switch (r->verb) {
	case HP_STATUS:
		reply_status(sv, who->id, r->gpu, buf, len);
		break;
	case HP_LEVELS:
		helper_proto_fmt_levels(buf, len, sv->info);
		break;
	case HP_PIN:
	case HP_CAP:
		set_clock(sv, who, r, buf, len, log, loglen);
		break;
	case HP_DEFAULT:
	case HP_RESTORE:
		give_back(sv, r, buf, len, log, loglen);
		break;
	case HP_QUIT:
		helper_proto_fmt_ok(buf, len, HP_QUIT);
		return true;
	}
	return false;
}

bool serve_gone(struct serve *sv, unsigned long id, char *log, size_t loglen)
{
	log[0] = '\0';
	if (!sv->owner || sv->owner != id)
		return false;
	int err = control_release(sv->ctl);
	snprintf(log, loglen, "the controller went: %s%s; control is free", err ? "NOT given back: " : "",
		 control_msg(sv->ctl));
	sv->owner = 0;
	return true;
}
