/* perf diff: pairing two files' entries, their differences, the table's order (see diff.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "hist.h"
#include "sort.h"
#include "symbol.h"

/* "wdiff:w1,w2": both weights given and neither zero, as the distro wants them. */
static int diff_opts__parse_weights(struct diff_opts *o, const char *w, char *err, size_t len)
{
	const char *comma = w ? strchr(w, ',') : NULL;

	if (!comma || !comma[1])
		goto bad;
	o->w1 = strtol(w, NULL, 10);
	o->w2 = strtol(comma + 1, NULL, 10);
	if (!o->w1 || !o->w2)
		goto bad;
	return 0;
bad:
	snprintf(err, len, "Failed: wrong weight data, use 'wdiff:w1,w2'\n");
	return -EINVAL;
}

int diff_opts__parse_compute(struct diff_opts *o, const char *arg, char *err, size_t len)
{
	static const char *const names[] = {
		[DIFF_DELTA] = "delta", [DIFF_DELTA_ABS] = "delta-abs",
		[DIFF_RATIO] = "ratio", [DIFF_WDIFF] = "wdiff",
	};
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != n || strncmp(arg, names[i], n))
			continue;
		o->compute = (enum diff_compute)i;
		if (o->compute == DIFF_WDIFF)
			return diff_opts__parse_weights(o, colon ? colon + 1 : NULL, err, len);
		if (colon) {
			/* The distro ends this one without a newline. */
			snprintf(err, len, "Failed: extra option specified '%s'", colon + 1);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, len, "Failed: '%s' is not computation method "
		 "(use 'delta','ratio' or 'wdiff')\n", arg);
	return -EINVAL;
}

double diff__delta(u64 base, u64 base_total, u64 pair, u64 pair_total)
{
	double old = base_total ? base * 100.0 / base_total : 0;
	double new = pair_total ? pair * 100.0 / pair_total : 0;

	return new - old;
}

/* A new entry without a baseline is divided by 1: its ratio orders those rows. */
double diff__ratio(u64 base, u64 pair)
{
	return (double)pair / (double)(base ? base : 1);
}

s64 diff__wdiff(u64 base, u64 pair, s64 w1, s64 w2)
{
	return (s64)pair * w2 - (s64)base * w1;
}

static int diff__keys_cmp(const struct sort_keys *keys, const struct hist_entry *x,
			  const struct hist_entry *y)
{
	for (int k = 0; k < keys->nr_keys; k++) {
		int c;

		/* Addresses at no symbol are one key (see diff.h). */
		if (keys->keys[k] == SORT_SYM && !x->sym && !y->sym)
			continue;
		c = hist_entry__key_cmp(x, y, keys->keys[k]);

		if (c)
			return c;
	}
	return 0;
}

static int diff__entry_cmp(const void *a, const void *b, void *arg)
{
	return diff__keys_cmp(arg, *(struct hist_entry * const *)a, *(struct hist_entry * const *)b);
}

/*
 * By the keys; equal ones in the order the distro meets them, which
 * decides the one that stays (a symbol's "[k]" or "[.]", the address
 * shown for no symbol): the lowest address at no symbol, else by object
 * name, then by where the symbol starts, then as they were made.
 */
