/* sys_rows: CPU clusters and cores, memory, EMC, fan, GPU processes
 * (sys_rows.h). */
#include "config.h"
#include "sys_rows.h"

#include <stdio.h>
#include <string.h>

#include "pen.h"
#include "render.h"
#include "theme.h"

/* A per-mille as "16%" (n/a without the sign). */
static void sys_rows_pct(struct pen *r, struct dvf_m pm)
{
	char buf[64];
	render_fmt_m(buf, sizeof buf, pm, 0.1, 0, NULL);
	pen_putf(r, pm.ok ? ROLE_VALUE : ROLE_NA, "%s%s", buf, pm.ok ? "%" : "");
}

void sys_rows_cluster_label(const struct dvf_info *in, int k, bool shortform, char *out, size_t len)
{
	int lo = -1, hi = -1;
	for (int c = 0; c < in->n_cores && c < DVF_MAX_CORES; c++)
		if (in->core_cluster[c] == k) {
			if (lo < 0)
				lo = c;
			hi = c;
		}
	if (lo < 0)
		snprintf(out, len, "%s", in->cluster_name[k]);
	else if (lo == hi)
		snprintf(out, len, "%s%d", shortform ? "c" : "cpu", lo);
	else
		snprintf(out, len, "%s%d-%d", shortform ? "c" : "cpu", lo, hi);
}

/* Cluster k's cores as one cell each, a block as high as its load
 * (ASCII: a digit, tenths), "-" for n/a; the count of cells. */
