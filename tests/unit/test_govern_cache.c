/* The governor's profile cache (core/engine/govern_cache.h): the key, a
 * record's text both ways, bad and hostile records refused with FILE:LINE,
 * other boards and other tables of levels never matching, the agreement
 * bound, and the files on disk (a link refused, a record replaced whole). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "govern_cache.h"

static const int64_t orin[11] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				  918000000, 1020000000, 1122000000, 1224000000, 1300500000 };

static void key_orin(struct gcache_key *k)
{
	memset(k, 0, sizeof *k);
	govern_cache_set(k->board, sizeof k->board, "NVIDIA Jetson AGX Orin Developer Kit");
	govern_cache_set(k->source, sizeof k->source, "jetson live");
	govern_cache_set(k->power_mode, sizeof k->power_mode, "MAXN");
	k->n_levels = 11;
	memcpy(k->level_hz, orin, sizeof orin);
	govern_cache_set(k->workload, sizeof k->workload, "model bert-base");
	k->seq_len = 128;
	k->batch = 16;
	govern_cache_set(k->select, sizeof k->select, "energy");
}

static void rec_orin(struct gcache_rec *r)
{
	memset(r, 0, sizeof *r);
	key_orin(&r->key);
	r->held_hz = 816000000;
	r->jps = 0.51234;
	r->sps = 0.3012;
	r->noise = 0.0041;
	r->base_jps = 0.6125;
	r->base_sps = 0.2711;
	r->profile_steps = 27;
	snprintf(r->date, sizeof r->date, "2026-12-06T08:30:00Z");
	snprintf(r->version, sizeof r->version, "0.9.0");
}

static char text[GCACHE_MAX_BYTES];

static int parse(const char *t, struct gcache_rec *r, char *err, size_t len)
{
	return govern_cache_parse(t, strlen(t), "p.profile", r, err, len);
}

/* The format's text parses back to the same record, in any locale. */
static void test_round_trip(void **state)
{
	(void)state;
	struct gcache_rec r, back;
	rec_orin(&r);
	int n = govern_cache_format(&r, text, sizeof text);
	assert_true(n > 0);
	assert_non_null(strstr(text, "dvfstop-profile 1\n"));
	assert_non_null(strstr(text, "\nheld_hz 816000000\n"));
	assert_non_null(strstr(text, "\nlevels 306000000 408000000 "));
	char err[400] = "";
	assert_int_equal(govern_cache_parse(text, (size_t)n, "x", &back, err, sizeof err), 0);
	assert_true(govern_cache_match(&back, &r.key));
	assert_int_equal(back.held_hz, r.held_hz);
	assert_true(back.jps == r.jps && back.sps == r.sps && back.noise == r.noise);
	assert_true(back.base_jps == r.base_jps && back.base_sps == r.base_sps);
	assert_int_equal(back.profile_steps, 27);
	assert_string_equal(back.date, r.date);
	assert_string_equal(back.version, "0.9.0");
	/* a decimal comma in the user's locale changes nothing */
	if (setlocale(LC_ALL, "de_DE.UTF-8") || setlocale(LC_ALL, "fr_FR.UTF-8")) {
		char t2[GCACHE_MAX_BYTES];
		assert_int_equal(govern_cache_format(&r, t2, sizeof t2), n);
		assert_string_equal(t2, text);
		assert_int_equal(govern_cache_parse(t2, (size_t)n, "x", &back, err, sizeof err), 0);
		assert_true(back.jps == r.jps);
		setlocale(LC_ALL, "C");
	}
	/* too small a buffer: -1, never a cut record */
	assert_int_equal(govern_cache_format(&r, text, 100), -1);
}

/* A discrete GPU's record: 64 levels of 10-digit Hz, every text field at
 * its longest.  It is written, read back and named by its key (the line
 * of 64 levels was longer than a line read, and every record of such a
 * board was refused: "a line of more than 600 characters"). */
