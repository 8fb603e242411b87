/*
 * The head of a pipe-format stream (perf record -o -).  A pipe cannot be
 * seeked back to, so what a file keeps in its header and feature sections
 * travels as records in front of the data, in the order the distro's
 * recorder writes them: one HEADER_ATTR per event (the attr, then its ids),
 * one HEADER_FEATURE per feature known at the start and a HEADER_FEATURE
 * of id HEADER_LAST_FEATURE closing them, HEADER_TRACING_DATA followed by
 * the tracing data, and one EVENT_UPDATE per event carrying its name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "header.h"
#include "header-feat.h"
#include "data.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"

#define RECORD_MAX	0xffff		/* a header's u16 size */

static void pipe__add_header(struct perf_feat_buf *b, u32 type, size_t size)
{
	struct perf_event_header h = { .type = type, .size = (u16)size };

	perf_feat_buf__add(b, &h, sizeof(h));
}

static int pipe__add_attrs(struct perf_feat_buf *b, struct evlist *evlist)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		struct perf_event_attr attr = e->attr;
		size_t size = sizeof(struct perf_event_header) + sizeof(attr) +
			      (size_t)e->nr_ids * sizeof(u64);

		if (size > RECORD_MAX) {
			pr_err("%s has %d ids, more than one pipe-format record holds; "
			       "record to a file instead.\n", evsel__name(e), e->nr_ids);
			return -E2BIG;
		}
		/* The reader finds the ids after attr.size bytes. */
		attr.size = sizeof(attr);
		pipe__add_header(b, PERF_RECORD_HEADER_ATTR, size);
		perf_feat_buf__add(b, &attr, sizeof(attr));
		fbuf__add_ids(b, e->ids, e->nr_ids);
	}
	return 0;
}

static void pipe__add_features(struct perf_feat_buf *b, struct evlist *evlist,
			       struct perf_header_info *info)
{
	struct perf_feat_buf payload = { 0 };
	u64 feat;

	/* Those a reader may want before the data; the rest are known only at the end. */
	for (feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		const struct perf_feat_ops *ops = perf_feat__ops((int)feat);

		if (!ops || !ops->pipe)
			continue;
		payload.len = 0;
		if (perf_header__feature((int)feat, &payload, evlist, info) || payload.err)
			continue;
		if (payload.len > RECORD_MAX - 16) {
			pr_debug("pipe: feature %d (%zu bytes) left out\n", (int)feat, payload.len);
			continue;
		}
		pipe__add_header(b, PERF_RECORD_HEADER_FEATURE, 16 + payload.len);
		perf_feat_buf__add(b, &feat, sizeof(feat));
		perf_feat_buf__add(b, payload.p, payload.len);
	}
	free(payload.p);
	feat = HEADER_LAST_FEATURE;
	pipe__add_header(b, PERF_RECORD_HEADER_FEATURE, 16);
	perf_feat_buf__add(b, &feat, sizeof(feat));
}

/* HEADER_TRACING_DATA counts the (8-byte padded) data that follows it, outside its own size. */
static int pipe__add_tracing_data(struct perf_feat_buf *b, struct evlist *evlist,
				  struct perf_header_info *info)
{
	struct perf_feat_buf td = { 0 };
	static const char zeros[8];
	u32 size[2] = { 0, 0 };
	int err = perf_header__feature(HEADER_TRACING_DATA, &td, evlist, info);

	if (!err)
		err = td.err;
	if (err) {
		free(td.p);
		return err;
	}
	size[0] = (u32)PERF_ALIGN(td.len, sizeof(u64));
	pipe__add_header(b, PERF_RECORD_HEADER_TRACING_DATA, 16);
	perf_feat_buf__add(b, size, sizeof(size));
	perf_feat_buf__add(b, td.p, td.len);
	perf_feat_buf__add(b, zeros, size[0] - td.len);
	free(td.p);
	return 0;
}

static void pipe__add_names(struct perf_feat_buf *b, struct evlist *evlist)
{
	static const char zeros[8];
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		const char *name = evsel__name(e);
		size_t len = strlen(name) + 1, padded = PERF_ALIGN(len, sizeof(u64));
		u64 words[2] = { 2 /* PERF_EVENT_UPDATE__NAME */, 0 };

		if (!e->nr_ids || 24 + padded > RECORD_MAX)
			continue;
		words[1] = e->ids[0];
		pipe__add_header(b, PERF_RECORD_EVENT_UPDATE, 24 + padded);
		perf_feat_buf__add(b, words, sizeof(words));
		perf_feat_buf__add(b, name, len);
		perf_feat_buf__add(b, zeros, padded - len);
	}
}

int perf_header__write_pipe(struct perf_data *data, struct evlist *evlist,
			    struct perf_header_info *info)
{
	u64 h[2] = { PERF_MAGIC2, sizeof(h) };
	struct perf_feat_buf b = { 0 };
	struct evsel *e;
	int err;

	perf_feat_buf__add(&b, h, sizeof(h));
	err = pipe__add_attrs(&b, evlist);
	if (err)
		goto out;
	pipe__add_features(&b, evlist, info);
	evlist__for_each_entry(evlist, e) {
		if (evsel__is_tracepoint(e)) {
			err = pipe__add_tracing_data(&b, evlist, info);
			break;
		}
	}
	if (err)
		goto out;
	pipe__add_names(&b, evlist);
	err = b.err ? b.err : perf_data__write(data, b.p, b.len);
out:
	free(b.p);
	return err;
}
