#include "config.h"
#include "prom.h"
#include "clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the exposition text --------------------------------------------------- */

struct fam {
	const char *name, *type, *help;
	bool started;
};

struct emit {
	FILE *fp;
	const char *board;
};

/* A label value with the three escapes the format has. */
static void put_label(FILE *fp, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", fp);
		else if (*v == '"')
			fputs("\\\"", fp);
		else if (*v == '\n')
			fputs("\\n", fp);
		else
			fputc(*v, fp);
	}
}

/* One series; the family's HELP and TYPE go first, once, so a family with
 * no valid series is left out entirely. */
static void series(struct emit *e, struct fam *f, const char *lname, const char *lval, const char *value)
{
	if (!f->started) {
		fprintf(e->fp, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help, f->name, f->type);
		f->started = true;
	}
	fprintf(e->fp, "%s{board=\"", f->name);
	put_label(e->fp, e->board);
	fputc('"', e->fp);
	if (lname) {
		fprintf(e->fp, ",%s=\"", lname);
		put_label(e->fp, lval);
		fputc('"', e->fp);
	}
	fprintf(e->fp, "} %s\n", value);
}

static void series_d(struct emit *e, struct fam *f, const char *lname, const char *lval, double v)
{
	char b[48];
	snprintf(b, sizeof b, "%.12g", v);
	series(e, f, lname, lval, b);
}

static void series_i(struct emit *e, struct fam *f, const char *lname, const char *lval, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", (long long)v);
	series(e, f, lname, lval, b);
}

/* A metric scaled to its base unit, only when valid. */
static void series_m(struct emit *e, struct fam *f, const char *lname, const char *lval, struct dvf_m m, double scale)
{
	if (m.ok)
		series_d(e, f, lname, lval, (double)m.v * scale);
}

char *prom_render(const struct prom_view *v, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	if (!fp)
		return NULL;
	const struct dvf_info *in = v->info;
	struct emit e = { fp, in->board_name[0] ? in->board_name : "unknown" };

	struct fam info = { "dvfstop_info", "gauge", "Board, software and telemetry source of this dvfstop (always 1)." , false };
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", info.name, info.help, info.name, info.type);
	fputs("dvfstop_info{board=\"", fp);
	put_label(fp, e.board);
	fputs("\",l4t=\"", fp);
	put_label(fp, in->l4t);
	fputs("\",power_mode=\"", fp);
	put_label(fp, in->power_mode);
	fputs("\",source=\"", fp);
	put_label(fp, in->source);
	fputs("\",mode=\"", fp);
	put_label(fp, in->mode);
	fputs("\",version=\"", fp);
	put_label(fp, PACKAGE_VERSION);
	fputs("\"} 1\n", fp);

	struct fam samples = { "dvfstop_samples_total", "counter", "Samples taken (or rows replayed).", false };
	series_i(&e, &samples, NULL, NULL, (int64_t)v->n_samples);

	const struct dvf_sample *c = v->cur;
	if (c) {
		struct fam f_hz = { "dvfstop_gpu_frequency_hertz", "gauge", "Current GPU clock.", false };
		struct fam f_min = { "dvfstop_gpu_min_frequency_hertz", "gauge", "Lower limit of the GPU clock (devfreq min_freq).", false };
		struct fam f_max = { "dvfstop_gpu_max_frequency_hertz", "gauge", "Upper limit of the GPU clock (devfreq max_freq).", false };
		struct fam f_util = { "dvfstop_gpu_utilization_ratio", "gauge", "GPU utilisation, 0 to 1.", false };
		struct fam f_gov = { "dvfstop_gpu_governor_info", "gauge", "The GPU's devfreq governor (always 1).", false };
		series_m(&e, &f_hz, NULL, NULL, c->gpu_freq_hz, 1);
		series_m(&e, &f_min, NULL, NULL, c->gpu_min_hz, 1);
		series_m(&e, &f_max, NULL, NULL, c->gpu_max_hz, 1);
		series_m(&e, &f_util, NULL, NULL, c->gpu_load_pm, 1e-3);
		if (c->gpu_governor[0])
			series(&e, &f_gov, "governor", c->gpu_governor, "1");

		struct fam f_w = { "dvfstop_rail_power_watts", "gauge", "Power of each INA3221 rail.", false };
		struct fam f_v = { "dvfstop_rail_voltage_volts", "gauge", "Bus voltage of each rail.", false };
		struct fam f_a = { "dvfstop_rail_current_amperes", "gauge", "Current of each rail.", false };
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_w, "rail", in->rail_name[i], c->rail[i].mw, 1e-3);
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_v, "rail", in->rail_name[i], c->rail[i].mv, 1e-3);
		for (int i = 0; i < in->n_rails; i++)
			series_m(&e, &f_a, "rail", in->rail_name[i], c->rail[i].ma, 1e-3);
		struct fam f_tot = { "dvfstop_power_watts", "gauge", "Board power by the board's total rule.", false };
		series_m(&e, &f_tot, NULL, NULL, c->total_mw, 1e-3);
	}
	if (v->energy) {
		struct fam f_re = { "dvfstop_rail_energy_joules_total", "counter", "Energy of each rail since dvfstop started.", false };
		for (int i = 0; i < in->n_rails; i++)
			if (v->energy->ch[i].have)
				series_d(&e, &f_re, "rail", in->rail_name[i], v->energy->ch[i].mj * 1e-3);
		struct fam f_te = { "dvfstop_energy_joules_total", "counter", "Board energy (total rule) since dvfstop started.", false };
		if (v->energy->ch[ENERGY_TOTAL].have)
			series_d(&e, &f_te, NULL, NULL, v->energy->ch[ENERGY_TOTAL].mj * 1e-3);
	}
	if (c) {
		struct fam f_cu = { "dvfstop_cpu_utilization_ratio", "gauge", "Utilisation of all CPUs, 0 to 1.", false };
		series_m(&e, &f_cu, NULL, NULL, c->cpu_util_pm, 1e-3);
		struct fam f_cf = { "dvfstop_cpu_frequency_hertz", "gauge", "Clock of each cpufreq policy.", false };
		for (int i = 0; i < in->n_clusters; i++)
			series_m(&e, &f_cf, "policy", in->cluster_name[i], c->cpu_khz[i], 1e3);
		struct fam f_t = { "dvfstop_temperature_celsius", "gauge", "Temperature of each thermal zone.", false };
		for (int i = 0; i < in->n_zones; i++)
			series_m(&e, &f_t, "zone", in->zone_name[i], c->temp_mc[i], 1e-3);
		struct fam f_st = { "dvfstop_training_steps_total", "counter", "Training steps the followed fine-tune has completed.", false };
		if (c->steps.ok)
			series_i(&e, &f_st, NULL, NULL, c->steps.v);
		struct fam f_tk = { "dvfstop_training_tokens_total", "counter", "Tokens the followed fine-tune has processed.", false };
		if (c->tokens.ok)
			series_i(&e, &f_tk, NULL, NULL, c->tokens.v);
	}
	if (fclose(fp) != 0) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

