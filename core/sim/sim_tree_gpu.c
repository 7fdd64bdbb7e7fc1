/* sim_tree_gpu: what the simulated tree holds for the GPU: its devfreq
 * node and device folder (the live files), the decoy devfreq nodes, the
 * trans_stat table. */
#include "config.h"
#include "sim_priv.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Decoy devfreq nodes (video and image engines) the GPU discovery must
 * skip: reference 1.5, names from a JP6 AGX Orin log. */
void sim_tree_gpu_decoys(struct tb *b, const char *host1x)
{
	static const struct {
		const char *dev, *of_name;
	} decoys[] = {
		{ "15340000.vic", "vic" }, { "15380000.nvjpg", "nvjpg" }, { "15480000.nvdec", "nvdec" },
		{ "154c0000.nvenc", "nvenc" }, { "15540000.nvjpg", "nvjpg" }, { "15a50000.ofa", "ofa" },
	};
	char rel[320], tgt[320];
	for (size_t i = 0; i < sizeof decoys / sizeof decoys[0]; i++) {
		const char *d = decoys[i].dev;
		char name0[32];
		int nl = snprintf(name0, sizeof name0, "%s", decoys[i].of_name) + 1;
		snprintf(rel, sizeof rel, "%s/%s/of_node/name", host1x, d);
		sim_tree_putn(b, rel, name0, (size_t)nl);
		snprintf(rel, sizeof rel, "%s/%s/of_node/compatible", host1x, d);
		char compat[64];
		int cl = snprintf(compat, sizeof compat, "nvidia,tegra234-%s", decoys[i].of_name) + 1;
		sim_tree_putn(b, rel, compat, (size_t)cl);
		static const char *const files[][2] = {
			{ "cur_freq", "115200000\n" },
			{ "target_freq", "115200000\n" },
			{ "min_freq", "115200000\n" },
			{ "max_freq", "729600000\n" },
			{ "available_frequencies", "115200000 268800000 422400000 576000000 729600000\n" },
			{ "governor", "nvhost_podgov\n" },
			{ "available_governors", "wmark_active nvhost_podgov userspace performance\n" },
			{ "polling_interval", "25\n" },
		};
		for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
			snprintf(rel, sizeof rel, "%s/%s/devfreq/%s/%s", host1x, d, d, files[k][0]);
			sim_tree_put(b, rel, files[k][1]);
		}
		snprintf(rel, sizeof rel, "%s/%s/devfreq/%s/device", host1x, d, d);
		snprintf(tgt, sizeof tgt, "../../../%s", d);
		sim_tree_link(b, rel, tgt);
		snprintf(rel, sizeof rel, "sys/class/devfreq/%s", d);
		snprintf(tgt, sizeof tgt, "../../%s/%s/devfreq/%s", host1x + 4, d, d);
		sim_tree_link(b, rel, tgt);
	}
}

static void sim_tree_gpu_trans_text(const struct sim *s, char *buf, size_t len);

