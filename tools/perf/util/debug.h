#ifndef PERF_UTIL_DEBUG_H
#define PERF_UTIL_DEBUG_H
#include <stdarg.h>

/* -v raises it; -q sets it to -1 (only errors). */
extern int verbose;
/* Set by -q: suppress warnings and summaries, keep errors. */
extern int quiet;

int eprintf(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pr_err(fmt, ...)	eprintf(-1, fmt, ##__VA_ARGS__)
#define pr_warning(fmt, ...)	eprintf(0, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	eprintf(0, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	eprintf(1, fmt, ##__VA_ARGS__)
#define pr_debug2(fmt, ...)	eprintf(2, fmt, ##__VA_ARGS__)

/* A warning the user must see once: printed as "Warning:\n<text>". */
void ui__warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
