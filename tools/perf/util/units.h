#ifndef PERF_UTIL_UNITS_H
#define PERF_UTIL_UNITS_H

#include <stdbool.h>
#include "types.h"

/*
 * "4096", "16K", "2M", "1G" (B, K, M or G, either case) -> bytes in *val;
 * *had_unit false for a bare number.
 */
int units__parse_size(const char *s, u64 *val, bool *had_unit);

#endif
