/*
 * A list of evsels with the cpus/threads they are opened on, the pollfd
 * array, the sample-id table and the ring buffers.  An aux evlist owns only
 * ring buffers; see evlist.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "evlist.h"
#include "cpumap.h"
#include "thread_map.h"
#include "mmap.h"
#include "debug.h"
#include "page-size.h"
#include "hash.h"

static u64 sample_id__hash(const void *entry, void *ctx)
{
	return u64__hash(((const struct perf_sample_id *)entry)->id);
}

static bool sample_id__equal(const void *entry, const void *key, void *ctx)
{
	return ((const struct perf_sample_id *)entry)->id == *(const u64 *)key;
}

struct evlist *evlist__new(void)
{
	struct evlist *evlist = calloc(1, sizeof(*evlist));

	if (!evlist)
		return NULL;
	INIT_LIST_HEAD(&evlist->entries);
	INIT_LIST_HEAD(&evlist->children);
	INIT_LIST_HEAD(&evlist->child_node);
	evlist->parent = evlist;
	fdarray__init(&evlist->pollfd, 64);
	hashtab__init(&evlist->ids, sizeof(struct perf_sample_id), 16, sample_id__hash,
		      sample_id__equal, NULL);
	return evlist;
}

static struct evlist *evlist__new_child(struct evlist *parent, bool overwrite)
{
	struct evlist *aux;

	if (!parent || perf_evlist__is_aux(parent)) {
		pr_err("internal error: an aux evlist can only be made from a normal evlist\n");
		return NULL;
	}
	aux = evlist__new();
	if (!aux)
		return NULL;
	aux->parent = parent;
	aux->overwrite = overwrite;
	list_add_tail(&aux->child_node, &parent->children);
	if (parent->cpus || parent->threads)
		evlist__set_maps(aux, parent->cpus, parent->threads);
	return aux;
}

struct evlist *perf_evlist__new_aux(struct evlist *parent)
{
	return evlist__new_child(parent, true);
}

struct evlist *perf_evlist__new_sideband(struct evlist *parent)
{
	return evlist__new_child(parent, false);
}

bool perf_evlist__is_aux(const struct evlist *evlist)
{
	/* An orphan (its parent was deleted) is still aux: it only owns buffers. */
	return evlist->parent != evlist;
}

