#include "config.h"
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "timebase.h"
#include "control.h"
#include "sample.h"
#include "source_gpu.h"

/* One GPU the daemon controls, or (NVML) the node's lock holder. */
struct gpu {
	int index;                  /* the protocol's GPU index (NVML's) */
	struct source *src;
	const struct dvf_info *info;
	struct control *ctl;
	unsigned long owner;        /* the controlling connection, 0: free */
	long owner_uid, owner_pid;
};

struct serve {
	char root[PATH_MAX];
	char real_root[PATH_MAX];
	const char *state_dir;
	struct dvf_timebase clock;
	const struct source_ops *ops;
	/* NVML: the whole node's source and control.  It never writes: it
	 * holds the node's lock, as a dvfstop that controls the node does (so a
	 * root dvfstop goes through us), and puts back a state such a dvfstop
	 * left when it was killed.  Each GPU then has a control of its own
	 * (its own state file and lock), so two users can each hold one. */
	struct gpu node;
	bool have_node;
	struct gpu gpu[DVF_MAX_GPUS];
	int n_gpus;
	/* The control whose lock keeps other dvfstops off the board: the
	 * node's, or the only GPU's. */
	struct gpu *lock;
};

static struct control *open_control(struct serve *sv, const struct gpu *g, bool one_gpu)
{
	struct control_cfg cc = { .ops = sv->ops, .src = g->src, .info = g->info, .clock = &sv->clock,
				  .root = sv->root, .graceful_signals = true, .state_dir = sv->state_dir,
				  .one_gpu = one_gpu, .gpu = g->index };
	return control_open(&cc);
}

/* A GPU's lines name it where the daemon serves a node (-1: they need
 * not). */
static int gpu_tag(const struct serve *sv, const struct gpu *g)
{
	return sv->have_node ? g->index : -1;
}

/* Append a line to log ("; " between), naming the GPU when gpu >= 0: a
 * node's lines are told apart by it. */
static void log_add(char *log, size_t loglen, int gpu, const char *line)
{
	size_t n = strlen(log);
	if (!line[0] || n + 1 >= loglen)
		return;
	if (gpu >= 0)
		snprintf(log + n, loglen - n, "%sgpu %d: %s", n ? "; " : "", gpu, line);
	else
		snprintf(log + n, loglen - n, "%s%s", n ? "; " : "", line);
}

/* Another dvfstop holds the node (it controls the GPUs directly): the
 * daemon writes nothing, a crashed run's state included, until it quits. */
static bool node_held(const struct serve *sv)
{
	return sv->have_node && control_readonly(sv->node.ctl) && control_holder(sv->node.ctl);
}

/* Put back the state a crashed run left of g: a line for the log. */
static void restore_stale(struct gpu *g, char *line, size_t len)
{
	int err = control_restore_stale(g->ctl);
	snprintf(line, len, "a state left by a crashed run: %s%s", err ? "NOT put back: " : "", control_msg(g->ctl));
}

/* Open g's control; a state a crashed run left is put back.  A line for
 * the log (appended). */
static bool gpu_start(struct serve *sv, struct gpu *g, bool one_gpu, char *log, size_t loglen)
{
	g->info = sv->ops->info(g->src);
	g->ctl = open_control(sv, g, one_gpu);
	if (!g->ctl)
		return false;
	char line[1200] = "";
	const char *m = control_msg(g->ctl);
	if (control_stale(g->ctl) && one_gpu && node_held(sv)) {
		snprintf(line, sizeof line, "a state left by a crashed run is kept until dvfstop (pid %ld) lets go of "
			 "the node", control_holder(sv->node.ctl));
	} else if (control_stale(g->ctl)) {
		restore_stale(g, line, sizeof line);
	} else if (m[0] && (!one_gpu || control_readonly(g->ctl))) {
		/* a GPU of a node: only what differs from the node's line */
		snprintf(line, sizeof line, "%s", m);
	}
	log_add(log, loglen, one_gpu ? g->index : -1, line);
	return true;
}

