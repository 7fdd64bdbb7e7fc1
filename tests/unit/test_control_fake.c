#include "config.h"
#include "test_control_fake.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const int64_t orin[] = {
	306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
	918000000, 1020000000, 1122000000, 1224000000, 1300500000,
};

static void put_raw(const char *path, const char *content)
{
	FILE *fp = fopen(path, "w");
	if (!fp) {
		perror(path);
		abort();
	}
	fputs(content, fp);
	fclose(fp);
}

const char *fake_path(struct fake_board *b, const char *file)
{
	snprintf(b->src.path, sizeof b->src.path, "%s/%s", b->src.node, file);
	return b->src.path;
}

void fake_put(struct fake_board *b, const char *file, const char *content)
{
	put_raw(fake_path(b, file), content);
}

const char *fake_get(struct fake_board *b, const char *file, int slot)
{
	static char buf[4][128];
	char *out = buf[slot & 3];
	out[0] = '\0';
	int fd = open(fake_path(b, file), O_RDONLY);
	if (fd < 0)
		return out;
	ssize_t n = read(fd, out, sizeof buf[0] - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	return out;
}

void fake_snap(struct fake_board *b, struct fake_snap *s)
{
	static const char *const f[3] = { "governor", "min_freq", "max_freq" };
	for (int i = 0; i < 3; i++)
		snprintf(s->v[i], sizeof s->v[i], "%s", fake_get(b, f[i], 0));
}

bool fake_snap_equal(const struct fake_snap *a, const struct fake_snap *b)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

bool fake_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

void fake_setup(struct fake_board *b, const char *gov, int64_t min_hz, int64_t max_hz)
{
	memset(b, 0, sizeof *b);
	snprintf(b->root, sizeof b->root, "/tmp/dvf-ctl-XXXXXX");
	if (!mkdtemp(b->root))
		abort();
	snprintf(b->state_dir, sizeof b->state_dir, "%s/state", b->root);
	if (mkdir(b->state_dir, 0700) != 0)
		abort();
	char p[PATH_MAX + 64];
	static const char *const parts[] = { "/sys", "/sys/class", "/sys/class/devfreq",
					     "/sys/class/devfreq/17000000.gpu" };
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		snprintf(p, sizeof p, "%s%s", b->root, parts[i]);
		if (mkdir(p, 0755) != 0)
			abort();
	}
	snprintf(b->src.node, sizeof b->src.node, "%s/sys/class/devfreq/17000000.gpu", b->root);
	char v[64];
	snprintf(v, sizeof v, "%s\n", gov);
	fake_put(b, "governor", v);
	snprintf(v, sizeof v, "%lld\n", (long long)min_hz);
	fake_put(b, "min_freq", v);
	fake_put(b, "cur_freq", v);
	snprintf(v, sizeof v, "%lld\n", (long long)max_hz);
	fake_put(b, "max_freq", v);
	/* the clock table a state file is checked against */
	char t[512];
	size_t at = 0;
	for (size_t i = 0; i < sizeof orin / sizeof orin[0]; i++)
		at += (size_t)snprintf(t + at, sizeof t - at, "%s%lld", i ? " " : "", (long long)orin[i]);
	snprintf(t + at, sizeof t - at, "\n");
	fake_put(b, "available_frequencies", t);

	struct dvf_info *in = &b->info;
	snprintf(in->source, sizeof in->source, "fake");
	snprintf(in->power_mode, sizeof in->power_mode, "MODE_30W");
	in->n_levels = (int)(sizeof orin / sizeof orin[0]);
	memcpy(in->level_hz, orin, sizeof orin);
	snprintf(in->gpu_node, sizeof in->gpu_node, "%s", b->src.node);
	in->n_zones = 2;
	snprintf(in->zone_name[0], sizeof in->zone_name[0], "cpu-thermal");
	snprintf(in->zone_name[1], sizeof in->zone_name[1], "gpu-thermal");
}

void fake_teardown(struct fake_board *b)
{
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", b->root);
	io_fault_clear();
}

static const char *ops_path(struct source *s, const char *file)
{
	snprintf(s->path, sizeof s->path, "%s/%s", s->node, file);
	return s->path;
}

static int ops_read(struct source *s, struct ctl_state *st)
{
	char buf[64];
	if (io_slurp(ops_path(s, "governor"), buf, sizeof buf) < 0)
		return EIO;
	snprintf(st->governor, sizeof st->governor, "%s", buf);
	if (!io_slurp_i64(ops_path(s, "min_freq"), &st->min_hz) ||
	    !io_slurp_i64(ops_path(s, "max_freq"), &st->max_hz))
		return EIO;
	return 0;
}

static int put(struct source *s, const char *file, const char *val)
{
	int err = io_write(ops_path(s, file), val);
	if (!err && s->n_log < FAKE_LOG) {
		snprintf(s->log[s->n_log], sizeof s->log[0], "%s %s", file, val);
		s->log[s->n_log][strcspn(s->log[s->n_log], "\n")] = '\0';
		s->n_log++;
	}
	return err;
}

/* Governor first, then min, then max, whatever the direction: a naive
 * order on purpose, so the order the tests see is the one control asked
 * for (one changed field per call), not one this fake chose. */
static int ops_write(struct source *s, const struct ctl_state *st)
{
	struct ctl_state cur;
	int err = ops_read(s, &cur);
	if (err)
		return err;
	char v[64];
	if (strcmp(cur.governor, st->governor) != 0) {
		snprintf(v, sizeof v, "%s\n", st->governor);
		if ((err = put(s, "governor", v)))
			return err;
	}
	if (cur.min_hz != st->min_hz) {
		snprintf(v, sizeof v, "%lld\n", (long long)st->min_hz);
		if ((err = put(s, "min_freq", v)))
			return err;
	}
	if (cur.max_hz != st->max_hz) {
		snprintf(v, sizeof v, "%lld\n", (long long)st->max_hz);
		if ((err = put(s, "max_freq", v)))
			return err;
	}
	return 0;
}

static int ops_probe(const struct source_cfg *cfg)
{
	(void)cfg;
	return 0;
}

const struct source_ops fake_ops = {
	.name = "fake",
	.help = "test double",
	.probe = ops_probe,
	.ctl_read = ops_read,
	.ctl_write = ops_write,
	.ctl_path = ops_path,
};
