/* Replay: the session CSV read back into samples and board info, damaged
 * rows skipped and reported once with their line numbers, and the session
 * controls (seek, pause, speed) keeping energy the same as straight play. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "energy.h"
#include "options.h"
#include "player.h"
#include "replay.h"
#include "session.h"

#define SEEK player_seek
#define FIX DVF_SRCDIR "/tests/fixtures/sessions/"

static int64_t interval_ns(struct source *src)
{
	struct source_timeline tl;
	assert_true(source_replay.timeline(src, &tl));
	return tl.interval_ns;
}

static struct source *open_file(const char *path, char *err, size_t errlen)
{
	struct source_cfg cfg = { .replay_path = path, .interval_ns = 100 * DVF_NS_PER_MS, .mode = "replay" };
	return source_replay.open(&cfg, err, errlen);
}

/* Write text to a fresh file in a private folder; returns its path. */
static char dir[64];
static const char *tmp_file(const char *name, const char *text)
{
	static char path[256];
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/dvf-replay-XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* The fixture: 10 s at 10 Hz; VDD_GPU_SOC ramps 4 -> 6 W (50 J), CPU 2 W
 * (20 J), SYS 4 W (40 J), VDDQ 0.5 W (5 J, not in the total), total 110 J.
 * The trapezoid rule is exact on a ramp, so these are exact. */
static void fixture_plays_with_meta(void **st)
{
	(void)st;
	char err[512] = "";
	struct source *src = open_file(FIX "agx-orin-10s.csv", err, sizeof err);
	assert_non_null(src);
	const struct dvf_info *in = source_replay.info(src);
	assert_string_equal(in->mode, "replay");
	assert_string_equal(in->board_name, "NVIDIA Jetson AGX Orin Developer Kit");
	assert_int_equal(in->board, DVF_BOARD_AGX_ORIN);
	assert_string_equal(in->l4t, "R36.4.4");
	assert_int_equal(in->n_levels, 11);
	assert_int_equal(in->level_hz[10], 1300500000);
	assert_int_equal(in->n_rails, 4);
	assert_string_equal(in->rail_name[0], "VDD_GPU_SOC");
	assert_string_equal(in->rail_name[3], "VDDQ_VDD2_1V8AO");
	assert_true(in->rail_in_total[0]);
	assert_false(in->rail_in_total[3]);
	assert_true(in->total_known);
	assert_int_equal(in->n_clusters, 1);
	assert_string_equal(in->cluster_name[0], "policy0");
	assert_int_equal(in->n_zones, 2);
	assert_string_equal(in->zone_name[0], "tj-thermal");
	assert_string_equal(in->zone_name[1], "gpu-thermal");
	assert_null(source_replay.ctl_read);
	assert_null(source_replay.ctl_write);
	assert_int_equal(interval_ns(src), 100 * DVF_NS_PER_MS);

	struct energy e;
	energy_init(&e, DVF_NS_PER_S);
	struct dvf_sample s;
	int n = 0;
	while (source_replay.sample(src, &s) == 0) {
		assert_int_equal(s.t_ns, (int64_t)n * 100 * DVF_NS_PER_MS);
		assert_int_equal(s.gpu_freq_hz.v, n < 50 ? 612000000 : 816000000);
		assert_int_equal(s.gpu_load_pm.v, 950);
		assert_string_equal(s.gpu_governor, "nvhost_podgov");
		assert_int_equal(s.rail[0].mw.v, 4000 + 20 * n);
		assert_int_equal(s.rail[1].mv.v, 19900);
		assert_int_equal(s.total_mw.v, 10000 + 20 * n);
		assert_int_equal(s.cpu_khz[0].v, 1984000);
		assert_int_equal(s.cpu_util_pm.v, 200);
		assert_int_equal(s.temp_mc[0].v, 50000);
		/* An empty field is n/a, never 0. */
		assert_int_equal(s.temp_mc[1].ok, n != 30);
		assert_int_equal(s.steps.v, n / 10);
		assert_false(s.tokens.ok);
		energy_add(&e, &s);
		n++;
	}
	assert_int_equal(n, 101);
	assert_float_equal(e.ch[0].mj, 50000, 1e-6);
	assert_float_equal(e.ch[1].mj, 20000, 1e-6);
	assert_float_equal(e.ch[2].mj, 40000, 1e-6);
	assert_float_equal(e.ch[3].mj, 5000, 1e-6);
	assert_float_equal(e.ch[ENERGY_TOTAL].mj, 110000, 1e-6);
	struct replay_stats rs;
	replay_get_stats(src, &rs);
	assert_int_equal(rs.rows, 101);
	assert_int_equal(rs.bad_rows, 0);
	assert_true(rs.have_meta);
	source_replay.close(src);
}

/* Without the sidecar: rails all count, levels are the clocks seen, and
 * without a total column the total is the sum of the rails. */
static void no_meta_no_total(void **st)
{
	(void)st;
	const char *p = tmp_file("plain.csv",
		"time_s,gpu_freq_mhz,A_mw,B_mw\n"
		"0.0,816.0,1000,500\n"
		"0.5,612.0,1000,\n"
		"1.0,816.0,3000,1000\n");
	char err[512] = "";
	struct source *src = open_file(p, err, sizeof err);
	assert_non_null(src);
	const struct dvf_info *in = source_replay.info(src);
	assert_int_equal(in->board, DVF_BOARD_UNKNOWN);
	assert_false(in->total_known);
	assert_int_equal(in->n_levels, 2);
	assert_int_equal(in->level_hz[0], 612000000);
	assert_int_equal(in->level_hz[1], 816000000);
	assert_true(in->rail_in_total[0] && in->rail_in_total[1]);
	assert_int_equal(interval_ns(src), 500 * DVF_NS_PER_MS);
	struct dvf_sample s;
	assert_int_equal(source_replay.sample(src, &s), 0);
	assert_int_equal(s.total_mw.v, 1500);
	assert_int_equal(source_replay.sample(src, &s), 0);
	assert_false(s.total_mw.ok);   /* a part is n/a */
	assert_int_equal(source_replay.sample(src, &s), 0);
	assert_int_equal(s.total_mw.v, 4000);
	assert_int_equal(source_replay.sample(src, &s), -1);
	source_replay.close(src);

	/* Values beyond int64 once scaled are n/a, not wrapped numbers, and
	 * are no clock level. */
	p = tmp_file("huge.csv",
		"time_s,gpu_freq_mhz,A_mw\n"
		"0.0,1e300,1e300\n"
		"0.5,816.0,-1e300\n");
	src = open_file(p, err, sizeof err);
	assert_non_null(src);
	in = source_replay.info(src);
	assert_int_equal(in->n_levels, 1);
	assert_int_equal(in->level_hz[0], 816000000);
	assert_int_equal(source_replay.sample(src, &s), 0);
	assert_false(s.gpu_freq_hz.ok);
	assert_false(s.rail[0].mw.ok);
	assert_int_equal(source_replay.sample(src, &s), 0);
	assert_int_equal(s.gpu_freq_hz.v, 816000000);
	assert_false(s.rail[0].mw.ok);
	source_replay.close(src);
}

/* Run f with stderr sent to a file; return what it wrote (static). */
static const char *capture_stderr(void (*f)(void *), void *arg)
{
	static char buf[4096];
	char path[128];
	snprintf(path, sizeof path, "%s/stderr.txt", dir[0] ? dir : "/tmp");
	fflush(stderr);
	int saved = dup(2);
	FILE *fp = fopen(path, "w+");
	assert_non_null(fp);
	dup2(fileno(fp), 2);
	f(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(fp);
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* What the source says after a sample, on stderr as --batch says it. */
static void say_messages(struct source *src)
{
	char buf[512];
	for (int i = 0; i < 100 && source_replay.message(src, buf, sizeof buf) == 1; i++)
		fprintf(stderr, "dvfstop: %s\n", buf);
}

static void play_all(void *arg)
{
	struct source *src = arg;
	struct dvf_sample smp;
	while (source_replay.sample(src, &smp) == 0)
		say_messages(src);
	say_messages(src);
	say_messages(src);   /* again: nothing new */
}

/* A missing field (line 4), a word for a number (6), time going back (8),
 * a truncated last line (10): each skipped and reported once, by line. */
static void damaged_rows_reported_once(void **st)
{
	(void)st;
	tmp_file("x", "");   /* makes the private folder */
	char err[512] = "";
	struct source *src = open_file(FIX "damaged.csv", err, sizeof err);
	assert_non_null(src);
	struct replay_stats rs;
	replay_get_stats(src, &rs);
	assert_int_equal(rs.rows, 5);
	assert_int_equal(rs.bad_rows, 4);

	const char *out = capture_stderr(play_all, src);
	assert_int_equal(count(out, "damaged.csv:4: row skipped: 4 fields, the header has 7"), 1);
	assert_int_equal(count(out, "damaged.csv:6: row skipped: column 3: 'abc' is not a number"), 1);
	assert_int_equal(count(out, "damaged.csv:8: row skipped: time_s 0.450 goes back"), 1);
	assert_int_equal(count(out, "damaged.csv:10: row skipped: truncated"), 1);
	assert_int_equal(count(out, "row skipped"), 4);
	source_replay.close(src);
}

/* In the TUI the report goes to the status line, when playback gets there. */
static void damaged_rows_to_status_line(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	o.replay = FIX "damaged.csv";
	o.sim_speed = 0;
	struct session s;
	char err[512] = "";
	assert_int_equal(session_open(&s, &o, err, sizeof err), 0);
	assert_int_equal(session_sample(&s), 0);   /* line 2 */
	assert_int_equal(session_sample(&s), 0);   /* line 3 */
	assert_string_equal(s.msg, "");
	assert_int_equal(session_sample(&s), 0);   /* line 5, after bad line 4 */
	assert_non_null(strstr(s.msg, "damaged.csv:4: row skipped"));
	s.msg[0] = '\0';
	assert_int_equal(session_sample(&s), 0);   /* line 7, after bad line 6 */
	assert_non_null(strstr(s.msg, "damaged.csv:6:"));
	assert_int_equal(session_sample(&s), 0);   /* line 9, the last good row */
	/* two passed at once: both said, the later last */
	assert_non_null(strstr(s.msg, "damaged.csv:8:"));
	assert_non_null(strstr(s.msg, "; "));
	assert_non_null(strstr(strstr(s.msg, "damaged.csv:8:"), "damaged.csv:10:"));
	s.msg[0] = '\0';
	assert_int_equal(session_sample(&s), -1);
	assert_string_equal(s.msg, "");
	/* 7 W over 0.6 s, the skipped rows bridged. */
	assert_float_equal(s.energy.ch[ENERGY_TOTAL].mj, 4200, 1e-6);
	session_close(&s);
}

static void wrong_header_fails_with_line(void **st)
{
	(void)st;
	char err[512] = "";
	assert_null(open_file(FIX "wrong-header.csv", err, sizeof err));
	assert_non_null(strstr(err, "wrong-header.csv:1:"));
	assert_non_null(strstr(err, "time_s"));

	assert_null(open_file(tmp_file("dup.csv", "time_s,a_mw,a_mw\n0,1,1\n"), err, sizeof err));
	assert_non_null(strstr(err, "dup.csv:1: column 'a_mw' appears twice"));
	assert_null(open_file(tmp_file("empty.csv", ""), err, sizeof err));
	assert_non_null(strstr(err, "empty.csv"));
	assert_null(open_file(tmp_file("hdr.csv", "time_s,a_mw\r\n"), err, sizeof err));
	assert_non_null(strstr(err, "no rows"));
	assert_null(open_file(tmp_file("allbad.csv", "time_s,a_mw\r\nx,1\r\n"), err, sizeof err));
	assert_non_null(strstr(err, "allbad.csv:2:"));
	assert_null(open_file("/nonexistent/x.csv", err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent/x.csv"));
	struct source_cfg cfg = { 0 };
	assert_null(source_replay.open(&cfg, err, sizeof err));
	assert_non_null(strstr(err, "--replay FILE"));
}

/* A quoted field may hold a line break; later line numbers stay right, and
 * unknown columns are ignored. */
static void line_numbers_after_quoted_newline(void **st)
{
	(void)st;
	const char *p = tmp_file("nl.csv",
		"time_s,a_mw,future_column,event\r\n"   /* 1 */
		"0.0,1,zz,\"two\r\nlines\"\r\n"         /* 2-3 */
		"0.1,1,zz,\r\n"                         /* 4 */
		"0.2,oops,zz,\r\n"                      /* 5 */
		"0.3,1,zz,\r\n");                       /* 6 */
	char err[512] = "";
	struct source *src = open_file(p, err, sizeof err);
	assert_non_null(src);
	const char *out = capture_stderr(play_all, src);
	assert_int_equal(count(out, "nl.csv:5: row skipped"), 1);
	assert_int_equal(count(out, "row skipped"), 1);
	source_replay.close(src);
}

static struct session *open_fixture(struct dvf_opts *o, struct session *s)
{
	options_defaults(o);
	o->replay = FIX "agx-orin-10s.csv";
	o->sim_speed = 0;
	char err[512] = "";
	int rc = session_open(s, o, err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(rc, 0);
	return s;
}

static void play(struct session *s, int n)
{
	for (int i = 0; i < n; i++) {
		timebase_sleep_until(&s->clock, session_due(s));
		assert_int_equal(session_sample(s), 0);
	}
}

/* GPU energy from 0 to t seconds of the fixture's ramp 4000 + 200 t mW. */
static double gpu_mj(double t)
{
	return 4000 * t + 100 * t * t;
}

static void seek_recomputes_energy(void **st)
{
	(void)st;
	struct dvf_opts o;
	struct session s;
	open_fixture(&o, &s);
	assert_true(player_active(&s));
	assert_string_equal(s.info->mode, "replay");
	play(&s, 50);   /* rows 0..49: 0 .. 4.9 s */
	assert_int_equal(s.cur.t_ns, 4900 * DVF_NS_PER_MS);
	assert_float_equal(s.energy.ch[0].mj, gpu_mj(4.9), 1e-6);
	/* The recording's steps column plays as the fine-tune's progress. */
	struct job_stats js;
	assert_true(s.replay_job);
	assert_true(session_job_stats(&s, &js));
	assert_string_equal(s.job_name, "recorded fine-tune");   /* no job in the sidecar */
	assert_int_equal(js.steps.v, 4);
	assert_true(js.jps_ok);
	assert_float_equal(js.j_per_step, s.energy.ch[ENERGY_TOTAL].mj * 1e-3 / 4, 1e-9);
	assert_false(js.proj_ok);   /* no total known */

	/* Back 3 s: the first row at or after 1.9 s comes next. */
	assert_int_equal(player_seek(&s, -3.0), 0);
	assert_int_equal(s.cur.t_ns, 1800 * DVF_NS_PER_MS);
	assert_int_equal(session_due(&s), 1900 * DVF_NS_PER_MS);
	assert_float_equal(s.energy.ch[0].mj, gpu_mj(1.8), 1e-6);
	assert_int_equal(s.n_samples, 19);
	/* ... and starts over with the rows: step 1 at 1.8 s, not 4. */
	assert_true(session_job_stats(&s, &js));
	assert_int_equal(js.steps.v, 1);
	assert_float_equal(js.energy_j, s.energy.ch[ENERGY_TOTAL].mj * 1e-3, 1e-9);
	{   /* the rate too: as straight playback to the same row gives it */
		struct dvf_opts o2;
		struct session s2;
		struct job_stats js2;
		open_fixture(&o2, &s2);
		play(&s2, 19);
		assert_int_equal(s2.cur.t_ns, s.cur.t_ns);
		assert_true(session_job_stats(&s2, &js2));
		assert_true(js2.st.steps_per_s.ok);
		assert_true(js.st.steps_per_s.ok);
		assert_float_equal(js.st.steps_per_s.v, js2.st.steps_per_s.v, 1e-12);
		session_close(&s2);
	}
	double pos, len;
	assert_true(player_position(&s, &pos, &len));
	assert_float_equal(pos, 1.8, 1e-9);
	assert_float_equal(len, 10.0, 1e-9);
	play(&s, 1);
	assert_int_equal(s.cur.t_ns, 1900 * DVF_NS_PER_MS);

	/* Forward past the end: everything played, same energy as straight. */
	assert_int_equal(player_seek(&s, 100), 0);
	assert_true(player_ended(&s));
	assert_float_equal(s.energy.ch[0].mj, 50000, 1e-6);
	assert_float_equal(s.energy.ch[ENERGY_TOTAL].mj, 110000, 1e-6);
	assert_int_equal(s.n_samples, 101);
	assert_int_equal(session_sample(&s), -1);

	/* Back to the start, then straight through: the same totals again. */
	assert_int_equal(player_seek(&s, -1000), 0);
	assert_int_equal(s.n_samples, 0);
	assert_false(s.have_cur);
	play(&s, 101);
	assert_int_equal(session_sample(&s), -1);
	assert_float_equal(s.energy.ch[ENERGY_TOTAL].mj, 110000, 1e-6);
	assert_float_equal(session_elapsed_s(&s), 10.0, 1e-9);
	session_close(&s);
}

static void pause_and_speed(void **st)
{
	(void)st;
	struct dvf_opts o;
	struct session s;
	open_fixture(&o, &s);
	play(&s, 3);
	assert_int_equal(player_set_speed(&s, 1000.0), 0);
	assert_float_equal(player_speed(&s), 1000.0, 0);
	int64_t a = timebase_now(&s.clock);
	struct timespec ts = { 0, 5 * DVF_NS_PER_MS };
	nanosleep(&ts, NULL);
	int64_t b = timebase_now(&s.clock);
	/* 5 ms real at 1000x is at least 5 s of recording. */
	assert_true(b - a >= 5 * DVF_NS_PER_S);

	assert_int_equal(player_set_paused(&s, true), 0);
	assert_true(player_paused(&s));
	a = timebase_now(&s.clock);
	nanosleep(&ts, NULL);
	assert_int_equal(timebase_now(&s.clock), a);
	/* A seek while paused moves the position, still paused. */
	assert_int_equal(player_seek(&s, -1000), 0);
	assert_true(player_paused(&s));
	assert_int_equal(timebase_now(&s.clock), 0);
	assert_int_equal(player_set_speed(&s, 0), 0);
	assert_int_equal(player_set_paused(&s, false), 0);
	assert_false(player_paused(&s));
	play(&s, 101);
	assert_float_equal(s.energy.ch[ENERGY_TOTAL].mj, 110000, 1e-6);

	/* Not a replay: controls refuse. */
	struct session other;
	memset(&other, 0, sizeof other);
	assert_int_equal(player_seek(&other, 1), -1);
	assert_int_equal(player_set_speed(&other, 1), -1);
	assert_false(player_position(&other, &(double){ 0 }, &(double){ 0 }));
	session_close(&s);
}

static void no_seek_while_recording(void **st)
{
	(void)st;
	struct dvf_opts o;
	struct session s;
	open_fixture(&o, &s);
	tmp_file("x", "");
	char path[128];
	snprintf(path, sizeof path, "%s/rec.csv", dir);
	assert_int_equal(session_record_start(&s, path), 0);
	play(&s, 5);
	assert_int_equal(player_seek(&s, -1), -1);
	assert_non_null(strstr(s.msg, "recording"));
	session_close(&s);
	char meta[160];
	snprintf(meta, sizeof meta, "%s.meta.json", path);
	unlink(meta);
	unlink(path);
}

/* Playing a recording straight through to its end (a fresh session). */
static void play_through(struct session *s)
{
	while (timebase_sleep_until(&s->clock, session_due(s)), session_sample(s) == 0)
		;
}

/* A recording started mid-session (`r` after the job has made steps)
 * replays with the live session's J/step over the recorded span: the
 * steps count from the recording's first row, whose time_s is 0. */
static void mid_session_recording_jps(void **st)
{
	(void)st;
	tmp_file("x", "");
	char path[128], err[512] = "";
	snprintf(path, sizeof path, "%s/mid.csv", dir);
	struct dvf_opts o;
	options_defaults(&o);
	o.demo = true;
	o.sim_speed = 0;
	o.sim_steps = 0;   /* endless: the live figure is never frozen */
	struct session s;
	assert_int_equal(session_open(&s, &o, err, sizeof err), 0);
	play(&s, 300);                       /* 30 s of the fine-tune */
	struct job_stats js;
	assert_true(session_job_stats(&s, &js));
	assert_true(js.steps.ok && js.steps.v > 0);
	assert_int_equal(session_record_start(&s, path), 0);
	play(&s, 1);                         /* the recording's first row */
	struct energy e0 = s.energy;
	assert_true(session_job_stats(&s, &js));
	int64_t steps0 = js.steps.v;
	assert_true(steps0 > 0);
	play(&s, 400);
	assert_true(session_job_stats(&s, &js));
	double live_j = energy_between(&e0, &s.energy, ENERGY_TOTAL) * 1e-3;
	double live_jps = live_j / (double)(js.steps.v - steps0);
	int64_t live_steps = js.steps.v - steps0;
	session_record_stop(&s);
	session_close(&s);

	struct dvf_opts r;
	options_defaults(&r);
	r.replay = path;
	r.sim_speed = 0;
	assert_int_equal(session_open(&s, &r, err, sizeof err), 0);
	play(&s, 1);
	assert_int_equal(s.cur.t_ns, 0);     /* the first row is at time_s 0 */
	play_through(&s);
	assert_true(session_job_stats(&s, &js));
	assert_true(js.jps_ok);
	assert_int_equal(js.steps.v - s.job_steps0, live_steps);
	assert_float_equal(js.energy_j, live_j, live_j * 1e-3);
	assert_float_equal(js.j_per_step, live_jps, live_jps * 1e-3);
	session_close(&s);

	/* The same after a seek forward before the first row is played: the
	 * skipped rows play through the session like any other. */
	assert_int_equal(session_open(&s, &r, err, sizeof err), 0);
	assert_int_equal(SEEK(&s, 10.0), 0);
	play_through(&s);
	assert_true(session_job_stats(&s, &js));
	assert_true(js.jps_ok);
	assert_int_equal(js.steps.v - s.job_steps0, live_steps);
	assert_float_equal(js.energy_j, live_j, live_j * 1e-3);
	assert_float_equal(js.j_per_step, live_jps, live_jps * 1e-3);
	session_close(&s);
	char meta[160];
	snprintf(meta, sizeof meta, "%s.meta.json", path);
	unlink(meta);
	unlink(path);
}

/* A seek forward, then playing on to the end, gives what playing straight
 * through gives: energy, samples, and the fine-tune's figures. */
static void seek_forward_same_as_straight(void **st)
{
	(void)st;
	struct dvf_opts o1, o2;
	struct session a, b;
	struct job_stats ja, jb;
	open_fixture(&o1, &a);
	play_through(&a);
	assert_true(session_job_stats(&a, &ja));
	open_fixture(&o2, &b);
	assert_int_equal(SEEK(&b, 3.0), 0);
	play_through(&b);
	assert_true(session_job_stats(&b, &jb));
	assert_int_equal(b.n_samples, a.n_samples);
	assert_float_equal(b.energy.ch[ENERGY_TOTAL].mj, a.energy.ch[ENERGY_TOTAL].mj, 1e-6);
	assert_int_equal(jb.steps.v, ja.steps.v);
	assert_float_equal(jb.energy_j, ja.energy_j, 1e-9);
	assert_float_equal(jb.elapsed_s, ja.elapsed_s, 1e-9);
	assert_true(ja.jps_ok && jb.jps_ok);
	assert_float_equal(jb.j_per_step, ja.j_per_step, 1e-9);
	/* and from the middle: back, then forward again */
	assert_int_equal(SEEK(&b, -5.0), 0);
	assert_int_equal(SEEK(&b, 2.0), 0);
	play_through(&b);
	assert_true(session_job_stats(&b, &jb));
	assert_float_equal(jb.j_per_step, ja.j_per_step, 1e-9);
	assert_float_equal(b.energy.ch[ENERGY_TOTAL].mj, a.energy.ch[ENERGY_TOTAL].mj, 1e-6);
	session_close(&a);
	session_close(&b);
}

/* A tegrastats line in the JetPack 6 shape with chosen GPU clock and rails. */
static void tline(char *buf, size_t n, const char *stamp, int gpu_mhz, int gpu_mw)
{
	snprintf(buf, n,
		 "%s%sRAM 18207/62841MB (lfb 466x4MB) SWAP 86/31420MB (cached 0MB) "
		 "CPU [10%%@2188,30%%@2112,off,20%%@2201] EMC_FREQ 3%%@2133 GR3D_FREQ 50%%@[%d,%d] "
		 "cpu@52.5C tj@53.25C VDD_GPU_SOC %dmW/%dmW VDD_CPU_CV 2000mW/2000mW VIN_SYS_5V0 4000mW/4000mW\n",
		 stamp, *stamp ? " " : "", gpu_mhz, gpu_mhz, gpu_mw, gpu_mw);
}

/* Without timestamps: --interval apart.  Rails by name, the AGX Orin rule
 * from them, GPU clock and load, CPU load over online cores, sensors. */
static void tegrastats_untimed(void **st)
{
	(void)st;
	char text[4096] = "", l[1024];
	for (int k = 0; k < 4; k++) {
		tline(l, sizeof l, "", 612, 4000 + 1000 * k);
		strcat(text, l);
	}
	char err[512] = "";
	struct source_cfg cfg = { .replay_path = tmp_file("t.log", text), .interval_ns = DVF_NS_PER_S };
	struct source *src = source_replay.open(&cfg, err, sizeof err);
	if (!src)
		fail_msg("%s", err);
	const struct dvf_info *in = source_replay.info(src);
	assert_int_equal(in->board, DVF_BOARD_AGX_ORIN);
	assert_int_equal(in->n_rails, 3);
	assert_true(in->total_known);
	assert_int_equal(in->n_zones, 2);
	/* named as the live thermal zones (JetPack 6: tj-thermal) */
	assert_string_equal(in->zone_name[0], "cpu-thermal");
	assert_string_equal(in->zone_name[1], "tj-thermal");
	/* one clock per core the log prints */
	assert_int_equal(in->n_clusters, 4);
	assert_string_equal(in->cluster_name[3], "cpu3");
	struct replay_stats rs;
	replay_get_stats(src, &rs);
	assert_true(rs.tegrastats);
	assert_int_equal(rs.rows, 4);
	struct energy e;
	energy_init(&e, 5 * DVF_NS_PER_S);
	struct dvf_sample s;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(source_replay.sample(src, &s), 0);
		assert_int_equal(s.t_ns, k * DVF_NS_PER_S);
		assert_int_equal(s.gpu_freq_hz.v, 612000000);
		assert_int_equal(s.gpu_load_pm.v, 500);
		assert_int_equal(s.cpu_util_pm.v, 200);   /* (10 + 30 + 20) / 3 % */
		assert_int_equal(s.cpu_khz[1].v, 2112000);
		assert_false(s.cpu_khz[2].ok);            /* off */
		assert_false(s.unix_ns.ok);               /* no timestamps */
		assert_int_equal(s.temp_mc[1].v, 53250);
		assert_int_equal(s.rail[0].mw.v, 4000 + 1000 * k);
		assert_int_equal(s.total_mw.v, 10000 + 1000 * k);
		energy_add(&e, &s);
	}
	assert_int_equal(source_replay.sample(src, &s), -1);
	/* GPU 4 -> 7 W over 3 s: 16.5 J; total 10 -> 13 W: 34.5 J. */
	assert_float_equal(e.ch[0].mj, 16500, 1e-6);
	assert_float_equal(e.ch[ENERGY_TOTAL].mj, 34500, 1e-6);
	source_replay.close(src);
}

/* Timestamps are whole seconds: lines sharing one are spread over it.  A
 * line that does not parse is skipped and reported with its number. */
static void tegrastats_timed_and_damaged(void **st)
{
	(void)st;
	char text[8192] = "", l[1024];
	static const char *const stamps[] = { "05-09-2026 18:42:06", "05-09-2026 18:42:06",
					      "05-09-2026 18:42:07", "05-09-2026 18:42:08" };
	for (int k = 0; k < 4; k++) {
		tline(l, sizeof l, stamps[k], 816, 5000);
		strcat(text, l);
		if (k == 1)
			strcat(text, "05-09-2026 18:42:06 RAM what\n\n");   /* line 3, then a blank one */
	}
	char err[512] = "";
	struct source_cfg cfg = { .replay_path = tmp_file("t2.log", text), .interval_ns = 100 * DVF_NS_PER_MS };
	struct source *src = source_replay.open(&cfg, err, sizeof err);
	if (!src)
		fail_msg("%s", err);
	static const int64_t want[] = { 0, 500, 1000, 2000 };
	struct dvf_sample s;
	/* 2026-05-09 18:42:06 in this machine's time zone */
	struct tm tm = { .tm_year = 126, .tm_mon = 4, .tm_mday = 9, .tm_hour = 18, .tm_min = 42, .tm_sec = 6, .tm_isdst = -1 };
	int64_t u0 = (int64_t)mktime(&tm) * DVF_NS_PER_S;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(source_replay.sample(src, &s), 0);
		assert_int_equal(s.t_ns, want[k] * DVF_NS_PER_MS);
		assert_true(s.unix_ns.ok);
		assert_int_equal(s.unix_ns.v, u0 + want[k] * DVF_NS_PER_MS);
	}
	const char *out = capture_stderr(play_all, src);
	assert_int_equal(count(out, "t2.log:3: row skipped: not a tegrastats line"), 1);
	assert_int_equal(count(out, "row skipped"), 1);
	source_replay.close(src);

	/* A timestamp thousands of years from the first line's (the fuzzer's
	 * find: nanoseconds overflowed): that row is skipped and named. */
	text[0] = '\0';
	static const char *const far[] = { "05-09-2026 18:42:06", "05-09-9026 18:42:06", "05-09-2026 18:42:07" };
	for (int k = 0; k < 3; k++) {
		tline(l, sizeof l, far[k], 816, 5000);
		strcat(text, l);
	}
	cfg.replay_path = tmp_file("t4.log", text);
	src = source_replay.open(&cfg, err, sizeof err);
	if (!src)
		fail_msg("%s", err);
	struct replay_stats rs;
	replay_get_stats(src, &rs);
	assert_int_equal(rs.rows, 2);
	out = capture_stderr(play_all, src);
	assert_int_equal(count(out, "t4.log:2: row skipped: timestamp too far from the first line's"), 1);
	source_replay.close(src);

	/* 174 years fit in int64 nanoseconds, but the time after the last
	 * row (last + interval) did not (the fuzzer's second find): a
	 * recording spans at most 31 years, like a CSV's time_s. */
	text[0] = '\0';
	static const char *const far2[] = { "05-09-2026 18:42:06", "05-09-2200 18:42:06", "05-09-2026 18:42:07" };
	for (int k = 0; k < 3; k++) {
		tline(l, sizeof l, far2[k], 816, 5000);
		strcat(text, l);
	}
	cfg.replay_path = tmp_file("t5.log", text);
	src = source_replay.open(&cfg, err, sizeof err);
	if (!src)
		fail_msg("%s", err);
	replay_get_stats(src, &rs);
	assert_int_equal(rs.rows, 2);
	assert_int_equal(interval_ns(src), DVF_NS_PER_S);
	out = capture_stderr(play_all, src);
	assert_int_equal(count(out, "t5.log:2: row skipped: timestamp too far from the first line's (over 31 years)"), 1);
	{
		struct source_timeline tl;
		assert_true(source_replay.timeline(src, &tl));
		assert_true(tl.ended);
		assert_int_equal(tl.next_ns, 2 * DVF_NS_PER_S);
	}
	source_replay.close(src);

	/* A first line that is neither format: refused, naming line 1. */
	struct source_cfg bad = { .replay_path = tmp_file("t3.log", "hello world\n"), .interval_ns = DVF_NS_PER_S };
	assert_null(source_replay.open(&bad, err, sizeof err));
	assert_non_null(strstr(err, "t3.log:1: neither a dvfstop session CSV"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_plays_with_meta),
		cmocka_unit_test(no_meta_no_total),
		cmocka_unit_test(damaged_rows_reported_once),
		cmocka_unit_test(damaged_rows_to_status_line),
		cmocka_unit_test(wrong_header_fails_with_line),
		cmocka_unit_test(line_numbers_after_quoted_newline),
		cmocka_unit_test(seek_recomputes_energy),
		cmocka_unit_test(pause_and_speed),
		cmocka_unit_test(no_seek_while_recording),
		cmocka_unit_test(mid_session_recording_jps),
		cmocka_unit_test(seek_forward_same_as_straight),
		cmocka_unit_test(tegrastats_untimed),
		cmocka_unit_test(tegrastats_timed_and_damaged),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			rc = rc ? rc : 1;
	}
	return rc;
}