/* ---- the listening address ---------------------------------------------------- */

int prom_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen, char *err, size_t errlen)
{
	char host[64] = "";
	const char *port;
	const char *colon = strrchr(spec, ':');
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof host) {
			snprintf(err, errlen, "--prom-listen: '%s' is not [ADDR]:PORT", spec);
			return -1;
		}
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port = close + 2;
	} else if (colon) {
		if ((size_t)(colon - spec) >= sizeof host) {
			snprintf(err, errlen, "--prom-listen: address in '%s' is too long", spec);
			return -1;
		}
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port = colon + 1;
	} else {
		port = spec;
	}
	char *end;
	errno = 0;
	long pn = strtol(port, &end, 10);
	if (!*port || *end || errno || pn < 0 || pn > 65535) {
		snprintf(err, errlen, "--prom-listen: '%s' is not a port number (0-65535)", port);
		return -1;
	}
	memset(ss, 0, sizeof *ss);
	/* No address: loopback.  Anything reachable from elsewhere must be
	 * typed out. */
	if (!host[0] || strcmp(host, "localhost") == 0)
		snprintf(host, sizeof host, "127.0.0.1");
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)pn);
		*sslen = sizeof *s4;
	} else if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)pn);
		*sslen = sizeof *s6;
	} else {
		snprintf(err, errlen, "--prom-listen: '%s' is not a numeric IPv4 or IPv6 address", host);
		return -1;
	}
	return 0;
}

/* ---- the exporter ----------------------------------------------------------------- */

struct client {
	int fd;              /* -1: free slot */
	int64_t deadline;    /* real monotonic ns */
	size_t in_len;
	char *out;           /* response being sent, NULL while reading */
	size_t out_len, out_off;
	bool draining;       /* response sent: reading what is left until EOF */
	char in[PROM_MAX_REQUEST];
};

