/* Whole buffers through a file descriptor, past short writes and reads and EINTR. */
#include <errno.h>
#include <unistd.h>
#include "fd-io.h"

int fd__write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		/* Nothing moved and no error: a file that takes no more; do not spin on it. */
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd__read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