void evlist__set_maps(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads)
{
	struct evlist *child;

	if (cpus != evlist->cpus) {
		cpu_map__put(evlist->cpus);
		evlist->cpus = cpus ? cpu_map__get(cpus) : NULL;
	}
	if (threads != evlist->threads) {
		thread_map__put(evlist->threads);
		evlist->threads = threads ? thread_map__get(threads) : NULL;
	}
	evlist->per_cpu = cpus && !(cpus->nr == 1 && cpus->map[0] == -1);
	list_for_each_entry(child, &evlist->children, child_node)
		evlist__set_maps(child, cpus, threads);
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

void evlist__delete(struct evlist *evlist)
{
	struct evsel *evsel, *tmp;
	struct evlist *child, *ctmp;

	if (!evlist)
		return;
	perf_evlist__munmap(evlist);
	if (perf_evlist__is_aux(evlist)) {
		list_del_init(&evlist->child_node);
	} else {
		/* Children outlive us as orphans that only own their buffers. */
		list_for_each_entry_safe(child, ctmp, &evlist->children, child_node) {
			list_del_init(&child->child_node);
			child->parent = NULL;
		}
	}
	evlist__for_each_entry_safe(evlist, tmp, evsel) {
		evlist__remove(evlist, evsel);
		evsel__delete(evsel);
	}
	hashtab__exit(&evlist->ids);
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	fdarray__exit(&evlist->pollfd);
	free(evlist);
}

static struct evlist *evlist__root(struct evlist *evlist)
{
	return evlist->parent ? evlist->parent : evlist;
}

int evlist__id_add(struct evlist *evlist, struct evsel *evsel, int cpu_idx, int thread_idx,
		   u64 id)
{
	struct evlist *root = evlist__root(evlist);
	struct perf_sample_id sid = {
		.id = id, .evsel = evsel, .cpu_idx = cpu_idx, .thread_idx = thread_idx,
	};
	struct perf_sample_id *old = hashtab__find(&root->ids, &id, u64__hash(id));

	if (old) {
		*old = sid;
		return 0;
	}
	return hashtab__add(&root->ids, &sid, u64__hash(id)) ? 0 : -ENOMEM;
}

struct perf_sample_id *evlist__id2sid(struct evlist *evlist, u64 id)
{
	return hashtab__find(&evlist__root(evlist)->ids, &id, u64__hash(id));
}

struct evsel *evlist__id2evsel(struct evlist *evlist, u64 id)
{
	struct perf_sample_id *sid = evlist__id2sid(evlist, id);

	return sid ? sid->evsel : NULL;
}

/* The first evsel of a sideband child of @evlist after @pos (in its children list), or NULL. */
static struct evsel *evlist__first_in_children(struct evlist *evlist, struct list_head *pos)
{
	for (pos = pos->next; pos != &evlist->children; pos = pos->next) {
		struct evlist *child = list_entry(pos, struct evlist, child_node);

		if (!child->overwrite && child->nr_entries)
			return list_first_entry(&child->entries, struct evsel, node);
	}
	return NULL;
}

struct evsel *evlist__next_file_evsel(struct evlist *evlist, struct evsel *prev)
{
	struct evlist *cur;

	if (!prev)
		return evlist->nr_entries ? evlist__first(evlist) :
		       evlist__first_in_children(evlist, &evlist->children);
	cur = prev->evlist;
	if (prev->node.next != &cur->entries)
		return list_entry(prev->node.next, struct evsel, node);
	return evlist__first_in_children(evlist, cur == evlist ? &evlist->children :
					 &cur->child_node);
}

int evlist__nr_file_evsels(struct evlist *evlist)
{
	struct evsel *evsel;
	int nr = 0;

	evlist__for_each_file_evsel(evlist, evsel)
		nr++;
	return nr;
}

void evlist__config(struct evlist *evlist, const struct record_opts *opts)
{
	struct evsel *evsel, *first;
	u64 id_bit = PERF_SAMPLE_ID;

	evlist__for_each_file_evsel(evlist, evsel)
		evsel__config(evsel, opts);
	/*
	 * Leader sampling ('{a,b}:S'): only the leader samples, and its samples
	 * carry the members' counts; a member lays its (no) samples out as the
	 * leader does, as the distro sets it.
	 */
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->leader == evsel || !evsel->leader->sample_read)
			continue;
		evsel->attr.freq = 0;
		evsel->attr.sample_period = 0;
		evsel->attr.sample_type = evsel->leader->attr.sample_type;
	}
	if (evlist__nr_file_evsels(evlist) < 2)
		return;
	/*
	 * Which evsel a record belongs to is known from its id (the triggers'
	 * samples, which a dump holds too, among them).  Where every
	 * evsel lays its records out alike, ID (at the same place in all of
	 * them) is enough, as in the distro; otherwise IDENTIFIER, whose place
	 * does not depend on the layout: first in a sample, last in the
	 * trailer of any other record (evlist__event_time reads it there).
	 * The flight recorder needs neither to walk a backward buffer (record
	 * sizes do that); it reads a record's time with either.
	 */
	first = evlist__next_file_evsel(evlist, NULL);
	evlist__for_each_file_evsel(evlist, evsel)
		if (evsel->attr.sample_type != first->attr.sample_type)
			id_bit = PERF_SAMPLE_IDENTIFIER;
	evlist__for_each_file_evsel(evlist, evsel)
		evsel->attr.sample_type |= id_bit;
}

int evlist__open(struct evlist *evlist, struct evsel **failed)
{
	struct evsel *evsel;
	int err;

	evlist__for_each_entry(evlist, evsel) {
		err = evsel__open(evsel, evlist->cpus, evlist->threads);
		if (err) {
			*failed = evsel;
			return err;
		}
		for (int i = 0, n = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
			if (evsel->fds[i] < 0)
				continue;
			err = evlist__id_add(evlist, evsel, i / evsel->nr_threads,
					     i % evsel->nr_threads, evsel->ids[n++]);
			if (err) {
				*failed = evsel;
				return err;
			}
		}
	}
	return 0;
}

void evlist__close(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__close(evsel);
}

static int evlist__enable_all(struct evlist *evlist, bool on)
{
	struct evsel *evsel;
	int err = 0, e;

	evlist__for_each_entry(evlist, evsel) {
		e = evsel__enable(evsel, on);
		if (e)
			err = e;
	}
	return err;
}

int evlist__enable(struct evlist *evlist)
{
	return evlist__enable_all(evlist, true);
}