/* A backend that controls each GPU by its index: the node, then one
 * source and control per GPU. */
static bool open_node(struct serve *sv, const struct source_cfg *sc, char *msg, size_t len, char *log,
		      size_t loglen)
{
	const struct dvf_info *in = sv->ops->info(sv->node.src);
	sv->have_node = true;
	sv->node.index = -1;
	if (!gpu_start(sv, &sv->node, false, log, loglen)) {
		snprintf(msg, len, "out of memory");
		return false;
	}
	for (int k = 0; k < in->n_gpus && k < DVF_MAX_GPUS; k++) {
		struct gpu *g = &sv->gpu[sv->n_gpus];
		char e[512] = "", one[8];
		g->index = in->gpu_index[k];
		snprintf(one, sizeof one, "%d", g->index);
		struct source_cfg c = *sc;
		c.gpus = one;
		g->src = sv->ops->open(&c, e, sizeof e);
		if (!g->src) {
			snprintf(msg, len, "GPU %d: %s", g->index, e);
			return false;
		}
		sv->n_gpus++;
		if (!gpu_start(sv, g, true, log, loglen)) {
			snprintf(msg, len, "out of memory");
			return false;
		}
	}
	return true;
}

struct serve *serve_open(const struct serve_cfg *cfg, char *msg, size_t len, char *log, size_t loglen)
{
	struct serve *sv = calloc(1, sizeof *sv);
	if (!sv) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	log[0] = '\0';
	snprintf(sv->root, sizeof sv->root, "%s", cfg->root && *cfg->root ? cfg->root : "/");
	if (!realpath(sv->root, sv->real_root))
		snprintf(sv->real_root, sizeof sv->real_root, "%s", sv->root);
	sv->state_dir = cfg->state_dir;
	timebase_init_monotonic(&sv->clock);
	struct source_cfg sc = { .sysfs_root = sv->root, .interval_ns = 100 * DVF_NS_PER_MS,
				 .mode = "live", .clock = &sv->clock, .gpus = "all" };
	char e[1100] = "";
	struct source *src;
	sv->ops = source_gpu_open(&sc, &src, e, sizeof e);
	if (!sv->ops) {
		snprintf(msg, len, "no GPU to serve: %s", e);
		free(sv);
		return NULL;
	}
	bool ok;
	if (sv->ops->gpus_by_index) {
		sv->node.src = src;
		sv->lock = &sv->node;
		ok = open_node(sv, &sc, msg, len, log, loglen);
	} else {
		sv->gpu[0].src = src;
		sv->n_gpus = 1;
		sv->lock = &sv->gpu[0];
		ok = gpu_start(sv, &sv->gpu[0], false, log, loglen);
		if (!ok)
			snprintf(msg, len, "out of memory");
	}
	if (!ok) {
		serve_close(sv, NULL, 0);
		return NULL;
	}
	return sv;
}

static void gpu_close(struct serve *sv, struct gpu *g, char *log, size_t loglen)
{
	if (g->ctl) {
		bool changed = control_mode(g->ctl) != CTL_DEFAULT || g->owner;
		int err = control_release(g->ctl);
		if (log && (changed || err))
			log_add(log, loglen, gpu_tag(sv, g), control_msg(g->ctl));
		control_close(g->ctl);
	}
	if (g->src)
		sv->ops->close(g->src);
}

void serve_close(struct serve *sv, char *log, size_t loglen)
{
	if (!sv)
		return;
	if (log)
		log[0] = '\0';
	for (int k = 0; k < sv->n_gpus; k++)
		gpu_close(sv, &sv->gpu[k], log, loglen);
	if (sv->node.src)
		gpu_close(sv, &sv->node, log, loglen);
	free(sv);
}

