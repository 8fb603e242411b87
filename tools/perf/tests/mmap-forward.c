/*
 * Forward ring buffer reading over a hand-built buffer, then both
 * directions against the kernel with PERF_RECORD_COMM records, which we
 * can produce at will with prctl(PR_SET_NAME).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tests.h"
#include "util/mmap.h"
#include "util/page-size.h"

/* A record of @size bytes at ring position @pos: type @type, payload bytes = type + i. */
static void put_record(u8 *data, u64 mask, u64 pos, u32 type, u16 size)
{
	u8 rec[256];
	struct perf_event_header hdr = { .type = type, .misc = 0, .size = size };

	memcpy(rec, &hdr, sizeof(hdr));
	for (u32 i = sizeof(hdr); i < size; i++)
		rec[i] = (u8)(type + i);
	for (u32 i = 0; i < size; i++)
		data[(pos + i) & mask] = rec[i];
}

static int check_record(const union perf_event *ev, u32 type, u16 size)
{
	const u8 *p = (const u8 *)ev;

	TEST_ASSERT_EQUAL("record type", ev->header.type, type);
	TEST_ASSERT_EQUAL("record size", ev->header.size, size);
	for (u32 i = sizeof(ev->header); i < size; i++)
		TEST_ASSERT_EQUAL("payload byte", p[i], (u8)(type + i));
	return TEST_OK;
}

static int test__mmap_forward_fake(void)
{
	static const u16 sizes[] = { 16, 24, 8, 16 };	/* the 24 runs from 56 to 80 */
	long page = page_size();
	void *mem = calloc(1, page + 64);
	struct perf_event_mmap_page *pc = mem;
	u8 *data = (u8 *)mem + page;
	struct perf_mmap map;
	union perf_event *ev;
	u64 pos = 40;
	int ret = TEST_FAIL;

	if (!mem)
		return TEST_FAIL;
	pc->data_tail = pc->data_head = 40;
	if (perf_mmap__init_fake(&map, mem, 64, false))
		goto out;
	TEST_ASSERT_EQUAL("prev from data_tail", map.prev, 40);
	TEST_ASSERT_EQUAL("empty", perf_mmap__read_init(&map), -EAGAIN);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		put_record(data, 63, pos, 100 + i, sizes[i]);
		pos += sizes[i];
	}
	pc->data_head = pos;

	/* Two records, consume: the tail moves past exactly those. */
	TEST_ASSERT_EQUAL("read_init", perf_mmap__read_init(&map), 0);
	ev = perf_mmap__read_event(&map);
	TEST_ASSERT_VAL("first in place", ev && (u8 *)ev == data + 40);
	if (check_record(ev, 100, 16))
		goto out;
	ev = perf_mmap__read_event(&map);
	TEST_ASSERT_VAL("wrapped record copied", ev == map.event_copy);
	if (check_record(ev, 101, 24))
		goto out;
	perf_mmap__consume(&map);
	TEST_ASSERT_EQUAL("tail after two", pc->data_tail, 80);

	/* The rest from where we stopped. */
	TEST_ASSERT_EQUAL("read_init again", perf_mmap__read_init(&map), 0);
	TEST_ASSERT_VAL("third", (ev = perf_mmap__read_event(&map)) && !check_record(ev, 102, 8));
	TEST_ASSERT_VAL("fourth", (ev = perf_mmap__read_event(&map)) && !check_record(ev, 103, 16));
	TEST_ASSERT_VAL("end", !perf_mmap__read_event(&map));
	perf_mmap__consume(&map);
	TEST_ASSERT_EQUAL("tail at head", pc->data_tail, pos);
	TEST_ASSERT_EQUAL("drained", perf_mmap__read_init(&map), -EAGAIN);

	/* A zero header stops the reader without moving past it. */
	put_record(data, 63, pos, 104, 16);
	memset(data + ((pos + 16) & 63), 0, 8);
	pc->data_head = pos + 32;
	TEST_ASSERT_EQUAL("read_init", perf_mmap__read_init(&map), 0);
	TEST_ASSERT_VAL("good one", (ev = perf_mmap__read_event(&map)) && !check_record(ev, 104, 16));
	TEST_ASSERT_VAL("zero size stops", !perf_mmap__read_event(&map));
	TEST_ASSERT_EQUAL("start stays on it", map.start, pos + 16);
	/* A record longer than what the head says is there stops it too. */
	put_record(data, 63, pos + 16, 105, 32);
	TEST_ASSERT_VAL("too long stops", !perf_mmap__read_event(&map));
	TEST_ASSERT_EQUAL("start still on it", map.start, pos + 16);
	perf_mmap__consume(&map);
	TEST_ASSERT_EQUAL("consumed up to it", pc->data_tail, pos + 16);

	/* More pending than the buffer holds: resync to the head. */
	pc->data_head = pos + 16 + 64 + 8;
	TEST_ASSERT_EQUAL("overrun", perf_mmap__read_init(&map), -EAGAIN);
	TEST_ASSERT_EQUAL("tail resynced", pc->data_tail, pos + 16 + 64 + 8);
	TEST_ASSERT_EQUAL("prev resynced", map.prev, pos + 16 + 64 + 8);
	ret = TEST_OK;
out:
	perf_mmap__munmap(&map);
	perf_mmap__munmap(&map);
	free(mem);
	return ret;
}
DEFINE_SUITE(mmap_forward_fake, "Forward ring buffer: wrap, consume, corrupt records");

#define COMM_FMT "pcomm%05d"	/* 10 chars + NUL: every COMM record is 32 bytes */

