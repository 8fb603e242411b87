/*
 * tracefs: where it is, mounting it when we must, and reading its files.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "tracepoint.h"

#define TRACEFS_MAGIC_NR 0x74726163

static char tracefs_path[4096];
static char tracefs_err[512];

const char *tracepoint__error(void)
{
	return tracefs_err;
}

static bool is_tracefs(const char *path)
{
	struct statfs st;
	char events[4200];

	if (statfs(path, &st) < 0 || (unsigned long)st.f_type != TRACEFS_MAGIC_NR)
		return false;
	snprintf(events, sizeof(events), "%s/events", path);
	return access(events, R_OK | X_OK) == 0;
}

/* First tracefs in /proc/mounts (a debugfs mount may hold one at tracing/). */
static bool find_mounted(void)
{
	FILE *fp = setmntent("/proc/mounts", "r");
	struct mntent *m;
	bool found = false;

	if (!fp)
		return false;
	while (!found && (m = getmntent(fp))) {
		if (!strcmp(m->mnt_type, "tracefs") && is_tracefs(m->mnt_dir)) {
			snprintf(tracefs_path, sizeof(tracefs_path), "%s", m->mnt_dir);
			found = true;
		} else if (!strcmp(m->mnt_type, "debugfs")) {
			char sub[4200];

			snprintf(sub, sizeof(sub), "%s/tracing", m->mnt_dir);
			if (is_tracefs(sub)) {
				snprintf(tracefs_path, sizeof(tracefs_path), "%s", sub);
				found = true;
			}
		}
	}
	endmntent(fp);
	return found;
}

const char *tracepoint__tracefs_dir(void)
{
	static const char *target = "/sys/kernel/tracing";

	if (tracefs_path[0])
		return tracefs_path;
	if (find_mounted())
		return tracefs_path;
	if (geteuid() != 0) {
		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not mounted and only root can mount it: run as root, or "
			 "'mount -t tracefs nodev %s'", target);
		errno = EACCES;
		return NULL;
	}
	if (mount("nodev", target, "tracefs", 0, NULL) < 0 && errno != EBUSY) {
		int err = errno;

		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not mounted and mounting it at %s failed: %s", target,
			 strerror(err));
		errno = err;
		return NULL;
	}
	if (!is_tracefs(target)) {
		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not available at %s (kernel built without tracing?)", target);
		errno = ENOENT;
		return NULL;
	}
	snprintf(tracefs_path, sizeof(tracefs_path), "%s", target);
	return tracefs_path;
}

char *tracepoint__read_file(const char *relpath, size_t *size)
{
	const char *dir = tracepoint__tracefs_dir();
	char path[8192];
	size_t cap = 8192, len = 0;
	char *buf;
	int fd;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
		if (len == cap) {
			char *nbuf = realloc(buf, cap * 2 + 1);

			if (!nbuf) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nbuf;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[len] = '\0';
	if (size)
		*size = len;
	return buf;
}

int tracepoint__id(const char *sys, const char *name)
{
	char rel[1024];
	char *s;
	long id;

	snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name);
	s = tracepoint__read_file(rel, NULL);
	if (!s)
		return errno ? -errno : -ENOENT;
	id = strtol(s, NULL, 10);
	free(s);
	return id > 0 ? (int)id : -EINVAL;
}