struct prom {
	char *textfile;
	int64_t last_write;  /* real monotonic ns, -1 never */
	int last_err;        /* errno of the last textfile failure reported */
	char msg[600];

	int lfd;             /* -1 when not listening */
	char addr[80];
	struct client cl[PROM_MAX_CLIENTS];
	int n_cl;

	struct prom_view view;
};

static int textfile_write(struct prom *p)
{
	size_t len;
	char *body = prom_render(&p->view, &len);
	if (!body)
		return ENOMEM;
	size_t n = strlen(p->textfile) + 8;
	char *tmp = malloc(n);
	if (!tmp) {
		free(body);
		return ENOMEM;
	}
	/* Same folder, so rename is atomic; the name does not end in .prom,
	 * so the collector never reads a half-written file. */
	snprintf(tmp, n, "%s.XXXXXX", p->textfile);
	int err = 0;
	/* A new file (O_EXCL: never one planted at the name, nor through a
	 * link), not inherited by the fine-tune we run. */
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(fd, body + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				err = w < 0 ? errno : EIO;
				break;
			}
			off += (size_t)w;
		}
		/* mkstemp makes it 0600; node_exporter often runs as its own user. */
		if (!err && fchmod(fd, 0644) != 0)
			err = errno;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(tmp, p->textfile) != 0)
			err = errno;
		if (err)
			unlink(tmp);
	}
	free(tmp);
	free(body);
	p->last_write = clock_mono_ns();
	return err;
}

static void client_drop(struct prom *p, struct client *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
	c->draining = false;
	c->in_len = 0;
	p->n_cl--;
}

/* Send what the socket takes now.  When all is sent, half-close and read
 * what the client still sends until it closes (a short while at most):
 * closing with unread input would reset the connection and could destroy
 * the response before the client reads it. */
static void client_send(struct prom *p, struct client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (w <= 0) {
			client_drop(p, c);
			return;
		}
		c->out_off += (size_t)w;
	}
	shutdown(c->fd, SHUT_WR);
	c->draining = true;
	int64_t linger = clock_mono_ns() + DVF_NS_PER_S;
	if (linger < c->deadline)
		c->deadline = linger;
}

static void client_drain(struct prom *p, struct client *c)
{
	char sink[4096];
	for (;;) {
		ssize_t r = recv(c->fd, sink, sizeof sink, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (r <= 0) {
			client_drop(p, c);
			return;
		}
	}
}

static void client_respond(struct prom *p, struct client *c, int code, const char *reason,
			   const char *extra_hdr, bool head)
{
	char *body = NULL;
	size_t blen = 0;
	char small[64];
	if (code == 200) {
		body = prom_render(&p->view, &blen);
		if (!body) {
			client_drop(p, c);
			return;
		}
	} else {
		blen = (size_t)snprintf(small, sizeof small, "%d %s\n", code, reason);
	}
	char hdr[320];
	int hl = snprintf(hdr, sizeof hdr,
			  "HTTP/1.1 %d %s\r\n"
			  "Content-Type: %s\r\n"
			  "Content-Length: %zu\r\n"
			  "%s"
			  "Connection: close\r\n\r\n",
			  code, reason,
			  code == 200 ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8",
			  blen, extra_hdr ? extra_hdr : "");
	size_t send_body = head ? 0 : blen;
	c->out = malloc((size_t)hl + send_body);
	if (!c->out) {
		free(body);
		client_drop(p, c);
		return;
	}
	memcpy(c->out, hdr, (size_t)hl);
	if (send_body)
		memcpy(c->out + hl, code == 200 ? body : small, send_body);
	c->out_len = (size_t)hl + send_body;
	c->out_off = 0;
	free(body);
	client_send(p, c);
}

static bool is_tchar(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* The request line decides everything; headers are only read to their end. */
static void client_request(struct prom *p, struct client *c)
{
	char *nl = memchr(c->in, '\n', c->in_len);
	if (!nl) {
		if (c->in_len == sizeof c->in)
			client_respond(p, c, 431, "Request Header Fields Too Large", NULL, false);
		return;
	}
	/* METHOD SP TARGET SP HTTP/1.x */
	char *line = c->in, *end = nl;
	if (end > line && end[-1] == '\r')
		end--;
	char *sp1 = memchr(line, ' ', (size_t)(end - line));
	char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1)) : NULL;
	bool ok = sp1 && sp2 && sp1 > line && sp2 > sp1 + 1 && sp1[1] == '/' &&
		  end - sp2 - 1 == 8 && memcmp(sp2 + 1, "HTTP/1.", 7) == 0 &&
		  (sp2[8] == '0' || sp2[8] == '1');
	for (char *q = line; ok && q < sp1; q++)
		ok = is_tchar(*q);
	for (char *q = sp1 ? sp1 + 1 : line; ok && q < sp2; q++)
		ok = *q > ' ' && *q < 0x7f;
	if (!ok) {
		client_respond(p, c, 400, "Bad Request", NULL, false);
		return;
	}
	/* Wait for the end of the headers so closing does not reset the
	 * connection under a response the client has not read yet. */
	bool done = false;
	for (size_t i = (size_t)(nl - c->in); i + 1 < c->in_len && !done; i++)
		done = (c->in[i] == '\n' && c->in[i + 1] == '\n') ||
		       (c->in[i] == '\n' && c->in[i + 1] == '\r' && i + 2 < c->in_len && c->in[i + 2] == '\n');
	if (!done) {
		if (c->in_len == sizeof c->in)
			client_respond(p, c, 431, "Request Header Fields Too Large", NULL, false);
		return;
	}
	size_t mlen = (size_t)(sp1 - line);
	bool get = mlen == 3 && memcmp(line, "GET", 3) == 0;
	bool head = mlen == 4 && memcmp(line, "HEAD", 4) == 0;
	if (!get && !head) {
		client_respond(p, c, 405, "Method Not Allowed", "Allow: GET, HEAD\r\n", false);
		return;
	}
	size_t tlen = (size_t)(sp2 - sp1 - 1);
	const char *target = sp1 + 1;
	const char *q = memchr(target, '?', tlen);
	size_t plen = q ? (size_t)(q - target) : tlen;
	if (plen == 8 && memcmp(target, "/metrics", 8) == 0)
		client_respond(p, c, 200, "OK", NULL, head);
	else
		client_respond(p, c, 404, "Not Found", NULL, head);
}