/* A dummy software event that only reports our own comm changes. */
static int comm_event_open(bool backward, int *fdp)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.comm = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.write_backward = backward,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0) {
		if (errno == EACCES || errno == EPERM || errno == ENOENT || errno == EOPNOTSUPP ||
		    errno == ENOSYS || (backward && errno == EINVAL))
			return test__skip("perf_event_open: %s", strerror(errno));
		fprintf(stderr, "perf_event_open: %s\n", strerror(errno));
		return TEST_FAIL;
	}
	*fdp = fd;
	return TEST_OK;
}

static void make_comms(int fd, int nr)
{
	char name[16];

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), COMM_FMT, i);
		prctl(PR_SET_NAME, name, 0, 0, 0);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* A COMM record of ours carrying name number @seq. */
static int check_comm(const union perf_event *ev, int seq)
{
	char want[16];

	snprintf(want, sizeof(want), COMM_FMT, seq);
	if (ev->header.type != PERF_RECORD_COMM || ev->header.size != 32 ||
	    ev->comm.pid != (u32)getpid() || strncmp(ev->comm.comm, want, sizeof(want))) {
		fprintf(stderr, "record type %u size %u pid %u comm '%.16s', want COMM '%s'\n",
			ev->header.type, ev->header.size, ev->comm.pid,
			ev->header.type == PERF_RECORD_COMM ? ev->comm.comm : "", want);
		return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__mmap_forward_kernel(void)
{
	long page = page_size();
	struct perf_mmap map = { .base = NULL };
	union perf_event *ev;
	int fd, ret, seen = 0;

	ret = comm_event_open(false, &fd);
	if (ret)
		return ret;
	ret = perf_mmap__mmap(&map, fd, -1, 8 * page, false);
	if (ret) {
		close(fd);
		fprintf(stderr, "mmap: %s\n", strerror(-ret));
		return TEST_FAIL;
	}
	make_comms(fd, 100);
	ret = TEST_FAIL;
	while (perf_mmap__read_init(&map) == 0) {
		while ((ev = perf_mmap__read_event(&map)) != NULL) {
			if (check_comm(ev, seen++))
				goto out;
		}
		perf_mmap__consume(&map);
	}
	TEST_ASSERT_EQUAL("100 COMM records", seen, 100);
	TEST_ASSERT_EQUAL("tail published",
			  ((struct perf_event_mmap_page *)map.base)->data_tail,
			  perf_mmap__read_head(&map));
	ret = TEST_OK;
out:
	perf_mmap__munmap(&map);
	close(fd);
	return ret;
}
DEFINE_SUITE(mmap_forward_kernel, "Forward ring buffer: 100 COMM records from the kernel");

/* Newest first: seq counts down from @newest, every record whole. */
static int check_comm_copy(const u8 *buf, ssize_t len, int newest, int *count)
{
	for (ssize_t off = 0; off < len; ) {
		const union perf_event *ev = (const void *)(buf + off);

		if (ev->header.size < sizeof(ev->header) || off + ev->header.size > len)
			return TEST_FAIL;
		if (check_comm(ev, newest - *count))
			return TEST_FAIL;
		off += ev->header.size;
		(*count)++;
	}
	return TEST_OK;
}

static int backward_kernel(size_t data_pages, int nr, bool overflow)
{
	long page = page_size();
	struct perf_mmap map = { .base = NULL };
	union perf_event *ev;
	void *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int fd, ret, seen = 0;

	ret = comm_event_open(true, &fd);
	if (ret)
		return ret;
	ret = perf_mmap__mmap(&map, fd, -1, data_pages * page, true);
	if (ret) {
		close(fd);
		fprintf(stderr, "mmap: %s\n", strerror(-ret));
		return TEST_FAIL;
	}
	make_comms(fd, nr);
	ret = TEST_FAIL;
	if (ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1)) {
		fprintf(stderr, "PERF_EVENT_IOC_PAUSE_OUTPUT: %s\n", strerror(errno));
		goto out;
	}
	/* First the record-by-record reader, without consuming ... */
	TEST_ASSERT_EQUAL("read_init", perf_mmap__read_init(&map), 0);
	while ((ev = perf_mmap__read_event(&map)) != NULL) {
		if (check_comm(ev, nr - 1 - seen++))
			goto out;
	}
	/* ... then the snapshot of the same records, which consumes them. */
	len = test__backward_snapshot(&map, &buf, &cap);
	TEST_ASSERT_VAL("snapshot", len > 0);
	{
		int copied = 0;

		if (check_comm_copy(buf, len, nr - 1, &copied))
			goto out;
		TEST_ASSERT_EQUAL("snapshot and reader agree", copied, seen);
	}
	TEST_ASSERT_EQUAL("nothing new after snapshot", perf_mmap__read_init(&map), -EAGAIN);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	if (overflow) {
		TEST_ASSERT_VAL("some records", seen > 0);
		TEST_ASSERT_VAL("fewer than written", seen < nr);
		TEST_ASSERT_VAL("about a buffer's worth", seen >= (int)(data_pages * page / 32) - 1);
	} else {
		TEST_ASSERT_EQUAL("all records", seen, nr);
	}
	ret = TEST_OK;
out:
	free(buf);
	perf_mmap__munmap(&map);
	close(fd);
	return ret;
}

static int test__mmap_backward_kernel(void)
{
	return backward_kernel(8, 100, false);
}
DEFINE_SUITE(mmap_backward_kernel, "Backward ring buffer: 100 COMM records from the kernel");

static int test__mmap_backward_overflow(void)
{
	return backward_kernel(1, 10000, true);
}
DEFINE_SUITE(mmap_backward_overflow, "Backward ring buffer: 1-page buffer overflows whole");
