/* jetson_discover: finding the jetson source's files at open: the GPU
 * devfreq node by name or compatible string, the INA3221 rails by label,
 * cpufreq policies and thermal zones by listing, the board's facts. */
#include "config.h"
#include "jetson.h"
#include "jetson_priv.h"
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- discovery -------------------------------------------------------- */

const char jetson_discover_gpu_hint[] =
	"of_node name ga10b/gv11b/gp10b/gb10b/gm20b/gpu or compatible nvidia,<gpu>";

int jetson_discover_gpu_in(const char *prefix, char *node, char *dev)
{
	char dir[J_PATH], entry[J_PATH], p[J_PATH];
	if (jetson_path_join(dir, sizeof dir, prefix, "/sys/class/devfreq"))
		return ENAMETOOLONG;
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	if (!ents)
		return ENOMEM;
	int n = jetson_path_list(dir, "", ents, J_MAX_LIST);
	int err = ENOENT;
	for (int i = 0; i < n && err; i++) {
		char name[64], compat[256];
		if (jetson_path_join3(entry, sizeof entry, dir, "/", ents[i].name))
			continue;
		bool ok = false;
		if (!jetson_path_join(p, sizeof p, entry, "/device/of_node/name") && io_slurp_in(prefix, p, name, sizeof name) >= 0)
			ok = jetson_gpu_name_ok(name);
		int cn;
		if (!ok && !jetson_path_join(p, sizeof p, entry, "/device/of_node/compatible") &&
		    (cn = io_slurp_in(prefix, p, compat, sizeof compat)) > 0)
			ok = jetson_gpu_compat_ok(compat, (size_t)cn);
		if (!ok)
			continue;
		if (jetson_path_join(p, sizeof p, entry, "/device"))
			continue;
		if (jetson_path_resolve(prefix, entry, node) == 0 && jetson_path_resolve(prefix, p, dev) == 0)
			err = 0;
	}
	free(ents);
	return err;
}

int jetson_discover_gpu(const char *root, char *out, size_t outlen)
{
	char prefix[J_PATH], node[J_PATH], dev[J_PATH];
	int err = jetson_path_root(root, prefix);
	if (err)
		return err;
	err = jetson_discover_gpu_in(prefix, node, dev);
	if (err)
		return err;
	if (snprintf(out, outlen, "%s", node) >= (int)outlen)
		return ENAMETOOLONG;
	return 0;
}

void jetson_discover_open_in(struct source *s, struct io_file *f, const char *dir, const char *file, const char *what)
{
	char p[J_PATH];
	if (jetson_path_join3(p, sizeof p, dir, "/", file))
		p[0] = '\0';   /* io_read then fails: n/a */
	io_open_in(f, s->prefix, p);
	if (p[0])
		jetson_msg_note_refused(s, what, p, f->err);
}

/* The clock table, read whole whatever its length (up to J_LEVELS_MAX):
 * a table cut short would make its last fragment a level, and that
 * fragment a clock written to min_freq and max_freq. */
void jetson_discover_levels(struct source *s)
{
	char p[J_PATH], *buf;
	s->info.n_levels = 0;
	if (jetson_path_join(p, sizeof p, s->node, "/available_frequencies"))
		return;
	if (io_read_all_in(s->prefix, p, J_LEVELS_MAX, &buf) < 0) {
		int e = errno;
		jetson_msg_note(s, "GPU clock table", p, e == EFBIG ? "longer than 64 KiB (refused)" : io_strerror(e));
		return;
	}
	int n = jetson_parse_levels(buf, s->info.level_hz, DVF_MAX_LEVELS);
	free(buf);
	if (n == -2)
		jetson_msg_note(s, "GPU clock table", p, "more than 64 levels (refused)");
	else if (n < 0)
		jetson_msg_note(s, "GPU clock table", p, "not a list of clocks in Hz (refused)");
	s->info.n_levels = n > 0 ? n : 0;
}

/* An INA3221 hwmon folder found: real path and the i2c device that sorts it. */
struct chip {
	char path[J_PATH];
	char dev[NAME_MAX + 1];
};

static int jetson_discover_chip_cmp(const void *a, const void *b)
{
	const struct chip *x = a, *y = b;
	int c = strcmp(x->dev, y->dev);
	return c ? c : strcmp(x->path, y->path);
}

