/* sim_tree_board: what the simulated tree holds besides the GPU:
 * nvpmodel.conf, the INA3221 rails, cpufreq policies, thermal zones, the
 * fan and the EMC clock. */
#include "config.h"
#include "sim_priv.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const cpu_freqs_khz =
	"115200 192000 268800 345600 422400 499200 576000 652800 729600 806400 883200 960000 "
	"1036800 1113600 1190400 1267200 1344000 1420800 1497600 1574400 1651200 1728000 "
	"1804800 1881600 1958400 2035200 2112000 2188800 2201600";

/* nvpmodel.conf: the four AGX Orin 64GB modes of reference 5.3, in the
 * file's own syntax (PARAM blocks name the knobs, POWER_MODEL blocks set
 * them). */
void sim_tree_board_nvpmodel(struct tb *b, bool jp6)
{
	const char *gpu_knob = jp6 ? "/sys/devices/platform/17000000.gpu/devfreq_dev"
				   : "/sys/devices/17000000.ga10b/devfreq/17000000.ga10b";
	static const struct {
		int id;
		const char *name;
		int cpus;
		long cpu_max;
		long gpu_max;
		int tpc_mask;
		long emc_max;
	} modes[] = {
		{ 0, "MAXN", 12, -1, -1, 0, -1 },
		{ 1, "MODE_15W", 4, 1113600, 408000000, 248, 2133000000 },
		{ 2, "MODE_30W", 8, 1728000, 612000000, 240, -1 },
		{ 3, "MODE_50W", 12, 1497600, 816000000, 0, -1 },
	};
	char buf[8192];
	size_t n = 0;
#define CAT(...) (n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, __VA_ARGS__))
	CAT("# nvpmodel configuration for the simulated Jetson AGX Orin 64GB (p3701-0005)\n\n");
	CAT("< PARAM TYPE=FILE NAME=CPU_ONLINE >\n");
	for (int c = 0; c < SIM_N_CPUS; c++)
		CAT("CORE_%d /sys/devices/system/cpu/cpu%d/online\n", c, c);
	CAT("\n< PARAM TYPE=CLOCK NAME=CPU_A78_0 >\nFREQ_TABLE /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies\n"
	    "MAX_FREQ /sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq\n"
	    "MIN_FREQ /sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq\n");
	CAT("\n< PARAM TYPE=CLOCK NAME=GPU >\nFREQ_TABLE %s/available_frequencies\n"
	    "MAX_FREQ %s/max_freq\nMIN_FREQ %s/min_freq\n", gpu_knob, gpu_knob, gpu_knob);
	CAT("\n< PARAM TYPE=FILE NAME=TPC_PG_MASK >\nTPC_PG_MASK_KNEXT /sys/devices/platform/gpu.0/tpc_pg_mask\n");
	CAT("\n< PARAM TYPE=CLOCK NAME=EMC >\nMAX_FREQ %s\n",
	    jp6 ? "/sys/kernel/nvpmodel_clk_cap/emc" : "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		CAT("\n< POWER_MODEL ID=%d NAME=%s >\n", modes[i].id, modes[i].name);
		for (int c = 0; c < SIM_N_CPUS; c++)
			CAT("CPU_ONLINE CORE_%d %d\n", c, c < modes[i].cpus ? 1 : 0);
		CAT("TPC_PG_MASK TPC_PG_MASK_KNEXT %d\n", modes[i].tpc_mask);
		CAT("CPU_A78_0 MIN_FREQ 729600\nCPU_A78_0 MAX_FREQ %ld\n", modes[i].cpu_max);
		CAT("GPU MIN_FREQ 0\nGPU MAX_FREQ %ld\n", modes[i].gpu_max);
		CAT("EMC MAX_FREQ %ld\n", modes[i].emc_max);
	}
	CAT("\n< PM_CONFIG DEFAULT=2 >\n");
#undef CAT
	sim_tree_putn(b, "etc/nvpmodel/nvpmodel_p3701_0000.conf", buf, n < sizeof buf ? n : sizeof buf - 1);
	sim_tree_link(b, "etc/nvpmodel.conf", "nvpmodel/nvpmodel_p3701_0000.conf");
	sim_tree_put(b, "var/lib/nvpmodel/status", "pmode:0000\n");
}

