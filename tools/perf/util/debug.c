#include <stdio.h>
#include "debug.h"

int verbose;
int quiet;

int eprintf(int level, const char *fmt, ...)
{
	va_list ap;
	int ret = 0;

	if (level >= 0 && (quiet || verbose < level))
		return 0;
	va_start(ap, fmt);
	ret = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return ret;
}

void ui__warning(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fputs("Warning:\n", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