static void jetson_discover_add_chip(const char *prefix, const char *hwmon, struct chip *chips, int *n)
{
	char real[J_PATH], p[J_PATH], name[64];
	if (*n >= J_MAX_CHIPS || jetson_path_resolve(prefix, hwmon, real))
		return;
	for (int i = 0; i < *n; i++)
		if (strcmp(chips[i].path, real) == 0)
			return;
	if (jetson_path_join(p, sizeof p, real, "/name") || io_slurp_in(prefix, p, name, sizeof name) < 0 ||
	    strcmp(name, "ina3221") != 0)
		return;
	/* .../<i2c dev>/hwmon/hwmonN: sort by the i2c device, not N */
	char tmp[J_PATH];
	memcpy(tmp, real, strlen(real) + 1);
	char *last = strrchr(tmp, '/');
	const char *dev = last ? last + 1 : tmp;
	if (last) {
		*last = '\0';
		char *up = strrchr(tmp, '/');
		if (up && strcmp(up + 1, "hwmon") == 0) {
			*up = '\0';
			char *devp = strrchr(tmp, '/');
			if (devp)
				dev = devp + 1;
		}
	}
	memcpy(chips[*n].path, real, strlen(real) + 1);
	snprintf(chips[*n].dev, sizeof chips[*n].dev, "%s", dev);
	(*n)++;
}

void jetson_discover_rails(struct source *s)
{
	struct chip *chips = calloc(J_MAX_CHIPS, sizeof *chips);
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	struct dent *sub = calloc(J_MAX_LIST, sizeof *sub);
	char dir[J_PATH], p[J_PATH];
	int nc = 0;
	if (!chips || !ents || !sub)
		goto out;

	if (!jetson_path_join(dir, sizeof dir, s->prefix, "/sys/bus/i2c/drivers/ina3221")) {
		int n = jetson_path_list(dir, "", ents, J_MAX_LIST);
		for (int i = 0; i < n; i++) {
			char hdir[J_PATH];
			if (snprintf(hdir, sizeof hdir, "%s/%s/hwmon", dir, ents[i].name) >= (int)sizeof hdir)
				continue;
			int m = jetson_path_list(hdir, "hwmon", sub, J_MAX_LIST);
			for (int j = 0; j < m; j++)
				if (!jetson_path_join3(p, sizeof p, hdir, "/", sub[j].name))
					jetson_discover_add_chip(s->prefix, p, chips, &nc);
		}
	}
	if (!jetson_path_join(dir, sizeof dir, s->prefix, "/sys/class/hwmon")) {
		int n = jetson_path_list(dir, "hwmon", ents, J_MAX_LIST);
		for (int i = 0; i < n; i++)
			if (!jetson_path_join3(p, sizeof p, dir, "/", ents[i].name))
				jetson_discover_add_chip(s->prefix, p, chips, &nc);
	}
	qsort(chips, (size_t)nc, sizeof chips[0], jetson_discover_chip_cmp);

	for (int c = 0; c < nc; c++) {
		for (int ch = 1; ch <= 3 && s->info.n_rails < DVF_MAX_RAILS; ch++) {
			char label[64], f[32];
			snprintf(f, sizeof f, "/in%d_label", ch);
			if (jetson_path_join(p, sizeof p, chips[c].path, f))
				continue;
			/* a label is a name people see and that is exported: never
			 * read through a link (a root-only file's first line) */
			errno = 0;
			if (io_slurp_in(s->prefix, p, label, sizeof label) <= 0) {
				jetson_msg_note_refused(s, "rail", p, errno);
				continue;
			}
			if (strcmp(label, "NC") == 0)
				continue;
			int r = s->info.n_rails++;
			jetson_path_copy_name(s->info.rail_name[r], sizeof s->info.rail_name[r], label);
			snprintf(f, sizeof f, "in%d_input", ch);
			jetson_discover_open_in(s, &s->rail[r].mv, chips[c].path, f, s->info.rail_name[r]);
			snprintf(f, sizeof f, "curr%d_input", ch);
			jetson_discover_open_in(s, &s->rail[r].ma, chips[c].path, f, s->info.rail_name[r]);
		}
	}
out:
	free(chips);
	free(ents);
	free(sub);
}

