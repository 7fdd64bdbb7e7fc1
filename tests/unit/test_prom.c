/* Prometheus exposition: a checker of the text format's rules (so the test
 * runs without promtool), the metrics' values in base units, n/a left out,
 * label escaping, the textfile written atomically, --prom-listen parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "timebase.h"
#include "prom.h"

/* ---- a checker of the text exposition format (version 0.0.4) ----------------
 * Rules from the format's description: a line is a `# HELP name text`, a
 * `# TYPE name type`, another comment, or a sample `name{labels} value
 * [timestamp]`; names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names
 * [a-zA-Z_][a-zA-Z0-9_]* and not __*; label values are quoted with only \\,
 * \" and \n escaped; a family's TYPE comes before its samples, once; one
 * family's samples are together; no series twice.  Conventions we hold
 * ourselves to as well: counters end in _total and nothing else does, every
 * family has HELP, no timestamps (the textfile collector refuses them), a
 * `board` label on every series but dvfstop_info's own. */

enum { MAXF = 64, MAXS = 256 };

struct checker {
	char fam[MAXF][96];
	char type[MAXF][16];
	bool help[MAXF];
	int n_fam;
	int cur;                 /* family whose samples are being read, -1 none */
	bool closed[MAXF];
	char series[MAXS][256];
	int n_series;
	char err[256];
};

static bool name_ok(const char *s, size_t n, bool metric)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool ok = isalpha((unsigned char)c) || c == '_' || (metric && c == ':') ||
			  (i > 0 && isdigit((unsigned char)c));
		if (!ok)
			return false;
	}
	return metric || !(n >= 2 && s[0] == '_' && s[1] == '_');
}

static int fam_find(struct checker *k, const char *name, size_t n)
{
	for (int i = 0; i < k->n_fam; i++)
		if (strlen(k->fam[i]) == n && strncmp(k->fam[i], name, n) == 0)
			return i;
	return -1;
}

static bool value_ok(const char *v)
{
	if (!strcmp(v, "NaN") || !strcmp(v, "+Inf") || !strcmp(v, "-Inf"))
		return true;
	char *end;
	strtod(v, &end);
	return end != v && *end == '\0';
}

static bool reject(struct checker *k, int line, const char *why)
{
	snprintf(k->err, sizeof k->err, "line %d: %s", line, why);
	return false;
}

static bool check_comment(struct checker *k, int ln, const char *l)
{
	bool help = strncmp(l, "# HELP ", 7) == 0, type = strncmp(l, "# TYPE ", 7) == 0;
	if (!help && !type)
		return true;   /* a plain comment */
	const char *name = l + 7;
	size_t n = strcspn(name, " ");
	if (!name_ok(name, n, true) || name[n] != ' ')
		return reject(k, ln, "bad name in HELP/TYPE");
	int f = fam_find(k, name, n);
	if (f < 0) {
		if (k->n_fam == MAXF)
			return reject(k, ln, "too many families");
		f = k->n_fam++;
		memcpy(k->fam[f], name, n);
		k->fam[f][n] = '\0';
	}
	if (k->closed[f] || (k->cur >= 0 && k->cur == f))
		return reject(k, ln, "HELP/TYPE after the family's samples");
	if (help) {
		if (k->help[f])
			return reject(k, ln, "second HELP");
		k->help[f] = true;
		if (!name[n + 1])
			return reject(k, ln, "empty HELP");
		return true;
	}
	if (k->type[f][0])
		return reject(k, ln, "second TYPE");
	const char *t = name + n + 1;
	if (strcmp(t, "counter") && strcmp(t, "gauge") && strcmp(t, "histogram") &&
	    strcmp(t, "summary") && strcmp(t, "untyped"))
		return reject(k, ln, "unknown TYPE");
	snprintf(k->type[f], sizeof k->type[f], "%s", t);
	size_t len = strlen(k->fam[f]);
	bool total = len > 6 && strcmp(k->fam[f] + len - 6, "_total") == 0;
	if ((strcmp(t, "counter") == 0) != total)
		return reject(k, ln, "counters, and only counters, end in _total");
	return true;
}