void serve_tree(const struct serve *sv, struct helper_proto_tree *t)
{
	memset(t, 0, sizeof *t);
	t->root = sv->real_root;
	struct stat r, d;
	if (stat(sv->real_root, &r) == 0) {
		t->root_dev = (unsigned long long)r.st_dev;
		t->root_ino = (unsigned long long)r.st_ino;
		t->dir_dev = t->root_dev;
		t->dir_ino = t->root_ino;
	}
	/* the GPU's folder, where its backend writes files */
	const char *p = sv->ops->ctl_path ? sv->ops->ctl_path(sv->lock->src, "max_freq") : NULL;
	char dir[PATH_MAX];
	if (p && snprintf(dir, sizeof dir, "%s", p) < (int)sizeof dir && strrchr(dir, '/')) {
		*strrchr(dir, '/') = '\0';
		if (stat(dir, &d) == 0) {
			t->dir_dev = (unsigned long long)d.st_dev;
			t->dir_ino = (unsigned long long)d.st_ino;
		}
	}
}

int serve_left(const struct serve *sv)
{
	int n = sv->node.ctl && control_stale(sv->node.ctl);
	for (int k = 0; k < sv->n_gpus; k++)
		n += sv->gpu[k].ctl && control_stale(sv->gpu[k].ctl);
	return n;
}

const char *serve_board(const struct serve *sv)
{
	const struct dvf_info *in = sv->lock->info;
	return in->board_name[0] ? in->board_name : in->gpu_node;
}

int serve_gpus(const struct serve *sv)
{
	return sv->n_gpus;
}

static void control_of(const struct gpu *g, unsigned long id, struct helper_proto_ctl *out)
{
	memset(out, 0, sizeof *out);
	if (!g->owner)
		out->who = HP_FREE;
	else if (g->owner == id)
		out->who = HP_YOU;
	else
		*out = (struct helper_proto_ctl){ .who = HP_OTHER, .uid = g->owner_uid, .pid = g->owner_pid };
}

void serve_control(const struct serve *sv, unsigned long id, struct helper_proto_ctl *out)
{
	/* the greeting's one word: the first GPU someone controls */
	for (int k = 0; k < sv->n_gpus; k++)
		if (sv->gpu[k].owner) {
			control_of(&sv->gpu[k], id, out);
			return;
		}
	control_of(&sv->gpu[0], id, out);
}

static struct gpu *gpu_find(struct serve *sv, int index)
{
	for (int k = 0; k < sv->n_gpus; k++)
		if (sv->gpu[k].index == index)
			return &sv->gpu[k];
	return NULL;
}

static size_t reply_status(struct serve *sv, struct gpu *g, unsigned long id, char *buf, size_t len)
{
	struct ctl_state st;
	int err = sv->ops->ctl_read ? sv->ops->ctl_read(g->src, &st) : ENOTSUP;
	if (err) {
		char m[160];
		snprintf(m, sizeof m, "cannot read the GPU clock settings: %s", strerror(err));
		return helper_proto_fmt_err(buf, len, EIO, m);
	}
	/* a sample of the GPU alone is its clock */
	struct dvf_m cur = dvf_m_na();
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	if (sv->ops->sample(g->src, &s) == 0 && s.gpu_freq_hz.ok && s.gpu_freq_hz.v > 0)
		cur = s.gpu_freq_hz;
	struct helper_proto_ctl c;
	control_of(g, id, &c);
	return helper_proto_fmt_status(buf, len, g->index, &st, cur, control_mode(g->ctl),
				       control_target_hz(g->ctl), &c);
}

/* The control whose lock keeps other dvfstops off the board: the node's
 * (NVML) or the only GPU's (a Jetson).  Read-only because another
 * dvfstop held that lock at start: try again, it may have quit since. */
static struct gpu *lock_holder(struct serve *sv, char *log, size_t loglen)
{
	struct gpu *l = sv->lock;
	if (!control_readonly(l->ctl) || !control_holder(l->ctl) || l->owner)
		return l;
	struct control *c = open_control(sv, l, false);
	if (!c)
		return l;
	control_close(l->ctl);
	l->ctl = c;
	/* the node is ours now: the states kept while it was not go back */
	for (int k = 0; sv->have_node && !node_held(sv) && k < sv->n_gpus; k++) {
		if (!control_stale(sv->gpu[k].ctl))
			continue;
		char line[1200];
		restore_stale(&sv->gpu[k], line, sizeof line);
		log_add(log, loglen, sv->gpu[k].index, line);
	}
	return l;
}