void sim_tree_gpu_put(struct tb *b, bool jp6)
{
	struct sim *s = b->s;
	const char *name = jp6 ? "17000000.gpu" : "17000000.ga10b";
	char rel[320], tgt[320], buf[DVF_MAX_LEVELS * 12 + 2];

	if (jp6) {
		snprintf(s->gpu_dev, sizeof s->gpu_dev, "sys/devices/platform/bus@0/%s", name);
		sim_tree_link(b, "sys/devices/platform/gpu.0", "bus@0/17000000.gpu");
		sim_tree_link(b, "sys/devices/platform/17000000.gpu", "bus@0/17000000.gpu");
		sim_tree_link(b, "sys/devices/platform/bus@0/gpu.0", "17000000.gpu");
	} else {
		snprintf(s->gpu_dev, sizeof s->gpu_dev, "sys/devices/platform/%s", name);
		sim_tree_link(b, "sys/devices/platform/gpu.0", "17000000.ga10b");
		sim_tree_link(b, "sys/devices/gpu.0", "platform/17000000.ga10b");
		sim_tree_link(b, "sys/devices/17000000.ga10b", "platform/17000000.ga10b");
	}
	snprintf(s->gpu_devfreq, sizeof s->gpu_devfreq, "%s/devfreq/%s", s->gpu_dev, name);

	const char *of_name = jp6 ? "gpu" : "ga10b";
	snprintf(rel, sizeof rel, "%s/of_node/name", s->gpu_dev);
	sim_tree_putn(b, rel, of_name, strlen(of_name) + 1);
	snprintf(rel, sizeof rel, "%s/of_node/compatible", s->gpu_dev);
	sim_tree_putn(b, rel, "nvidia,ga10b", sizeof "nvidia,ga10b");
	static const char *const dev_files[][2] = {
		{ "tpc_pg_mask", "0\n" }, { "gpc_pg_mask", "0\n" }, { "fbp_pg_mask", "0\n" },
		{ "tpc_fs_mask", "0xff\n" }, { "gpu_powered_on", "1\n" }, { "elpg_enable", "1\n" },
		{ "blcg_enable", "1\n" }, { "slcg_enable", "1\n" }, { "elcg_enable", "1\n" },
		{ "emc3d_ratio", "750\n" }, { "power/control", "auto\n" },
	};
	for (size_t i = 0; i < sizeof dev_files / sizeof dev_files[0]; i++) {
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_dev, dev_files[i][0]);
		sim_tree_put(b, rel, dev_files[i][1]);
	}
	snprintf(rel, sizeof rel, "%s/devfreq_dev", s->gpu_dev);
	snprintf(tgt, sizeof tgt, "devfreq/%s", name);
	sim_tree_link(b, rel, tgt);
	snprintf(rel, sizeof rel, "%s/device", s->gpu_devfreq);
	snprintf(tgt, sizeof tgt, "../../../%s", name);
	sim_tree_link(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/class/devfreq/%s", name);
	snprintf(tgt, sizeof tgt, "../../%s", s->gpu_devfreq + 4);
	sim_tree_link(b, rel, tgt);

	size_t n = 0;
	for (int i = 0; i < s->n_levels; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? " " : "", (long long)s->levels[i]);
	snprintf(buf + n, sizeof buf - n, "\n");
	snprintf(rel, sizeof rel, "%s/available_frequencies", s->gpu_devfreq);
	sim_tree_put(b, rel, buf);
	snprintf(rel, sizeof rel, "%s/available_governors", s->gpu_devfreq);
	sim_tree_put(b, rel, "wmark_active nvhost_podgov userspace performance\n");
	snprintf(rel, sizeof rel, "%s/polling_interval", s->gpu_devfreq);
	sim_tree_put(b, rel, "25\n");

	char v[32];
#define LIVE_DF(field, file, val) do { \
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_devfreq, file); \
		sim_tree_open_live(b, &s->field, rel, val); \
	} while (0)
#define LIVE_DEV(field, file, val) do { \
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_dev, file); \
		sim_tree_open_live(b, &s->field, rel, val); \
	} while (0)
	snprintf(v, sizeof v, "%lld\n", (long long)s->cur_hz);
	LIVE_DF(f_cur, "cur_freq", v);
	LIVE_DF(f_target, "target_freq", v);
	snprintf(v, sizeof v, "%lld\n", (long long)s->rd_min_hz);
	LIVE_DF(f_min, "min_freq", v);
	snprintf(v, sizeof v, "%lld\n", (long long)s->rd_max_hz);
	LIVE_DF(f_max, "max_freq", v);
	LIVE_DF(f_gov, "governor", "nvhost_podgov\n");
	char ts[4096];
	sim_tree_gpu_trans_text(s, ts, sizeof ts);
	LIVE_DF(f_trans, "trans_stat", ts);
	LIVE_DEV(f_load, "load", "0\n");
	LIVE_DEV(f_railgate, "railgate_enable", "1\n");
	LIVE_DEV(f_is_rg, "is_railgated", "yes\n");
	snprintf(v, sizeof v, "%lld\n", (long long)s->levels[s->n_levels - 1]);
	LIVE_DEV(f_3d, "enable_3d_scaling", "1\n");
	LIVE_DEV(f_user, "user", "0\n");
	LIVE_DEV(f_freq_req, "freq_request", v);
#undef LIVE_DF
#undef LIVE_DEV
}

/* The trans_stat table of the devfreq core (format of reference 1.2). */
static void sim_tree_gpu_trans_text(const struct sim *s, char *buf, size_t len)
{
	size_t n = 0;
#define CAT(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); } while (0)
	CAT("     From  :   To\n           :");
	for (int j = 0; j < s->n_levels; j++)
		CAT("%10lld", (long long)s->levels[j]);
	CAT("   time(ms)\n");
	for (int i = 0; i < s->n_levels; i++) {
		CAT("%s%10lld:", s->levels[i] == s->cur_hz ? "*" : " ", (long long)s->levels[i]);
		for (int j = 0; j < s->n_levels; j++)
			CAT("%10llu", (unsigned long long)s->trans_count[i][j]);
		CAT("%10lld\n", (long long)(s->time_in_ms_ns[i] / 1000000));
	}
	CAT("Total transition : %llu\n", (unsigned long long)s->total_trans);
#undef CAT
}

void sim_tree_gpu_trans_stat(struct sim *s)
{
	char ts[4096];
	sim_tree_gpu_trans_text(s, ts, sizeof ts);
	sim_file_put(&s->f_trans, ts);
}
