/*
 * Thread lists for -p/-t: a process expands to every thread listed under
 * /proc/PID/task at the time of the call; a thread id stands for itself.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "thread_map.h"
#include "debug.h"

REFARRAY_LAYOUT_CHECK(thread_map);

static struct thread_map *thread_map__from(struct refarray *a)
{
	return (struct thread_map *)a;
}

struct thread_map *thread_map__new_dummy(void)
{
	return thread_map__from(refarray__new_dummy());
}

struct thread_map *thread_map__get(struct thread_map *map)
{
	return thread_map__from(refarray__get((struct refarray *)map));
}

void thread_map__put(struct thread_map *map)
{
	refarray__put((struct refarray *)map);
}

/* Only all-digit names: /proc/PID/task holds nothing else, but be strict. */
static int parse_tid(const char *s, const char **endp, pid_t *tid)
{
	long v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > 0x7fffffff)
			return -EINVAL;
	}
	*endp = s;
	*tid = (pid_t)v;
	return 0;
}

static int tid_list__add_process(struct refarray_build *l, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0, found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((d = readdir(dir)) != NULL) {
		const char *end;
		pid_t tid;

		if (parse_tid(d->d_name, &end, &tid) || *end)
			continue;
		err = refarray_build__add(l, tid);
		if (err)
			break;
		found++;
	}
	closedir(dir);
	/* The process exited between opendir() and readdir(). */
	if (!err && !found)
		err = -ESRCH;
	return err;
}

/*
 * /proc/TID exists for every thread id even though only thread group
 * leaders are listed in /proc itself, so it tells a live thread apart.
 */
static int tid_list__add_thread(struct refarray_build *l, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (access(path, F_OK))
		return errno == ENOENT ? -ESRCH : -errno;
	return refarray_build__add(l, tid);
}

/* Returns NULL with errno set from @err, or the map. */
static struct thread_map *tid_list__finish(struct refarray_build *l, int err)
{
	struct thread_map *map = NULL;

	/* Sorted and without duplicates, so "-p 1 -t 1" monitors thread 1 once. */
	if (!err) {
		map = thread_map__from(refarray_build__finish(l));
		if (!map)
			err = -ENOMEM;
	}
	free(l->v);
	if (err)
		errno = -err;
	return map;
}

struct thread_map *thread_map__new_by_tid(pid_t tid)
{
	struct refarray_build l = { NULL, 0, 0 };

	return tid_list__finish(&l, tid < 0 ? -ESRCH : tid_list__add_thread(&l, tid));
}

/* "N[,N...]": each item added by @add; blanks and empty items are EINVAL. */
static int tid_list__add_str(struct refarray_build *l, const char *str,
			     int (*add)(struct refarray_build *l, pid_t id))
{
	const char *p = str;

	if (!*p)
		return -EINVAL;
	for (;;) {
		pid_t id;
		int err = parse_tid(p, &p, &id);

		if (err)
			return err;
		err = add(l, id);
		if (err)
			return err;
		if (*p == '\0')
			return 0;
		if (*p != ',' || p[1] == '\0')
			return -EINVAL;
		p++;
	}
}

/*
 * Either list may be NULL; with both NULL the map is the dummy one.  A pid
 * or tid that does not exist fails the whole map with ESRCH, because
 * monitoring fewer threads than asked for would mislead.
 */
struct thread_map *thread_map__new_str(const char *pid, const char *tid)
{
	struct refarray_build l = { NULL, 0, 0 };
	int err = 0;

	if (!pid && !tid)
		return thread_map__new_dummy();
	if (pid)
		err = tid_list__add_str(&l, pid, tid_list__add_process);
	if (!err && tid)
		err = tid_list__add_str(&l, tid, tid_list__add_thread);
	if (err)
		pr_debug("bad thread list pid='%s' tid='%s': %s\n", pid ? pid : "",
			 tid ? tid : "", strerror(-err));
	return tid_list__finish(&l, err);
}
