#ifndef PERF_UTIL_HEADER_FEAT_H
#define PERF_UTIL_HEADER_FEAT_H
/*
 * The perf.data features, one row each (util/header-feat.c), and the
 * primitives their payloads are built and read with.  Private to the
 * header code (header*.c) and its tests.
 */
#include <stdio.h>
#include <string.h>
#include "header.h"

struct evlist;
struct perf_session;

/* A perf.data string is padded to this, its NUL included. */
#define FEAT_NAME_ALIGN	64

static inline void fbuf__add_u32(struct perf_feat_buf *b, u32 v)
{
	perf_feat_buf__add(b, &v, sizeof(v));
}

static inline void fbuf__add_u64(struct perf_feat_buf *b, u64 v)
{
	perf_feat_buf__add(b, &v, sizeof(v));
}

static inline void fbuf__add_zeros(struct perf_feat_buf *b, size_t n)
{
	static const char zeros[FEAT_NAME_ALIGN];

	while (n) {
		size_t l = n < sizeof(zeros) ? n : sizeof(zeros);

		perf_feat_buf__add(b, zeros, l);
		n -= l;
	}
}

/*
 * @nr sample ids, in ascending order whatever order they were opened in
 * (a flight recorder's twins and group leaders): the attrs' id sections
 * and EVENT_DESC list them alike, and the distro prints the latter.
 */
void fbuf__add_ids(struct perf_feat_buf *b, const u64 *ids, int nr);

/* A perf.data string: u32 padded length (NUL included), then the padded bytes. */
static inline void fbuf__add_string(struct perf_feat_buf *b, const char *s)
{
	size_t len = strlen(s) + 1, padded = PERF_ALIGN(len, FEAT_NAME_ALIGN);

	fbuf__add_u32(b, padded);
	perf_feat_buf__add(b, s, len);
	fbuf__add_zeros(b, padded - len);
}

/* A bounded cursor over one feature section, read into memory. */
struct fcur {
	const char *p, *end;
};

static inline int fcur__u32(struct fcur *c, u32 *v)
{
	if (c->end - c->p < 4)
		return -EINVAL;
	memcpy(v, c->p, 4);
	c->p += 4;
	return 0;
}

static inline int fcur__u64(struct fcur *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

static inline int fcur__skip(struct fcur *c, u64 len)
{
	if (len > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += len;
	return 0;
}

/*
 * One feature.  A file's features are written, read and printed in the
 * order of their bits, so a row's place is its bit.
 */
struct perf_feat_ops {
	/* As the distro names it ("missing features", warnings). */
	const char *name;
	/*
	 * Appends the payload to @b; -ENOENT leaves the feature out (it does
	 * not apply, or this machine cannot describe it).  @info may be NULL.
	 * NULL: we never write it.
	 */
	int (*write)(struct perf_feat_buf *b, struct evlist *evlist,
		     struct perf_header_info *info);
	/*
	 * Takes the payload of a file or stream into the session; -EINVAL
	 * for a damaged one.  @off is where it lies, for messages.  NULL: the
	 * section is not even read.
	 */
	int (*process)(struct perf_session *s, struct fcur *c, u64 off);
	/* Its lines of perf report --header, for a session that has the feature. */
	void (*print)(struct perf_session *s, int feat, FILE *fp);
	/* Known when a stream starts, so perf record -o - sends it ahead of the data. */
	bool pipe;
	/*
	 * Each dump of the flight recorder (perf.data.<timestamp>) is a file
	 * of its own whose features are all written anew when it is finished;
	 * nothing is copied from the previous one.  Set: the payload is the
	 * dump's own (its samples' files and times, its compression, what
	 * asked for it, the clock read when its file was opened).  Clear: the
	 * same description of the machine and the recording in every dump.
	 */
	bool per_dump;
};

/* The row of @feat, or NULL when this perf knows nothing of it. */
const struct perf_feat_ops *perf_feat__ops(int feat);
/* The distro's name of @feat; "(unknown)" for bits it does not define (ours too). */
const char *perf_feat__name(int feat);
/* HEADER_BUILD_ID of a recording: the kernel, the vdso and the files of info's DSOs. */
int perf_header_info__write_build_ids(struct perf_feat_buf *b, struct perf_header_info *info);

#endif