static void client_read(struct prom *p, struct client *c)
{
	for (;;) {
		size_t room = sizeof c->in - c->in_len;
		if (room == 0) {
			client_request(p, c);
			return;
		}
		ssize_t r = recv(c->fd, c->in + c->in_len, room, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (r <= 0) {
			/* The peer closed (or failed) before a whole request. */
			client_drop(p, c);
			return;
		}
		c->in_len += (size_t)r;
	}
	client_request(p, c);
}

static void accept_all(struct prom *p)
{
	while (p->n_cl < PROM_MAX_CLIENTS) {
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;   /* EAGAIN, or a connection that went away: try later */
		struct client *c = NULL;
		for (int i = 0; i < PROM_MAX_CLIENTS && !c; i++)
			if (p->cl[i].fd < 0)
				c = &p->cl[i];
		if (!c) {   /* cannot happen while n_cl counts the slots in use */
			close(fd);
			return;
		}
		c->fd = fd;
		c->in_len = 0;
		c->out = NULL;
		c->draining = false;
		c->deadline = clock_mono_ns() + PROM_TIMEOUT_MS * DVF_NS_PER_MS;
		p->n_cl++;
		/* Most clients have sent their request by now. */
		client_read(p, c);
	}
}

static int listen_open(struct prom *p, const char *spec, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	if (prom_parse_listen(spec, &ss, &sl, err, errlen) < 0)
		return -1;
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--prom-listen %s: %s", spec, strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0) {
		snprintf(err, errlen, "--prom-listen %s: %s", spec, strerror(errno));
		close(fd);
		return -1;
	}
	sl = sizeof ss;
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
		port = ntohs(s4->sin_port);
		snprintf(p->addr, sizeof p->addr, "%s:%d", host, port);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
		port = ntohs(s6->sin6_port);
		snprintf(p->addr, sizeof p->addr, "[%s]:%d", host, port);
	}
	p->lfd = fd;
	return 0;
}

struct prom *prom_open(const char *textfile, const char *listen, const struct prom_view *v,
		       char *err, size_t errlen)
{
	struct prom *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->lfd = -1;
	p->last_write = -1;
	p->view = *v;
	for (int i = 0; i < PROM_MAX_CLIENTS; i++)
		p->cl[i].fd = -1;
	if (textfile) {
		p->textfile = strdup(textfile);
		int e = p->textfile ? textfile_write(p) : ENOMEM;
		if (e) {
			snprintf(err, errlen, "--prom-textfile %s: %s", textfile, strerror(e));
			prom_close(p);
			return NULL;
		}
	}
	if (listen && listen_open(p, listen, err, errlen) < 0) {
		prom_close(p);
		return NULL;
	}
	return p;
}

