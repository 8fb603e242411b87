/*
 * perf record -G: events counted only while a task of a cgroup runs on the
 * CPU.  The kernel takes the cgroup as an fd of its directory in place of
 * the pid (PERF_FLAG_PID_CGROUP), so such an event is always per CPU.
 */
#ifndef PERF_UTIL_CGROUP_H
#define PERF_UTIL_CGROUP_H

#include <stddef.h>
#include "types.h"

struct evlist;

struct cgroup {
	char *name;		/* as given, relative to the hierarchy's mount */
	int fd;			/* its directory, O_RDONLY: perf_event_open's pid */
	int refcnt;		/* the events that follow it */
};

/*
 * Where the cgroups perf events follow are mounted: a v1 hierarchy with the
 * perf_event controller, else the v2 one (which has it implicitly).
 * -ENOENT if /proc/mounts has neither.
 */
int cgroup__mount(char *buf, size_t size);
void cgroup__put(struct cgroup *cgrp);
/*
 * The cgroup's id, as the kernel's BPF helpers give it (the kernfs id of
 * its directory, from its file handle): 0 or -errno.
 */
int cgroup__id(const struct cgroup *cgrp, u64 *id);

/*
 * One -G argument, "name[,name...]", onto @evlist's events: the n-th name
 * given on the whole command line (counted in @nr_given, empty ones too)
 * goes to the n-th event, an empty name leaves its event on every task, and
 * a first -G of one name covers every event given before it.  Returns 0, or
 * -ENOENT with no cgroup mount, -errno of the open with its @path filled
 * in, -E2BIG when a name has no event to go to.
 */
int evlist__add_cgroups(struct evlist *evlist, const char *list, int *nr_given,
			char *path, size_t size);

#endif