/* pin and cap: only levels of the table, only by the controller or when
 * control is free. */
static void set_clock(struct serve *sv, struct gpu *g, const struct serve_who *who,
		      const struct helper_proto_req *r, char *buf, size_t len, char *log, size_t loglen)
{
	char m[512];
	int64_t hz;
	int err = helper_proto_resolve(g->info, r, &hz, m, sizeof m);
	if (err) {
		helper_proto_fmt_err(buf, len, EINVAL, m);
		snprintf(log, loglen, "%s refused: %s", helper_proto_verb_name(r->verb), m);
		return;
	}
	char kept[SERVE_LOG_MAX] = "";
	struct gpu *l = lock_holder(sv, kept, sizeof kept);
	if (l != g && control_readonly(l->ctl) && control_holder(l->ctl)) {
		helper_proto_fmt_err(buf, len, EBUSY, control_msg(l->ctl));
		snprintf(log, loglen, "%s refused: %s", helper_proto_verb_name(r->verb), control_msg(l->ctl));
		return;
	}
	err = r->verb == HP_PIN ? control_pin(g->ctl, hz, CTL_BY_USER) : control_cap(g->ctl, hz, CTL_BY_USER);
	if (err) {
		if (!g->owner)
			control_release(g->ctl);   /* a half-done first change does not stay */
		int code = control_readonly(g->ctl) && control_holder(g->ctl) ? EBUSY : EIO;
		helper_proto_fmt_err(buf, len, code, control_msg(g->ctl));
		snprintf(log, loglen, "%s failed: %s", helper_proto_verb_name(r->verb), control_msg(g->ctl));
		log_add(log, loglen, -1, kept);
		return;
	}
	if (!g->owner) {
		g->owner = who->id;
		g->owner_uid = (long)who->uid;
		g->owner_pid = (long)who->pid;
	}
	helper_proto_fmt_set(buf, len, r->verb, hz);
	snprintf(log, loglen, "%s", control_msg(g->ctl));
	log_add(log, loglen, -1, kept);
}

/* g back to the saved governor, min and max; g's control is free.  A
 * line for the log. */
static int release(struct gpu *g, char *log, size_t loglen)
{
	int err = control_release(g->ctl);
	g->owner = 0;
	snprintf(log, loglen, "%s", control_msg(g->ctl));
	return err;
}

/* default: one GPU back, still controlled; restore: every GPU the
 * connection controls back, and free. */
static void give_back(struct serve *sv, struct gpu *g, const struct serve_who *who,
		      const struct helper_proto_req *r, char *buf, size_t len, char *log, size_t loglen)
{
	int err = 0;
	char m[1200] = "";
	if (r->verb == HP_DEFAULT && g->owner) {
		err = control_default(g->ctl, CTL_BY_USER);
		if (!err)
			snprintf(log, loglen, "default: %s", control_msg(g->ctl));
		else
			snprintf(m, sizeof m, "%s", control_msg(g->ctl));
	} else if (r->verb == HP_RESTORE) {
		char all[SERVE_LOG_MAX] = "";
		for (int k = 0; k < sv->n_gpus; k++) {
			if (sv->gpu[k].owner != who->id)
				continue;
			char one[1024];
			int e = release(&sv->gpu[k], one, sizeof one);
			log_add(all, sizeof all, gpu_tag(sv, &sv->gpu[k]), one);
			if (e && e != EPERM && !err) {
				err = e;
				snprintf(m, sizeof m, "%s", one);
			}
		}
		if (all[0])
			snprintf(log, loglen, "restore: %s; control is free", all);
	}
	if (err && err != EPERM) {
		helper_proto_fmt_err(buf, len, EIO, m);
		snprintf(log, loglen, "%s failed: %s", helper_proto_verb_name(r->verb), m);
		return;
	}
	helper_proto_fmt_ok(buf, len, r->verb);
}