static const char *const rail_label[SIM_N_RAILS] = {
	"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"
};

void sim_tree_board_ina(struct tb *b, bool jp6, int addr, int hw)
{
	struct sim *s = b->s;
	const char *i2c = jp6 ? "devices/platform/bus@0/c240000.i2c/i2c-1" : "devices/platform/c240000.i2c/i2c-1";
	char dev[160], hwd[200], rel[320], tgt[320];
	snprintf(dev, sizeof dev, "sys/%s/1-00%02x", i2c, addr);
	snprintf(hwd, sizeof hwd, "%s/hwmon/hwmon%d", dev, hw);

	snprintf(rel, sizeof rel, "%s/name", dev);
	sim_tree_put(b, rel, "ina3221\n");
	snprintf(rel, sizeof rel, "sys/bus/i2c/drivers/ina3221/1-00%02x", addr);
	snprintf(tgt, sizeof tgt, "../../../../%s/1-00%02x", i2c, addr);
	sim_tree_link(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/bus/i2c/devices/1-00%02x", addr);
	snprintf(tgt, sizeof tgt, "../../../%s/1-00%02x", i2c, addr);
	sim_tree_link(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", hw);
	snprintf(tgt, sizeof tgt, "../../%s/1-00%02x/hwmon/hwmon%d", i2c, addr, hw);
	sim_tree_link(b, rel, tgt);
	snprintf(rel, sizeof rel, "%s/device", hwd);
	snprintf(tgt, sizeof tgt, "../../../1-00%02x", addr);
	sim_tree_link(b, rel, tgt);

	/* update_interval and samples: our sensor pace (sim.c SENSOR_NS) */
	static const char *const fixed[][2] = {
		{ "name", "ina3221\n" }, { "update_interval", "20\n" }, { "samples", "4\n" },
		{ "in7_label", "sum of shunt voltages\n" },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		snprintf(rel, sizeof rel, "%s/%s", hwd, fixed[i][0]);
		sim_tree_put(b, rel, fixed[i][1]);
	}
	for (int ch = 1; ch <= 3; ch++) {
		int rail = addr == 0x40 ? ch - 1 : (ch == 2 ? SIM_RAIL_VDDQ : -1);
		snprintf(rel, sizeof rel, "%s/shunt%d_resistor", hwd, ch);
		sim_tree_put(b, rel, "2000\n");
		/* crit/max limits: the largest the register holds (163.8 mV over
		 * 2 mOhm); placeholder, the real DT limits are not published */
		static const char *const lim[] = { "crit", "max" };
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/curr%d_%s", hwd, ch, lim[k]);
			sim_tree_put(b, rel, "81900\n");
			snprintf(rel, sizeof rel, "%s/curr%d_%s_alarm", hwd, ch, lim[k]);
			sim_tree_put(b, rel, "0\n");
		}
		snprintf(rel, sizeof rel, "%s/in%d_enable", hwd, ch);
		sim_tree_put(b, rel, rail >= 0 || !jp6 ? "1\n" : "0\n");
		if (rail < 0) {
			/* JP6: a disabled channel has no label and its inputs fail
			 * with ENODATA (sim_tree_add_own_faults); JP5 labels it NC
			 * and reads 0. */
			if (!jp6) {
				snprintf(rel, sizeof rel, "%s/in%d_label", hwd, ch);
				sim_tree_put(b, rel, "NC\n");
			}
			snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch);
			sim_tree_put(b, rel, "0\n");
			snprintf(rel, sizeof rel, "%s/curr%d_input", hwd, ch);
			sim_tree_put(b, rel, "0\n");
			snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch + 3);
			sim_tree_put(b, rel, "0\n");
			continue;
		}
		snprintf(rel, sizeof rel, "%s/in%d_label", hwd, ch);
		sim_tree_putf(b, rel, "%s\n", rail_label[rail]);
		struct sim_chan *c = &s->chan[s->n_chan++];
		c->rail = rail;
		bool hv = rail == SIM_RAIL_GPU_SOC || rail == SIM_RAIL_CPU_CV;
		c->nominal_mv = hv ? 19904.0 : 4992.0;
		c->droop_mv_per_a = hv ? 25.0 : 40.0;
		snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch);
		sim_tree_open_live(b, &c->in, rel, hv ? "19904\n" : "4992\n");
		snprintf(rel, sizeof rel, "%s/curr%d_input", hwd, ch);
		sim_tree_open_live(b, &c->curr, rel, "0\n");
		snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch + 3);
		sim_tree_open_live(b, &c->shunt, rel, "0\n");
	}
	snprintf(rel, sizeof rel, "%s/in7_input", hwd);
	sim_tree_open_live(b, addr == 0x40 ? &s->f_sum40 : &s->f_sum41, rel, "0\n");
}

