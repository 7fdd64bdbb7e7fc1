/* prom: the --prom-listen address parser (prom_parse_listen), and the
 * exposition builder (prom_render) with label values taken from the input.
 * The first line is the address; the rest, split at '|', names the board,
 * the source and the rails.  The text must stay one series per line:
 * every line is a comment or ends in " VALUE" after a closing '}'. */
#include "config.h"
#include "fuzz.h"

#include <stdio.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "prom.h"

static void take(char *dst, size_t len, char **p)
{
	char *bar = strchr(*p, '|');
	if (bar)
		*bar = '\0';
	snprintf(dst, len, "%s", *p);
	*p = bar ? bar + 1 : *p + strlen(*p);
}

static void check_text(const char *t, size_t len)
{
	if (strlen(t) != len)
		abort();   /* a NUL inside the text */
	while (*t) {
		const char *nl = strchr(t, '\n');
		if (!nl)
			abort();   /* the last line is not ended */
		if (*t != '#') {
			const char *brace = NULL;
			for (const char *q = t; q < nl; q++)
				if (*q == '}')
					brace = q;
			if (!brace || brace[1] != ' ')
				abort();
		}
		t = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size);
	char *rest = strchr(in, '\n');
	if (rest)
		*rest++ = '\0';
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	char err[256];
	if (prom_parse_listen(in, &ss, &sl, err, sizeof err) == 0) {
		if (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)
			abort();
		if (sl != sizeof(struct sockaddr_in) && sl != sizeof(struct sockaddr_in6))
			abort();
	} else if (!err[0]) {
		abort();   /* a refusal says why */
	}
	if (rest) {
		struct dvf_info info;
		memset(&info, 0, sizeof info);
		take(info.board_name, sizeof info.board_name, &rest);
		take(info.source, sizeof info.source, &rest);
		take(info.mode, sizeof info.mode, &rest);
		while (*rest && info.n_rails < DVF_MAX_RAILS) {
			take(info.rail_name[info.n_rails], sizeof info.rail_name[0], &rest);
			info.n_rails++;
		}
		struct dvf_sample s;
		memset(&s, 0, sizeof s);
		for (int i = 0; i < info.n_rails; i++)
			s.rail[i].mw = (struct dvf_m){ .v = 1000 * i, .ok = true };
		struct prom_view v = { .info = &info, .cur = &s, .energy = NULL, .n_samples = (uint64_t)size };
		size_t len = 0;
		char *t = prom_render(&v, &len);
		if (t)
			check_text(t, len);
		free(t);
	}
	free(in);
	return 0;
}
