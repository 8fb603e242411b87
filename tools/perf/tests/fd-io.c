/* util/fd-io: whole transfers at the position and at an offset, short reads, growth, copies. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tests.h"
#include "util/fd-io.h"

static int test__fd_io_offsets(void)
{
	int fd = memfd_create("fd-io", MFD_CLOEXEC), rdonly;
	char buf[8] = "";

	if (fd < 0)
		return test__skip("no memfd: %s", strerror(errno));
	TEST_ASSERT_EQUAL("written at 4", fd__pwrite_all(fd, "hello world", 11, 4), 0);
	TEST_ASSERT_EQUAL("the position stays", (int)lseek(fd, 0, SEEK_CUR), 0);
	TEST_ASSERT_EQUAL("read at 4", fd__pread_all(fd, buf, 5, 4), 0);
	TEST_ASSERT_VAL("what was written", !memcmp(buf, "hello", 5));
	TEST_ASSERT_EQUAL("the end before all of it", fd__pread_all(fd, buf, 6, 10), -EIO);
	TEST_ASSERT_EQUAL("a negative offset", fd__pread_all(fd, buf, 1, -1), -EINVAL);
	rdonly = open("/dev/null", O_RDONLY | O_CLOEXEC);
	TEST_ASSERT_EQUAL("a read-only fd", fd__write_all(rdonly, "x", 1), -EBADF);
	close(rdonly);
	close(fd);
	return TEST_OK;
}
DEFINE_SUITE(fd_io_offsets, "fd-io: whole reads and writes at an offset, position kept, errors");

static int test__fd_io_upto(void)
{
	char buf[8];
	int p[2];

	TEST_ASSERT_VAL("a pipe", !pipe(p));
	TEST_ASSERT_EQUAL("three bytes in", fd__write_all(p[1], "abc", 3), 0);
	close(p[1]);
	TEST_ASSERT_EQUAL("three of eight, then the end", (int)fd__read_upto(p[0], buf, 8), 3);
	TEST_ASSERT_EQUAL("nothing after the end", (int)fd__read_upto(p[0], buf, 8), 0);
	close(p[0]);
	return TEST_OK;
}
DEFINE_SUITE(fd_io_upto, "fd-io: a stream read up to a length, short only at its end");

static int test__fd_io_to_end(void)
{
	int in = memfd_create("fd-io-in", MFD_CLOEXEC);
	int out = memfd_create("fd-io-out", MFD_CLOEXEC);
	size_t len = 10000, got = 0;
	char *data = malloc(len), *buf = NULL;

	if (in < 0 || out < 0 || !data)
		return test__skip("no memfd or memory: %s", strerror(errno));
	for (size_t i = 0; i < len; i++)
		data[i] = (char)('a' + i % 26);
	TEST_ASSERT_EQUAL("written", fd__write_all(in, data, len), 0);
	lseek(in, 0, SEEK_SET);
	TEST_ASSERT_EQUAL("copied", fd__copy(in, out), 0);
	lseek(out, 0, SEEK_SET);
	TEST_ASSERT_EQUAL("read to the end, grown twice", fd__read_to_end(out, &buf, &got), 0);
	TEST_ASSERT_EQUAL("every byte", (int)got, (int)len);
	TEST_ASSERT_VAL("the bytes as written", !memcmp(buf, data, len));
	TEST_ASSERT_VAL("a NUL after them", buf[len] == '\0');
	free(buf);
	free(data);
	close(in);
	close(out);
	return TEST_OK;
}
DEFINE_SUITE(fd_io_to_end, "fd-io: an fd copied to another, a file read to its end, grown");