void sim_tree_board_cpu(struct tb *b)
{
	struct sim *s = b->s;
	char rel[320], tgt[64];
	const char *c = "sys/devices/system/cpu";
	static const char *const top[] = { "online", "present", "possible" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof rel, "%s/%s", c, top[i]);
		sim_tree_put(b, rel, "0-11\n");
	}
	for (int n = 0; n < SIM_N_CPUS; n++) {
		snprintf(rel, sizeof rel, "%s/cpu%d/online", c, n);
		sim_tree_put(b, rel, "1\n");
		snprintf(rel, sizeof rel, "%s/cpu%d/cpufreq", c, n);
		snprintf(tgt, sizeof tgt, "../cpufreq/policy%d", n / 4 * 4);
		sim_tree_link(b, rel, tgt);
		static const char *const idle[][2] = { { "state0", "WFI\n" }, { "state1", "c7\n" } };
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/cpu%d/cpuidle/%s/name", c, n, idle[k][0]);
			sim_tree_put(b, rel, idle[k][1]);
			snprintf(rel, sizeof rel, "%s/cpu%d/cpuidle/%s/disable", c, n, idle[k][0]);
			sim_tree_put(b, rel, "0\n");
		}
	}
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		char pol[96], cpus[32];
		snprintf(pol, sizeof pol, "%s/cpufreq/policy%d", c, p * 4);
		snprintf(cpus, sizeof cpus, "%d %d %d %d\n", p * 4, p * 4 + 1, p * 4 + 2, p * 4 + 3);
		const char *const files[][2] = {
			{ "affected_cpus", cpus }, { "related_cpus", cpus },
			{ "cpuinfo_min_freq", "115200\n" }, { "cpuinfo_max_freq", "2201600\n" },
			{ "scaling_min_freq", "729600\n" }, { "scaling_max_freq", "2201600\n" },
			{ "scaling_governor", "schedutil\n" },
			{ "scaling_available_governors", "conservative ondemand userspace powersave performance schedutil\n" },
		};
		for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
			snprintf(rel, sizeof rel, "%s/%s", pol, files[k][0]);
			sim_tree_put(b, rel, files[k][1]);
		}
		snprintf(rel, sizeof rel, "%s/scaling_available_frequencies", pol);
		sim_tree_putf(b, rel, "%s\n", cpu_freqs_khz);
		snprintf(rel, sizeof rel, "%s/scaling_cur_freq", pol);
		sim_tree_open_live(b, &s->f_cpu_cur[p], rel, "729600\n");
		snprintf(rel, sizeof rel, "%s/cpuinfo_cur_freq", pol);
		sim_tree_open_live(b, &s->f_cpuinfo_cur[p], rel, "729600\n");
		if (!b->err)
			fchmod(s->f_cpuinfo_cur[p].fd, 0400);
	}
}

