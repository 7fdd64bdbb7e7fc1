/* The protocol's words, which both sides use (the verbs, the error codes,
 * the one-line formatter every request and reply is written with), and
 * the daemon's side: requests parsed and checked against the board's
 * table, every reply and greeting it writes.  The client's side is
 * helper_proto_client.c. */
#include "config.h"
#include "helper_proto.h"
#include "helper_proto_priv.h"
#include "cfmt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const verb_name[HP_N_VERBS] = {
	[HP_STATUS] = "status", [HP_LEVELS] = "levels", [HP_PIN] = "pin", [HP_CAP] = "cap",
	[HP_DEFAULT] = "default", [HP_RESTORE] = "restore", [HP_QUIT] = "quit",
};

const struct helper_proto_errcode helper_proto_errcodes[] = {
	{ EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { EINVAL, "EINVAL" }, { EPROTO, "EPROTO" },
	{ E2BIG, "E2BIG" }, { EIO, "EIO" }, { ETIMEDOUT, "ETIMEDOUT" },
};
const int helper_proto_n_errcodes = (int)(sizeof helper_proto_errcodes / sizeof helper_proto_errcodes[0]);

const char *helper_proto_verb_name(enum helper_proto_verb v)
{
	return (int)v >= 0 && (int)v < HP_N_VERBS ? verb_name[v] : "?";
}

const char *helper_proto_code(int err)
{
	for (int i = 0; i < helper_proto_n_errcodes; i++)
		if (helper_proto_errcodes[i].err == err)
			return helper_proto_errcodes[i].name;
	return "EIO";
}

size_t helper_proto_line(char *buf, size_t len, const char *f, ...)
{
	if (len < 2) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	va_list ap;
	va_start(ap, f);
	int k = vsnprintf(buf, len - 1, f, ap);
	va_end(ap);
	size_t n = k < 0 ? 0 : (size_t)k >= len - 1 ? len - 2 : (size_t)k;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] == 0x7f)
			buf[i] = '?';
	buf[n] = '\n';
	buf[n + 1] = '\0';
	return n + 1;
}

/* ---- requests ------------------------------------------------------------ */

bool helper_proto_mhz(const char *s, int64_t *hz, bool *whole)
{
	int64_t w = 0, frac = 0;
	int nw = 0, nf = 0;
	for (; *s >= '0' && *s <= '9'; s++, nw++) {
		if (nw >= 6)
			return false;   /* a million MHz or more: nobody's clock */
		w = w * 10 + (*s - '0');
	}
	if (nw == 0)
		return false;
	bool dot = *s == '.';
	if (dot) {
		for (s++; *s >= '0' && *s <= '9'; s++, nf++) {
			if (nf >= 6)
				return false;   /* finer than 1 Hz */
			frac = frac * 10 + (*s - '0');
		}
		if (nf == 0)
			return false;
	}
	if (*s)
		return false;
	for (int i = nf; i < 6; i++)
		frac *= 10;
	*hz = w * 1000000 + frac;
	*whole = !dot;
	return true;
}

static bool parse_gpu(const char *s, int *gpu)
{
	int v = 0, n = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (++n > 2)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (n == 0 || *s || v > HP_GPU_MAX)
		return false;
	*gpu = v;
	return true;
}

