/* gpu_rows: a node's GPUs on the dashboard (gpu_rows.h). */
#include "config.h"
#include "gpu_rows.h"

#include <stdio.h>
#include <string.h>

#include "tui_view.h"
#include "sys_rows.h"
#include "theme.h"

/* A field of a GPU's row: the value right-aligned in w columns (n/a in its
 * role), then a space.  Returns the next x. */
static int field(struct cellbuf *cb, int x, int y, int x1, struct dvf_m m, double scale, int prec,
		 const char *unit, int w)
{
	char buf[32], pad[40];
	if (m.ok)
		snprintf(buf, sizeof buf, "%.*f%s", prec, (double)m.v * scale, unit);
	else
		snprintf(buf, sizeof buf, "n/a");
	snprintf(pad, sizeof pad, "%*s ", w, buf);
	if (x >= x1)
		return x;
	return x + cellbuf_putn(cb, x, y, m.ok ? ROLE_VALUE : ROLE_NA, pad, x1 - x);
}

/* Memory as "60/140G": used over total, whole GiB. */
static int memory(struct cellbuf *cb, int x, int y, int x1, const struct dvf_gpu_sample *g)
{
	char buf[40];
	if (g->mem_used_b.ok && g->mem_total_b.ok)
		snprintf(buf, sizeof buf, "%3.0f/%.0fG ", (double)g->mem_used_b.v / (1 << 30),
			 (double)g->mem_total_b.v / (1 << 30));
	else
		snprintf(buf, sizeof buf, "%8s ", "n/a");
	if (x >= x1)
		return x;
	bool ok = g->mem_used_b.ok && g->mem_total_b.ok;
	return x + cellbuf_putn(cb, x, y, ok ? ROLE_VALUE : ROLE_NA, buf, x1 - x);
}

static bool answered(const struct dvf_gpu_sample *g)
{
	return g->freq_hz.ok || g->load_pm.ok || g->mw.ok || g->temp_mc.ok || g->mem_used_b.ok;
}

/* The rows' column header, each label right-aligned over its values as
 * nvtop's: "#    clock util power   memory temp". */
static void header(struct cellbuf *cb, int x0, int y, int x1)
{
	char h[80];
	snprintf(h, sizeof h, "%-2s %7s %4s %5s %8s %4s", "#", "clock", "util", "power", "memory", "temp");
	cellbuf_putn(cb, x0, y, ROLE_LABEL, h, x1 - x0);
}

int gpu_rows_render(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows)
{
	const struct dvf_info *in = v->info;
	int n = in ? in->n_gpus : 0;
	if (n <= 0 || rows <= 0)
		return 0;
	/* The header where a GPU's row is left besides it. */
	int used = 0;
	if (rows >= 2) {
		header(cb, x0, y++, x1);
		rows--;
		used++;
	}
	int shown = n <= rows ? n : rows - 1;
	for (int i = 0; i < shown; i++) {
		const struct dvf_gpu_sample *g = &v->cur.gpu[i];
		int x = x0;
		char id[8];
		snprintf(id, sizeof id, "%-2d ", in->gpu_index[i]);
		x += cellbuf_putn(cb, x, y + i, ROLE_LABEL, id, x1 - x);
		if (v->have_cur && !answered(g)) {
			cellbuf_putn(cb, x, y + i, ROLE_NA, "n/a (not answering)", x1 - x);
			continue;
		}
		x = field(cb, x, y + i, x1, g->freq_hz, 1e-6, 0, "MHz", 7);
		x = field(cb, x, y + i, x1, g->load_pm, 0.1, 0, "%", 4);
		x = field(cb, x, y + i, x1, g->mw, 1e-3, 0, "W", 5);
		x = memory(cb, x, y + i, x1, g);
		field(cb, x, y + i, x1, g->temp_mc, 1e-3, 0, cb->utf8 ? "°C" : "C", 4);
	}
	if (shown < n) {
		char more[64];
		snprintf(more, sizeof more, "+%d GPUs more (a taller terminal shows them)", n - shown);
		cellbuf_putn(cb, x0, y + shown, ROLE_LABEL, more, x1 - x0);
		return used + shown + 1;
	}
	return used + shown;
}

/* The GPUs a process runs on, as a column: "3", "0,1", "*" for more than
 * fit in w columns, "?" where not said. */
static void proc_gpus(uint32_t gpus, char *out, size_t len, int w)
{
	size_t l = 0;
	out[0] = '\0';
	for (int i = 0; i < 32 && l < len; i++)
		if (gpus & (1u << i))
			l += (size_t)snprintf(out + l, len - l, "%s%d", l ? "," : "", i);
	if (!gpus)
		snprintf(out, len, "?");
	else if ((int)strlen(out) > w)
		snprintf(out, len, "*");
}

