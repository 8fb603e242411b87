/*
 * Reading a stream: perf.data in the pipe format (perf record -o -, read
 * with -i -), which cannot be seeked.  What a file keeps in its header
 * comes first as records (attrs, features, the tracing data, names), read
 * by perf_session__open; the data follows, a record at a time, through
 * session.c's record reader.  Records of the head may also come later: an
 * attr added once the data has begun.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "debug.h"
#include "header.h"
#include "fd-io.h"

#define corrupt perf_session__corrupt

static void session__stream_cut(struct perf_session *s)
{
	s->truncated = true;
	pr_warning("WARNING: %s ends inside the record at offset %llu; showing the records "
		   "before it.\n", s->path, (unsigned long long)s->pipe_rec_off);
}

/*
 * The next record of the stream, in s->pipe_buf (64 KiB, 8-byte aligned:
 * records after an unpadded FEATURE or COMPRESSED one are not); NULL at the
 * end of the stream, or with *err set.
 */
static union perf_event *session__pipe_next(struct perf_session *s, int *err)
{
	struct perf_event_header *h = s->pipe_buf;
	ssize_t n;

	*err = 0;
	s->pipe_rec_off = s->pipe_off;
	n = fd__read_upto(s->fd, h, sizeof(*h));
	if (n <= 0) {
		*err = (int)n;
		return NULL;
	}
	if ((size_t)n < sizeof(*h)) {
		session__stream_cut(s);
		return NULL;
	}
	if (h->size < sizeof(*h) || (h->size % sizeof(u64) && !perf_event__type_unpadded(h->type))) {
		*err = corrupt(s, s->pipe_off, "record size %u", h->size);
		return NULL;
	}
	n = fd__read_upto(s->fd, h + 1, h->size - sizeof(*h));
	if (n < 0) {
		*err = (int)n;
		return NULL;
	}
	if ((size_t)n < h->size - sizeof(*h)) {
		session__stream_cut(s);
		return NULL;
	}
	s->pipe_off += h->size;
	return (union perf_event *)h;
}

/*
 * The bytes that follow a record outside its size (tracing data, AUX
 * trace data): into @buf, or skipped when it is NULL.  0, 1 when the
 * stream ends first, or -errno.
 */
static int session__pipe_payload(struct perf_session *s, char *buf, u64 len)
{
	char scratch[4096];

	while (len) {
		size_t chunk = buf ? len : min_t(u64, len, sizeof(scratch));
		ssize_t n = fd__read_upto(s->fd, buf ? buf : scratch, chunk);

		if (n < 0)
			return (int)n;
		s->pipe_off += (u64)n;
		if ((size_t)n < chunk) {
			session__stream_cut(s);
			return 1;
		}
		if (buf)
			buf += n;
		len -= (u64)n;
	}
	return 0;
}

/* HEADER_ATTR: the attr, then its ids up to the record's end. */
static int session__pipe_attr(struct perf_session *s, const union perf_event *ev, u64 off)
{
	const char *buf = (const char *)ev + sizeof(ev->header);
	u64 avail = ev->header.size - sizeof(ev->header), n;
	struct evsel *e;
	u64 *ids;
	u32 sz;
	int err;

	if (avail < PERF_ATTR_SIZE_VER0)
		return corrupt(s, off, "ATTR record of %u bytes", ev->header.size);
	e = perf_session__add_attr(s, buf, avail, (u64)s->evlist->nr_entries, off, &sz, &err);
	if (!e)
		return err;
	n = (avail - sz) / sizeof(u64);
	ids = malloc(n ? n * sizeof(u64) : 1);
	if (!ids)
		return -ENOMEM;
	memcpy(ids, buf + sz, n * sizeof(u64));
	err = perf_session__set_ids(s, e, ids, n);
	if (err)
		return err;
	/* An event added once the data has begun. */
	return s->pipe_head_done ? perf_session__setup_evlist(s, off) : 0;
}

