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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "data.h"
#include "debug.h"
#include "fd-io.h"
#include "tmp-file.h"

/*
 * A recorder holds its output name with a POSIX write lock on the file, for
 * as long as it runs: another recorder is refused that name (it would
 * rename our file away), and a reader can tell a live file from a finished
 * one.  The lock belongs to the inode, so at a dump the next, already
 * locked, file takes the name in the same rename that retires the dump.
 */
static int lock_fd(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_SETLK, &fl) < 0 ? -errno : 0;
}

/* The pid of the process whose write lock holds @fd's file, or 0. */
static pid_t lock_holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

pid_t perf_data__holder(int fd)
{
	return lock_holder(fd);
}

/* The process holding @path for its output, or 0 (no such file, no lock). */
static pid_t path_holder(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	pid_t pid;

	if (fd < 0)
		return 0;
	pid = lock_holder(fd);
	close(fd);
	return pid;
}

/*
 * Two recorders starting in one directory at once would both see a free
 * name: the check and the renames are done under an flock of the directory.
 * Where a file system has no flock, the check alone still holds off a
 * recorder that starts later.
 */
static int lock_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd = -1;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A locked, empty 0600 file under a name of its own next to @path; its fd. */
static int create_tmp(const char *path, char **tmp)
{
	struct tmp_file t;
	int fd = tmp_file__create(&t, path, 0600);

	*tmp = t.name;
	if (fd >= 0 && lock_fd(fd))
		pr_debug("Cannot lock %s: %s\n", *tmp, strerror(errno));
	return fd;
}

/*
 * The new file is created under a temporary name in the same directory, so
 * that the old file is only renamed away once we know the new one exists;
 * then the old one becomes .old and the temporary takes its place.  A name
 * that a live recorder holds is left alone: -EBUSY, its pid in *holder.
 */
static int perf_data__open_new(const char *path, pid_t *holder)
{
	char *tmp = NULL, *old = NULL;
	int fd, dfd = lock_dir_of(path), err;
	struct stat st;

	*holder = path_holder(path);
	if (*holder) {
		err = -EBUSY;
		goto out_free;
	}
	/*
	 * The new file takes the name by rename(2), which would replace a
	 * device node, a fifo or a socket there (-o /dev/null as root made
	 * /dev/null a regular file): such a name is refused, not replaced.
	 */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		err = -ENOTSUP;
		goto out_free;
	}
	if (asprintf(&old, "%s.old", path) < 0) {
		old = NULL;
		err = -ENOMEM;
		goto out_free;
	}
	fd = create_tmp(path, &tmp);
	if (fd < 0) {
		err = fd;
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
	if (dfd >= 0)
		close(dfd);
	return fd;

out_unlink:
	close(fd);
	unlink(tmp);
out_free:
	free(tmp);
	free(old);
	if (dfd >= 0)
		close(dfd);
	return err;
}

/*
 * A character device at the name (-o /dev/null) is written in place, as the
 * distro writes it: a file's temporary name and rename(2) would replace the
 * node.  -ENODEV when the name is not one.
 */
bool perf_data__is_device(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISCHR(st.st_mode);
}

static int perf_data__open_device(const char *path)
{
	struct stat st;
	int fd;

	if (!perf_data__is_device(path))
		return -ENODEV;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
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
	fd = perf_data__open_device(path);
	if (fd >= 0) {
		data->is_device = true;
		data->fd = fd;
		return 0;
	}
	if (fd == -ENODEV)
		fd = perf_data__open_new(path, &data->holder);
	if (fd < 0) {
		free(data->path);
		data->path = NULL;
		return fd;
	}
	data->fd = fd;
	return 0;
}

int perf_data__write(struct perf_data *data, const void *buf, size_t size)
{
	int err = fd__write_all(data->fd, buf, size);

	if (!err)
		data->data_size += size;
	return err;
}