/* Split into at most 4 blank-separated words (the line is short). */
static int words(char *s, char *w[4])
{
	int n = 0;
	char *save = NULL;
	for (char *p = strtok_r(s, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		if (n == 4)
			return 5;
		w[n++] = p;
	}
	return n;
}

static int parse_args(struct helper_proto_req *r, char **w, int n, char *msg, size_t len)
{
	const char *v = helper_proto_verb_name(r->verb);
	int i = 0;
	if (r->verb == HP_PIN || r->verb == HP_CAP) {
		if (n < 1) {
			cfmt(msg, len, "%s needs a clock in MHz (%s 714)", v, v);
			return EINVAL;
		}
		if (!helper_proto_mhz(w[0], &r->hz, &r->whole)) {
			cfmt(msg, len, "%s: '%.24s' is not a clock in MHz (714 or 1300.5)", v, w[0]);
			return EINVAL;
		}
		i = 1;
	}
	bool takes_gpu = r->verb != HP_RESTORE && r->verb != HP_QUIT;
	if (i < n && takes_gpu) {
		if (!parse_gpu(w[i], &r->gpu)) {
			cfmt(msg, len, "%s: '%.24s' is not a GPU index (0 to %d)", v, w[i], HP_GPU_MAX);
			return EINVAL;
		}
		i++;
	}
	if (i < n) {
		cfmt(msg, len, "%s: too many arguments", v);
		return EINVAL;
	}
	return 0;
}

int helper_proto_parse(const char *line, size_t n, struct helper_proto_req *r, char *msg, size_t len)
{
	memset(r, 0, sizeof *r);
	size_t body = n;
	if (body && line[body - 1] == '\n')
		body--;
	/* the bound counts the "\n", sent or not */
	if (body + 1 > HP_LINE_MAX) {
		cfmt(msg, len, "a request is at most %d bytes with its newline", HP_LINE_MAX);
		return E2BIG;
	}
	if (body && line[body - 1] == '\r')
		body--;
	char s[HP_LINE_MAX];
	for (size_t i = 0; i < body; i++) {
		unsigned char ch = (unsigned char)line[i];
		if ((ch < 0x20 && ch != '\t') || ch >= 0x7f) {
			cfmt(msg, len, "a request is printable ASCII (byte 0x%02x at %zu)", ch, i);
			return EPROTO;
		}
		s[i] = (char)ch;
	}
	s[body] = '\0';
	char *w[4];
	int nw = words(s, w);
	if (nw == 0) {
		cfmt(msg, len, "empty request (verbs: status levels pin cap default restore quit)");
		return EPROTO;
	}
	int v = 0;
	while (v < HP_N_VERBS && strcmp(w[0], helper_proto_verb_name((enum helper_proto_verb)v)) != 0)
		v++;
	if (v == HP_N_VERBS) {
		cfmt(msg, len, "unknown verb '%.24s' (verbs: status levels pin cap default restore quit)",
		    w[0]);
		return EPROTO;
	}
	r->verb = (enum helper_proto_verb)v;
	if (nw > 4) {
		cfmt(msg, len, "%s: too many arguments", helper_proto_verb_name(r->verb));
		return EINVAL;
	}
	return parse_args(r, w + 1, nw - 1, msg, len);
}

int helper_proto_resolve(const struct dvf_info *in, const struct helper_proto_req *r, int64_t *hz,
			 char *msg, size_t len)
{
	if (r->whole)
		return control_level_mhz(in, r->hz / 1000000, hz, msg, len);
	int err = control_check_level(in, r->hz, msg, len);
	if (!err)
		*hz = r->hz;
	return err;
}

/* ---- replies ------------------------------------------------------------- */

/* A field value: no blanks, no control characters, never empty. */
static void word(const char *s, char *out, size_t len)
{
	size_t n = 0;
	for (; s && *s && n + 1 < len; s++)
		out[n++] = (unsigned char)*s <= 0x20 || (unsigned char)*s == 0x7f ? '_' : *s;
	if (n == 0 && len > 2)
		out[n++] = '?';
	if (len)
		out[n] = '\0';
}

size_t helper_proto_fmt_err(char *buf, size_t len, int err, const char *text)
{
	return helper_proto_line(buf, len, "err %s %s", helper_proto_code(err), text ? text : "");
}

void helper_proto_fmt_control(const struct helper_proto_ctl *c, char *buf, size_t len)
{
	if (c->who == HP_YOU)
		snprintf(buf, len, "you");
	else if (c->who == HP_OTHER)
		snprintf(buf, len, "uid=%ld,pid=%ld", c->uid, c->pid);
	else
		snprintf(buf, len, "free");
}

size_t helper_proto_fmt_greeting(char *buf, size_t len, const char *board, int gpus,
				 const struct helper_proto_ctl *c)
{
	char b[96], ctl[48];
	word(board && *board ? board : "unknown", b, sizeof b);
	helper_proto_fmt_control(c, ctl, sizeof ctl);
	return helper_proto_line(buf, len, "dvfstopd %d board=%s gpus=%d control=%s", HP_VERSION, b, gpus, ctl);
}

/* A path as one field value: %XX for blanks, '%' and bytes outside
 * '!'..'~'.  False when it does not fit. */
static bool escape(const char *s, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		bool plain = ch > 0x20 && ch < 0x7f && ch != '%';
		if (n + (plain ? 1 : 3) >= len)
			return false;
		if (plain) {
			out[n++] = (char)ch;
		} else {
			out[n++] = '%';
			out[n++] = hex[ch >> 4];
			out[n++] = hex[ch & 15];
		}
	}
	out[n] = '\0';
	return n > 0;
}