static int diff__entry_order_cmp(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;
	int c = diff__keys_cmp(arg, x, y);

	if (c)
		return c;
	/* Addresses at no symbol: the lowest one. */
	if (!x->sym && !y->sym && x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	c = strcmp(dso__short(x->dso), dso__short(y->dso));
	if (c)
		return c;
	if (x->sym && y->sym && x->sym->start != y->sym->start)
		return x->sym->start < y->sym->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t diff__collapse(struct hist_entry **v, size_t n, const struct sort_keys *keys)
{
	size_t kept = 0;

	qsort_r(v, n, sizeof(*v), diff__entry_order_cmp, (void *)keys);
	for (size_t i = 0; i < n; i++) {
		if (kept && !diff__keys_cmp(keys, v[kept - 1], v[i]))
			hist_entry__merge(v[kept - 1], v[i]);
		else
			v[kept++] = v[i];
	}
	return kept;
}

static void diff_row__compute(struct diff_row *r, const struct diff_opts *o, u64 base_total,
			      u64 pair_total)
{
	u64 base = r->base ? r->base->period : 0;

	if (!r->pair)
		return;
	r->delta = diff__delta(base, base_total, r->pair->period, pair_total);
	r->ratio = diff__ratio(base, r->pair->period);
	r->wdiff = diff__wdiff(base, r->pair->period, o->w1, o->w2);
}

/*
 * Pairs by binary search in the new entries sorted by their keys: keys
 * compare by name (objects, symbols, comms), so entries of two runs of
 * different binaries still pair, as in the distro.
 */
struct diff_row *diff__pair(struct hist_entry **base, size_t nb, struct hist_entry **pair,
			    size_t np, const struct sort_keys *keys, const struct diff_opts *o,
			    u64 base_total, u64 pair_total, bool baseline_only, size_t *nr)
{
	struct hist_entry **sorted = malloc((np ? np : 1) * sizeof(*sorted));
	bool *taken = calloc(np ? np : 1, sizeof(*taken));
	struct diff_row *rows = calloc(nb + np + 1, sizeof(*rows));
	size_t n = 0;

	if (!sorted || !taken || !rows)
		goto out_fail;
	memcpy(sorted, pair, np * sizeof(*sorted));
	qsort_r(sorted, np, sizeof(*sorted), diff__entry_cmp, (void *)keys);
	for (size_t i = 0; i < nb; i++) {
		struct hist_entry **hit = NULL;
		size_t lo = 0, hi = np;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = diff__keys_cmp(keys, base[i], sorted[mid]);

			if (!c) {
				hit = &sorted[mid];
				break;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (baseline_only && !hit)
			continue;
		rows[n].base = base[i];
		if (hit && !taken[hit - sorted]) {
			rows[n].pair = *hit;
			taken[hit - sorted] = true;
		}
		diff_row__compute(&rows[n++], o, base_total, pair_total);
	}
	/* The new file's own entries: a row each, as if the baseline had them at 0. */
	for (size_t i = 0; i < np && !baseline_only; i++) {
		if (taken[i])
			continue;
		rows[n].pair = sorted[i];
		diff_row__compute(&rows[n++], o, base_total, pair_total);
	}
	free(sorted);
	free(taken);
	*nr = n;
	return rows;
out_fail:
	free(sorted);
	free(taken);
	free(rows);
	return NULL;
}

static int double__cmp_desc(double x, double y)
{
	return x > y ? -1 : x < y;
}

/* Two rows that both have a new entry, by the computed value, largest first. */
static int diff_row__value_cmp(const struct diff_row *a, const struct diff_row *b,
			       enum diff_compute c)
{
	switch (c) {
	case DIFF_DELTA:
		return double__cmp_desc(a->delta, b->delta);
	case DIFF_DELTA_ABS:
		return double__cmp_desc(fabs(a->delta), fabs(b->delta));
	case DIFF_RATIO:
		return double__cmp_desc(a->ratio, b->ratio);
	case DIFF_WDIFF:
		return a->wdiff > b->wdiff ? -1 : a->wdiff < b->wdiff;
	}
	return 0;
}

/* The computed column: rows with a new entry first, then by value. */
static int diff_row__compute_cmp(const struct diff_row *a, const struct diff_row *b,
				 enum diff_compute c)
{
	if (!a->pair || !b->pair)
		return (a->pair == NULL) - (b->pair == NULL);
	return diff_row__value_cmp(a, b, c);
}

/*
 * -o 1: as the computed column, but a ratio or a weighted difference means
 * nothing without a baseline, so those rows go after the others.
 */
static int diff_row__order_cmp(const struct diff_row *a, const struct diff_row *b,
			       enum diff_compute c)
{
	if (!a->pair || !b->pair)
		return (a->pair == NULL) - (b->pair == NULL);
	if (c == DIFF_RATIO || c == DIFF_WDIFF) {
		if (!a->base && !b->base)
			return 0;
		if (!a->base || !b->base)
			return a->base ? -1 : 1;
	}
	return diff_row__value_cmp(a, b, c);
}

struct diff_sort {
	const struct sort_keys *keys;
	const struct diff_opts *o;
};

static int diff_row__cmp(const void *x, const void *y, void *arg)
{
	const struct diff_row *a = x, *b = y;
	const struct diff_sort *s = arg;
	u64 pa = a->base ? a->base->period : 0, pb = b->base ? b->base->period : 0;
	int c = 0;

	if (s->o->by_compute)
		c = diff_row__order_cmp(a, b, s->o->compute);
	if (!c && pa != pb)
		c = pa > pb ? -1 : 1;
	if (!c)
		c = diff_row__compute_cmp(a, b, s->o->compute);
	if (!c)
		c = diff__keys_cmp(s->keys, a->base ? a->base : a->pair, b->base ? b->base : b->pair);
	return c;
}

void diff__sort(struct diff_row *rows, size_t n, const struct sort_keys *keys,
		const struct diff_opts *o)
{
	struct diff_sort s = { .keys = keys, .o = o };

	qsort_r(rows, n, sizeof(*rows), diff_row__cmp, &s);
}