void sim_tree_board_thermal(struct tb *b, bool jp6)
{
	struct sim *s = b->s;
	static const struct { const char *jp6, *jp5; int kind; } zones6[] = {
		{ "cpu-thermal", "CPU-therm", ZK_CPU }, { "gpu-thermal", "GPU-therm", ZK_GPU },
		{ "cv0-thermal", "CV0-therm", ZK_CV }, { "cv1-thermal", "CV1-therm", ZK_CV },
		{ "cv2-thermal", "CV2-therm", ZK_CV }, { "soc0-thermal", "SOC0-therm", ZK_SOC0 },
		{ "soc1-thermal", "SOC1-therm", ZK_SOC1 }, { "soc2-thermal", "SOC2-therm", ZK_SOC2 },
		{ NULL, "Tboard_tegra", ZK_BOARD }, { NULL, "Tdiode_tegra", ZK_DIODE },
		{ "tj-thermal", "tj-therm", ZK_TJ },
	};
	char rel[320], tgt[160];
	int n = 0;
	for (size_t i = 0; i < sizeof zones6 / sizeof zones6[0]; i++) {
		const char *name = jp6 ? zones6[i].jp6 : zones6[i].jp5;
		if (!name)
			continue;
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/type", n);
		sim_tree_putf(b, rel, "%s\n", name);
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/mode", n);
		sim_tree_put(b, rel, "enabled\n");
		snprintf(rel, sizeof rel, "sys/class/thermal/thermal_zone%d", n);
		snprintf(tgt, sizeof tgt, "../../devices/virtual/thermal/thermal_zone%d", n);
		sim_tree_link(b, rel, tgt);
		s->zone_kind[n] = zones6[i].kind;
		/* CV (DLA/PVA) sensors are off while those engines are idle */
		s->zone_offline[n] = zones6[i].kind == ZK_CV;
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/temp", n);
		sim_tree_open_live(b, &s->f_zone[n], rel, s->zone_offline[n] ? (jp6 ? "0\n" : "-256000\n") : "45000\n");
		n++;
	}
	s->n_zones = n;
}

void sim_tree_board_fan(struct tb *b)
{
	struct sim *s = b->s;
	char rel[320], tgt[200];
	snprintf(rel, sizeof rel, "sys/devices/platform/pwm-fan/hwmon/hwmon%d/name", s->hw_fan);
	sim_tree_put(b, rel, "pwmfan\n");
	snprintf(rel, sizeof rel, "sys/devices/platform/pwm-fan/hwmon/hwmon%d/pwm1", s->hw_fan);
	sim_tree_open_live(b, &s->f_pwm, rel, "69\n");
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", s->hw_fan);
	snprintf(tgt, sizeof tgt, "../../devices/platform/pwm-fan/hwmon/hwmon%d", s->hw_fan);
	sim_tree_link(b, rel, tgt);
	/* The tachometer's hwmon name is not verified (reference 4.4). */
	snprintf(rel, sizeof rel, "sys/devices/platform/39c0000.tachometer/hwmon/hwmon%d/name", s->hw_tach);
	sim_tree_put(b, rel, "pwm_tach\n");
	snprintf(rel, sizeof rel, "sys/devices/platform/39c0000.tachometer/hwmon/hwmon%d/rpm", s->hw_tach);
	sim_tree_open_live(b, &s->f_rpm, rel, "1850\n");
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", s->hw_tach);
	snprintf(tgt, sizeof tgt, "../../devices/platform/39c0000.tachometer/hwmon/hwmon%d", s->hw_tach);
	sim_tree_link(b, rel, tgt);
}

void sim_tree_board_emc(struct tb *b, bool jp6)
{
	if (jp6) {
		sim_tree_put(b, "sys/kernel/nvpmodel_clk_cap/emc", "3199000000\n");
	} else {
		sim_tree_put(b, "sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "3199000000\n");
		sim_tree_open_live(b, &b->s->f_mc_all, "sys/kernel/actmon_avg_activity/mc_all", "0\n");
	}
	/* JP6 has no actmon_avg_activity (jtop #484); the debugfs copy jtop
	 * reads first is assumed there (reference 4.2: unverified per release) */
	if (jp6)
		sim_tree_open_live(b, &b->s->f_mc_all, "sys/kernel/debug/cactmon/mc_all", "0\n");
	sim_tree_open_live(b, &b->s->f_emc_rate, "sys/kernel/debug/bpmp/debug/clk/emc/rate", "2133000000\n");
	/* memory: /proc/meminfo and nvmap's process tables (sim_mem.c) */
	sim_tree_open_live(b, &b->s->f_meminfo, "proc/meminfo", "");
	sim_tree_open_live(b, &b->s->f_nvmap, "sys/kernel/debug/nvmap/iovmm/clients", "");
	sim_tree_open_live(b, &b->s->f_nvmap_maps, "sys/kernel/debug/nvmap/iovmm/maps", "");
	sim_tree_put(b, "sys/kernel/debug/bpmp/debug/clk/emc/max_rate", "3199000000\n");
	sim_tree_put(b, "sys/kernel/debug/bpmp/debug/clk/emc/min_rate", "204000000\n");
	sim_tree_put(b, "sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked", "0\n");
}
