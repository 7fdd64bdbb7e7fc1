/* procfs: parsers for /proc/meminfo, /proc/stat's per-core lines, cpufreq
 * CPU lists and the GPU process list's order (procfs.h). */
#include "config.h"
#include "procfs.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* A non-negative decimal at *p (blanks skipped first); moves *p past it.
 * By hand rather than strtoll, whose locale and base handling cost more
 * than the digits: /proc/stat gives ten of these a core, about ten times
 * a second. */
static bool procfs_num(const char **p, int64_t *out)
{
	const char *q = *p;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q < '0' || *q > '9')
		return false;
	/* the cap keeps sums of a few fields below overflow; a value past it
	 * only grows with more digits, so it is refused at once */
	int64_t v = 0;
	for (; *q >= '0' && *q <= '9'; q++) {
		v = v * 10 + (*q - '0');
		if (v > INT64_MAX / 16)
			return false;
	}
	*p = q;
	*out = v;
	return true;
}

static const char *procfs_next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : NULL;
}

bool procfs_parse_meminfo(const char *text, struct procfs_mem *m)
{
	static const char *const keys[] = { "MemTotal:", "MemAvailable:", "SwapTotal:", "SwapFree:" };
	*m = (struct procfs_mem){ -1, -1, -1, -1 };
	int64_t *dst[] = { &m->total_kb, &m->avail_kb, &m->swap_total_kb, &m->swap_free_kb };
	for (const char *line = text; line && *line; line = procfs_next_line(line)) {
		/* ~50 lines, four keys: the first letter rules out most pairs
		 * before strlen and strncmp are called */
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			if (line[0] != keys[k][0])
				continue;
			size_t n = strlen(keys[k]);
			if (strncmp(line, keys[k], n) != 0)
				continue;
			const char *p = line + n;
			int64_t v;
			if (!procfs_num(&p, &v))
				return false;
			while (*p == ' ')
				p++;
			/* the kernel always writes kB; anything else is not meminfo */
			if (strncmp(p, "kB", 2) != 0)
				return false;
			*dst[k] = v;
		}
	}
	return m->total_kb > 0;
}

void procfs_mem_fill(const struct procfs_mem *m, struct dvf_sample *out)
{
	out->ram_total_kb = out->ram_used_kb = dvf_m_na();
	out->swap_total_kb = out->swap_used_kb = dvf_m_na();
	if (!m)
		return;
	if (m->total_kb > 0)
		out->ram_total_kb = dvf_m_val(m->total_kb);
	if (m->total_kb > 0 && m->avail_kb >= 0 && m->avail_kb <= m->total_kb)
		out->ram_used_kb = dvf_m_val(m->total_kb - m->avail_kb);
	if (m->swap_total_kb >= 0)
		out->swap_total_kb = dvf_m_val(m->swap_total_kb);
	if (m->swap_total_kb >= 0 && m->swap_free_kb >= 0 && m->swap_free_kb <= m->swap_total_kb)
		out->swap_used_kb = dvf_m_val(m->swap_total_kb - m->swap_free_kb);
}

int procfs_parse_cores(const char *text, int64_t *busy, int64_t *total, int max)
{
	int n = 0;
	for (int i = 0; i < max; i++)
		busy[i] = total[i] = -1;
	for (const char *line = text; line && *line; line = procfs_next_line(line)) {
		if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char)line[3]))
			continue;
		const char *p = line + 3;
		int64_t core, f[7];
		if (!procfs_num(&p, &core) || (*p != ' ' && *p != '\t'))
			return -1;
		for (int k = 0; k < 7; k++)
			if (!procfs_num(&p, &f[k]))
				return -1;
		if (core >= max)
			continue;
		/* idle and iowait are the not-busy time (jetson_parse_stat) */
		busy[core] = f[0] + f[1] + f[2] + f[5] + f[6];
		total[core] = busy[core] + f[3] + f[4];
		if (core + 1 > n)
			n = (int)core + 1;
	}
	return n;
}

int procfs_cores_update(struct procfs_cores *c, const char *text, struct dvf_m *util)
{
	int64_t busy[DVF_MAX_CORES], total[DVF_MAX_CORES];
	int n = text ? procfs_parse_cores(text, busy, total, DVF_MAX_CORES) : -1;
	for (int i = 0; i < DVF_MAX_CORES; i++)
		util[i] = dvf_m_na();
	if (n <= 0) {
		c->have = false;
		return 0;
	}
	for (int i = 0; c->have && i < n; i++) {
		if (busy[i] < 0 || i >= c->n || c->busy[i] < 0)
			continue;
		int64_t db = busy[i] - c->busy[i], dt = total[i] - c->total[i];
		if (dt > 0 && db >= 0 && db <= dt)
			util[i] = dvf_m_val((db * 1000 + dt / 2) / dt);
	}
	c->have = true;
	c->n = n;
	memcpy(c->busy, busy, sizeof busy);
	memcpy(c->total, total, sizeof total);
	return n;
}

int procfs_parse_cpulist(const char *text, int *cpus, int max)
{
	int n = 0;
	const char *p = text;
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\n')
			p++;
		if (!*p)
			return n;
		int64_t lo, hi;
		if (!procfs_num(&p, &lo))
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!procfs_num(&p, &hi) || hi < lo || hi - lo > 4096)
				return -1;
		}
		if (*p && *p != ' ' && *p != ',' && *p != '\n')
			return -1;
		for (int64_t c = lo; c <= hi; c++) {
			if (n >= max)
				return -1;
			cpus[n++] = (int)c;
		}
	}
}

int procfs_gpu_proc_add(struct dvf_gpu_proc *out, int n, int max, const struct dvf_gpu_proc *p)
{
	struct dvf_gpu_proc e = *p;
	for (int i = 0; i < n; i++) {
		if (out[i].pid != e.pid)
			continue;
		if (e.mem_kb >= 0 && out[i].mem_kb >= 0)
			e.mem_kb += out[i].mem_kb;
		e.gpus |= out[i].gpus;   /* one process on several GPUs */
		memmove(out + i, out + i + 1, (size_t)(n - i - 1) * sizeof *out);
		n--;
		break;
	}
	int at = n;
	while (at > 0 && out[at - 1].mem_kb < e.mem_kb)
		at--;
	if (at >= max)
		return n;
	if (n >= max)
		n = max - 1;
	memmove(out + at + 1, out + at, (size_t)(n - at) * sizeof *out);
	out[at] = e;
	return n + 1;
}
