#ifndef PERF_UTIL_DIFF_H
#define PERF_UTIL_DIFF_H
/*
 * perf diff's mechanism: the entries of a baseline and of a new file
 * paired by their sort keys, the difference computed for each pair, and
 * the rows in the distro's order.  Keys compare by name (objects, symbols,
 * comms), so two builds of a program still pair; all addresses at no
 * symbol are one key, as in the distro.
 */
#include <stddef.h>
#include "types.h"

struct hist_entry;
struct sort_keys;

enum diff_compute { DIFF_DELTA, DIFF_DELTA_ABS, DIFF_RATIO, DIFF_WDIFF };

struct diff_opts {
	enum diff_compute compute;
	s64 w1, w2;		/* wdiff: new * w2 - old * w1 */
	bool by_compute;	/* -o 1 (the default): the computed column sorts first */
};

/* One line of the table. */
struct diff_row {
	struct hist_entry *base;	/* NULL: only in the new file (a "dummy" baseline) */
	struct hist_entry *pair;	/* NULL: only in the baseline */
	double delta;			/* percentage points, new minus baseline */
	double ratio;			/* new period / baseline period (1 for none) */
	s64 wdiff;			/* new * w2 - baseline * w1 */
};

/*
 * -c's argument: delta, delta-abs, ratio or wdiff:w1,w2 (two non-zero
 * weights).  -EINVAL with the distro's message in @err.
 */
int diff_opts__parse_compute(struct diff_opts *o, const char *arg, char *err, size_t len);

double diff__delta(u64 base, u64 base_total, u64 pair, u64 pair_total);
double diff__ratio(u64 base, u64 pair);
s64 diff__wdiff(u64 base, u64 pair, s64 w1, s64 w2);

/*
 * One file's entries of equal keys made one (objects of one short name
 * have symbols of their own: the same name, but other entries), into the
 * one made first, as the distro collapses them.  @v ends up in key order;
 * the number left.
 */
size_t diff__collapse(struct hist_entry **v, size_t n, const struct sort_keys *keys);

/*
 * The rows of two files' entries (each collapsed): each baseline entry with the new file's
 * entry of equal keys (or none), then the new file's entries that no
 * baseline entry has; their values computed against the two totals.
 * With @baseline_only, only the pairs.  NULL when out of memory.
 */
struct diff_row *diff__pair(struct hist_entry **base, size_t nb, struct hist_entry **pair,
			    size_t np, const struct sort_keys *keys, const struct diff_opts *o,
			    u64 base_total, u64 pair_total, bool baseline_only, size_t *nr);

/*
 * The distro's order: the computed value of the pairs first (with -o 1),
 * then the baseline's period, then the computed value again (rows without
 * a new entry last), then the keys.
 */
void diff__sort(struct diff_row *rows, size_t n, const struct sort_keys *keys,
		const struct diff_opts *o);

#endif
