#ifndef PERF_UTIL_EVLIST_H
#define PERF_UTIL_EVLIST_H
#include <poll.h>
#include "types.h"
#include "list.h"
#include "evsel.h"
#include "fdarray.h"
#include "hashtab.h"

struct cpu_map;
struct thread_map;
struct perf_mmap;

/* One entry of the sample-id table: kernel id -> evsel. */
struct perf_sample_id {
	u64 id;
	struct evsel *evsel;
	/* The reader's: the count a sample last read for this id (PERF_SAMPLE_READ). */
	u64 read;
	int cpu_idx, thread_idx;
};

struct evlist {
	struct list_head entries;	/* struct evsel; empty in an overwrite aux evlist */
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
	struct hashtab ids;		/* parent only: struct perf_sample_id by id */

	struct perf_mmap *mmap;		/* nr_mmaps ring buffers */
	int nr_mmaps;
	size_t mmap_len;		/* data pages, bytes (power of two pages) */
	bool per_cpu;			/* buffers per CPU (else per thread) */
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

/*
 * An evlist that owns only ring buffers, for the evsels of @parent whose
 * overwrite flag is set.  NULL (with a message) if @parent is itself aux.
 * Deleting the parent first detaches its children; each is then deleted
 * on its own.
 */
struct evlist *perf_evlist__new_aux(struct evlist *parent);
bool perf_evlist__is_aux(const struct evlist *evlist);
/*
 * An aux evlist with events of its own (parse_events onto it), in forward
 * buffers of their own: they share the parent's maps, pollfd and id hash
 * but are not the parent's entries.  A file header describes them after
 * the parent's (evlist__for_each_file_evsel): a dump holds the samples of
 * the --switch-output-event triggers that asked for it.
 */
struct evlist *perf_evlist__new_sideband(struct evlist *parent);

/* After @prev (NULL: the first), the evsels a file of @evlist describes, or NULL. */
struct evsel *evlist__next_file_evsel(struct evlist *evlist, struct evsel *prev);
int evlist__nr_file_evsels(struct evlist *evlist);
#define evlist__for_each_file_evsel(evlist, evsel) \
	for (evsel = evlist__next_file_evsel(evlist, NULL); evsel; \
	     evsel = evlist__next_file_evsel(evlist, evsel))

/* Takes references on @cpus and @threads. */
void evlist__set_maps(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads);
/* Opens every evsel; on failure returns -errno with *failed set to the evsel. */
/*
 * evsel__config for every evsel, then the id that tells them apart in the
 * records: ID, or IDENTIFIER where their sample_types differ.
 */
void evlist__config(struct evlist *evlist, const struct record_opts *opts);
int evlist__open(struct evlist *evlist, struct evsel **failed);
void evlist__close(struct evlist *evlist);
int evlist__enable(struct evlist *evlist);
int evlist__disable(struct evlist *evlist);

/*
 * The sample-id table (always the parent's), the recorder's and the
 * reader's.  An id added twice (a damaged file) names the evsel added last.
 */
int evlist__id_add(struct evlist *evlist, struct evsel *evsel, int cpu_idx, int thread_idx,
		   u64 id);
/* @id's entry, NULL if none; valid until the next evlist__id_add. */
struct perf_sample_id *evlist__id2sid(struct evlist *evlist, u64 id);
struct evsel *evlist__id2evsel(struct evlist *evlist, u64 id);
/*
 * The evsel a record belongs to, the recorder's (from this evlist's
 * buffers) and the reader's (a session's evlist) alike: the first when
 * there is one event or no id, or the record has no id (a record without
 * a sample_id_all trailer, or the id 0 of a synthesized one); else the
 * evsel its id names, NULL when none does or the record is too short.
 */
struct evsel *evlist__event2evsel(struct evlist *evlist, const union perf_event *event);
/* The time stamp of a record from this evlist's buffers; 0 if it has none. */
u64 evlist__event_time(struct evlist *evlist, const union perf_event *event);

/*
 * The size the kernel meant a record from this evlist's buffers to have:
 * its header's for every record but a KSYMBOL or BPF_EVENT that says more.
 * The kernel builds one of those once and writes it for each side-band
 * event of the CPU in turn, each adding its sample-id size to the same
 * header and none putting it back (as the MMAP, COMM and TASK records'
 * writers do): an event that comes after another tool's (the kernel
 * takes the newest first, so a long-running recorder's comes last) gets
 * a record whose size counts their trailers too.  Its own trailer follows
 * its body; what comes after is whatever the ring held there before.  The
 * size returned ends at its own trailer (that of an evsel asking for the
 * record, whose id, where records carry one, is at its end).
 */
u16 evlist__record_size(struct evlist *evlist, const union perf_event *event);

/*
 * Maps one ring buffer per CPU (or per thread when not per-CPU) for the
 * parent's evsels whose overwrite flag equals evlist->overwrite: forward
 * and writable for a normal evlist, backward and read-only for an
 * overwrite one.  Every other fd of the same CPU is redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT and every fd goes into the parent's pollfd
 * (POLLIN for forward buffers, nothing but errors for backward ones).
 * @pages is the number of data pages (a power of two).
 */
int perf_evlist__mmap(struct evlist *evlist, size_t pages);
/*
 * Calls @fn with each fd that perf_evlist__mmap() would feed into buffer
 * @idx (the same events, in the same order); stops at @fn's first non-zero
 * answer and returns it.
 */
typedef int (*evlist__fd_fn)(void *arg, int fd);
int evlist__for_each_idx_fd(struct evlist *evlist, int idx, evlist__fd_fn fn, void *arg);
void perf_evlist__munmap(struct evlist *evlist);
/*
 * Drops pollfd entries that hung up (POLLHUP/POLLERR), releasing the
 * buffer they fed (in the parent or a child) once nothing else feeds it.
 * Returns the number of entries left.
 */
int perf_evlist__filter_pollfd(struct evlist *evlist, short revents);
/* Unmaps forward buffers that nothing feeds any more (their fds hung up) once read empty. */
void perf_evlist__release_drained(struct evlist *evlist);

#endif