static void test_many_levels(void **state)
{
	(void)state;
	struct gcache_rec r, back;
	rec_orin(&r);
	r.key.n_levels = DVF_MAX_LEVELS;
	for (int i = 0; i < DVF_MAX_LEVELS; i++)
		r.key.level_hz[i] = 1000000000LL + 15000000LL * i;   /* 1000-1945 MHz */
	r.held_hz = r.key.level_hz[40];
	char *fields[] = { r.key.board, r.key.source, r.key.sim, r.key.gpus, r.key.power_mode, r.key.workload,
			   r.key.select };
	size_t sizes[] = { sizeof r.key.board, sizeof r.key.source, sizeof r.key.sim, sizeof r.key.gpus,
			   sizeof r.key.power_mode, sizeof r.key.workload, sizeof r.key.select };
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		memset(fields[f], 'x', sizes[f] - 1);
		fields[f][sizes[f] - 1] = '\0';
	}
	int n = govern_cache_format(&r, text, sizeof text);
	assert_true(n > 0);
	char err[400] = "";
	if (govern_cache_parse(text, (size_t)n, "x", &back, err, sizeof err) != 0)
		fail_msg("%s", err);
	assert_true(govern_cache_match(&back, &r.key));
	assert_int_equal(back.held_hz, r.held_hz);
	/* the name is the key's hash: another last level, another file */
	char a[64], b[64];
	govern_cache_file_name(&r.key, a, sizeof a);
	r.key.level_hz[DVF_MAX_LEVELS - 1]++;
	govern_cache_file_name(&r.key, b, sizeof b);
	assert_string_not_equal(a, b);
}

/* The key: each field counts; control characters cannot start a line. */
static void test_key(void **state)
{
	(void)state;
	struct gcache_key a, b;
	key_orin(&a);
	char na[64], nb[64];
	govern_cache_file_name(&a, na, sizeof na);
	assert_int_equal(strlen(na), 16 + strlen(".profile"));
	assert_int_equal(strspn(na, "0123456789abcdef"), 16);
	struct gcache_rec r = { .key = a };
	/* every field of the key tells two jobs apart */
	const char *what[] = { "board", "source", "sim", "gpus", "power", "levels", "level", "workload", "seq", "batch", "select" };
	for (size_t i = 0; i < sizeof what / sizeof what[0]; i++) {
		b = a;
		switch (i) {
		case 0: govern_cache_set(b.board, sizeof b.board, "NVIDIA Jetson Orin NX"); break;
		case 1: govern_cache_set(b.source, sizeof b.source, "jetson simulated"); break;
		case 2: govern_cache_set(b.sim, sizeof b.sim, "power=energyinfra"); break;
		case 3: govern_cache_set(b.gpus, sizeof b.gpus, "0"); break;
		case 4: govern_cache_set(b.power_mode, sizeof b.power_mode, "30W"); break;
		case 5: b.n_levels = 10; break;                    /* another table of levels */
		case 6: b.level_hz[10] = 1300000000; break;        /* the same count, one level other */
		case 7: govern_cache_set(b.workload, sizeof b.workload, "model bert-large"); break;
		case 8: b.seq_len = 64; break;
		case 9: b.batch = 32; break;
		case 10: govern_cache_set(b.select, sizeof b.select, "slowdown 10%"); break;
		}
		assert_false(govern_cache_match(&r, &b));
		govern_cache_file_name(&b, nb, sizeof nb);
		if (strcmp(na, nb) == 0)
			fail_msg("%s: the same file name", what[i]);
	}
	b = a;
	assert_true(govern_cache_match(&r, &b));
	/* a newline in a board's name becomes '?': it cannot add a line */
	govern_cache_set(b.board, sizeof b.board, " evil\nheld_hz 306000000\t ");
	assert_string_equal(b.board, "evil?held_hz 306000000?");
	char t[2048];
	assert_true(govern_cache_key_text(&b, t, sizeof t) > 0);
	assert_null(strstr(t, "\nheld_hz"));
	/* text that does not fit is cut, NUL-terminated */
	char small[5];
	govern_cache_set(small, sizeof small, "abcdefgh");
	assert_string_equal(small, "abcd");
}

/* Replace the line starting with NAME (or add one at the end) in text. */
static void edit(const char *name, const char *line)
{
	char out[GCACHE_MAX_BYTES] = "";
	size_t nl = strlen(name);
	const char *p = text;
	bool done = false;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p + 1) : strlen(p);
		if (!done && strncmp(p, name, nl) == 0 && (p[nl] == ' ' || p[nl] == '\n')) {
			if (line) {
				strcat(out, line);
				strcat(out, "\n");
			}
			done = true;
		} else
			strncat(out, p, n);
		p += n;
	}
	if (!done && line) {
		strcat(out, line);
		strcat(out, "\n");
	}
	snprintf(text, sizeof text, "%s", out);
}

static void expect_bad(const char *name, const char *line, const char *msg)
{
	struct gcache_rec r;
	rec_orin(&r);
	assert_true(govern_cache_format(&r, text, sizeof text) > 0);
	edit(name, line);
	char err[400] = "";
	if (parse(text, &r, err, sizeof err) != -1)
		fail_msg("'%s' -> '%s' was taken", name, line ? line : "(removed)");
	if (!strstr(err, msg) || strncmp(err, "p.profile:", 10) != 0)
		fail_msg("'%s' -> '%s': the message '%s' lacks '%s'", name, line ? line : "(removed)", err, msg);
}

