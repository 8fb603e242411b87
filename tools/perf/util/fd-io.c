/* Whole buffers through a file descriptor, past short writes and reads and EINTR. */
#include <errno.h>
#include <stdlib.h>
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

/* One read(2), or pread(2) at *@off, again after EINTR: the bytes read, or -errno. */
static ssize_t read_some(int fd, void *p, size_t len, const off_t *off)
{
	ssize_t n;

	do
		n = off ? pread(fd, p, len, *off) : read(fd, p, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* Up to @len bytes into @p, fewer only at an end of file; at *@off (moved on) unless NULL. */
static ssize_t read_upto_at(int fd, char *p, size_t len, off_t *off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read_some(fd, p + got, len - got, off);

		if (n < 0)
			return n;
		if (!n)
			break;
		got += (size_t)n;
		if (off)
			*off += n;
	}
	return (ssize_t)got;
}

/* A read of @len bytes that gave @n: 0 for all of them, -EIO for fewer, or its -errno. */
static int whole(ssize_t n, size_t len)
{
	if (n < 0)
		return (int)n;
	return (size_t)n < len ? -EIO : 0;
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
	return whole(read_upto_at(fd, buf, len, NULL), len);
}

int fd__pread_all(int fd, void *buf, size_t len, off_t off)
{
	return whole(read_upto_at(fd, buf, len, &off), len);
}

ssize_t fd__read_upto(int fd, void *buf, size_t len)
{
	return read_upto_at(fd, buf, len, NULL);
}

int fd__read_to_end(int fd, char **bufp, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1), *grown;
	ssize_t n;
	int err = -ENOMEM;

	if (!buf)
		return err;
	/* A read that fills what is left may not be the last: grow and go on. */
	while ((n = read_upto_at(fd, buf + len, cap - len, NULL)) == (ssize_t)(cap - len)) {
		len = cap;
		grown = realloc(buf, 2 * cap + 1);
		if (!grown)
			goto out_free;
		buf = grown;
		cap *= 2;
	}
	if (n < 0) {
		err = (int)n;
		goto out_free;
	}
	len += (size_t)n;
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
out_free:
	free(buf);
	return err;
}

int fd__copy(int in, int out)
{
	char chunk[65536];
	ssize_t n;

	while ((n = read_some(in, chunk, sizeof(chunk), NULL)) > 0) {
		int err = fd__write_all(out, chunk, (size_t)n);

		if (err)
			return err;
	}
	return (int)n;
}
