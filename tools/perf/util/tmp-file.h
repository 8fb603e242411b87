#ifndef PERF_UTIL_TMP_FILE_H
#define PERF_UTIL_TMP_FILE_H
/*
 * A file that its readers see whole or not at all: it is written under a
 * name of its own in the same directory, "<path>.tmp.<pid>", then takes
 * its name by rename(2).
 *
 *	tmp_file__create()	the empty file and its fd
 *	tmp_file__commit()	closes it and renames it onto its name
 *	tmp_file__abort()	closes it and removes it
 *
 * The perf.data writer (data.c) creates its files here too, but renames
 * them itself: it goes on writing through the fd after the rename, and a
 * dump swaps names with its successor.
 */
#include <sys/types.h>

struct tmp_file {
	char *name;	/* the temporary name; NULL when there is none */
	int fd;		/* -1 once closed */
};

/*
 * Creates it next to @path with @mode (O_EXCL, after removing a stale file
 * of this pid's under the name): its fd, or -errno with @t empty.
 */
int tmp_file__create(struct tmp_file *t, const char *path, mode_t mode);
/*
 * Closes it, where a delayed write error shows, and renames it to @path:
 * 0, or -errno with the temporary removed.  @t is empty after either.
 */
int tmp_file__commit(struct tmp_file *t, const char *path);
/* Closes and removes it; nothing when @t is empty. */
void tmp_file__abort(struct tmp_file *t);

#endif