size_t helper_proto_fmt_greeting_tree(char *buf, size_t len, const char *board, int gpus,
				      const struct helper_proto_ctl *c, const struct helper_proto_tree *t)
{
	char b[96], ctl[48], root[260];
	word(board && *board ? board : "unknown", b, sizeof b);
	helper_proto_fmt_control(c, ctl, sizeof ctl);
	bool named = t->root && escape(t->root, root, sizeof root);
	return helper_proto_line(buf, len,
		    "dvfstopd %d board=%s gpus=%d control=%s%s%s tree=%llu:%llu gpudir=%llu:%llu", HP_VERSION, b, gpus, ctl,
		    named ? " root=" : "", named ? root : "", t->root_dev, t->root_ino, t->dir_dev, t->dir_ino);
}

size_t helper_proto_fmt_status(char *buf, size_t len, int gpu, const struct ctl_state *st,
			       struct dvf_m cur, enum control_mode mode, int64_t target_hz,
			       const struct helper_proto_ctl *c)
{
	char gov[DVF_GOV_LEN], ctl[48], cur_s[24];   /* the whole name, as the guard keeps it */
	word(st->governor, gov, sizeof gov);
	helper_proto_fmt_control(c, ctl, sizeof ctl);
	if (cur.ok)
		snprintf(cur_s, sizeof cur_s, "%lld", (long long)cur.v);
	else
		snprintf(cur_s, sizeof cur_s, "na");
	return helper_proto_line(buf, len,
		    "ok status gpu=%d governor=%s min_hz=%lld max_hz=%lld cur_hz=%s mode=%s target_hz=%lld "
		    "control=%s",
		    gpu, gov, (long long)st->min_hz, (long long)st->max_hz, cur_s, control_mode_name(mode),
		    (long long)(mode == CTL_DEFAULT ? 0 : target_hz), ctl);
}

size_t helper_proto_fmt_levels(char *buf, size_t len, const struct dvf_info *in)
{
	char s[HP_REPLY_MAX];
	size_t n = (size_t)snprintf(s, sizeof s, "ok levels");
	for (int i = 0; i < in->n_levels && i < DVF_MAX_LEVELS && n < sizeof s; i++)
		n += (size_t)snprintf(s + n, sizeof s - n, " %lld", (long long)in->level_hz[i]);
	return helper_proto_line(buf, len, "%s", s);
}

size_t helper_proto_fmt_set(char *buf, size_t len, enum helper_proto_verb v, int64_t hz)
{
	return helper_proto_line(buf, len, "ok %s %lld", helper_proto_verb_name(v), (long long)hz);
}

size_t helper_proto_fmt_ok(char *buf, size_t len, enum helper_proto_verb v)
{
	return helper_proto_line(buf, len, "ok %s", v == HP_QUIT ? "bye" : helper_proto_verb_name(v));
}

size_t helper_proto_fmt_refused(char *buf, size_t len, long uid, const char *user, const char *group)
{
	return helper_proto_line(buf, len, "err EACCES uid %ld is not root and not in group %s (ask an admin: "
		    "usermod -aG %s %s)", uid, group, group, user && *user ? user : "USER");
}

size_t helper_proto_fmt_busy(char *buf, size_t len, long uid, long pid)
{
	return helper_proto_line(buf, len,
		    "err EBUSY uid=%ld pid=%ld controls the clocks; this connection is read-only", uid, pid);
}