void jetson_discover_cpus(struct source *s)
{
	char dir[J_PATH], p[J_PATH];
	struct dent ents[DVF_MAX_CLUSTERS * 4];
	if (jetson_path_join(dir, sizeof dir, s->prefix, "/sys/devices/system/cpu/cpufreq"))
		return;
	int n = jetson_path_list(dir, "policy", ents, DVF_MAX_CLUSTERS * 4);
	for (int i = 0; i < n && s->info.n_clusters < DVF_MAX_CLUSTERS; i++) {
		int c = s->info.n_clusters++;
		jetson_path_copy_name(s->info.cluster_name[c], sizeof s->info.cluster_name[c], ents[i].name);
		if (jetson_path_join3(p, sizeof p, dir, "/", ents[i].name))
			p[0] = '\0';
		jetson_discover_open_in(s, &s->cpu[c], p, "scaling_cur_freq", "CPU clock");
	}
	if (jetson_path_join(p, sizeof p, s->prefix, "/proc/stat"))
		p[0] = '\0';
	io_open_in(&s->stat, s->prefix, p);
	jetson_msg_note_refused(s, "CPU load", p, s->stat.err);
}

void jetson_discover_zones(struct source *s)
{
	char dir[J_PATH], zdir[J_PATH], p[J_PATH];
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	if (!ents || jetson_path_join(dir, sizeof dir, s->prefix, "/sys/class/thermal")) {
		free(ents);
		return;
	}
	int n = jetson_path_list(dir, "thermal_zone", ents, J_MAX_LIST);
	for (int i = 0; i < n && s->info.n_zones < DVF_MAX_ZONES; i++) {
		int z = s->info.n_zones++;
		char type[DVF_NAME_LEN];
		if (jetson_path_join3(zdir, sizeof zdir, dir, "/", ents[i].name))
			zdir[0] = '\0';
		errno = 0;
		if (jetson_path_join(p, sizeof p, zdir, "/type") || io_slurp_in(s->prefix, p, type, sizeof type) <= 0) {
			jetson_msg_note_refused(s, "thermal zone name", p, errno);
			snprintf(type, sizeof type, "zone%ld", ents[i].num);
		}
		jetson_path_copy_name(s->info.zone_name[z], sizeof s->info.zone_name[z], type);
		jetson_discover_open_in(s, &s->zone[z], zdir, "temp", s->info.zone_name[z]);
	}
	free(ents);
}

/* A file read once, through links that must stay inside the root (the
 * board's own /etc/nvpmodel.conf is a link), then opened by its resolved
 * path without following any. */
static int jetson_discover_slurp(const struct source *s, const char *rel, char *buf, size_t len)
{
	char p[J_PATH], real[J_PATH];
	if (jetson_path_join(p, sizeof p, s->prefix, rel) || jetson_path_resolve(s->prefix, p, real))
		return -1;
	return io_slurp_in(s->prefix, real, buf, len);
}

void jetson_discover_board(struct source *s)
{
	struct dvf_info *in = &s->info;
	char model[512], compat[512], buf[512];
	int cn;

	/* read whole (a cut model would not name the board), cut to show */
	if (jetson_discover_slurp(s, "/proc/device-tree/model", model, sizeof model) < 0)
		model[0] = '\0';
	jetson_path_copy_name(in->board_name, sizeof in->board_name, model);
	cn = jetson_discover_slurp(s, "/proc/device-tree/compatible", compat, sizeof compat);
	in->board = jetson_board_detect(model, compat, cn > 0 ? (size_t)cn : 0);

	in->l4t[0] = '\0';
	if (jetson_discover_slurp(s, "/etc/nv_tegra_release", buf, sizeof buf) < 0 ||
	    jetson_parse_l4t(buf, in->l4t, sizeof in->l4t))
		in->l4t[0] = '\0';

	in->power_mode[0] = '\0';
	in->power_mode_id = -1;
	if (jetson_discover_slurp(s, "/var/lib/nvpmodel/status", buf, sizeof buf) >= 0)
		in->power_mode_id = jetson_parse_pmode(buf);
	char *conf = in->power_mode_id >= 0 ? malloc(J_CONF_MAX) : NULL;
	if (conf) {
		if (jetson_discover_slurp(s, "/etc/nvpmodel.conf", conf, J_CONF_MAX) < 0 ||
		    jetson_nvpmodel_name(conf, in->power_mode_id, in->power_mode, sizeof in->power_mode))
			in->power_mode[0] = '\0';
		free(conf);
	}
}