static void proc_size(char *out, size_t len, int64_t kb)
{
	if (kb < 0)
		snprintf(out, len, "n/a");
	else if (kb >= 1024 * 1024)
		snprintf(out, len, "%.1fG", (double)kb / (1024.0 * 1024.0));
	else if (kb >= 1024)
		snprintf(out, len, "%lldM", (long long)(kb / 1024));
	else
		snprintf(out, len, "%lldK", (long long)kb);
}

const char *const gpu_rows_sort_names[PROC_SORT_COUNT] = { "GPU memory", "energy", "PID", "name", "GPU" };

/* The lowest GPU a process runs on; 32 where not said, so those come last. */
static int first_gpu(uint32_t gpus)
{
	for (int i = 0; i < 32; i++)
		if (gpus & (1u << i))
			return i;
	return 32;
}

/* Largest first for the sizes, an unknown one (n/a) below every known one. */
static int cmp_size(bool aok, int64_t a, bool bok, int64_t b)
{
	if (aok != bok)
		return aok ? -1 : 1;
	return a > b ? -1 : a < b ? 1 : 0;
}

/* The order of key in its natural direction; ties by PID, so the order
 * does not jump between samples. */
static int cmp_proc(const struct dvf_gpu_proc *a, const struct dvf_gpu_proc *b, enum proc_sort key)
{
	int c = 0;
	switch (key) {
	case PROC_SORT_MEM: c = cmp_size(a->mem_kb >= 0, a->mem_kb, b->mem_kb >= 0, b->mem_kb); break;
	case PROC_SORT_ENERGY: c = cmp_size(a->attr_mj.ok, a->attr_mj.v, b->attr_mj.ok, b->attr_mj.v); break;
	case PROC_SORT_NAME: c = strcmp(a->name, b->name); break;
	case PROC_SORT_GPU: c = first_gpu(a->gpus) - first_gpu(b->gpus); break;
	case PROC_SORT_PID: case PROC_SORT_COUNT: break;
	}
	if (c)
		return c;
	return a->pid < b->pid ? -1 : a->pid > b->pid ? 1 : 0;
}

void gpu_rows_sort(struct dvf_sample *s, enum proc_sort key, bool invert)
{
	int n = 0;
	while (n < DVF_MAX_GPU_PROCS && s->gpu_proc[n].pid > 0)
		n++;
	/* insertion sort: a handful of rows, and stable */
	for (int i = 1; i < n; i++) {
		struct dvf_gpu_proc p = s->gpu_proc[i];
		int j = i;
		while (j > 0) {
			int c = cmp_proc(&s->gpu_proc[j - 1], &p, key);
			if (invert ? c >= 0 : c <= 0)
				break;
			s->gpu_proc[j] = s->gpu_proc[j - 1];
			j--;
		}
		s->gpu_proc[j] = p;
	}
}

/* The table's header, the sorted column's label highlighted and marked
 * with its direction (v: the natural order, ^: inverted) in the space
 * before it, after it for the left-aligned GPU column. */
static void procs_header(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1)
{
	static const char *const label[PROC_SORT_COUNT] = { "GPU mem", "energy", "PID", "process", "GPU" };
	char h[96];
	snprintf(h, sizeof h, "%-5s %7s %7s %7s  %s", "GPU", "PID", "GPU mem", "energy", "process");
	cellbuf_putn(cb, x0, y, ROLE_LABEL, h, x1 - x0);
	if (v->proc_sort < 0 || v->proc_sort >= PROC_SORT_COUNT)
		return;
	const char *l = label[v->proc_sort];
	const char *at = v->proc_sort == PROC_SORT_GPU ? h : strstr(h, l);
	int x = x0 + (int)(at - h), len = (int)strlen(l);
	int mx = v->proc_sort == PROC_SORT_GPU ? x + len : x - 1;
	const char *mark = v->proc_inv ? (cb->utf8 ? "▲" : "^") : (cb->utf8 ? "▼" : "v");
	if (x < x1)
		cellbuf_putn(cb, x, y, ROLE_TITLE_FOCUS, l, x1 - x);
	if (mx >= x0 && mx < x1)
		cellbuf_putn(cb, mx, y, ROLE_TITLE_FOCUS, mark, 1);
}