/* EVENT_UPDATE: only the name matters here (type 2, PERF_EVENT_UPDATE__NAME). */
static int session__pipe_event_update(struct perf_session *s, const union perf_event *ev,
				      u64 off)
{
	const char *p = (const char *)ev;
	size_t room = ev->header.size - 24;
	struct evsel *e;
	u64 type, id;

	if (ev->header.size < 24)
		return corrupt(s, off, "EVENT_UPDATE record of %u bytes", ev->header.size);
	memcpy(&type, p + 8, sizeof(type));
	memcpy(&id, p + 16, sizeof(id));
	if (type != 2)
		return 0;
	if (strnlen(p + 24, room) == room)
		return corrupt(s, off, "EVENT_UPDATE name without its end");
	e = perf_session__evsel_by_id(s, id);
	return e ? evsel__set_name(e, p + 24) : 0;
}

/* HEADER_TRACING_DATA: the size of the (padded) data that follows it. */
static int session__pipe_tracing_data(struct perf_session *s, const union perf_event *ev,
				      u64 off)
{
	u32 size;
	char *buf;
	int err;

	if (ev->header.size < 16)
		return corrupt(s, off, "TRACING_DATA record of %u bytes", ev->header.size);
	memcpy(&size, (const char *)ev + 8, sizeof(size));
	if (size > (1U << 30))
		return corrupt(s, off, "TRACING_DATA of %u bytes", size);
	buf = malloc(size ? size : 1);
	if (!buf)
		return -ENOMEM;
	err = session__pipe_payload(s, buf, size);
	if (!err && !s->tep) {
		err = perf_session__read_tracing_data(s, buf, size, off + ev->header.size);
		if (err == -EINVAL) {
			pr_warning("WARNING: the tracing data of %s is damaged (at offset %llu); "
				   "tracepoints are shown raw.\n", s->path, (unsigned long long)off);
			s->damaged = true;
			err = 0;
		}
		if (!err && s->pipe_head_done)
			err = perf_session__setup_evlist(s, off);
	}
	free(buf);
	return err < 0 ? err : 0;
}

/*
 * A record of a stream's head: dumped (-D) when the data is being
 * processed, else kept for perf_session__process_events to dump first
 * (a head is a few KiB: attrs, features, the tracing data's header).
 */
static int session__dump_head(struct perf_session *s, const union perf_event *ev, u64 off)
{
	size_t need = 16 + ((ev->header.size + 7u) & ~7u);
	u64 nr = (u64)s->evlist->nr_entries;

	if (s->tool) {
		if (s->tool->dump)
			perf_session__dump_user(s, ev, off);
		return 0;
	}
	if (s->pipe_head_len + need > s->pipe_head_cap) {
		size_t cap = (s->pipe_head_len + need) * 2;
		char *p = realloc(s->pipe_head, cap);

		if (!p)
			return -ENOMEM;
		s->pipe_head = p;
		s->pipe_head_cap = cap;
	}
	memcpy(s->pipe_head + s->pipe_head_len, &off, sizeof(off));
	memcpy(s->pipe_head + s->pipe_head_len + 8, &nr, sizeof(nr));
	memcpy(s->pipe_head + s->pipe_head_len + 16, ev, ev->header.size);
	s->pipe_head_len += need;
	return 0;
}

/* -D on a stream: the head that perf_session__open read. */
static void session__dump_pipe_head(struct perf_session *s)
{
	struct perf_sample none = { .ip = 0 };

	for (size_t pos = 0; pos < s->pipe_head_len;) {
		const union perf_event *ev = (const void *)(s->pipe_head + pos + 16);
		u64 off, nr;

		memcpy(&off, s->pipe_head + pos, sizeof(off));
		memcpy(&nr, s->pipe_head + pos + 8, sizeof(nr));
		/* Before the first attr there is no sample layout to show fields of. */
		s->tool->dump(s->tool, s, ev, nr ? &none : NULL, off);
		pos += 16 + ((ev->header.size + 7u) & ~7u);
	}
}

