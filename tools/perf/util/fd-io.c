/* Whole buffers through a file descriptor, past short writes and reads and EINTR. */
#include <errno.h>
#include <unistd.h>
#include "fd-io.h"

/* All of @p to @fd, at *@off (moved on) or, when @off is NULL, at the file position. */
static int write_all_at(int fd, const char *p, size_t len, off_t *off)
{
	while (len) {
		ssize_t n = off ? pwrite(fd, p, len, *off) : write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		/* Nothing moved and no error: a file that takes no more; do not spin on it. */
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
		if (off)
			*off += n;
	}
	return 0;
}

/* @len bytes into @p, as write_all_at() writes them. */
static int read_all_at(int fd, char *p, size_t len, off_t *off)
{
	while (len) {
		ssize_t n = off ? pread(fd, p, len, *off) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
		if (off)
			*off += n;
	}
	return 0;
}

int fd__write_all(int fd, const void *buf, size_t len)
{
	return write_all_at(fd, buf, len, NULL);
}

int fd__pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	return write_all_at(fd, buf, len, &off);
}

int fd__read_all(int fd, void *buf, size_t len)
{
	return read_all_at(fd, buf, len, NULL);
}

int fd__pread_all(int fd, void *buf, size_t len, off_t off)
{
	return read_all_at(fd, buf, len, &off);
}
