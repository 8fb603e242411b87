/* perf report's entries: the samples of one event, added up by place (see hist.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "hash.h"
#include "machine.h"
#include "session.h"

static u64 hist_entry__hash(const struct hist_entry *h)
{
	u64 v = (u64)(uintptr_t)h->comm * 31 + (u64)h->pid;

	v = v * 1000003 ^ (u64)(uintptr_t)h->trace;
	v = v * 1000003 ^ (u64)(uintptr_t)h->srcline;
	v = v * 1000003 ^ (u64)h->cpu;
	v = v * 1000003 ^ (u64)(uintptr_t)h->dso;
	v = v * 1000003 ^ (h->sym ? (u64)(uintptr_t)h->sym : h->addr);
	return u64__hash(v);
}

static u64 hists__entry_hash(const void *entry, void *ctx)
{
	(void)ctx;
	return hist_entry__hash(entry);
}

static bool hists__entry_same(const void *entry, const void *key, void *ctx)
{
	const struct hist_entry *a = entry, *b = key;

	(void)ctx;
	return a->comm == b->comm && a->trace == b->trace && a->srcline == b->srcline &&
	       a->pid == b->pid && a->gen == b->gen && a->cpu == b->cpu && a->dso == b->dso &&
	       a->sym == b->sym && (a->sym || a->addr == b->addr);
}

void hists__init(struct hists *h)
{
	memset(h, 0, sizeof(*h));
	hashtab__init(&h->entries, sizeof(struct hist_entry), 1024, hists__entry_hash,
		      hists__entry_same, NULL);
}

void hists__exit(struct hists *h)
{
	struct hist_entry *e;
	size_t i;

	hashtab__for_each(&h->entries, i, e)
		callchain_root__delete(e->cc);
	hashtab__exit(&h->entries);
}

int hists__reserve(struct hists *h, size_t more)
{
	/*
	 * One more than asked: the table grows as report's own one did, when
	 * the entries would fill half of it, so that its slot order (the
	 * order equal entries are sorted from) is the same.
	 */
	return hashtab__reserve(&h->entries, more + 1);
}

struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *key,
				  struct thread *thread)
{
	u64 hash = hist_entry__hash(key);
	struct hist_entry *e = hashtab__find(&h->entries, key, hash);

	if (e)
		return e;
	e = hashtab__add(&h->entries, key, hash);
	if (e) {
		e->tid = thread->tid;
		e->thread = thread;
		e->seq = h->nr_made++;
	}
	return e;
}

struct hist_entry *hists__find(const struct hists *h, const struct hist_entry *key)
{
	return hashtab__find(&h->entries, key, hist_entry__hash(key));
}

static int hist_entry__seq_cmp(const void *a, const void *b)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct hist_entry **hists__entries(const struct hists *h, size_t *n)
{
	struct hist_entry **v = malloc((h->entries.nr ? h->entries.nr : 1) * sizeof(*v));
	struct hist_entry *e;
	size_t i;

	if (!v)
		return NULL;
	*n = 0;
	hashtab__for_each(&h->entries, i, e)
		v[(*n)++] = e;
	qsort(v, *n, sizeof(*v), hist_entry__seq_cmp);
	return v;
}

void hist_entry__merge(struct hist_entry *to, struct hist_entry *from)
{
	if (to->cc && from->cc)
		callchain_root__merge(to->cc, from->cc);
	else if (from->cc)
		to->cc = from->cc;
	to->nr += from->nr;
	to->period += from->period;
	to->period_acc += from->period_acc;
	if (from->max_depth > to->max_depth)
		to->max_depth = from->max_depth;
}

int hist_entry__append(struct hist_entry *he, const struct callchain_frame *frames, size_t nr,
		       u64 period, bool trees)
{
	if (nr > he->max_depth)
		he->max_depth = (u32)nr;
	if (!trees)
		return 0;
	if (!he->cc) {
		he->cc = calloc(1, sizeof(*he->cc));
		if (!he->cc)
			return -ENOMEM;
	}
	return callchain_root__append(he->cc, frames, nr, period);
}

/*
 * A thread seen before any record named it (it was born between the
 * recorder's look at /proc and the start of its events) has the made-up
 * name ":tid" until its first COMM, which then becomes its name from the
 * start, also for the samples already counted: the distro renames that
 * made-up name in place.
 */
int hists__name_unnamed(struct hists *h, struct strset *strs)
{
	struct hist_entry *e, **v;
	struct hashtab old;
	bool any = false;
	size_t i, n;

	hashtab__for_each(&h->entries, i, e) {
		if (e->comm_unset && e->thread->comm_set) {
			e->comm = strset__intern(strs, thread__comm_at(e->thread, 0));
			if (!e->comm)
				return -ENOMEM;
			e->comm_unset = false;
			any = true;
		}
	}
	if (!any)
		return 0;
	/* Rebuilt as large as it was, the entries put back in the order they were made. */
	v = hists__entries(h, &n);
	if (!v || hashtab__move(&h->entries, &old)) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		size_t nr = h->entries.nr;
		struct hist_entry *to = hists__findnew(h, v[i], v[i]->thread);

		if (h->entries.nr != nr)
			to->seq = v[i]->seq;	/* a new slot: a copy of the whole entry */
		else
			hist_entry__merge(to, v[i]);
	}
	free(v);
	hashtab__exit(&old);
	return 0;
}

void hists__print_stats(const struct hists *hists, struct perf_session *s)
{
	u64 total = 0;
	struct evsel *e;

	for (u32 t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		total += s->nr_by_type[t];
	printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (u32 t = 0; t < PERF_RECORD_HEADER_MAX; t++) {
		const char *name = perf_event__type_name(t);

		if (!s->nr_by_type[t] || !name)
			continue;
		printf("%16s events: %10llu  (%4.1f%%)\n", name,
		       (unsigned long long)s->nr_by_type[t], 100.0 * s->nr_by_type[t] / total);
	}
	/* An event that only lost samples (a dummy's) has its lines too. */
	evlist__for_each_entry(s->evlist, e) {
		if (!hists[e->idx].nr_samples && !hists[e->idx].lost_samples)
			continue;
		printf("%s stats:\n", evsel__name(e));
		if (hists[e->idx].nr_samples)
			printf("%16s events: %10llu\n", "SAMPLE",
			       (unsigned long long)hists[e->idx].nr_samples);
		if (hists[e->idx].lost_samples)
			printf("%16s events: %10llu\n", "LOST_SAMPLES",
			       (unsigned long long)hists[e->idx].lost_samples);
	}
}