void prom_close(struct prom *p)
{
	if (!p)
		return;
	if (p->textfile && p->last_write >= 0)
		textfile_write(p);
	for (int i = 0; i < PROM_MAX_CLIENTS; i++)
		client_drop(p, &p->cl[i]);
	if (p->lfd >= 0)
		close(p->lfd);
	free(p->textfile);
	free(p);
}

const char *prom_address(const struct prom *p)
{
	return p && p->lfd >= 0 ? p->addr : NULL;
}

int prom_fds(const struct prom *p, struct pollfd *fds, int max)
{
	int n = 0;
	if (!p || p->lfd < 0)
		return 0;
	/* At the cap, the listening socket is left out: new connections wait
	 * in the backlog instead of waking us for nothing. */
	if (p->n_cl < PROM_MAX_CLIENTS && n < max)
		fds[n++] = (struct pollfd){ .fd = p->lfd, .events = POLLIN };
	for (int i = 0; i < PROM_MAX_CLIENTS && n < max; i++)
		if (p->cl[i].fd >= 0)
			fds[n++] = (struct pollfd){ .fd = p->cl[i].fd, .events = p->cl[i].out && !p->cl[i].draining ? POLLOUT : POLLIN };
	return n;
}

int prom_timeout_ms(const struct prom *p)
{
	if (!p || p->n_cl == 0)
		return -1;
	int64_t now = clock_mono_ns(), first = INT64_MAX;
	for (int i = 0; i < PROM_MAX_CLIENTS; i++)
		if (p->cl[i].fd >= 0 && p->cl[i].deadline < first)
			first = p->cl[i].deadline;
	if (first <= now)
		return 0;
	return (int)((first - now + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS);
}

void prom_poll(struct prom *p, const struct pollfd *fds, int n)
{
	if (!p || p->lfd < 0)
		return;
	for (int k = 0; k < n; k++) {
		if (!fds[k].revents)
			continue;
		if (fds[k].fd == p->lfd) {
			accept_all(p);
			continue;
		}
		for (int i = 0; i < PROM_MAX_CLIENTS; i++) {
			struct client *c = &p->cl[i];
			if (c->fd != fds[k].fd)
				continue;
			if (c->draining)
				client_drain(p, c);
			else if (c->out)
				client_send(p, c);
			else
				client_read(p, c);
			break;
		}
	}
	int64_t now = clock_mono_ns();
	for (int i = 0; i < PROM_MAX_CLIENTS; i++)
		if (p->cl[i].fd >= 0 && now >= p->cl[i].deadline)
			client_drop(p, &p->cl[i]);
}

/* Serve whatever is ready, without waiting. */
static void serve_now(struct prom *p)
{
	struct pollfd fds[PROM_MAX_FDS];
	int n = prom_fds(p, fds, PROM_MAX_FDS);
	if (n > 0 && poll(fds, (nfds_t)n, 0) > 0)
		prom_poll(p, fds, n);
	else
		prom_poll(p, fds, 0);
}

void prom_wait(struct prom *p, int64_t ns)
{
	if (!p || p->lfd < 0)
		return;
	int64_t end = clock_mono_ns() + ns;
	for (;;) {
		int64_t left = end - clock_mono_ns();
		if (left <= 0)
			break;
		struct pollfd fds[PROM_MAX_FDS];
		int n = prom_fds(p, fds, PROM_MAX_FDS);
		int to = (int)((left + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS);
		int ct = prom_timeout_ms(p);
		if (ct >= 0 && ct < to)
			to = ct;
		int r = poll(fds, (nfds_t)n, to);
		if (r < 0 && errno != EINTR)
			break;
		if (r < 0)
			return;   /* a signal: let the caller look at it */
		prom_poll(p, fds, r > 0 ? n : 0);
	}
}

const char *prom_update(struct prom *p, const struct prom_view *v)
{
	if (!p)
		return NULL;
	p->view = *v;
	const char *msg = NULL;
	if (p->textfile && (p->last_write < 0 || clock_mono_ns() - p->last_write >= DVF_NS_PER_S)) {
		int e = textfile_write(p);
		if (e && e != p->last_err) {
			snprintf(p->msg, sizeof p->msg, "Prometheus textfile %s: %s (retrying every second)",
				 p->textfile, strerror(e));
			msg = p->msg;
		}
		p->last_err = e;
	}
	if (p->lfd >= 0)
		serve_now(p);
	return msg;
}
