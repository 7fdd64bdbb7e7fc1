/* The client's side of dvfstopd's protocol: requests written, replies and
 * the greeting's fields read (core/control/helper_client.c).  The daemon
 * links none of it (tests/integration/daemon-links.sh). */
#include "config.h"
#include "helper_proto_client.h"
#include "helper_proto_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

size_t helper_proto_client_req(char *buf, size_t len, enum helper_proto_verb v, int64_t hz, int gpu)
{
	char arg[40] = "", g[16] = "";
	if (v == HP_PIN || v == HP_CAP) {
		int64_t frac = hz % 1000000;
		if (frac == 0) {
			snprintf(arg, sizeof arg, " %lld", (long long)(hz / 1000000));
		} else {
			snprintf(arg, sizeof arg, " %lld.%06lld", (long long)(hz / 1000000), (long long)frac);
			char *e = arg + strlen(arg) - 1;
			while (*e == '0')
				*e-- = '\0';
		}
	}
	if (gpu > 0 && v != HP_RESTORE && v != HP_QUIT)
		snprintf(g, sizeof g, " %d", gpu);
	return helper_proto_line(buf, len, "%s%s%s", helper_proto_verb_name(v), arg, g);
}

int helper_proto_client_reply(const char *line, const char **rest)
{
	if (strncmp(line, "ok", 2) == 0 && (line[2] == ' ' || line[2] == '\n' || line[2] == '\0')) {
		if (rest)
			*rest = line + 2 + (line[2] == ' ');
		return 0;
	}
	if (strncmp(line, "err ", 4) != 0)
		return -1;
	const char *code = line + 4;
	size_t n = strcspn(code, " \n");
	if (rest)
		*rest = code + n + (code[n] == ' ');
	for (int i = 0; i < helper_proto_n_errcodes; i++) {
		const char *name = helper_proto_errcodes[i].name;
		if (strlen(name) == n && strncmp(code, name, n) == 0)
			return helper_proto_errcodes[i].err;
	}
	return EIO;
}

bool helper_proto_client_field(const char *line, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	for (const char *p = line; k && (p = strstr(p, key)) != NULL; p++) {
		if ((p != line && p[-1] != ' ') || p[k] != '=')
			continue;
		const char *v = p + k + 1;
		size_t n = strcspn(v, " \t\r\n");
		if (n >= len)
			return false;
		memcpy(out, v, n);
		out[n] = '\0';
		return true;
	}
	return false;
}

static int hexval(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 :
	       ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

bool helper_proto_client_unescape(const char *s, char *out, size_t len)
{
	size_t n = 0;
	for (; *s; s++) {
		int ch = (unsigned char)*s;
		if (ch == '%') {
			int hi = hexval(s[1]), lo = hi < 0 ? -1 : hexval(s[2]);
			if (lo < 0 || (hi == 0 && lo == 0))
				return false;
			ch = hi * 16 + lo;
			s += 2;
		}
		if (n + 1 >= len)
			return false;
		out[n++] = (char)ch;
	}
	if (!len)
		return false;
	out[n] = '\0';
	return true;
}
