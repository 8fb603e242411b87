#ifndef PERF_UTIL_DATA_H
#define PERF_UTIL_DATA_H
#include <stdbool.h>
#include <sys/types.h>
#include "types.h"

/* The perf.data file being written. */
struct perf_data {
	char *path;		/* the name being written, e.g. "perf.data" */
	int fd;
	bool is_pipe;		/* "-": stdout, pipe format */
	bool is_device;		/* a character device (-o /dev/null): written in place */
	u64 data_offset;	/* where the data section starts */
	u64 data_size;		/* record bytes written so far */
	pid_t holder;		/* -EBUSY from perf_data__create: the recorder holding the name */
};

/*
 * Creates @path (0600) for writing.  An existing regular file of that name
 * is renamed to "<path>.old" first (replacing an older .old) -- only once
 * the new file could be created (it is made under a temporary name first, so
 * a failure leaves neither a renamed file nor a stray one behind).  -errno on
 * failure.  "-" is standard output (a dup of it), with is_pipe set: the
 * caller writes the pipe format (perf_header__write_pipe).
 *
 * The file is write-locked (fcntl) while it is open, and a name whose file
 * another process holds so is refused: -EBUSY, with that process in
 * data->holder, and nothing renamed.
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
/* Whether @path is a character device (-o /dev/null), which is written in place. */
bool perf_data__is_device(const char *path);
/* The file cut (or grown) to @size bytes; nothing for a device.  0 or -errno. */
int perf_data__truncate(struct perf_data *data, u64 size);
void perf_data__close(struct perf_data *data);
/*
 * Timestamp for switch-output names: YYYYMMDDHHMMSScc (16 digits).  Never
 * returns the same string twice in one process: a clash bumps the last digits.
 */
void perf_data__timestamp(char buf[32]);
/*
 * The current file -- already finished by perf_header__write_finish() -- is
 * renamed to "<path>.<timestamp>" (perf_data__timestamp), the name a
 * --switch-output dump has; *@dump_name is that name (the caller frees it),
 * set also when the rename fails so the caller can say which, NULL only on
 * -ENOMEM.  With @next, a fresh, locked, empty file takes
 * @path in the same instant (data->fd; perf_header__write_begin() starts
 * it), so the name is never free for another recorder; where no fresh file
 * could be made data->fd is -1 and the caller creates one.  Without @next the file is closed.  Only a file @path still
 * names is renamed: -ENOENT if the name is gone, -ESTALE if it names
 * another file now.  On failure nothing was renamed and the file is still
 * open.
 */
int perf_data__switch(struct perf_data *data, bool next, char **dump_name);
/* Is data->path still the file data->fd has open?  0, -ENOENT or -ESTALE. */
int perf_data__is_ours(const struct perf_data *data);
/* Unlinks data->path if it is still our file (it stays open); 0 or -errno. */
int perf_data__discard(struct perf_data *data);
/* The pid of the process that holds @fd's file as its output, or 0. */
pid_t perf_data__holder(int fd);
/*
 * Keeps only the newest @max files named "<path>.<16 digits>" in the
 * directory of @path, unlinking older ones; returns how many it removed, or
 * -errno.  Other names (perf.data, perf.data.old, ...) are never touched.
 */
int perf_data__rotate(const char *path, int max);
/* The same (nothing removed for @max < 0), then @fn on each dump that is left, oldest first. */
int perf_data__rotate_each(const char *path, int max, void (*fn)(const char *file, void *arg),
			   void *arg);
/*
 * Whether @name is a dump of the output file named @base: "<base>.<16
 * digits>", which a recorder gives a file only once it is complete.
 */
bool perf_data__is_dump_name(const char *name, const char *base);

#endif