int evlist__disable(struct evlist *evlist)
{
	return evlist__enable_all(evlist, false);
}

int evlist__for_each_idx_fd(struct evlist *evlist, int idx, evlist__fd_fn fn, void *arg)
{
	/* A side-band evlist maps its own events; an overwrite one, its parent's. */
	struct evlist *src = list_empty(&evlist->entries) ? evlist__root(evlist) : evlist;
	struct evsel *evsel;
	int err;

	evlist__for_each_entry(src, evsel) {
		int c_lo, c_hi, t_lo, t_hi;

		if (evsel->overwrite != evlist->overwrite || !evsel->fds)
			continue;
		if (evlist->per_cpu) {
			c_lo = c_hi = idx;
			t_lo = 0;
			t_hi = evsel->nr_threads - 1;
		} else {
			c_lo = c_hi = 0;
			t_lo = t_hi = idx;
		}
		for (int c = c_lo; c <= c_hi; c++) {
			for (int t = t_lo; t <= t_hi; t++) {
				if (FD(evsel, c, t) < 0)
					continue;
				err = fn(arg, FD(evsel, c, t));
				if (err)
					return err;
			}
		}
	}
	return 0;
}

struct evlist_mmap_idx {
	struct evlist *evlist, *root;
	struct perf_mmap *map;
	int idx, output;
};

/* One fd feeding a buffer: the first maps it, the others write through it. */
static int evlist__mmap_fd(void *arg, int fd)
{
	struct evlist_mmap_idx *m = arg;
	struct evlist *evlist = m->evlist;
	int pos, err;

	if (m->output < 0) {
		int cpu = evlist->per_cpu ? evlist->cpus->map[m->idx] : -1;

		err = perf_mmap__mmap(m->map, fd, cpu, evlist->mmap_len, evlist->overwrite);
		if (err)
			return err;
		m->map->refcnt = 0;
		m->output = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->output) < 0) {
		return -errno;
	}
	/*
	 * An overwrite buffer is read only at a dump, so its entry holds fd
	 * -1, which poll() skips: the kernel would otherwise wake the
	 * recorder at every half lap of it (several times a second under
	 * -g), to find nothing to do.  Its task's hangup still shows on the
	 * tracking event, which an overwrite recorder always opens on the
	 * same CPUs and threads.
	 */
	pos = fdarray__add(&m->root->pollfd, evlist->overwrite ? -1 : fd,
			   evlist->overwrite ? 0 : POLLIN | POLLERR | POLLHUP);
	if (pos < 0)
		return pos;
	m->root->pollfd.priv[pos].ptr = m->map;
	m->map->refcnt++;
	return 0;
}

/* The fds feeding buffer @idx: per CPU, every thread of that CPU; per thread, that thread. */
static int evlist__mmap_idx_fds(struct evlist *evlist, int idx, struct evlist *root)
{
	struct evlist_mmap_idx m = {
		.evlist = evlist, .root = root, .map = &evlist->mmap[idx], .idx = idx, .output = -1,
	};

	return evlist__for_each_idx_fd(evlist, idx, evlist__mmap_fd, &m);
}

int perf_evlist__mmap(struct evlist *evlist, size_t pages)
{
	struct evlist *root = evlist__root(evlist);
	int err;

	if (!root || !evlist->cpus || !evlist->threads)
		return -EINVAL;
	evlist->nr_mmaps = evlist->per_cpu ? evlist->cpus->nr : evlist->threads->nr;
	evlist->mmap_len = pages * page_size();
	evlist->mmap = calloc(evlist->nr_mmaps, sizeof(*evlist->mmap));
	if (!evlist->mmap)
		return -ENOMEM;
	for (int i = 0; i < evlist->nr_mmaps; i++)
		evlist->mmap[i].fd = -1;
	for (int i = 0; i < evlist->nr_mmaps; i++) {
		err = evlist__mmap_idx_fds(evlist, i, root);
		if (err) {
			perf_evlist__munmap(evlist);
			return err;
		}
	}
	return 0;
}

void perf_evlist__munmap(struct evlist *evlist)
{
	if (!evlist->mmap)
		return;
	for (int i = 0; i < evlist->nr_mmaps; i++)
		if (evlist->mmap[i].base)
			perf_mmap__munmap(&evlist->mmap[i]);
	free(evlist->mmap);
	evlist->mmap = NULL;
	evlist->nr_mmaps = 0;
}

