#ifndef PERF_UTIL_FD_IO_H
#define PERF_UTIL_FD_IO_H
/*
 * Whole buffers through a file descriptor: write(2) and read(2) may move
 * less than asked (a pipe, a socket, a signal), so these go on until all
 * of it has moved.  The p- forms work at an offset, as pwrite(2) and
 * pread(2), and leave the file position alone.
 */
#include <stddef.h>
#include <sys/types.h>

/* All @len bytes of @buf to @fd: 0, -EIO when a write moves nothing, or a negative errno. */
int fd__write_all(int fd, const void *buf, size_t len);
/* fd__write_all() at offset @off of the file. */
int fd__pwrite_all(int fd, const void *buf, size_t len, off_t off);
/* @len bytes from @fd into @buf: 0, -EIO at an end of file before them, or a negative errno. */
int fd__read_all(int fd, void *buf, size_t len);
/* fd__read_all() from offset @off of the file. */
int fd__pread_all(int fd, void *buf, size_t len, off_t off);
/*
 * Up to @len bytes from @fd into @buf, fewer only where the file ends (a
 * stream cut short): the bytes read, or a negative errno.
 */
ssize_t fd__read_upto(int fd, void *buf, size_t len);
/*
 * All of @fd to its end, into a buffer of malloc(3) in *@bufp (the caller
 * frees it) with a NUL after its *@lenp bytes: 0, or a negative errno.
 */
int fd__read_to_end(int fd, char **bufp, size_t *lenp);
/* What is left of @in, to its end, written to @out: 0, or a negative errno. */
int fd__copy(int in, int out);

#endif
