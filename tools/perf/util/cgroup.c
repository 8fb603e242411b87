/* Cgroups for perf record -G: found under their mount, opened once, shared by events. */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "evlist.h"
#include "evsel.h"

int cgroup__mount(char *buf, size_t size)
{
	FILE *fp = setmntent("/proc/mounts", "r");
	struct mntent *ent;
	int found = 0;		/* 2: a v1 perf_event hierarchy, 1: the v2 one */

	if (!fp)
		return -errno;
	while (found < 2 && (ent = getmntent(fp))) {
		int rank = 0;

		if (!strcmp(ent->mnt_type, "cgroup") && hasmntopt(ent, "perf_event"))
			rank = 2;
		else if (!strcmp(ent->mnt_type, "cgroup2") && !found)
			rank = 1;
		if (rank && (size_t)snprintf(buf, size, "%s", ent->mnt_dir) < size)
			found = rank;
	}
	endmntent(fp);
	return found ? 0 : -ENOENT;
}

void cgroup__put(struct cgroup *cgrp)
{
	if (!cgrp || --cgrp->refcnt)
		return;
	close(cgrp->fd);
	free(cgrp->name);
	free(cgrp);
}

static struct cgroup *cgroup__get(struct cgroup *cgrp)
{
	if (cgrp)
		cgrp->refcnt++;
	return cgrp;
}

/* An event of @evlist already follows cgroup @name: its one fd serves them all. */
static struct cgroup *evlist__find_cgroup(struct evlist *evlist, const char *name)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->cgrp && !strcmp(evsel->cgrp->name, name))
			return evsel->cgrp;
	}
	return NULL;
}

static int cgroup__open(struct cgroup **cgrp, const char *name, char *path, size_t size)
{
	char mnt[4096];
	struct cgroup *c;
	int err = cgroup__mount(mnt, sizeof(mnt));

	if (err)
		return err;
	if ((size_t)snprintf(path, size, "%s/%s", mnt, name) >= size)
		return -ENAMETOOLONG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->name = strdup(name);
	if (!c->name) {
		err = -ENOMEM;
		goto out_free;
	}
	/* Only a directory is a cgroup: the kernel takes its fd as the pid. */
	c->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->fd < 0) {
		err = -errno;
		goto out_free_name;
	}
	c->refcnt = 1;
	*cgrp = c;
	return 0;

out_free_name:
	free(c->name);
out_free:
	free(c);
	return err;
}

int cgroup__id(const struct cgroup *cgrp, u64 *id)
{
	struct {
		struct file_handle fh;
		u64 id;
	} h = { .fh.handle_bytes = sizeof(u64) };
	int mount_id;

	if (name_to_handle_at(cgrp->fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) < 0)
		return -errno;
	if (h.fh.handle_bytes != sizeof(u64))
		return -EOVERFLOW;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

static struct evsel *evlist__nth(struct evlist *evlist, int n)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (!n--)
			return evsel;
	}
	return NULL;
}

/* The @n-th cgroup given, @name (empty: none), onto the @n-th event. */
static int evlist__add_cgroup(struct evlist *evlist, int n, const char *name,
			      char *path, size_t size)
{
	struct evsel *evsel = evlist__nth(evlist, n);
	struct cgroup *cgrp;
	int err;

	if (!evsel)
		return -E2BIG;
	if (!*name)
		return 0;
	cgrp = cgroup__get(evlist__find_cgroup(evlist, name));
	if (!cgrp) {
		err = cgroup__open(&cgrp, name, path, size);
		if (err)
			return err;
	}
	cgroup__put(evsel->cgrp);
	evsel->cgrp = cgrp;
	return 0;
}

int evlist__add_cgroups(struct evlist *evlist, const char *list, int *nr_given,
			char *path, size_t size)
{
	char *copy = strdup(list), *s, *next;
	struct evsel *first, *evsel;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (s = copy; s && !err; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		err = evlist__add_cgroup(evlist, (*nr_given)++, s, path, size);
	}
	free(copy);
	if (err || *nr_given != 1)
		return err;
	/* "-e a -e b -G cg" follows cg with both, as the distro reads it. */
	first = evlist__nth(evlist, 0);
	evlist__for_each_entry(evlist, evsel) {
		if (evsel != first) {
			cgroup__put(evsel->cgrp);
			evsel->cgrp = cgroup__get(first->cgrp);
		}
	}
	return 0;
}
