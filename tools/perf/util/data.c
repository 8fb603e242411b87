/*
 * The perf.data file being written: creation that never loses the previous
 * file, full writes, timestamped switch names and rotation of old dumps.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "data.h"
#include "debug.h"

/*
 * The new file is created under a temporary name in the same directory, so
 * that the old file is only renamed away once we know the new one exists;
 * then the old one becomes .old and the temporary takes its place.
 */
static int perf_data__open_new(const char *path)
{
	size_t len = strlen(path) + 32;
	char *tmp = malloc(len), *old = malloc(strlen(path) + 8);
	struct stat st;
	int fd, err;

	if (!tmp || !old) {
		err = -ENOMEM;
		goto out_free;
	}
	snprintf(tmp, len, "%s.tmp.%d", path, (int)getpid());
	sprintf(old, "%s.old", path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		goto out_free;
	}
	/* Only a regular file is kept as .old; anything else is left to rename(2). */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		if (rename(path, old) < 0) {
			err = -errno;
			goto out_unlink;
		}
	}
	if (rename(tmp, path) < 0) {
		err = -errno;
		goto out_unlink;
	}
	free(tmp);
	free(old);
	return fd;

out_unlink:
	close(fd);
	unlink(tmp);
out_free:
	free(tmp);
	free(old);
	return err;
}

int perf_data__create(struct perf_data *data, const char *path)
{
	int fd;

	memset(data, 0, sizeof(*data));
	data->fd = -1;
	if (!strcmp(path, "-")) {
		/* Standard output, in the pipe format: nothing to create or rename. */
		data->is_pipe = true;
		data->path = strdup("-");
		data->fd = dup(STDOUT_FILENO);
		if (!data->path || data->fd < 0) {
			free(data->path);
			data->path = NULL;
			return data->fd < 0 ? -errno : -ENOMEM;
		}
		return 0;
	}
	data->path = strdup(path);
	if (!data->path)
		return -ENOMEM;
	fd = perf_data__open_new(path);
	if (fd < 0) {
		free(data->path);
		data->path = NULL;
		return fd;
	}
	data->fd = fd;
	return 0;
}

/* Writes all of @buf, at @off or (off < 0) at the file position; 0 or -errno. */
static int write_full(int fd, const void *buf, size_t size, off_t off)
{
	const char *p = buf;

	while (size) {
		ssize_t n = off < 0 ? write(fd, p, size) : pwrite(fd, p, size, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		p += n;
		size -= n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

int perf_data__write(struct perf_data *data, const void *buf, size_t size)
{
	int err = write_full(data->fd, buf, size, -1);

	if (!err)
		data->data_size += size;
	return err;
}

int perf_data__pwrite(struct perf_data *data, const void *buf, size_t size, u64 offset)
{
	return write_full(data->fd, buf, size, (off_t)offset);
}

void perf_data__close(struct perf_data *data)
{
	if (data->fd >= 0)
		close(data->fd);
	data->fd = -1;
	free(data->path);
	data->path = NULL;
}

void perf_data__timestamp(char buf[32])
{
	static unsigned long long last;
	unsigned long long now;
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	now = (unsigned long long)(tm.tm_year + 1900) * 1000000000000ULL +
	      (unsigned long long)(tm.tm_mon + 1) * 10000000000ULL +
	      (unsigned long long)tm.tm_mday * 100000000ULL +
	      (unsigned long long)tm.tm_hour * 1000000ULL +
	      (unsigned long long)tm.tm_min * 10000ULL +
	      (unsigned long long)tm.tm_sec * 100ULL +
	      (unsigned long long)(tv.tv_usec / 10000);
	/*
	 * Two switches within one centisecond (or a clock step back) would
	 * overwrite a dump: bump past the last name instead.  The result may
	 * not be a real time of day, but it still sorts after the previous one.
	 */
	if (now <= last)
		now = last + 1;
	last = now;
	snprintf(buf, 32, "%016llu", now);
}

int perf_data__switch(struct perf_data *data, char **dump_name)
{
	char ts[32], *name;
	size_t len;
	int fd;

	if (data->is_pipe || !data->path)
		return -EINVAL;
	perf_data__timestamp(ts);
	len = strlen(data->path) + strlen(ts) + 2;
	name = malloc(len);
	if (!name)
		return -ENOMEM;
	snprintf(name, len, "%s.%s", data->path, ts);
	if (rename(data->path, name) < 0) {
		int err = -errno;

		free(name);
		return err;
	}
	fd = open(data->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = -errno;

		/* Put the finished file back so that nothing is lost. */
		rename(name, data->path);
		free(name);
		return err;
	}
	close(data->fd);
	data->fd = fd;
	data->data_size = 0;
	data->data_offset = 0;
	*dump_name = name;
	return 0;
}

static bool is_dump_name(const char *name, const char *base, size_t blen)
{
	if (strncmp(name, base, blen) || name[blen] != '.')
		return false;
	name += blen + 1;
	for (int i = 0; i < 16; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return name[16] == '\0';
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

int perf_data__rotate(const char *path, int max)
{
	char *dcopy = strdup(path), *bcopy = strdup(path);
	char **names = NULL;
	const char *dir, *base;
	int nr = 0, cap = 0, removed = 0;
	struct dirent *de;
	size_t blen;
	DIR *d = NULL;

	if (!dcopy || !bcopy) {
		removed = -ENOMEM;
		goto out;
	}
	dir = dirname(dcopy);
	base = basename(bcopy);
	blen = strlen(base);
	d = opendir(dir);
	if (!d) {
		removed = -errno;
		goto out;
	}
	while ((de = readdir(d))) {
		if (!is_dump_name(de->d_name, base, blen))
			continue;
		if (nr == cap) {
			char **n = realloc(names, (cap ? cap * 2 : 16) * sizeof(*names));

			if (!n) {
				removed = -ENOMEM;
				goto out;
			}
			names = n;
			cap = cap ? cap * 2 : 16;
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr]) {
			removed = -ENOMEM;
			goto out;
		}
		nr++;
	}
	/* Same width digits: name order is time order, oldest first. */
	qsort(names, nr, sizeof(*names), cmp_names);
	for (int i = 0; max >= 0 && i < nr - max; i++) {
		char *full = malloc(strlen(dir) + strlen(names[i]) + 2);

		if (!full)
			continue;
		sprintf(full, "%s/%s", dir, names[i]);
		if (unlink(full) == 0)
			removed++;
		else
			pr_debug("rotate: cannot remove %s: %s\n", full, strerror(errno));
		free(full);
	}
out:
	if (d)
		closedir(d);
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(dcopy);
	free(bcopy);
	return removed;
}