/* Bad records: each refused with FILE:LINE and what was wrong. */
static void test_bad(void **state)
{
	(void)state;
	expect_bad("dvfstop-profile", "dvfstop-profile 2", "p.profile:1: format 2; this dvfstop reads format 1");
	expect_bad("dvfstop-profile", "hello", "p.profile:1: 'hello' is not 'dvfstop-profile 1'");
	expect_bad("held_hz", "held_hz 800000000", "held_hz 800000000 is not one of its levels");
	expect_bad("held_hz", "held_hz -5", ":15: held_hz: '-5' is not a number in range");
	expect_bad("held_hz", "held_hz 816e6", "held_hz: '816e6'");
	expect_bad("j_per_step", "j_per_step nan", "j_per_step: 'nan' is not a number in range");
	expect_bad("j_per_step", "j_per_step inf", "j_per_step: 'inf'");
	expect_bad("j_per_step", "j_per_step 0", "j_per_step: '0'");
	expect_bad("j_per_step", "j_per_step 1e999", "j_per_step: '1e999'");
	expect_bad("j_per_step", "j_per_step 0,5", "j_per_step: '0,5'");
	expect_bad("noise", "noise 0.9", "noise: '0.9'");
	expect_bad("noise", NULL, "no noise line");
	expect_bad("levels", "levels 306000000", "levels: '306000000' is not a rising list");
	expect_bad("levels", "levels 408000000 306000000", "is not a rising list");
	expect_bad("levels", "levels 306000000 x", "is not a rising list");
	char many_levels[GCACHE_LINE] = "levels";   /* more than DVF_MAX_LEVELS */
	for (int i = 1; i <= DVF_MAX_LEVELS + 1; i++)
		snprintf(many_levels + strlen(many_levels), sizeof many_levels - strlen(many_levels), " %d", i);
	expect_bad("levels", many_levels, "is not a rising list");
	expect_bad("seq_len", "seq_len 99999999999", "seq_len: '99999999999'");
	expect_bad("board", "board \x01x", "a control character (byte 7)");
	expect_bad("version", "version 0.9.0\nversion 1.0", "version given twice");
	char longer[GCACHE_LINE + 20];
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	memcpy(longer, "board ", 6);
	expect_bad("board", longer, "a line of more than");
	memcpy(longer, "date  ", 6);
	longer[60] = '\0';
	expect_bad("date", longer, "date: 'xxxx");   /* longer than the field */

	char err[400] = "";
	struct gcache_rec r;
	assert_int_equal(parse("", &r, err, sizeof err), -1);
	assert_string_equal(err, "p.profile:1: empty: not a profile record");
	assert_int_equal(govern_cache_parse("dvfstop-profile 1\nbo\0rd", 22, "p.profile", &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "p.profile:1: a NUL byte"));
	/* a file of many lines stops at the bound */
	char many[4096] = "dvfstop-profile 1\n";
	for (int i = 0; i < 80; i++)
		strcat(many, "#\n");
	assert_int_equal(parse(many, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "p.profile:65: more than 64 lines"));
	/* held_hz 0: the user's clocks were held (no level beat them) */
	rec_orin(&r);
	r.held_hz = 0;
	assert_true(govern_cache_format(&r, text, sizeof text) > 0);
	assert_int_equal(parse(text, &r, err, sizeof err), 0);
	assert_int_equal(r.held_hz, 0);
	/* a later format's field and comments are ignored */
	rec_orin(&r);
	assert_true(govern_cache_format(&r, text, sizeof text) > 0);
	edit("future_field", "future_field 42");
	edit("# a", "# a comment");
	assert_int_equal(parse(text, &r, err, sizeof err), 0);
}

/* Random bytes and cut records never crash the parser (ASan watches). */
static void test_hostile(void **state)
{
	(void)state;
	struct gcache_rec r;
	rec_orin(&r);
	int n = govern_cache_format(&r, text, sizeof text);
	char err[400];
	for (int cut = 0; cut < n; cut++) {
		char *t = malloc((size_t)cut + 1);
		assert_non_null(t);
		memcpy(t, text, (size_t)cut);
		struct gcache_rec x;
		int rc = govern_cache_parse(t, (size_t)cut, "c", &x, err, sizeof err);
		assert_true(rc == 0 || rc == -1);
		free(t);
	}
	uint64_t s = 88172645463325252ULL;
	for (int k = 0; k < 2000; k++) {
		char t[300];
		size_t len = 1 + k % 299;
		for (size_t i = 0; i < len; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			t[i] = (char)(s >> 24);
		}
		struct gcache_rec x;
		assert_int_equal(govern_cache_parse(t, len, "r", &x, err, sizeof err), -1);
	}
}