int gpu_rows_procs(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows)
{
	const struct dvf_sample *s = &v->cur;
	int n = s->gpu_procs.ok && s->gpu_procs.v > 0 && s->gpu_proc[0].pid > 0 ? (int)s->gpu_procs.v : 0;
	int listed = 0;
	while (listed < n && listed < DVF_MAX_GPU_PROCS && s->gpu_proc[listed].pid > 0)
		listed++;
	if (rows < 2 || listed == 0)
		return 0;
	char line[160];
	/* the energy attributed to each (docs/attribution.md); "*": the followed job's */
	procs_header(v, cb, x0, y, x1);
	/* Left out: the listed ones that do not fit, and where the list is
	 * full, those beyond it (a count of each GPU's processes). */
	int beyond = listed == DVF_MAX_GPU_PROCS && n > listed ? n - listed : 0;
	int room = rows - 1;
	int shown = listed <= room && !beyond ? listed : (room - 1 < listed ? room - 1 : listed);
	for (int i = 0; i < shown; i++) {
		const struct dvf_gpu_proc *p = &s->gpu_proc[i];
		char g[16], mem[16], energy[24];
		/* one GPU: every process listed is on it (a Jetson's nvmap does
		 * not say, as there is nothing to say) */
		if (!p->gpus && v->info && v->info->n_gpus <= 1)
			snprintf(g, sizeof g, "%d", v->info->n_gpus == 1 ? v->info->gpu_index[0] : 0);
		else
			proc_gpus(p->gpus, g, sizeof g, 5);
		proc_size(mem, sizeof mem, p->mem_kb);
		sys_rows_energy(energy, sizeof energy, p->attr_mj);
		snprintf(line, sizeof line, "%-5s %7lld %7s %7s %s", g, (long long)p->pid, mem, energy, p->job ? "*" : " ");
		int x = x0 + cellbuf_putn(cb, x0, y + 1 + i, ROLE_VALUE, line, x1 - x0);
		if (x < x1)
			cellbuf_putn(cb, x, y + 1 + i, ROLE_VALUE, p->name, x1 - x);
	}
	if (shown < listed || beyond) {
		snprintf(line, sizeof line, "+%d more", listed - shown + beyond);
		cellbuf_putn(cb, x0, y + 1 + shown, ROLE_LABEL, line, x1 - x0);
		return 1 + shown + 1;
	}
	return 1 + shown;
}

/* "label 0 13%  1 13% ...": each GPU's share of share[] (their sum), wrapped
 * over at most rows rows; "+k" where the rest do not fit. */
static int shares(struct cellbuf *cb, const char *label, const struct dvf_m *share, int n,
		    const int *index, int x0, int y, int x1, int rows)
{
	if (n <= 1 || rows <= 0)
		return 0;
	double sum = 0;
	for (int i = 0; i < n; i++)
		if (share[i].ok && share[i].v > 0)
			sum += (double)share[i].v;
	int lw = (int)strlen(label) + 1, x = x0, used = 1;
	cellbuf_putn(cb, x, y, ROLE_LABEL, label, x1 - x);
	x += lw;
	for (int i = 0; i < n; i++) {
		char id[8], val[16];
		snprintf(id, sizeof id, "%d ", index[i]);
		if (share[i].ok && sum > 0)
			snprintf(val, sizeof val, "%.0f%%", 100.0 * (double)share[i].v / sum);
		else
			snprintf(val, sizeof val, "n/a");
		int w = (int)strlen(id) + (int)strlen(val) + 2;
		if (x + w > x1 && x > x0 + lw) {
			if (used == rows) {
				char more[16];
				snprintf(more, sizeof more, "+%d", n - i);
				cellbuf_putn(cb, x1 - (int)strlen(more), y + used - 1, ROLE_LABEL, more, (int)strlen(more));
				break;
			}
			used++;
			x = x0 + lw;
		}
		x += cellbuf_putn(cb, x, y + used - 1, ROLE_LABEL, id, x1 - x);
		x += cellbuf_putn(cb, x, y + used - 1, share[i].ok && sum > 0 ? ROLE_VALUE : ROLE_NA, val, x1 - x);
		x += 2;
	}
	return used;
}

int gpu_rows_power_share(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows)
{
	const struct dvf_info *in = v->info;
	if (!in || in->n_gpus < 2)
		return 0;
	struct dvf_m mw[DVF_MAX_GPUS];
	for (int i = 0; i < in->n_gpus; i++)
		mw[i] = v->cur.gpu[i].mw;
	return shares(cb, "share", mw, in->n_gpus, in->gpu_index, x0, y, x1, rows);
}

int gpu_rows_energy_share(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows)
{
	const struct dvf_info *in = v->info;
	if (!in || in->n_gpus < 2)
		return 0;
	return shares(cb, "by GPU ", v->gpu_mj, in->n_gpus, in->gpu_index, x0, y, x1, rows);
}
