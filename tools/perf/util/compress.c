/* PERF_RECORD_COMPRESSED records with zstd (see compress.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "compress.h"
#include "event.h"

/* A header's u16 size counts itself: the most zstd data one record carries. */
#define MAX_PAYLOAD	(0xffff - sizeof(struct perf_event_header))
/* Room to stage a full chunk behind a record that did not fit the last one. */
#define IN_CAP		(2 * ZSTD_WRITER_CHUNK)

int zstd_writer__init(struct zstd_writer *w, int level,
		      int (*sink)(void *arg, const void *buf, size_t size), void *arg)
{
	memset(w, 0, sizeof(*w));
	w->level = level;
	w->sink = sink;
	w->arg = arg;
	w->cctx = ZSTD_createCCtx();
	w->in = malloc(IN_CAP);
	w->out = malloc(sizeof(struct perf_event_header) + MAX_PAYLOAD);
	if (!w->cctx || !w->in || !w->out) {
		zstd_writer__exit(w);
		return -ENOMEM;
	}
	return 0;
}

void zstd_writer__exit(struct zstd_writer *w)
{
	ZSTD_freeCCtx(w->cctx);
	free(w->in);
	free(w->out);
	w->cctx = NULL;
	w->in = w->out = NULL;
}

/* One chunk of whole records: a COMPRESSED record, or the records as they are if they do not shrink enough. */
static int zstd_writer__emit(struct zstd_writer *w, const char *src, size_t len)
{
	struct perf_event_header *h = (struct perf_event_header *)w->out;
	size_t n = ZSTD_compressCCtx(w->cctx, w->out + sizeof(*h), MAX_PAYLOAD, src, len,
				     w->level);
	int err;

	w->bytes_in += len;
	if (ZSTD_isError(n)) {
		if (ZSTD_getErrorCode(n) != ZSTD_error_dstSize_tooSmall)
			return -ENOMEM;
		err = w->sink(w->arg, src, len);
		if (!err)
			w->bytes_out += len;
		return err;
	}
	h->type = PERF_RECORD_COMPRESSED;
	h->misc = 0;
	h->size = (u16)(sizeof(*h) + n);
	err = w->sink(w->arg, w->out, h->size);
	if (!err)
		w->bytes_out += h->size;
	return err;
}

/*
 * Emits chunks from the front of the staging area while at least @keep
 * bytes are staged, then moves what is left to the front.  A chunk is the
 * longest run of whole records that fits ZSTD_WRITER_CHUNK; records are at
 * most 64 KiB, so with a full chunk staged the first one is always whole.
 */
static int zstd_writer__drain(struct zstd_writer *w, size_t keep)
{
	size_t off = 0;
	int err = 0;

	while (w->in_len - off >= keep && w->in_len > off) {
		size_t end = off;

		while (w->in_len - end >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;

			memcpy(&h, w->in + end, sizeof(h));
			if (h.size < sizeof(h))
				return -EINVAL;
			if (h.size > w->in_len - end || end + h.size - off > ZSTD_WRITER_CHUNK)
				break;
			end += h.size;
		}
		if (end == off)
			break;
		err = zstd_writer__emit(w, w->in + off, end - off);
		if (err)
			break;
		off = end;
	}
	memmove(w->in, w->in + off, w->in_len - off);
	w->in_len -= off;
	return err;
}

int zstd_writer__write(struct zstd_writer *w, const void *buf, size_t size)
{
	const char *p = buf;

	while (size) {
		size_t n = IN_CAP - w->in_len < size ? IN_CAP - w->in_len : size;
		int err;

		memcpy(w->in + w->in_len, p, n);
		w->in_len += n;
		p += n;
		size -= n;
		if (w->in_len == IN_CAP) {
			err = zstd_writer__drain(w, ZSTD_WRITER_CHUNK);
			if (err)
				return err;
		}
	}
	return 0;
}

int zstd_writer__flush(struct zstd_writer *w)
{
	int err = zstd_writer__drain(w, 0);

	if (!err && w->in_len)
		return -EINVAL;
	return err;
}

u32 zstd_writer__ratio(const struct zstd_writer *w)
{
	if (!w->bytes_out)
		return 0;
	return (u32)((w->bytes_in + w->bytes_out / 2) / w->bytes_out);
}

int zstd_reader__init(struct zstd_reader *r, size_t max_out)
{
	memset(r, 0, sizeof(*r));
	r->max = max_out;
	r->dctx = ZSTD_createDStream();
	if (!r->dctx)
		return -ENOMEM;
	ZSTD_initDStream(r->dctx);
	return 0;
}

void zstd_reader__exit(struct zstd_reader *r)
{
	ZSTD_freeDStream(r->dctx);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

int zstd_reader__decompress(struct zstd_reader *r, const void *src, size_t size)
{
	ZSTD_inBuffer in = { src, size, 0 };
	size_t start = r->len;

	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		if (r->len == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 256 * 1024;
			char *p;

			if (r->len - start >= r->max)
				return -EINVAL;
			p = realloc(r->buf, cap);
			if (!p)
				return -ENOMEM;
			r->buf = p;
			r->cap = cap;
		}
		out = (ZSTD_outBuffer){ r->buf, r->cap, r->len };
		ret = ZSTD_decompressStream(r->dctx, &out, &in);
		if (ZSTD_isError(ret))
			return -EINVAL;
		r->len = out.pos;
		/* All input taken and room left over: zstd holds nothing back. */
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}

void zstd_reader__consume(struct zstd_reader *r, size_t used)
{
	memmove(r->buf, r->buf + used, r->len - used);
	r->len -= used;
}
