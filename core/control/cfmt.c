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