static bool check_sample(struct checker *k, int ln, const char *l)
{
	size_t n = strcspn(l, "{ ");
	if (!name_ok(l, n, true))
		return reject(k, ln, "bad metric name");
	int f = fam_find(k, l, n);
	if (f < 0 || !k->type[f][0])
		return reject(k, ln, "sample without TYPE");
	if (!k->help[f])
		return reject(k, ln, "family without HELP");
	if (k->closed[f])
		return reject(k, ln, "family's samples are not together");
	if (k->cur >= 0 && k->cur != f)
		k->closed[k->cur] = true;
	k->cur = f;
	const char *p = l + n;
	char key[256];
	snprintf(key, sizeof key, "%.*s", (int)n, l);
	char lnames[16][64];
	int n_l = 0;
	bool board = false;
	if (*p == '{') {
		p++;
		while (*p != '}') {
			size_t m = strcspn(p, "=");
			if (!name_ok(p, m, false) || p[m] != '=' || p[m + 1] != '"')
				return reject(k, ln, "bad label name");
			if (n_l == 16 || m >= 64)
				return reject(k, ln, "too many labels");
			for (int i = 0; i < n_l; i++)
				if (strlen(lnames[i]) == m && !strncmp(lnames[i], p, m))
					return reject(k, ln, "label twice");
			memcpy(lnames[n_l], p, m);
			lnames[n_l][m] = '\0';
			board = board || (m == 5 && !strncmp(p, "board", 5));
			n_l++;
			size_t kl = strlen(key);
			snprintf(key + kl, sizeof key - kl, "|%.*s", (int)m, p);
			p += m + 2;
			while (*p != '"') {
				if (!*p || *p == '\n')
					return reject(k, ln, "unterminated label value");
				if (*p == '\\') {
					if (p[1] != '\\' && p[1] != '"' && p[1] != 'n')
						return reject(k, ln, "bad escape in label value");
					p++;
				}
				kl = strlen(key);
				if (kl + 1 < sizeof key) {
					key[kl] = *p;
					key[kl + 1] = '\0';
				}
				p++;
			}
			p++;
			if (*p == ',')
				p++;
			else if (*p != '}')
				return reject(k, ln, "expected , or } after a label");
		}
		p++;
	}
	if (*p != ' ')
		return reject(k, ln, "no space before the value");
	p++;
	char val[64];
	size_t vl = strcspn(p, " ");
	if (vl == 0 || vl >= sizeof val)
		return reject(k, ln, "no value");
	memcpy(val, p, vl);
	val[vl] = '\0';
	if (!value_ok(val))
		return reject(k, ln, "value is not a float");
	if (p[vl])
		return reject(k, ln, "a timestamp (the textfile collector refuses them)");
	if (!board && strcmp(k->fam[f], "dvfstop_info") != 0)
		return reject(k, ln, "series without a board label");
	for (int i = 0; i < k->n_series; i++)
		if (!strcmp(k->series[i], key))
			return reject(k, ln, "series twice");
	if (k->n_series < MAXS)
		snprintf(k->series[k->n_series++], sizeof k->series[0], "%s", key);
	return true;
}

/* Check a whole exposition; on failure k->err says where and why. */
static bool expo_check(struct checker *k, const char *text)
{
	memset(k, 0, sizeof *k);
	k->cur = -1;
	size_t len = strlen(text);
	if (len == 0 || text[len - 1] != '\n')
		return reject(k, 0, "does not end with a line feed");
	int ln = 0;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		char line[1024];
		size_t n = (size_t)(e - l);
		if (n >= sizeof line)
			return reject(k, ln + 1, "line too long");
		memcpy(line, l, n);
		line[n] = '\0';
		ln++;
		bool ok = true;
		if (line[0] == '#')
			ok = check_comment(k, ln, line);
		else if (line[0])
			ok = check_sample(k, ln, line);
		if (!ok)
			return false;
		l = e + 1;
	}
	return true;
}

