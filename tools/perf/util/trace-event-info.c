/*
 * The tracing-data block of perf.data: what a reader needs to decode the
 * raw payload of tracepoint samples without access to this machine's tracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace-event-info.h"
#include "evlist.h"
#include "header.h"
#include "tracepoint.h"
#include "debug.h"
#include "page-size.h"

/* A tracefs file with its size in front; 4- or 8-byte size as the block requires. */
static void tracing_data__add_file(struct perf_feat_buf *b, const char *rel, int size_bytes,
				   bool must_exist)
{
	size_t len = 0;
	char *s = tracepoint__read_file(rel, &len);

	if (!s) {
		if (must_exist && !b->err)
			b->err = errno ? -errno : -ENOENT;
		len = 0;
	}
	if (size_bytes == 4) {
		u32 l = len;

		perf_feat_buf__add(b, &l, 4);
	} else {
		u64 l = len;

		perf_feat_buf__add(b, &l, 8);
	}
	if (s)
		perf_feat_buf__add(b, s, len);
	free(s);
}

/* Tracepoint evsels, by system then name, deduplicated. */
struct tp_ref {
	const char *sys, *name;
};

static int tp_ref__cmp(const void *a, const void *b)
{
	const struct tp_ref *x = a, *y = b;
	int c = strcmp(x->sys, y->sys);

	return c ? c : strcmp(x->name, y->name);
}

/* The tracepoint evsels of @evlist's file, sorted; NULL (*nr 0) when there are none. */
static struct tp_ref *tracing_data__refs(struct evlist *evlist, int *nr, int *err)
{
	struct tp_ref *refs;
	struct evsel *evsel;

	*nr = 0;
	refs = calloc(evlist__nr_file_evsels(evlist) + 1, sizeof(*refs));
	if (!refs) {
		*err = -ENOMEM;
		return NULL;
	}
	evlist__for_each_file_evsel(evlist, evsel) {
		if (!evsel__is_tracepoint(evsel) || !evsel->tp_sys || !evsel->tp_name)
			continue;
		refs[*nr].sys = evsel->tp_sys;
		refs[*nr].name = evsel->tp_name;
		(*nr)++;
	}
	if (!*nr) {
		free(refs);
		*err = -ENOENT;
		return NULL;
	}
	qsort(refs, *nr, sizeof(*refs), tp_ref__cmp);
	return refs;
}

/* What comes before the events' formats: magic, version, sizes, the ring buffer's headers. */
static void tracing_data__add_prologue(struct perf_feat_buf *b)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	u32 u, zero = 0;
	u8 c;

	perf_feat_buf__add(b, magic, sizeof(magic));
	perf_feat_buf__add(b, "0.6", 4);
	c = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	perf_feat_buf__add(b, &c, 1);
	c = sizeof(long);
	perf_feat_buf__add(b, &c, 1);
	u = page_size();
	perf_feat_buf__add(b, &u, 4);

	perf_feat_buf__add(b, "header_page", 12);
	tracing_data__add_file(b, "events/header_page", 8, true);
	perf_feat_buf__add(b, "header_event", 13);
	tracing_data__add_file(b, "events/header_event", 8, true);

	/* ftrace's own events: none are recorded as tracepoint evsels. */
	perf_feat_buf__add(b, &zero, 4);
}

/* The systems of @refs (sorted), each its name, its count of events and their formats. */
static void tracing_data__add_systems(struct perf_feat_buf *b, const struct tp_ref *refs, int nr)
{
	int nsys = 0;
	u32 u;

	for (int i = 0; i < nr; i++)
		if (i == 0 || strcmp(refs[i].sys, refs[i - 1].sys))
			nsys++;
	u = nsys;
	perf_feat_buf__add(b, &u, 4);
	for (int i = 0; i < nr;) {
		int j = i;
		u32 count = 0;

		while (j < nr && !strcmp(refs[j].sys, refs[i].sys)) {
			if (j == i || strcmp(refs[j].name, refs[j - 1].name))
				count++;
			j++;
		}
		perf_feat_buf__add(b, refs[i].sys, strlen(refs[i].sys) + 1);
		perf_feat_buf__add(b, &count, 4);
		for (int k = i; k < j; k++) {
			char rel[1024];

			if (k > i && !strcmp(refs[k].name, refs[k - 1].name))
				continue;
			snprintf(rel, sizeof(rel), "events/%s/%s/format", refs[k].sys, refs[k].name);
			tracing_data__add_file(b, rel, 8, true);
		}
		i = j;
	}
}

int tracing_data__write(struct perf_feat_buf *b, struct evlist *evlist)
{
	size_t start = b->len;
	struct tp_ref *refs;
	u32 zero = 0;
	int nr, err;

	refs = tracing_data__refs(evlist, &nr, &err);
	if (!refs)
		return err;
	tracing_data__add_prologue(b);
	tracing_data__add_systems(b, refs, nr);
	free(refs);
	/*
	 * kallsyms is left empty (a zero size, as readers accept): they use
	 * the MMAP records and their own symbol sources instead.
	 */
	perf_feat_buf__add(b, &zero, 4);
	tracing_data__add_file(b, "printk_formats", 4, false);
	tracing_data__add_file(b, "saved_cmdlines", 8, false);
	if (b->err) {
		err = b->err;
		/* A missing format is this feature's failure only: drop what it added. */
		pr_debug("tracing data: %s\n", strerror(-err));
		b->len = start;
		if (err != -ENOMEM)
			b->err = 0;
		return err;
	}
	return 0;
}