/* A window agrees within max(4 x noise, 3 %), J/step and s/step both. */
static void test_agrees(void **state)
{
	(void)state;
	struct gcache_rec r;
	rec_orin(&r);
	r.noise = 0.002;
	assert_true(govern_cache_bound(0.002, 0.002) == GCACHE_FLOOR);
	assert_true(govern_cache_agrees(&r, r.jps * 1.029, r.sps, 0));
	assert_false(govern_cache_agrees(&r, r.jps * 1.031, r.sps, 0));
	assert_false(govern_cache_agrees(&r, r.jps, r.sps * 0.96, 0));
	r.noise = 0.02;   /* a noisy job: the bound widens to 4 x sqrt(2) x 2 % */
	assert_true(govern_cache_agrees(&r, r.jps * 1.10, r.sps, 0));
	assert_false(govern_cache_agrees(&r, r.jps * 1.12, r.sps, 0));
	assert_false(govern_cache_agrees(&r, 0, r.sps, 0));
}

/* On disk: stored, loaded; a link, another key's file, a damaged file. */
static void test_disk(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_govern_cache.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[256], path[512], msg[600];
	snprintf(sub, sizeof sub, "%s/a/b/profiles", dir);
	assert_int_equal(govern_cache_ready(sub, msg, sizeof msg), 0);
	struct stat sb;
	assert_int_equal(stat(sub, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	struct gcache_rec r, got;
	rec_orin(&r);
	assert_int_equal(govern_cache_load(sub, &r.key, &got, msg, sizeof msg), 0);   /* none yet */
	assert_int_equal(govern_cache_store(sub, &r, path, sizeof path, msg, sizeof msg), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(govern_cache_load(sub, &r.key, &got, msg, sizeof msg), 1);
	assert_int_equal(got.held_hz, 816000000);
	/* stored again: replaced whole, no temporary file left */
	r.held_hz = 714000000;
	assert_int_equal(govern_cache_store(sub, &r, path, sizeof path, msg, sizeof msg), 0);
	assert_int_equal(govern_cache_load(sub, &r.key, &got, msg, sizeof msg), 1);
	assert_int_equal(got.held_hz, 714000000);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", sub);
	assert_int_equal(system(cmd), 0);
	/* another key: none */
	struct gcache_key other = r.key;
	other.seq_len = 64;
	assert_int_equal(govern_cache_load(sub, &other, &got, msg, sizeof msg), 0);
	/* a damaged file: -1, FILE:LINE */
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("dvfstop-profile 1\nversion 1\nheld_hz x\n", fp);
	fclose(fp);
	assert_int_equal(govern_cache_load(sub, &r.key, &got, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, ".profile:3: held_hz: 'x'"));
	/* a link where the record goes: refused, never followed */
	unlink(path);
	char target[300];
	snprintf(target, sizeof target, "%s/target", dir);
	rec_orin(&r);
	int n = govern_cache_format(&r, text, sizeof text);
	fp = fopen(target, "w");
	assert_non_null(fp);
	fwrite(text, 1, (size_t)n, fp);
	fclose(fp);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(govern_cache_load(sub, &r.key, &got, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "a symbolic link (refused)"));
	/* the store replaces the link itself, not its target */
	assert_int_equal(govern_cache_store(sub, &r, path, sizeof path, msg, sizeof msg), 0);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	/* a folder writable by others is not used */
	assert_int_equal(chmod(sub, 0777), 0);
	assert_int_equal(govern_cache_ready(sub, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "is not a private folder"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Where it lives: XDG_STATE_HOME, else ~/.local/state (not root). */
static void test_dir(void **state)
{
	(void)state;
	char d[512], msg[200];
	setenv("XDG_STATE_HOME", "/x/state", 1);
	assert_int_equal(govern_cache_dir(d, sizeof d, msg, sizeof msg), 0);
	assert_string_equal(d, "/x/state/dvfstop/profiles");
	setenv("XDG_STATE_HOME", "relative", 1);   /* ignored, as the XDG rules say */
	setenv("HOME", "/home/u", 1);
	assert_int_equal(govern_cache_dir(d, sizeof d, msg, sizeof msg), 0);
	if (geteuid() != 0)
		assert_string_equal(d, "/home/u/.local/state/dvfstop/profiles");
	else
		assert_string_equal(d, "/var/lib/dvfstop/profiles");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_many_levels), cmocka_unit_test(test_key),   cmocka_unit_test(test_bad),
		cmocka_unit_test(test_hostile),    cmocka_unit_test(test_agrees), cmocka_unit_test(test_disk),
		cmocka_unit_test(test_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