static void evlist__pollfd_hangup(struct fdarray *fda, int pos, void *arg)
{
	struct perf_mmap *map = fda->priv[pos].ptr;

	if (map && map->refcnt > 0)
		map->refcnt--;
}

int perf_evlist__filter_pollfd(struct evlist *evlist, short revents)
{
	struct evlist *root = evlist__root(evlist);

	return fdarray__filter(&root->pollfd, revents, evlist__pollfd_hangup, NULL);
}

struct evsel *evlist__event2evsel(struct evlist *evlist, const union perf_event *event)
{
	struct evlist *root = evlist__root(evlist);
	size_t words = event->header.size / sizeof(u64);
	struct evsel *first;
	int id_pos, is_pos;
	const u64 *w;

	if (root->nr_entries == 0)
		return NULL;
	first = evlist__first(root);
	/*
	 * The first event's layout tells where the id is (every evsel has it
	 * there: the recorder's evlist__config and the reader's checks see to
	 * that), not whose it is: with several events the id decides.
	 */
	evsel__id_pos(first, &id_pos, &is_pos);
	/* One event in the file: asking for the second, not counting all, per record. */
	if (id_pos < 0 || !evlist__next_file_evsel(root, first))
		return first;
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if ((size_t)id_pos + 1 >= words)
			return NULL;
		w = (const u64 *)event + 1 + id_pos;
	} else {
		if (!first->attr.sample_id_all)
			return first;
		if ((size_t)is_pos >= words)
			return NULL;
		w = (const u64 *)event + words - is_pos;
	}
	/* Synthesized records carry id 0: they belong to the first event, as in perf. */
	if (!*w)
		return first;
	return evlist__id2evsel(root, *w);
}

/*
 * The record's evsel says where its time is; without IDENTIFIER every
 * evsel lays records out as the first does.
 */
u64 evlist__event_time(struct evlist *evlist, const union perf_event *event)
{
	struct evlist *root = evlist__root(evlist);
	struct evsel *evsel;
	u64 time;

	if (event->header.size < 2 * sizeof(u64) || !root->nr_entries)
		return 0;
	evsel = evlist__first(root);
	if (evsel->attr.sample_type & PERF_SAMPLE_IDENTIFIER)
		evsel = evlist__event2evsel(evlist, event);
	if (!evsel || perf_event__time(&evsel->attr, event, &time) || time == (u64)-1)
		return 0;
	return time;
}

/* A KSYMBOL's or BPF_EVENT's bytes before its trailer, from its contents; else 0. */
static size_t perf_event__sideband_body(const union perf_event *event)
{
	size_t size = event->header.size, off = offsetof(struct perf_record_ksymbol, name);
	const char *nul;

	switch (event->header.type) {
	case PERF_RECORD_KSYMBOL:
		if (size <= off)
			return 0;
		nul = memchr(event->ksymbol.name, '\0', size - off);
		return nul ? PERF_ALIGN(off + (nul - event->ksymbol.name) + 1, sizeof(u64)) : 0;
	case PERF_RECORD_BPF_EVENT:
		return size >= sizeof(struct perf_record_bpf_event) ?
		       sizeof(struct perf_record_bpf_event) : 0;
	default:
		return 0;
	}
}

u16 evlist__record_size(struct evlist *evlist, const union perf_event *event)
{
	struct evlist *root = evlist__root(evlist);
	size_t body = perf_event__sideband_body(event), size = event->header.size;
	struct evsel *evsel;

	if (!body)
		return size;
	evlist__for_each_file_evsel(root, evsel) {
		const struct perf_event_attr *attr = &evsel->attr;
		size_t due = body;
		u64 id;

		if (!(event->header.type == PERF_RECORD_KSYMBOL ? attr->ksymbol : attr->bpf_event))
			continue;
		if (attr->sample_id_all)
			due += perf_event__sample_id_size(attr->sample_type);
		if (due > size)
			continue;
		/* Events with trailers of different sizes all have the id at their end. */
		if (attr->sample_id_all && (attr->sample_type & PERF_SAMPLE_IDENTIFIER)) {
			memcpy(&id, (const char *)event + due - sizeof(id), sizeof(id));
			if (evlist__id2evsel(root, id) != evsel)
				continue;
		}
		return due;
	}
	return size;
}

void perf_evlist__release_drained(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &evlist->mmap[i];

		if (map->base && map->refcnt == 0 && perf_mmap__read_head(map) == map->prev)
			perf_mmap__munmap(map);
	}
}