/* The checker must itself catch what it claims to catch. */
static void checker_rejects_bad_text(void **st)
{
	(void)st;
	struct checker k;
	static const char *const bad[] = {
		"x{board=\"a\"} 1\n",                                               /* no TYPE */
		"# HELP x h\n# TYPE x gauge\nx{board=\"a\"} 1",                     /* no final LF */
		"# HELP x h\n# TYPE x gauge\nx{board=\"a\"} one\n",                 /* value */
		"# HELP x h\n# TYPE x gauge\nx{board=\"a\\t\"} 1\n",                /* escape */
		"# HELP x h\n# TYPE x gauge\nx{board=\"a\"} 1\nx{board=\"a\"} 2\n", /* twice */
		"# HELP x_total h\n# TYPE x_total gauge\nx_total{board=\"a\"} 1\n", /* _total gauge */
		"# HELP x h\n# TYPE x counter\nx{board=\"a\"} 1\n",                 /* counter w/o _total */
		"# HELP x h\n# TYPE x gauge\nx{board=\"a\"} 1 1700000000\n",        /* timestamp */
		"# HELP x h\n# TYPE x gauge\n# HELP y h\n# TYPE y gauge\nx{board=\"a\"} 1\ny{board=\"a\"} 1\nx{board=\"b\"} 1\n",
		"# HELP 1x h\n# TYPE 1x gauge\n",                                   /* name */
		"# HELP x h\n# TYPE x gauge\nx{__b=\"a\",board=\"a\"} 1\n",          /* reserved label */
		"# HELP x h\n# TYPE x gauge\nx 1\n",                                /* no board */
		"# HELP x h\n# TYPE x gauge\n# TYPE x gauge\n",                     /* TYPE twice */
		"# TYPE x gauge\nx{board=\"a\"} 1\n",                               /* no HELP */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (expo_check(&k, bad[i]))
			fail_msg("checker accepted bad text %zu", i);
	}
	assert_true(expo_check(&k, "# HELP x h\n# TYPE x gauge\nx{board=\"a\\\"b\\\\\",z=\"\"} -1.5e3\n# a comment\n\n"));
}

/* ---- the exporter's text ------------------------------------------------------ */

static struct dvf_info orin_info(void)
{
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	snprintf(in.source, sizeof in.source, "jetson");
	snprintf(in.mode, sizeof in.mode, "live");
	snprintf(in.board_name, sizeof in.board_name, "NVIDIA Jetson AGX Orin Developer Kit");
	snprintf(in.l4t, sizeof in.l4t, "R36.4.4");
	snprintf(in.power_mode, sizeof in.power_mode, "MAXN");
	in.n_rails = 3;
	snprintf(in.rail_name[0], DVF_NAME_LEN, "VDD_GPU_SOC");
	snprintf(in.rail_name[1], DVF_NAME_LEN, "VDD_CPU_CV");
	snprintf(in.rail_name[2], DVF_NAME_LEN, "VIN_SYS_5V0");
	in.n_clusters = 2;
	snprintf(in.cluster_name[0], DVF_NAME_LEN, "policy0");
	snprintf(in.cluster_name[1], DVF_NAME_LEN, "policy4");
	in.n_zones = 2;
	snprintf(in.zone_name[0], DVF_NAME_LEN, "tj-thermal");
	snprintf(in.zone_name[1], DVF_NAME_LEN, "cv0-thermal");
	return in;
}

static struct dvf_sample loaded(void)
{
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	s.gpu_freq_hz = dvf_m_val(1300500000);
	s.gpu_min_hz = dvf_m_val(306000000);
	s.gpu_max_hz = dvf_m_val(1300500000);
	s.gpu_load_pm = dvf_m_val(970);
	snprintf(s.gpu_governor, sizeof s.gpu_governor, "nvhost_podgov");
	s.rail[0].mw = dvf_m_val(24812);
	s.rail[0].mv = dvf_m_val(19904);
	s.rail[0].ma = dvf_m_val(1247);
	s.rail[1].mw = dvf_m_val(5120);
	s.rail[2].mw = dvf_m_na();   /* a channel that did not read */
	s.total_mw = dvf_m_na();     /* so the total is n/a too */
	s.cpu_khz[0] = dvf_m_val(2201600);
	s.cpu_khz[1] = dvf_m_na();
	s.cpu_util_pm = dvf_m_val(125);
	s.temp_mc[0] = dvf_m_val(63000);
	s.temp_mc[1] = dvf_m_na();   /* an offline zone */
	s.steps = dvf_m_val(1200);
	return s;
}

static char *render(const struct prom_view *v)
{
	size_t len = 0;
	char *t = prom_render(v, &len);
	assert_non_null(t);
	assert_int_equal(len, strlen(t));
	struct checker k;
	if (!expo_check(&k, t))
		fail_msg("exposition rejected: %s\n%s", k.err, t);
	return t;
}

static void has(const char *text, const char *line)
{
	char want[512];
	snprintf(want, sizeof want, "\n%s\n", line);
	if (!strstr(text, want))
		fail_msg("missing line: %s\n---\n%s", line, text);
}

static void lacks(const char *text, const char *frag)
{
	if (strstr(text, frag))
		fail_msg("unexpected: %s\n---\n%s", frag, text);
}

