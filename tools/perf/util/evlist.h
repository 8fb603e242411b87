#ifndef PERF_UTIL_EVLIST_H
#define PERF_UTIL_EVLIST_H
#include <poll.h>
#include "types.h"
#include "list.h"
#include "evsel.h"
#include "fdarray.h"

struct cpu_map;
struct thread_map;
struct perf_mmap;

#define PERF_EVLIST__HLIST_BITS 8
#define PERF_EVLIST__HLIST_SIZE (1 << PERF_EVLIST__HLIST_BITS)

/* One entry of the sample-id hash: kernel id -> evsel. */
struct perf_sample_id {
	struct perf_sample_id *next;
	u64 id;
	struct evsel *evsel;
	int cpu_idx, thread_idx;
};

struct evlist {
	struct list_head entries;	/* struct evsel; empty in an aux evlist */
	int nr_entries;
	/*
	 * A normal evlist is its own parent.  An aux evlist (perf_evlist__new_aux)
	 * owns only ring buffers: it uses its parent's cpus, threads, pollfd and
	 * id hash, and is linked on the parent's children list.
	 */
	struct evlist *parent;
	struct list_head children;	/* parent: its aux evlists */
	struct list_head child_node;	/* aux: in parent->children */
	bool overwrite;			/* which evsels this evlist maps (evsel->overwrite) */

	struct cpu_map *cpus;
	struct thread_map *threads;
	struct fdarray pollfd;		/* parent only */
	struct perf_sample_id *heads[PERF_EVLIST__HLIST_SIZE];	/* parent only */

	struct perf_mmap *mmap;		/* nr_mmaps ring buffers */
	int nr_mmaps;
	size_t mmap_len;		/* data pages, bytes (power of two pages) */
	int workload_pid;		/* forked workload, -1 if none */
	int workload_cork_fd;		/* write end that releases it */
};

#define evlist__for_each_entry(evlist, evsel) \
	list_for_each_entry(evsel, &(evlist)->entries, node)
#define evlist__for_each_entry_safe(evlist, tmp, evsel) \
	list_for_each_entry_safe(evsel, tmp, &(evlist)->entries, node)

struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
void evlist__add(struct evlist *evlist, struct evsel *evsel);
void evlist__remove(struct evlist *evlist, struct evsel *evsel);
struct evsel *evlist__first(struct evlist *evlist);
struct evsel *evlist__last(struct evlist *evlist);

#endif
