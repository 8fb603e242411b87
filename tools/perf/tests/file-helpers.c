/*
 * For tests that write a small perf.data (or a record) by hand and check
 * what a command prints for it, and that clean up a directory of their own.
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/event.h"

union perf_event *test__named_record(union perf_event *ev, u32 type, size_t name_off,
				     const char *name)
{
	size_t size = PERF_ALIGN(name_off + strlen(name) + 1, sizeof(u64));

	memset(ev, 0, size);
	ev->header.type = type;
	ev->header.size = (u16)size;
	strcpy((char *)ev + name_off, name);
	return ev;
}

int test__write_perf_data(const char *path, const struct perf_event_attr *attr,
			  const void *records, size_t len)
{
	u64 hdr[13] = { 0 }, ids_sec[2] = { 0, 0 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), err = 0;

	if (fd < 0)
		return -1;
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = sizeof(hdr);
	hdr[2] = sizeof(*attr) + sizeof(ids_sec);
	hdr[3] = sizeof(hdr);			/* attrs */
	hdr[4] = hdr[2];
	hdr[5] = hdr[3] + hdr[4];		/* data */
	hdr[6] = len;
	if (write(fd, hdr, sizeof(hdr)) != sizeof(hdr) ||
	    write(fd, attr, sizeof(*attr)) != sizeof(*attr) ||
	    write(fd, ids_sec, sizeof(ids_sec)) != sizeof(ids_sec) ||
	    write(fd, records, len) != (ssize_t)len)
		err = -1;
	close(fd);
	return err;
}

int test__run_captured(int (*cmd)(int, const char **), int argc, const char **argv,
		       char *out, size_t size)
{
	char path[] = "/tmp/perf-test-out.XXXXXX";
	int ofd = mkstemp(path), saved, rc;
	ssize_t n;

	if (ofd < 0)
		return -1;
	unlink(path);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(ofd, STDOUT_FILENO);
	rc = cmd(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = pread(ofd, out, size - 1, 0);
	close(ofd);
	out[n > 0 ? n : 0] = '\0';
	return rc;
}

void test__chain_sample_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->size = sizeof(*attr);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
}

static int rm_rf__one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int test__rm_rf(const char *dir)
{
	if (nftw(dir, rm_rf__one, 16, FTW_DEPTH | FTW_PHYS)) {
		fprintf(stderr, "could not remove %s\n", dir);
		return -1;
	}
	return 0;
}

char *test__written(int (*write)(FILE *fp, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int err;

	if (!fp)
		return NULL;
	err = write(fp, arg);
	fclose(fp);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}
