#ifndef PERF_UTIL_MAN_H
#define PERF_UTIL_MAN_H
#include <stdio.h>
#include "types.h"

/* Writes the asciidoc page read from @in to @out laid out for a terminal; 0 or -1. */
int man__render(FILE *in, FILE *out);

#endif
