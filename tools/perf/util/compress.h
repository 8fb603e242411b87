#ifndef PERF_UTIL_COMPRESS_H
#define PERF_UTIL_COMPRESS_H
/*
 * PERF_RECORD_COMPRESSED records (perf record -z), with zstd.
 *
 * A COMPRESSED record is a perf_event_header followed by zstd data; its
 * size is not padded to 8 bytes.  Readers feed the payloads of a file's
 * COMPRESSED records, in order, to one zstd stream: what comes out is
 * ordinary records, and a record may be cut between two payloads (the
 * distro's recorder splits its output at the 64 KiB a header can count).
 *
 * The writer here makes each payload one whole zstd frame holding whole
 * records, at most ZSTD_WRITER_CHUNK bytes of them, so every COMPRESSED
 * record it writes can be read alone; a chunk that does not shrink below
 * what a header can count is written as it was.
 */
#include <stddef.h>
#include "types.h"

/* The most record bytes one COMPRESSED record of ours holds (the COMPRESSED feature's mmap_len). */
#define ZSTD_WRITER_CHUNK	(64 * 1024)

struct zstd_writer {
	void *cctx;		/* ZSTD_CCtx */
	int level;
	char *in;		/* staged record bytes; only the last record may be incomplete */
	size_t in_len;
	char *out;		/* one COMPRESSED record being built */
	u64 bytes_in;		/* record bytes taken */
	u64 bytes_out;		/* bytes handed to the sink */
	/* Where the output goes: 0 or -errno. */
	int (*sink)(void *arg, const void *buf, size_t size);
	void *arg;
};

/* Level 1..22 (zstd's); 0 or -errno. */
int zstd_writer__init(struct zstd_writer *w, int level,
		      int (*sink)(void *arg, const void *buf, size_t size), void *arg);
void zstd_writer__exit(struct zstd_writer *w);
/*
 * Takes a stream of whole records cut anywhere (a ring buffer's two pieces
 * around its end): full chunks go out at once.  0 or -errno.
 */
int zstd_writer__write(struct zstd_writer *w, const void *buf, size_t size);
/* Writes what is staged, e.g. before a file is finished.  -EINVAL if a record is incomplete. */
int zstd_writer__flush(struct zstd_writer *w);
/* bytes_in / bytes_out, as the COMPRESSED feature's ratio. */
u32 zstd_writer__ratio(const struct zstd_writer *w);

struct zstd_reader {
	void *dctx;		/* ZSTD_DStream */
	char *buf;		/* decompressed bytes not yet handed out */
	size_t len, cap;
	size_t max;		/* what one payload may decompress to: beyond it, corrupt */
};

/* @max_out: the most bytes one payload may expand to.  0 or -errno. */
int zstd_reader__init(struct zstd_reader *r, size_t max_out);
void zstd_reader__exit(struct zstd_reader *r);
/*
 * Decompresses one COMPRESSED record's payload after what an earlier one
 * left: r->buf then holds r->len bytes, whole records and maybe the start of
 * one.  After handing out @used bytes, zstd_reader__consume() keeps the rest.
 * 0, -EINVAL (not zstd, or more than max), or -ENOMEM.
 */
int zstd_reader__decompress(struct zstd_reader *r, const void *src, size_t size);
void zstd_reader__consume(struct zstd_reader *r, size_t used);

#endif
