/* sim_mem: the simulated board's memory side: /proc/meminfo with the
 * fine-tune's footprint, nvmap's per-process GPU memory table (debugfs),
 * and the EMC clock and its activity.  Values and their sources:
 * docs/simulator.md ("Memory, EMC and fan"). */
#include "config.h"
#include "sim_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* AGX Orin 64GB as tegrastats shows it (RAM 18207/62841MB, SWAP
 * 86/31420MB, reference 6): MemTotal and the zram swap, in kB. */
#define MEM_TOTAL_KB (62841LL * 1024)
#define SWAP_TOTAL_KB (31420LL * 1024)
/* The OS, desktop and services with no fine-tune [P]: ~3.2 GiB used
 * (MemTotal - MemAvailable), 2 GiB of page cache besides, 86 MB swapped
 * (the tegrastats line). */
#define BASE_USED_KB (3250LL * 1024)
#define BASE_CACHED_KB (2048LL * 1024)
#define BASE_SWAP_KB (86LL * 1024)
/* What the kernel keeps however hard user space pushes (min_free_kbytes
 * and the like) [P]. */
#define RESERVE_KB (400LL * 1024)
/* The fine-tune's process [P]: CUDA context, PyTorch and Python. */
#define RUNTIME_KB (1536LL * 1024)
/* Loading the weights takes a few seconds [P]. */
#define LOAD_S 5.0
/* The pid the simulated fine-tune has in nvmap's table [P]. */
#define FT_PID 4242

/* EMC clocks of the AGX Orin (reference 4.2): top 3199 MHz, idle 2133 MHz
 * as tegrastats shows it with nothing running (EMC_FREQ 3%@2133). */
#define EMC_TOP_HZ 3199000000LL
#define EMC_IDLE_HZ 2133000000LL

/* The fine-tune's footprint in kB: mixed-precision AdamW keeps 16 bytes a
 * parameter (fp32 weights and gradients, two moments), and activations
 * of about 34 bytes per token, hidden unit and layer (bf16, Korthikanti
 * et al. 2022, without recomputation); plus the runtime. */
static double sim_mem_footprint_kb(const struct sim *s)
{
	const struct sim_model *m = &s->train_model;
	if (!m->cm)
		return 0;
	double params = (double)m->cm->params * 16.0;
	double act = 34.0 * (double)sim_seq_len_now(s) * m->batch * m->cm->hidden * m->cm->layers;
	return (params + act) / 1024.0 + (double)RUNTIME_KB;
}

/* Is the fine-tune's process there (from the start to its last step)? */
static bool sim_mem_alive(const struct sim *s)
{
	return s->cfg.total_steps <= 0 || s->steps < s->cfg.total_steps;
}

/* Its footprint now: loading over LOAD_S, then whole; 0 once it ended. */
static double sim_mem_ft_kb(const struct sim *s)
{
	if (!sim_mem_alive(s))
		return 0;
	double t = (double)s->t_ns / 1e9;
	return sim_mem_footprint_kb(s) * (t < LOAD_S ? t / LOAD_S : 1.0);
}

static void sim_mem_meminfo(struct sim *s, double ft_kb)
{
	/* page cache gives way first, then what does not fit goes to swap */
	long long want = BASE_USED_KB + llround(ft_kb);
	long long room = MEM_TOTAL_KB - RESERVE_KB;
	long long cached = BASE_CACHED_KB;
	if (want + cached > room)
		cached = room - want > 64 * 1024 ? room - want : 64 * 1024;
	long long swapped = BASE_SWAP_KB;
	if (want + cached > room) {
		swapped += want + cached - room;
		want = room - cached;
	}
	if (swapped > SWAP_TOTAL_KB)
		swapped = SWAP_TOTAL_KB;   /* beyond this the OOM killer would act */
	long long used = want + cached;
	long long avail = MEM_TOTAL_KB - want;
	long long nvmap = ft_kb > RUNTIME_KB ? llround(ft_kb) - RUNTIME_KB / 2 : 0;
	char buf[1024];
	snprintf(buf, sizeof buf,
		 "MemTotal:       %lld kB\nMemFree:        %lld kB\nMemAvailable:   %lld kB\n"
		 "Buffers:        %lld kB\nCached:         %lld kB\nSwapCached:     %lld kB\n"
		 "Active:         %lld kB\nInactive:       %lld kB\n"
		 "SwapTotal:      %lld kB\nSwapFree:       %lld kB\n"
		 "Dirty:               12 kB\nShmem:          %lld kB\n"
		 "NvMapMemFree:         0 kB\nNvMapMemUsed:   %lld kB\n",
		 MEM_TOTAL_KB, MEM_TOTAL_KB - used, avail, 98304LL, cached - 98304, swapped / 50,
		 (want * 2) / 3, cached + want / 3, SWAP_TOTAL_KB, SWAP_TOTAL_KB - swapped, 65536LL,
		 nvmap + 112640);
	sim_file_put(&s->f_meminfo, buf);
}