#define B "board=\"NVIDIA Jetson AGX Orin Developer Kit\""

static void metrics_in_base_units(void **st)
{
	(void)st;
	struct dvf_info in = orin_info();
	struct dvf_sample s = loaded();
	struct energy e;
	energy_init(&e, 5 * DVF_NS_PER_S);
	/* 24.812 W for 2 s on the GPU rail: 49.624 J. */
	struct dvf_sample a = s;
	a.t_ns = 0;
	energy_add(&e, &a);
	a.t_ns = 2 * DVF_NS_PER_S;
	energy_add(&e, &a);
	struct prom_view v = { .info = &in, .cur = &s, .energy = &e, .n_samples = 21 };
	char *t = render(&v);
	has(t, "dvfstop_info{" B ",l4t=\"R36.4.4\",power_mode=\"MAXN\",source=\"jetson\",mode=\"live\",version=\"" PACKAGE_VERSION "\"} 1");
	has(t, "dvfstop_samples_total{" B "} 21");
	has(t, "dvfstop_gpu_frequency_hertz{" B "} 1300500000");
	has(t, "dvfstop_gpu_min_frequency_hertz{" B "} 306000000");
	has(t, "dvfstop_gpu_max_frequency_hertz{" B "} 1300500000");
	has(t, "dvfstop_gpu_utilization_ratio{" B "} 0.97");
	has(t, "dvfstop_gpu_governor_info{" B ",governor=\"nvhost_podgov\"} 1");
	has(t, "dvfstop_rail_power_watts{" B ",rail=\"VDD_GPU_SOC\"} 24.812");
	has(t, "dvfstop_rail_power_watts{" B ",rail=\"VDD_CPU_CV\"} 5.12");
	has(t, "dvfstop_rail_voltage_volts{" B ",rail=\"VDD_GPU_SOC\"} 19.904");
	has(t, "dvfstop_rail_current_amperes{" B ",rail=\"VDD_GPU_SOC\"} 1.247");
	has(t, "dvfstop_rail_energy_joules_total{" B ",rail=\"VDD_GPU_SOC\"} 49.624");
	has(t, "dvfstop_rail_energy_joules_total{" B ",rail=\"VDD_CPU_CV\"} 10.24");
	has(t, "dvfstop_cpu_utilization_ratio{" B "} 0.125");
	has(t, "dvfstop_cpu_frequency_hertz{" B ",policy=\"policy0\"} 2201600000");
	has(t, "dvfstop_temperature_celsius{" B ",zone=\"tj-thermal\"} 63");
	has(t, "dvfstop_training_steps_total{" B "} 1200");
	has(t, "# TYPE dvfstop_rail_energy_joules_total counter");
	has(t, "# TYPE dvfstop_gpu_frequency_hertz gauge");
	/* n/a is left out, not 0: the rail, the zone, the policy, and the
	 * total families with no series at all. */
	lacks(t, "VIN_SYS_5V0");
	lacks(t, "cv0-thermal");
	lacks(t, "policy4");
	lacks(t, "dvfstop_power_watts");
	lacks(t, "dvfstop_energy_joules_total");
	lacks(t, "dvfstop_training_tokens_total");
	free(t);
}

static void before_first_sample_and_escaping(void **st)
{
	(void)st;
	struct dvf_info in = orin_info();
	snprintf(in.board_name, sizeof in.board_name, "Odd \"board\" \\ name\nline2");
	in.l4t[0] = '\0';
	struct prom_view v = { .info = &in, .cur = NULL, .energy = NULL, .n_samples = 0 };
	char *t = render(&v);
	has(t, "dvfstop_samples_total{board=\"Odd \\\"board\\\" \\\\ name\\nline2\"} 0");
	lacks(t, "hertz");
	free(t);
	/* Issue 31: a terminal escape, a C1 control, invalid UTF-8 (from a
	 * tree's model file or a recording): '?', never the raw bytes. */
	snprintf(in.board_name, sizeof in.board_name, "Orin\033]2;PWNED\007 \xc2\x9b" "1m\xff \xc3\xa9");
	snprintf(in.rail_name[0], DVF_NAME_LEN, "VDD_\033[2JGPU");
	t = render(&v);
	has(t, "dvfstop_samples_total{board=\"Orin?]2;PWNED? ?1m? \xc3\xa9\"} 0");
	lacks(t, "\033");
	lacks(t, "\007");
	free(t);
	struct dvf_sample smp = loaded();
	v.cur = &smp;
	t = render(&v);
	assert_non_null(strstr(t, ",rail=\"VDD_?[2JGPU\"}"));
	lacks(t, "\033");
	free(t);
	v.cur = NULL;
	in.board_name[0] = '\0';
	t = render(&v);
	has(t, "dvfstop_samples_total{board=\"unknown\"} 0");
	free(t);
}

