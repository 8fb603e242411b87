/*
 * A list of evsels with the cpus/threads they are opened on, the pollfd
 * array, the sample-id hash and the ring buffers.  An aux evlist owns only
 * ring buffers; see evlist.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "evlist.h"
#include "cpumap.h"
#include "thread_map.h"

struct evlist *evlist__new(void)
{
	struct evlist *evlist = calloc(1, sizeof(*evlist));

	if (!evlist)
		return NULL;
	INIT_LIST_HEAD(&evlist->entries);
	INIT_LIST_HEAD(&evlist->children);
	INIT_LIST_HEAD(&evlist->child_node);
	evlist->parent = evlist;
	evlist->workload_pid = -1;
	evlist->workload_cork_fd = -1;
	fdarray__init(&evlist->pollfd, 64);
	return evlist;
}

void evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	evsel->evlist = evlist;
	evsel->idx = evlist->nr_entries++;
	list_add_tail(&evsel->node, &evlist->entries);
}

void evlist__remove(struct evlist *evlist, struct evsel *evsel)
{
	list_del_init(&evsel->node);
	evsel->evlist = NULL;
	evlist->nr_entries--;
}

struct evsel *evlist__first(struct evlist *evlist)
{
	return list_empty(&evlist->entries) ? NULL :
		list_first_entry(&evlist->entries, struct evsel, node);
}

struct evsel *evlist__last(struct evlist *evlist)
{
	return list_empty(&evlist->entries) ? NULL :
		list_last_entry(&evlist->entries, struct evsel, node);
}

void evlist__delete(struct evlist *evlist)
{
	struct evsel *evsel, *tmp;

	if (!evlist)
		return;
	evlist__for_each_entry_safe(evlist, tmp, evsel) {
		evlist__remove(evlist, evsel);
		evsel__delete(evsel);
	}
	fdarray__exit(&evlist->pollfd);
	free(evlist);
}
