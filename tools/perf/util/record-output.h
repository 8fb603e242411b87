#ifndef PERF_UTIL_RECORD_OUTPUT_H
#define PERF_UTIL_RECORD_OUTPUT_H
/*
 * perf record's output: the file (or pipe) its records go to, one after
 * another with --switch-output.  A file's life:
 *
 *	record_output__begin	create the file at the output name, write the header
 *	record_output__write	records, gathered in a buffer, -z compressed
 *	record_output__finish	the buffers out, the features and final header
 *	record_output__close, or record_output__rename to "<output>.<timestamp>"
 *	(the next file then already holds the output name) and
 *	record_output__rotate; then record_output__trim_cache; or on an error
 *	record_output__abandon, which removes the file rather than leave a
 *	truncated one that looks like a good one.
 */
#include <stdbool.h>
#include <stddef.h>
#include "compress.h"
#include "data.h"
#include "header.h"
#include "types.h"

/* Small records are gathered here and written in one go. */
#define RECORD_OUTPUT_WBUF_SIZE (256 * 1024)

struct evlist;
struct record_opts;
union perf_event;

struct record_output {
	const char *path;		/* the output name (-o); "-" for standard output */
	int comp_level;			/* -z; 0: records as they are */
	struct perf_data data;
	struct perf_header_info hinfo;	/* what the current file's features say */
	char *wbuf;			/* RECORD_OUTPUT_WBUF_SIZE */
	size_t wbuf_len;
	struct zstd_writer zstd;	/* -z: between wbuf and the file */
	bool open;			/* a file is begun and not yet closed or abandoned */
	bool next_ready;		/* the next file holds the name, not yet begun */
	bool kept;			/* a file that could not be renamed stays under the name */
	u64 samples;			/* in the current file (counted by the caller) */
	u64 bytes_written;		/* record bytes in the current file, before -z */
	u64 lost_events, lost_chunks;	/* LOST records written, in the whole run */
	u64 cache_max;			/* buildid-cache.max-size, bytes; 0: no cap */
};

/* For the output name @path, -z level @comp_level (0: none).  0 or -ENOMEM. */
int record_output__init(struct record_output *out, const char *path, int comp_level);
void record_output__exit(struct record_output *out);
/*
 * Starts a file at the output name (the one a rename left ready, or a new
 * one) and writes its header, the pipe's with its features for "-".
 * @argc/@argv are the command line for the CMDLINE feature.  0 or -errno,
 * said on stderr.
 */
int record_output__begin(struct record_output *out, struct evlist *evlist,
			 const struct record_opts *opts, int argc, const char **argv);
/*
 * Writes records (whole ones, possibly cut in two pieces where a ring
 * buffer wraps): everything is in the file, in order, once
 * record_output__flush() returns.  0 or -errno (said on stderr).
 */
int record_output__write(struct record_output *out, const void *buf, size_t size);
int record_output__flush(struct record_output *out);
/*
 * What a record written tells: samples counted, the files that maps and
 * samples name noted for BUILD_ID, its time for SAMPLE_TIME and the
 * file's latest, losses added up.
 */
void record_output__account(struct record_output *out, const union perf_event *event);
/* One whole record, accounted and written.  0 or -errno. */
int record_output__write_event(struct record_output *out, const union perf_event *event);
/* The buffers out, then the features and the final header.  0 or -errno. */
int record_output__finish(struct record_output *out, struct evlist *evlist);
/* Closes a finished file under the output name. */
void record_output__close(struct record_output *out);
/* A file that could not be finished is removed (if the name is still ours) and closed. */
void record_output__abandon(struct record_output *out);
/*
 * Renames the finished file to "<output>.<timestamp>" (*@name, the
 * caller's to free).  With @next a fresh file takes the output name in
 * the same instant, for record_output__begin().  0, or -errno said on
 * stderr with the file left where it was (kept set if it stays, complete,
 * under the output name).
 */
int record_output__rename(struct record_output *out, bool next, char **name);
/* Keeps the newest @max_files "<output>.<timestamp>" files; 0: all. */
void record_output__rotate(struct record_output *out, int max_files);
/*
 * With buildid-cache.max-size set, once the finished @file has filled the
 * build-id cache and the set is rotated: marks @file's entries used and
 * evicts the least recently used ones that neither @file nor any
 * "<output>.<timestamp>" file left names, until the cache is under the cap.
 */
void record_output__trim_cache(struct record_output *out, const char *file);
/* "[ perf record: Captured and wrote ... ]" for the file now called @name. */
void record_output__print_written(const struct record_output *out, const char *name);

#endif