/* Another connection controls g (or, for restore, which names no GPU,
 * any GPU while this one controls none): the controller, else NULL. */
static const struct gpu *busy(const struct serve *sv, const struct gpu *g, const struct serve_who *who,
			      enum helper_proto_verb v)
{
	if (v != HP_RESTORE)
		return g->owner && g->owner != who->id ? g : NULL;
	const struct gpu *other = NULL;
	for (int k = 0; k < sv->n_gpus; k++) {
		if (sv->gpu[k].owner == who->id)
			return NULL;
		if (sv->gpu[k].owner && !other)
			other = &sv->gpu[k];
	}
	return other;
}

bool serve_request(struct serve *sv, const struct serve_who *who, const struct helper_proto_req *r,
		   char *buf, size_t len, char *log, size_t loglen)
{
	log[0] = '\0';
	struct gpu *g = gpu_find(sv, r->gpu);
	if (!g) {
		char m[96];
		if (sv->n_gpus == 1)
			snprintf(m, sizeof m, "gpu %d: this daemon serves 1 GPU (%d)", r->gpu, sv->gpu[0].index);
		else
			snprintf(m, sizeof m, "gpu %d: this daemon serves %d GPUs (%d to %d)", r->gpu, sv->n_gpus,
				 sv->gpu[0].index, sv->gpu[sv->n_gpus - 1].index);
		helper_proto_fmt_err(buf, len, EINVAL, m);
		return false;
	}
	bool writes = r->verb == HP_PIN || r->verb == HP_CAP || r->verb == HP_DEFAULT || r->verb == HP_RESTORE;
	const struct gpu *o = writes ? busy(sv, g, who, r->verb) : NULL;
	if (o) {
		helper_proto_fmt_busy(buf, len, o->owner_uid, o->owner_pid);
		snprintf(log, loglen, "%s refused: uid=%ld pid=%ld controls", helper_proto_verb_name(r->verb),
			 o->owner_uid, o->owner_pid);
		return false;
	}
	char line[SERVE_LOG_MAX] = "";
	switch (r->verb) {
	case HP_STATUS:
		reply_status(sv, g, who->id, buf, len);
		break;
	case HP_LEVELS:
		helper_proto_fmt_levels(buf, len, g->info);
		break;
	case HP_PIN:
	case HP_CAP:
		set_clock(sv, g, who, r, buf, len, line, sizeof line);
		break;
	case HP_DEFAULT:
	case HP_RESTORE:
		give_back(sv, g, who, r, buf, len, line, sizeof line);
		break;
	case HP_QUIT:
		helper_proto_fmt_ok(buf, len, HP_QUIT);
		return true;
	}
	/* a node's decisions name their GPU (restore names each itself) */
	log_add(log, loglen, r->verb != HP_RESTORE ? gpu_tag(sv, g) : -1, line);
	return false;
}

bool serve_holds(const struct serve *sv, unsigned long id)
{
	for (int k = 0; k < sv->n_gpus; k++)
		if (sv->gpu[k].owner == id)
			return true;
	return false;
}

bool serve_gone(struct serve *sv, unsigned long id, char *log, size_t loglen)
{
	log[0] = '\0';
	char all[SERVE_LOG_MAX] = "";
	bool any = false, failed = false;
	for (int k = 0; k < sv->n_gpus; k++) {
		if (!sv->gpu[k].owner || sv->gpu[k].owner != id)
			continue;
		char one[1024];
		failed |= release(&sv->gpu[k], one, sizeof one) != 0;
		log_add(all, sizeof all, gpu_tag(sv, &sv->gpu[k]), one);
		any = true;
	}
	if (any)
		snprintf(log, loglen, "the controller went: %s%s; control is free", failed ? "NOT given back: " : "",
			 all);
	return any;
}