static void total_and_energy_when_valid(void **st)
{
	(void)st;
	struct dvf_info in = orin_info();
	struct dvf_sample s = loaded();
	s.rail[2].mw = dvf_m_val(6320);
	s.total_mw = dvf_m_val(36252);
	s.tokens = dvf_m_val(2457600);
	struct energy e;
	energy_init(&e, DVF_NS_PER_S);
	for (int i = 0; i <= 10; i++) {
		s.t_ns = i * 100 * DVF_NS_PER_MS;
		energy_add(&e, &s);
	}
	struct prom_view v = { .info = &in, .cur = &s, .energy = &e, .n_samples = 11 };
	char *t = render(&v);
	has(t, "dvfstop_power_watts{" B "} 36.252");
	has(t, "dvfstop_energy_joules_total{" B "} 36.252");
	has(t, "dvfstop_training_tokens_total{" B "} 2457600");
	has(t, "dvfstop_rail_power_watts{" B ",rail=\"VIN_SYS_5V0\"} 6.32");
	free(t);
}

/* The fleet's labels and gauges: run_id and job_name on every series
 * (job_name only while a fine-tune is followed, never the label `job`,
 * which Prometheus owns), the clock dvfstop holds set, the recommendation,
 * whether the fine-tune runs, its J/step; each absent while it has no
 * value. */
static void fleet_labels_and_gauges(void **st)
{
	(void)st;
	struct dvf_info in = orin_info();
	struct dvf_sample s = loaded();
	struct energy e;
	energy_init(&e, DVF_NS_PER_S);
	energy_add(&e, &s);
	struct prom_view v = { .info = &in, .cur = &s, .energy = &e, .n_samples = 7 };
	v.run_id = "20261205T083000Z-4242";
	v.job_name = "python3 train.py --tag \"a\"";
	v.job_followed = true;
	v.job_running = true;
	v.jps_ok = true;
	v.j_per_step = 12.5;
	v.recommended_hz = dvf_m_val(816000000);
	v.ctl_mode = "pin";
	v.ctl_by = "policy";
	v.ctl_hz = 714000000;
	char *t = render(&v);
#define R B ",run_id=\"20261205T083000Z-4242\",job_name=\"python3 train.py --tag \\\"a\\\"\""
	has(t, "dvfstop_info{" R ",l4t=\"R36.4.4\",power_mode=\"MAXN\",source=\"jetson\",mode=\"live\",version=\"" PACKAGE_VERSION "\"} 1");
	has(t, "dvfstop_samples_total{" R "} 7");
	has(t, "dvfstop_gpu_frequency_hertz{" R "} 1300500000");
	has(t, "dvfstop_rail_power_watts{" R ",rail=\"VDD_GPU_SOC\"} 24.812");
	has(t, "dvfstop_gpu_clock_set_hertz{" R ",mode=\"pin\",by=\"policy\"} 714000000");
	has(t, "# TYPE dvfstop_gpu_clock_set_hertz gauge");
	has(t, "dvfstop_gpu_recommended_frequency_hertz{" R "} 816000000");
	has(t, "# TYPE dvfstop_gpu_recommended_frequency_hertz gauge");
	has(t, "dvfstop_training_running{" R "} 1");
	has(t, "dvfstop_training_energy_per_step_joules{" R "} 12.5");
	has(t, "# TYPE dvfstop_training_energy_per_step_joules gauge");
	lacks(t, ",job=");
	lacks(t, "{job=");
	free(t);

	/* The fine-tune ended: 0, its J/step stays; a cap by the user. */
	v.job_running = false;
	v.ctl_mode = "cap";
	v.ctl_by = "user";
	t = render(&v);
	has(t, "dvfstop_training_running{" R "} 0");
	has(t, "dvfstop_training_energy_per_step_joules{" R "} 12.5");
	has(t, "dvfstop_gpu_clock_set_hertz{" R ",mode=\"cap\",by=\"user\"} 714000000");
	free(t);

	/* Nothing followed, nothing recommended, the clock as found, no J/step:
	 * the families are left out, job_name too (run_id stays). */
	v.job_followed = false;
	v.jps_ok = false;
	v.recommended_hz = dvf_m_na();
	v.ctl_mode = NULL;
	t = render(&v);
	has(t, "dvfstop_samples_total{" B ",run_id=\"20261205T083000Z-4242\"} 7");
	lacks(t, "job_name");
	lacks(t, "dvfstop_training_running");
	lacks(t, "dvfstop_training_energy_per_step_joules");
	lacks(t, "dvfstop_gpu_recommended_frequency_hertz");
	lacks(t, "dvfstop_gpu_clock_set_hertz");
	free(t);
#undef R
}