static int session__pipe_record(struct perf_session *s, const union perf_event *ev, u64 off)
{
	u32 type = ev->header.type;
	u64 feat, aux;
	int err;

	switch (type) {
	case PERF_RECORD_COMPRESSED:
		err = perf_session__process_compressed(s, (const char *)ev + sizeof(ev->header),
						       ev->header.size - sizeof(ev->header), off);
		/*
		 * One that cannot be read is -1 (255) in a file; the distro's
		 * stream reader stops with -EINVAL (234) on any record.
		 */
		return err == -1 ? -EINVAL : err;
	case PERF_RECORD_AUXTRACE:
		/* Unsupported (say so, below), but its data must be stepped over. */
		if (ev->header.size < 16)
			return corrupt(s, off, "AUXTRACE record of %u bytes", ev->header.size);
		memcpy(&aux, (const char *)ev + 8, sizeof(aux));
		err = session__pipe_payload(s, NULL, aux);
		if (err)
			return err < 0 ? err : 0;
		return perf_session__process_record(s, ev, off);
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_EVENT_UPDATE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_EVENT_TYPE:
		s->nr_events++;
		s->nr_by_type[type]++;
		err = session__dump_head(s, ev, off);
		if (err)
			return err;
		break;
	default:
		return perf_session__process_record(s, ev, off);
	}
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		return session__pipe_attr(s, ev, off);
	case PERF_RECORD_HEADER_FEATURE:
		if (ev->header.size < 16)
			return corrupt(s, off, "FEATURE record of %u bytes", ev->header.size);
		memcpy(&feat, (const char *)ev + 8, sizeof(feat));
		/* HEADER_LAST_FEATURE closes the features; unknown ones are skipped. */
		if (feat >= HEADER_LAST_FEATURE)
			return 0;
		return perf_session__read_feature(s, (int)feat, (const char *)ev + 16,
						  ev->header.size - 16, off);
	case PERF_RECORD_EVENT_UPDATE:
		return session__pipe_event_update(s, ev, off);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return session__pipe_tracing_data(s, ev, off);
	default:
		/* EVENT_TYPE: deprecated; names come from EVENT_UPDATE. */
		return 0;
	}
}

/*
 * Opens a stream: its head (attrs, features, tracing data, names) is read
 * up to the first record of the data, which waits in pipe_buf for
 * perf_session__process_events.
 */
int perf_session__open_pipe(struct perf_session *s)
{
	union perf_event *ev;
	u64 h[2];
	ssize_t n;
	int err;

	s->pipe = true;
	s->pipe_buf = malloc(0x10000);
	if (!s->pipe_buf)
		return -ENOMEM;
	n = fd__read_upto(s->fd, h, sizeof(h));
	if (n < 0)
		return (int)n;
	if (!n) {
		snprintf(s->errmsg, sizeof(s->errmsg), "empty input, nothing to do");
		return -EINVAL;
	}
	if ((size_t)n < sizeof(h) || h[0] != PERF_MAGIC2)
		return corrupt(s, 0, "bad magic (not a perf.data stream)");
	if (h[1] != sizeof(h)) {
		snprintf(s->errmsg, sizeof(s->errmsg), "this is a perf.data file, not a stream: "
			 "it cannot be read through a pipe; give its name with -i");
		return -EINVAL;
	}
	s->pipe_off = sizeof(h);
	while ((ev = session__pipe_next(s, &err))) {
		u32 type = ev->header.type;

		if (type != PERF_RECORD_HEADER_ATTR && type != PERF_RECORD_HEADER_FEATURE &&
		    type != PERF_RECORD_EVENT_UPDATE && type != PERF_RECORD_HEADER_TRACING_DATA &&
		    type != PERF_RECORD_HEADER_EVENT_TYPE) {
			s->pipe_pending = true;
			break;
		}
		err = session__pipe_record(s, ev, s->pipe_rec_off);
		if (err)
			return err;
	}
	if (err)
		return err;
	if (!s->evlist->nr_entries)
		return corrupt(s, s->pipe_off, "no event attributes before the data");
	s->pipe_head_done = true;
	return perf_session__setup_evlist(s, sizeof(h));
}

/* The data of a stream, from the record open left waiting. */
int perf_session__process_pipe(struct perf_session *s)
{
	union perf_event *ev;
	int err = 0;

	if (s->tool->dump)
		session__dump_pipe_head(s);
	if (s->pipe_pending) {
		s->pipe_pending = false;
		err = session__pipe_record(s, s->pipe_buf, s->pipe_rec_off);
	}
	while (!err && (ev = session__pipe_next(s, &err)))
		err = session__pipe_record(s, ev, s->pipe_rec_off);
	return err;
}