int perf_data__pwrite(struct perf_data *data, const void *buf, size_t size, u64 offset)
{
	return fd__pwrite_all(data->fd, buf, size, (off_t)offset);
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

/* Is @path still the file @fd has open?  0, -ENOENT (gone) or -ESTALE (another file). */
int perf_data__is_ours(const struct perf_data *data)
{
	struct stat ours, named;

	if (fstat(data->fd, &ours) < 0)
		return -errno;
	if (stat(data->path, &named) < 0)
		return -errno;
	return ours.st_dev == named.st_dev && ours.st_ino == named.st_ino ? 0 : -ESTALE;
}

/*
 * The next file takes the name at the instant the current one leaves it
 * (RENAME_EXCHANGE); where the file system cannot swap names, one rename
 * after the other.
 */
static int swap_in(const char *tmp, const char *path, const char *dump_name, int *fd)
{
	int err;

	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		if (rename(tmp, dump_name) == 0)
			return 0;
		/* Back as it was: the finished file under its name. */
		err = -errno;
		renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE);
		return err;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -errno;
	if (rename(path, dump_name) < 0)
		return -errno;
	if (rename(tmp, path) < 0) {
		/* The dump is named; the caller makes the next file afresh. */
		unlink(tmp);
		close(*fd);
		*fd = -1;
	}
	return 0;
}

static int perf_data__rename(struct perf_data *data, const char *dump_name, bool next)
{
	char *tmp = NULL;
	int fd = -1, err;

	err = perf_data__is_ours(data);
	if (err)
		return err;
	if (next) {
		fd = create_tmp(data->path, &tmp);
		if (fd < 0)
			return fd;
		err = swap_in(tmp, data->path, dump_name, &fd);
	} else {
		err = rename(data->path, dump_name) < 0 ? -errno : 0;
	}
	if (err) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return err;
	}
	free(tmp);
	close(data->fd);
	data->fd = fd;
	return 0;
}

int perf_data__switch(struct perf_data *data, bool next, char **dump_name)
{
	char ts[32];

	*dump_name = NULL;
	if (!data->path)
		return -EINVAL;
	perf_data__timestamp(ts);
	if (asprintf(dump_name, "%s.%s", data->path, ts) < 0) {
		*dump_name = NULL;
		return -ENOMEM;
	}
	if (data->is_device)
		return -ENOTSUP;
	return data->is_pipe ? -EINVAL : perf_data__rename(data, *dump_name, next);
}

int perf_data__truncate(struct perf_data *data, u64 size)
{
	if (data->is_device)
		return 0;
	return ftruncate(data->fd, size) < 0 ? -errno : 0;
}

int perf_data__discard(struct perf_data *data)
{
	int err = data->is_device ? -ENOTSUP : perf_data__is_ours(data);

	if (!err && unlink(data->path) < 0)
		err = -errno;
	return err;
}

bool perf_data__is_dump_name(const char *name, const char *base)
{
	size_t blen = strlen(base);

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

int perf_data__rotate_each(const char *path, int max, void (*fn)(const char *file, void *arg),
			   void *arg)
{
	char *dcopy = strdup(path), *bcopy = strdup(path);
	char **names = NULL;
	const char *dir, *base;
	int nr = 0, cap = 0, removed = 0;
	struct dirent *de;
	DIR *d = NULL;

	if (!dcopy || !bcopy) {
		removed = -ENOMEM;
		goto out;
	}
	dir = dirname(dcopy);
	base = basename(bcopy);
	d = opendir(dir);
	if (!d) {
		removed = -errno;
		goto out;
	}
	while ((de = readdir(d))) {
		if (!perf_data__is_dump_name(de->d_name, base))
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
	if (nr)
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
	for (int i = max >= 0 && nr > max ? nr - max : 0; fn && i < nr; i++) {
		char *full = malloc(strlen(dir) + strlen(names[i]) + 2);

		if (!full)
			continue;
		sprintf(full, "%s/%s", dir, names[i]);
		fn(full, arg);
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

int perf_data__rotate(const char *path, int max)
{
	return perf_data__rotate_each(path, max, NULL, NULL);
}
