#ifndef PERF_UTIL_DATA_H
#define PERF_UTIL_DATA_H
#include <sys/types.h>
#include "types.h"

/* The perf.data file being written. */
struct perf_data {
	char *path;		/* the name being written, e.g. "perf.data" */
	int fd;
	bool is_pipe;		/* "-": stdout, pipe format */
	u64 data_offset;	/* where the data section starts */
	u64 data_size;		/* record bytes written so far */
};

/*
 * Creates @path (0600) for writing.  An existing regular file of that name
 * is renamed to "<path>.old" first (replacing an older .old) -- only once
 * the new file could be created (it is made under a temporary name first, so
 * a failure leaves neither a renamed file nor a stray one behind).  -errno on
 * failure.  "-" is standard output (a dup of it), with is_pipe set: the
 * caller writes the pipe format (perf_header__write_pipe).
 *
 * A recorder's sequence:
 *	perf_data__create -> perf_header__write_begin -> perf_data__write (records)
 *	-> perf_header__write_finish -> perf_data__close, or perf_data__switch and
 *	perf_header__write_begin again on the fresh file.
 */
int perf_data__create(struct perf_data *data, const char *path);
/* Writes all of @buf (retries short writes and EINTR); 0 or -errno. */
int perf_data__write(struct perf_data *data, const void *buf, size_t size);
/*
 * Writes all of @buf at @offset (the header and feature sections), leaving
 * the file position and data_size alone; 0 or -errno.
 */
int perf_data__pwrite(struct perf_data *data, const void *buf, size_t size, u64 offset);
void perf_data__close(struct perf_data *data);
/*
 * Timestamp for switch-output names: YYYYMMDDHHMMSScc (16 digits).  Never
 * returns the same string twice in one process: a clash bumps the last digits.
 */
void perf_data__timestamp(char buf[32]);
/*
 * The current file -- already finished by perf_header__write_finish() -- is
 * renamed to "<path>.<ts>" and a fresh empty file is created at @path
 * (data_offset and data_size reset; call perf_header__write_begin() next).
 * *@dump_name receives the renamed file's name (malloc'd; free it).  On
 * failure the old file is back at @path and still open.
 */
int perf_data__switch(struct perf_data *data, char **dump_name);
/*
 * Keeps only the newest @max files named "<path>.<16 digits>" in the
 * directory of @path, unlinking older ones; returns how many it removed, or
 * -errno.  Other names (perf.data, perf.data.old, ...) are never touched.
 */
int perf_data__rotate(const char *path, int max);

#endif
