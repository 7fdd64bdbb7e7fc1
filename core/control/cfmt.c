#include "config.h"
#include "cfmt.h"

#include <stdarg.h>
#include <stdio.h>

void cfmt(char *buf, size_t len, const char *f, ...)
{
	if (!buf || !len)
		return;
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

void cfmt_mhz(int64_t hz, char *buf, size_t len, bool unit)
{
	const char *u = unit ? " MHz" : "";
	int64_t whole = hz / 1000000, frac = hz % 1000000;
	if (frac < 0)
		frac = -frac;
	if (frac == 0) {
		cfmt(buf, len, "%lld%s", (long long)whole, u);
		return;
	}
	char f[8];
	cfmt(f, sizeof f, "%06lld", (long long)frac);
	for (int i = 5; i > 0 && f[i] == '0'; i--)
		f[i] = '\0';
	cfmt(buf, len, "%lld.%s%s", (long long)whole, f, u);
}