static int sys_rows_blocks(const struct dvf_info *in, const struct dvf_sample *s, int k, bool utf8, char *out,
			   size_t len)
{
	static const char *const blk[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	size_t n = 0;
	int cells = 0;
	out[0] = '\0';
	for (int c = 0; c < in->n_cores && c < DVF_MAX_CORES; c++) {
		if (in->core_cluster[c] != k || n + 4 >= len)
			continue;
		struct dvf_m m = s->core_util_pm[c];
		int v = m.ok ? (int)(m.v < 0 ? 0 : m.v > 1000 ? 1000 : m.v) : -1;
		char one[8];
		if (v < 0)
			snprintf(one, sizeof one, "-");
		else if (utf8)
			snprintf(one, sizeof one, "%s", blk[v * 7 / 1000]);
		else
			snprintf(one, sizeof one, "%d", v >= 1000 ? 9 : v / 100);
		n += (size_t)snprintf(out + n, len - n, "%s", one);
		cells++;
	}
	return cells;
}

/* The clock row; with each core's load after its cluster's clock when
 * the row has room ("c0-3 1190 ▆▁▁▁ c4-7 730 ▂▂▂▂ ... MHz"). */
void sys_rows_clock(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W)
{
	struct pen r = { cb, x0, y, x0 + W };
	int nc = in ? in->n_clusters : 0;
	char label[DVF_NAME_LEN], num[32], blocks[DVF_MAX_CORES * 4 + 1];
	/* what the row takes with the cores' blocks */
	int need = 6 + 3;
	for (int i = 0; i < nc && i < DVF_MAX_CLUSTERS; i++) {
		sys_rows_cluster_label(in, i, true, label, sizeof label);
		render_fmt_m(num, sizeof num, s->cpu_khz[i], 1e-3, 0, NULL);
		need += (int)strlen(label) + 1 + (int)strlen(num) + 1 + sys_rows_blocks(in, s, i, cb->utf8, blocks, sizeof blocks) + 1;
	}
	bool with_blocks = in && in->n_cores > 0 && need <= W;
	pen_put(&r, ROLE_LABEL, "clock ");
	if (nc <= 0)
		pen_put(&r, ROLE_NA, "n/a");
	for (int i = 0; i < nc && i < DVF_MAX_CLUSTERS; i++) {
		sys_rows_cluster_label(in, i, true, label, sizeof label);
		/* labels only where they say which cores (not a replay's names) */
		if (in->n_cores > 0)
			pen_putf(&r, ROLE_LABEL, "%s ", label);
		pen_put_m(&r, s->cpu_khz[i], 1e-3, 0, NULL);
		pen_put(&r, ROLE_LABEL, " ");
		if (with_blocks && sys_rows_blocks(in, s, i, cb->utf8, blocks, sizeof blocks) > 0) {
			pen_put(&r, ROLE_BAR, blocks);
			pen_put(&r, ROLE_LABEL, " ");
		}
	}
	if (nc > 0)
		pen_put(&r, ROLE_LABEL, "MHz");
}

void sys_rows_cluster(const struct dvf_info *in, const struct dvf_sample *s, int k, struct cellbuf *cb, int x0,
		      int y, int W)
{
	struct pen r = { cb, x0, y, x0 + W };
	char label[DVF_NAME_LEN];
	sys_rows_cluster_label(in, k, false, label, sizeof label);
	pen_putf(&r, ROLE_LABEL, "%-8s", label);
	pen_put_m(&r, s->cpu_khz[k], 1e-3, 0, "MHz");
	pen_put(&r, ROLE_LABEL, " ");
	for (int c = 0; c < in->n_cores && c < DVF_MAX_CORES; c++) {
		if (in->core_cluster[c] != k)
			continue;
		struct dvf_m m = s->core_util_pm[c];
		char t[16], cell[20];
		render_fmt_m(t, sizeof t, m, 0.1, 0, NULL);
		snprintf(cell, sizeof cell, "%s%s", t, m.ok ? "%" : "");
		int role = !m.ok ? ROLE_NA : m.v >= 900 ? ROLE_WARN : ROLE_VALUE;
		pen_putf(&r, role, " %4s", cell);
	}
}

/* kB as GiB with one decimal, or n/a. */
static void sys_rows_gib(struct pen *r, struct dvf_m kb, int role)
{
	if (kb.ok)
		pen_putf(r, role, "%.1f", (double)kb.v / (1024.0 * 1024.0));
	else
		pen_put(r, ROLE_NA, "n/a");
}

void sys_rows_mem(const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W)
{
	struct pen r = { cb, x0, y, x0 + W };
	/* a fine-tune near the limit of unified memory is the warning here */
	int role = ROLE_VALUE;
	if (s->ram_used_kb.ok && s->ram_total_kb.ok && s->ram_total_kb.v > 0) {
		double f = (double)s->ram_used_kb.v / (double)s->ram_total_kb.v;
		role = f >= 0.97 ? ROLE_CRIT : f >= 0.90 ? ROLE_WARN : ROLE_VALUE;
	}
	pen_put(&r, ROLE_LABEL, "RAM ");
	sys_rows_gib(&r, s->ram_used_kb, role);
	pen_put(&r, ROLE_LABEL, "/");
	sys_rows_gib(&r, s->ram_total_kb, ROLE_VALUE);
	pen_put(&r, ROLE_LABEL, " GiB  swap ");
	int srole = s->swap_used_kb.ok && s->swap_used_kb.v > 1024 * 1024 ? ROLE_WARN : ROLE_VALUE;
	sys_rows_gib(&r, s->swap_used_kb, srole);
	pen_put(&r, ROLE_LABEL, "/");
	sys_rows_gib(&r, s->swap_total_kb, ROLE_VALUE);
	pen_put(&r, ROLE_LABEL, " GiB");
}

void sys_rows_emc_fan(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W)
{
	struct pen r = { cb, x0, y, x0 + W };
	/* a discrete GPU's own memory clock (NVML) is no Jetson EMC */
	pen_put(&r, ROLE_LABEL, in && in->mem_clock[0] ? in->mem_clock : "EMC");
	pen_put(&r, ROLE_LABEL, " ");
	pen_put_m(&r, s->emc_hz, 1e-6, 0, "MHz");
	pen_put(&r, ROLE_LABEL, " ");
	sys_rows_pct(&r, s->emc_load_pm);
	pen_put(&r, ROLE_LABEL, "  fan ");
	/* pwm 0..255 as a share of full drive */
	sys_rows_pct(&r, s->fan_pwm.ok ? dvf_m_val((s->fan_pwm.v * 1000 + 127) / 255) : dvf_m_na());
	pen_put(&r, ROLE_LABEL, " ");
	pen_put_m(&r, s->fan_rpm, 1, 0, "rpm");
}

/* A size in kB the way nvtop writes it: 3.0G, 64M, 512K. */
static void sys_rows_size(char *out, size_t len, int64_t kb)
{
	if (kb < 0)
		snprintf(out, len, "?");
	else if (kb >= 1024 * 1024)
		snprintf(out, len, "%.1fG", (double)kb / (1024.0 * 1024.0));
	else if (kb >= 1024)
		snprintf(out, len, "%lldM", (long long)(kb / 1024));
	else
		snprintf(out, len, "%lldK", (long long)kb);
}

void sys_rows_energy(char *out, size_t len, struct dvf_m mj)
{
	double j = (double)mj.v * 1e-3;
	if (!mj.ok || mj.v < 0)
		snprintf(out, len, "n/a");
	else if (j < 1000)
		snprintf(out, len, "%.0fJ", j);
	else if (j < 1e6)
		snprintf(out, len, "%.1fkJ", j * 1e-3);
	else
		snprintf(out, len, "%.2fMJ", j * 1e-6);
}

void sys_rows_gpu_procs(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y,
			int W)
{
	struct pen r = { cb, x0, y, x0 + W };
	pen_put(&r, ROLE_LABEL, "procs ");
	if (!s->gpu_procs.ok) {
		pen_put(&r, ROLE_NA, "n/a");
		if (in && in->gpu_procs_why[0])
			pen_putf(&r, ROLE_NA, ": %s", in->gpu_procs_why);
		return;
	}
	if (s->gpu_procs.v == 0) {
		pen_put(&r, ROLE_VALUE, "none");
		return;
	}
	if (s->gpu_proc[0].pid <= 0) {   /* a count without the list (a recording) */
		pen_putf(&r, ROLE_VALUE, "%lld", (long long)s->gpu_procs.v);
		return;
	}
	int shown = 0;
	for (int i = 0; i < DVF_MAX_GPU_PROCS && i < s->gpu_procs.v; i++) {
		const struct dvf_gpu_proc *p = &s->gpu_proc[i];
		char size[16], pid[24], energy[24] = "";
		sys_rows_size(size, sizeof size, p->mem_kb);
		snprintf(pid, sizeof pid, "/%lld ", (long long)p->pid);
		/* its attributed energy where there is an attribution (NVML) */
		if (p->attr_mj.ok) {
			energy[0] = ' ';
			sys_rows_energy(energy + 1, sizeof energy - 1, p->attr_mj);
		}
		int need = (p->job ? 1 : 0) + cellbuf_strcols(p->name) + (int)strlen(pid) + (int)strlen(size) +
			   (int)strlen(energy);
		if (shown && r.x + need > r.x1)
			break;
		if (p->job)   /* the followed job's, as a jtop user looks for it */
			pen_put(&r, ROLE_LABEL, "*");
		pen_put(&r, ROLE_VALUE, p->name);
		pen_put(&r, ROLE_LABEL, pid);
		pen_putf(&r, ROLE_VALUE, "%s%s  ", size, energy);
		shown++;
	}
	if (shown < s->gpu_procs.v)
		pen_putf(&r, ROLE_LABEL, "+%lld", (long long)(s->gpu_procs.v - shown));
}