/* ---- the textfile -------------------------------------------------------------- */

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return strdup(buf);
}

static int files_in(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void textfile_atomic(void **st)
{
	(void)st;
	char dir[] = "/tmp/dvf-prom-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/dvfstop.prom", dir);
	struct dvf_info in = orin_info();
	struct prom_view v0 = { .info = &in, .cur = NULL, .energy = NULL, .n_samples = 0 };
	char err[256];
	struct prom *p = prom_open(path, NULL, &v0, err, sizeof err);
	assert_non_null(p);
	assert_null(prom_address(p));
	/* Written at open; only the file itself is left (no temporary). */
	char *t = slurp(path);
	assert_non_null(t);
	assert_non_null(strstr(t, "dvfstop_samples_total{" B "} 0"));
	free(t);
	assert_int_equal(files_in(dir), 1);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);

	/* Within the second: not rewritten.  At close: the last values. */
	struct dvf_sample s = loaded();
	struct prom_view v1 = { .info = &in, .cur = &s, .energy = NULL, .n_samples = 1 };
	assert_null(prom_update(p, &v1));
	t = slurp(path);
	assert_null(strstr(t, "hertz"));
	free(t);
	prom_close(p);
	t = slurp(path);
	assert_non_null(strstr(t, "dvfstop_gpu_frequency_hertz{" B "} 1300500000"));
	free(t);
	assert_int_equal(files_in(dir), 1);
	unlink(path);

	/* A folder that is not there fails at open, naming the path. */
	char bad[160];
	snprintf(bad, sizeof bad, "%s/missing/dvfstop.prom", dir);
	assert_null(prom_open(bad, NULL, &v0, err, sizeof err));
	assert_non_null(strstr(err, bad));
	rmdir(dir);
}

/* ---- --prom-listen ----------------------------------------------------------------- */

static void listen_spec(void **st)
{
	(void)st;
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[256];
	char host[64];
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

	assert_int_equal(prom_parse_listen(":9101", &ss, &sl, err, sizeof err), 0);
	assert_int_equal(ss.ss_family, AF_INET);
	inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
	assert_string_equal(host, "127.0.0.1");   /* no address: loopback */
	assert_int_equal(ntohs(s4->sin_port), 9101);

	assert_int_equal(prom_parse_listen("9102", &ss, &sl, err, sizeof err), 0);
	inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
	assert_string_equal(host, "127.0.0.1");

	assert_int_equal(prom_parse_listen("0.0.0.0:9100", &ss, &sl, err, sizeof err), 0);
	inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
	assert_string_equal(host, "0.0.0.0");      /* given explicitly: allowed */

	assert_int_equal(prom_parse_listen("localhost:80", &ss, &sl, err, sizeof err), 0);
	inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
	assert_string_equal(host, "127.0.0.1");

	assert_int_equal(prom_parse_listen("[::1]:9101", &ss, &sl, err, sizeof err), 0);
	assert_int_equal(ss.ss_family, AF_INET6);

	static const char *const bad[] = { "", ":", "x:1", "example.com:9100", ":65536", ":-1", ":12ab", "[::1]9101", "1.2.3:9" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		if (prom_parse_listen(bad[i], &ss, &sl, err, sizeof err) == 0)
			fail_msg("accepted '%s'", bad[i]);
		assert_non_null(strstr(err, "--prom-listen"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checker_rejects_bad_text),
		cmocka_unit_test(metrics_in_base_units),
		cmocka_unit_test(before_first_sample_and_escaping),
		cmocka_unit_test(total_and_energy_when_valid),
		cmocka_unit_test(fleet_labels_and_gauges),
		cmocka_unit_test(textfile_atomic),
		cmocka_unit_test(listen_spec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