/* nvmap's debugfs tables as the kernel writes them (nvmap_dev.c): the
 * desktop's clients [P] and the fine-tune's, which holds its footprint
 * less the host side in two clients (CUDA opens nvmap more than once).
 * clients has a row per client; maps the same rows, each with its buffer
 * and that buffer's mapping on lines that start blank. */
struct sim_nvmap_row {
	const char *comm;
	int pid;
	long long kb;
};

static size_t sim_mem_nvmap_head(char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%-18s %18s %8s %11s\n", "CLIENT", "PROCESS", "PID", "SIZE");
}

static size_t sim_mem_nvmap_row(char *buf, size_t len, const struct sim_nvmap_row *r)
{
	return (size_t)snprintf(buf, len, "%-18s %18s %8d %10lldK\n", "user", r->comm, r->pid, r->kb);
}

static size_t sim_mem_nvmap_total(char *buf, size_t len, long long kb)
{
	return (size_t)snprintf(buf, len, "%-18s %18s %8s %10lldK\n", "total", "", "", kb);
}

static void sim_mem_nvmap(struct sim *s, double ft_kb)
{
	long long ft = ft_kb > RUNTIME_KB ? llround(ft_kb) - RUNTIME_KB / 2 : 0;
	const struct sim_nvmap_row rows[] = {
		{ "Xorg", 1523, 47104 },
		{ "gnome-shell", 2011, 65536 },
		{ "python3", FT_PID, ft - ft / 8 },
		{ "python3", FT_PID, ft / 8 },
	};
	int n_rows = ft > 0 ? 4 : 2;
	long long total = 0;
	char c[1024], m[4096];
	size_t nc = sim_mem_nvmap_head(c, sizeof c), nm = sim_mem_nvmap_head(m, sizeof m);
	nm += (size_t)snprintf(m + nm, sizeof m - nm, "%-18s %18s %8s %11s %8s %6s %9s %21s %18s\n", "", "", "BASE",
			       "SIZE", "FLAGS", "SHARE", "UID", "MAPS", "MAPSIZE");
	for (int i = 0; i < n_rows; i++) {
		const struct sim_nvmap_row *r = &rows[i];
		unsigned long long va = 0xffff80000000ULL + (unsigned long long)i * 0x100000000ULL;
		total += r->kb;
		nc += sim_mem_nvmap_row(c + nc, sizeof c - nc, r);
		nm += sim_mem_nvmap_row(m + nm, sizeof m - nm, r);
		nm += (size_t)snprintf(m + nm, sizeof m - nm, "%-18s %-18s %8x %10lldK %8x %6u %16s %12s %12s %6lldK\n",
				       "", "", 0, r->kb, 1, 1, "00000000c0de0000", "", "", r->kb);
		nm += (size_t)snprintf(m + nm, sizeof m - nm, "%-18s %-18s %8s %11s %8s %6s %16s %-12llx-%12llx %6lldK\n\n",
				       "", "", "", "", "", "", "", va, va + (unsigned long long)r->kb * 1024, r->kb);
	}
	sim_mem_nvmap_total(c + nc, sizeof c - nc, total);
	sim_mem_nvmap_total(m + nm, sizeof m - nm, total);
	sim_file_put(&s->f_nvmap, c);
	sim_file_put(&s->f_nvmap_maps, m);
}

int64_t sim_mem_job_pid(const struct sim *s)
{
	(void)s;
	return FT_PID;
}

/* The EMC: at the top while the fine-tune runs (the bandwidth manager
 * raises it for the GPU), at 2133 MHz otherwise.  Its activity (actmon
 * mc_all: kHz of the EMC clock busy) follows the memory rail's power. */
static void sim_mem_emc(struct sim *s)
{
	int64_t hz = sim_training(s) ? EMC_TOP_HZ : EMC_IDLE_HZ;
	sim_file_put_i64(&s->f_emc_rate, hz);
	double act = s->sensor_mw[SIM_RAIL_SYS_5V0] > 4100 ?
		     fmin(1.0, (s->sensor_mw[SIM_RAIL_SYS_5V0] - 4000.0) / 2500.0) : 0.02;
	if (s->f_mc_all.fd >= 0)
		sim_file_put_i64(&s->f_mc_all, llround(act * (double)hz / 1000.0));
}

void sim_mem_write(struct sim *s)
{
	double ft = sim_mem_ft_kb(s);
	sim_mem_meminfo(s, ft);
	sim_mem_nvmap(s, ft);
	sim_mem_emc(s);
}
