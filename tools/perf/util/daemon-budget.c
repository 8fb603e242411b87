/*
 * perf daemon's disk budget (see daemon-budget.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "daemon-budget.h"
#include "daemon-session.h"
#include "data.h"
#include "units.h"

/* The name the recorders write, in their session directory. */
#define BUDGET_OUTPUT	"perf.data"

/* One dump found in a session directory. */
struct budget_dump {
	char *path;
	u64 size;
	struct timespec mtime;
	bool newest;		/* its session's newest: never deleted */
};

struct budget_scan {
	struct budget_dump *dumps;
	int nr, cap;
	u64 total;
};

/* Older first: by mtime, then by name (the timestamp the recorder gave it). */
static int dump__cmp(const void *a, const void *b)
{
	const struct budget_dump *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int scan__add(struct budget_scan *scan, const char *dir, const char *name)
{
	struct budget_dump *d;
	struct stat st;
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	/* Gone since readdir (a recorder's --switch-max-files): not ours to count. */
	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(path);
		return 0;
	}
	if (scan->nr == scan->cap) {
		int cap = scan->cap ? scan->cap * 2 : 32;
		struct budget_dump *n = realloc(scan->dumps, cap * sizeof(*n));

		if (!n) {
			free(path);
			return -ENOMEM;
		}
		scan->dumps = n;
		scan->cap = cap;
	}
	d = &scan->dumps[scan->nr++];
	*d = (struct budget_dump){ .path = path, .size = st.st_size, .mtime = st.st_mtim };
	scan->total += d->size;
	return 0;
}

/* The dumps in @dir onto @scan, its newest marked. */
static int scan__session(struct budget_scan *scan, const char *dir)
{
	int first = scan->nr, newest = -1, err = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return 0;
	while (!err && (de = readdir(d)))
		if (perf_data__is_dump_name(de->d_name, BUDGET_OUTPUT))
			err = scan__add(scan, dir, de->d_name);
	closedir(d);
	for (int i = first; i < scan->nr; i++)
		if (newest < 0 || dump__cmp(&scan->dumps[i], &scan->dumps[newest]) > 0)
			newest = i;
	if (newest >= 0)
		scan->dumps[newest].newest = true;
	return err;
}

static void scan__exit(struct budget_scan *scan)
{
	for (int i = 0; i < scan->nr; i++)
		free(scan->dumps[i].path);
	free(scan->dumps);
}

static int scan__sessions(struct budget_scan *scan, struct list_head *sessions)
{
	struct daemon_session *s;
	int err = 0;

	*scan = (struct budget_scan){ 0 };
	list_for_each_entry(s, sessions, node)
		if (!err)
			err = scan__session(scan, s->dir);
	return err;
}

void daemon_budget__usage(struct list_head *sessions, u64 *bytes, int *files)
{
	struct budget_scan scan;

	scan__sessions(&scan, sessions);
	*bytes = scan.total;
	*files = scan.nr;
	scan__exit(&scan);
}

int daemon_budget__enforce(struct daemon_budget *b, struct list_head *sessions,
			   void (*log)(const char *fmt, ...))
{
	struct budget_scan scan;
	int deleted = 0;

	if (!b->max)
		return 0;
	if (scan__sessions(&scan, sessions) || scan.total <= b->max) {
		b->over_noted = false;
		goto out;
	}
	qsort(scan.dumps, scan.nr, sizeof(*scan.dumps), dump__cmp);
	for (int i = 0; i < scan.nr && scan.total > b->max; i++) {
		struct budget_dump *d = &scan.dumps[i];

		if (d->newest)
			continue;
		if (unlink(d->path) < 0) {
			log("cannot delete %s (daemon.max-size %llu reached): %s\n", d->path,
			    (unsigned long long)b->max, strerror(errno));
			continue;
		}
		scan.total -= d->size;
		deleted++;
		log("deleted %s (%llu bytes): daemon.max-size %llu reached\n", d->path,
		    (unsigned long long)d->size, (unsigned long long)b->max);
	}
	/* Said once, not at every look, until the dumps fit again. */
	if (scan.total > b->max && !b->over_noted)
		log("the newest dump of each session alone takes %llu bytes, over daemon.max-size "
		    "%llu: they are kept\n", (unsigned long long)scan.total,
		    (unsigned long long)b->max);
	b->over_noted = scan.total > b->max;
out:
	scan__exit(&scan);
	return deleted;
}

int daemon_budget__parse(const char *value, u64 *max)
{
	bool unit;

	if (!value || units__parse_size(value, max, &unit) || !*max)
		return -EINVAL;
	return 0;
}
