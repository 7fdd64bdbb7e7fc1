/* sim_out: what the simulated tree shows after each advance: the clock,
 * load and governor files, the rails, the fan, the EMC, /proc/stat. */
#include "config.h"
#include "sim_priv.h"
#include "io.h"
#include "timebase.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sim_out_stat(struct sim *s)
{
	bool changed = false;
	uint64_t v[SIM_N_CPUS][2];
	for (int c = 0; c < SIM_N_CPUS; c++)
		for (int k = 0; k < 2; k++) {
			v[c][k] = (uint64_t)s->jiffies[c][k];
			changed |= v[c][k] != s->stat_written[c][k];
			s->stat_written[c][k] = v[c][k];
		}
	if (!changed && s->f_stat.len)
		return;
	char buf[4096];
	size_t n = 0;
	uint64_t tu = 0, ts = 0, ti = 0;
	for (int c = 0; c < SIM_N_CPUS; c++) {
		/* busy time is 85% user, 15% system */
		tu += v[c][0] * 85 / 100;
		ts += v[c][0] - v[c][0] * 85 / 100;
		ti += v[c][1];
	}
	n += (size_t)snprintf(buf + n, sizeof buf - n, "cpu  %llu 0 %llu %llu 0 0 0 0 0 0\n",
			      (unsigned long long)tu, (unsigned long long)ts, (unsigned long long)ti);
	for (int c = 0; c < SIM_N_CPUS; c++) {
		uint64_t u = v[c][0] * 85 / 100;
		n += (size_t)snprintf(buf + n, sizeof buf - n, "cpu%d %llu 0 %llu %llu 0 0 0 0 0 0\n", c,
				      (unsigned long long)u, (unsigned long long)(v[c][0] - u),
				      (unsigned long long)v[c][1]);
	}
	uint64_t ctxt = (tu + ts) * 120 + ti * 8;
	snprintf(buf + n, sizeof buf - n,
		 "intr %llu\nctxt %llu\nbtime 1735689600\nprocesses %llu\nprocs_running %d\nprocs_blocked 0\n",
		 (unsigned long long)(ctxt * 2), (unsigned long long)ctxt,
		 (unsigned long long)(2000 + ctxt / 5000), sim_training(s) ? 2 : 1);
	sim_file_put(&s->f_stat, buf);
}

static void sim_out_rails(struct sim *s)
{
	double sum40 = 0, sum41 = 0;
	for (int i = 0; i < s->n_chan; i++) {
		struct sim_chan *c = &s->chan[i];
		double p = s->sensor_mw[c->rail];
		double i_a = p / c->nominal_mv;             /* first guess, A */
		/* bus voltage: the supply droops with the current; 8 mV LSB */
		double mv = c->nominal_mv - c->droop_mv_per_a * i_a;
		long long mv_q = llround(mv / 8.0) * 8;
		long long ma = llround(p * 1000.0 / (double)mv_q);
		sim_file_put_i64(&c->in, mv_q);
		sim_file_put_i64(&c->curr, ma);
		sim_file_put_i64(&c->shunt, ma * 2);      /* 2 mOhm shunt: uV = mA x 2 */
		/* VIN_SYS_5V0 has summation disabled (reference 3.1) */
		if (c->rail == SIM_RAIL_VDDQ)
			sum41 += (double)ma * 2;
		else if (c->rail != SIM_RAIL_SYS_5V0)
			sum40 += (double)ma * 2;
	}
	sim_file_put_i64(&s->f_sum40, (int64_t)sum40);
	sim_file_put_i64(&s->f_sum41, (int64_t)sum41);
}

void sim_out_write(struct sim *s)
{
	/* trans_stat: on every transition (governor_tick) and once a second */
	if (s->t_ns - s->trans_written_ns >= DVF_NS_PER_S) {
		s->time_in_ms_ns[sim_devfreq_level_of(s, s->cur_hz)] += s->t_ns - s->last_trans_ns;
		s->last_trans_ns = s->t_ns;
		sim_tree_gpu_trans_stat(s);
		s->trans_written_ns = s->t_ns;
	}
	sim_file_put_i64(&s->f_cur, s->cur_hz);
	sim_file_put_i64(&s->f_target, s->target_hz);
	sim_file_put_i64(&s->f_load, s->load_pm);
	sim_file_put(&s->f_is_rg, s->railgated ? "yes\n" : "no\n");
	sim_out_rails(s);
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		sim_file_put_i64(&s->f_cpu_cur[p], s->cpu_khz[p]);
		sim_file_put_i64(&s->f_cpuinfo_cur[p], s->cpu_khz[p]);
	}
	double tj = 0;
	for (int z = 0; z < s->n_zones; z++) {
		if (s->zone_offline[z])
			continue;
		/* Orin's sensors read in 1/32 degree steps (e.g. 49468) */
		long long mc = llround(s->temp_mc[z] * 32.0 / 1000.0) * 1000 / 32;
		sim_file_put_i64(&s->f_zone[z], mc);
		if (s->temp_mc[z] > tj)
			tj = s->temp_mc[z];
	}
	/* nvfancontrol-like: the fan follows the hottest sensor */
	double pwm = 69.0 + (tj / 1000.0 - 50.0) * 8.0;
	pwm = pwm < 0 ? 0 : pwm > 255 ? 255 : pwm;
	sim_file_put_i64(&s->f_pwm, llround(pwm));
	sim_file_put_i64(&s->f_rpm, llround(pwm * 26.8));
	sim_mem_write(s);
	sim_out_stat(s);
	if (s->progress)
		fflush(s->progress);
}

