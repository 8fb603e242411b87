/* Which mapped files samples fell into (see dso-hits.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "dso-hits.h"
#include "evlist.h"
#include "evsel.h"
#include "hash.h"
#include "hashtab.h"

struct hit_map {
	u32 pid;
	u32 name;		/* index into names */
	u64 start, end;
};

struct hit_fork {
	u32 child, parent;
};

struct dso_hits {
	size_t ip_off;			/* where IP is in a sample; TID follows it */
	/* Every file name seen, interned; hit[] (cap_hit long) says which samples fell into. */
	char **names;
	bool *hit;
	size_t nr_names, cap_names, cap_hit;
	struct hashtab name_slots;	/* of size_t: an index into names */
	struct hit_map *maps;
	size_t nr_maps, cap_maps;
	struct hit_fork *forks;
	size_t nr_forks, cap_forks;
	/* (pid, page) of user samples not yet matched to a map, u64s; matched ones leave the set. */
	struct hashtab pages;
	u64 last_page;
	bool sorted;			/* maps and forks are sorted */
	bool all;			/* the answer is "every file" */
};

/* Pages kept before matching what can be matched (a long recording must not grow without end). */
#define DSO_HITS_MAX_PAGES	(1 << 16)

static void hits__match(struct dso_hits *h);

static u64 name_slot__hash(const void *slot, void *ctx)
{
	const struct dso_hits *h = ctx;

	return str__hash(h->names[*(const size_t *)slot]);
}

static bool name_slot__equal(const void *slot, const void *name, void *ctx)
{
	const struct dso_hits *h = ctx;

	return !strcmp(h->names[*(const size_t *)slot], name);
}

static u64 page__hash(const void *key, void *ctx)
{
	(void)ctx;
	return u64__hash(*(const u64 *)key);
}

static bool page__equal(const void *key, const void *other, void *ctx)
{
	(void)ctx;
	return *(const u64 *)key == *(const u64 *)other;
}

struct dso_hits *dso_hits__new(struct evlist *evlist)
{
	const u64 bits = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	struct dso_hits *h;
	struct evsel *e;
	u64 layout = 0;
	bool any = false;

	evlist__for_each_entry(evlist, e) {
		u64 st = e->attr.sample_type & bits;

		/* The tracking dummy samples nothing. */
		if (evsel__is_dummy(e))
			continue;
		if (any && st != layout)
			return NULL;
		layout = st;
		any = true;
	}
	if (!any || !(layout & PERF_SAMPLE_IP) || !(layout & PERF_SAMPLE_TID))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ip_off = sizeof(struct perf_event_header) +
		    (layout & PERF_SAMPLE_IDENTIFIER ? sizeof(u64) : 0);
	hashtab__init(&h->name_slots, sizeof(size_t), 64, name_slot__hash, name_slot__equal, h);
	hashtab__init(&h->pages, sizeof(u64), 1024, page__hash, page__equal, NULL);
	return h;
}

void dso_hits__delete(struct dso_hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_names; i++)
		free(h->names[i]);
	free(h->names);
	free(h->hit);
	hashtab__exit(&h->name_slots);
	free(h->maps);
	free(h->forks);
	hashtab__exit(&h->pages);
	free(h);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*p, ncap * size);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}

/* The index of @name, added if new; -1 when out of memory. */
static long hits__intern(struct dso_hits *h, const char *name)
{
	u64 hash = str__hash(name);
	const size_t *idx = hashtab__find(&h->name_slots, name, hash);

	if (idx)
		return (long)*idx;
	if (grow((void **)&h->names, &h->cap_names, h->nr_names + 1, sizeof(*h->names)))
		return -1;
	h->names[h->nr_names] = strdup(name);
	if (!h->names[h->nr_names])
		return -1;
	if (!hashtab__add(&h->name_slots, &h->nr_names, hash)) {
		free(h->names[h->nr_names]);
		return -1;
	}
	return (long)h->nr_names++;
}

static void hits__add_map(struct dso_hits *h, u32 pid, u64 start, u64 len, const char *name,
			  size_t max)
{
	long idx;

	if (!memchr(name, '\0', max) || !len)
		return;
	idx = hits__intern(h, name);
	if (idx < 0 || grow((void **)&h->maps, &h->cap_maps, h->nr_maps + 1, sizeof(*h->maps))) {
		h->all = true;
		return;
	}
	h->maps[h->nr_maps++] = (struct hit_map){ pid, (u32)idx, start, start + len };
}

static void hits__add_page(struct dso_hits *h, u64 key)
{
	if (h->pages.nr >= DSO_HITS_MAX_PAGES) {
		hits__match(h);
		/* Mostly samples no map explains yet: give up on telling files apart. */
		if (h->pages.nr >= DSO_HITS_MAX_PAGES / 2) {
			h->all = true;
			return;
		}
	}
	if (hashtab__find(&h->pages, &key, u64__hash(key)))
		return;
	if (!hashtab__add(&h->pages, &key, u64__hash(key)))
		h->all = true;
}

void dso_hits__note(struct dso_hits *h, const union perf_event *event)
{
	const char *p = (const char *)event;
	u64 ip, key;
	u32 pid;

	if (!h || h->all)
		return;
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		if ((event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
		    event->header.size < h->ip_off + 16)
			return;
		memcpy(&ip, p + h->ip_off, sizeof(ip));
		memcpy(&pid, p + h->ip_off + 8, sizeof(pid));
		/* User addresses fit in 48 bits: the page and the pid make one key. */
		key = ((u64)pid << 36 | (ip >> 12 & ((1ULL << 36) - 1))) + 1;
		if (key != h->last_page) {
			hits__add_page(h, key);
			h->last_page = key;
		}
		return;
	case PERF_RECORD_MMAP:
		if (event->header.size > offsetof(struct perf_record_mmap, filename))
			hits__add_map(h, event->mmap.pid, event->mmap.start, event->mmap.len,
				      event->mmap.filename, event->header.size -
				      offsetof(struct perf_record_mmap, filename));
		break;
	case PERF_RECORD_MMAP2:
		if (event->header.size > offsetof(struct perf_record_mmap2, filename) &&
		    (event->mmap2.prot & 4 /* PROT_EXEC */))
			hits__add_map(h, event->mmap2.pid, event->mmap2.start, event->mmap2.len,
				      event->mmap2.filename, event->header.size -
				      offsetof(struct perf_record_mmap2, filename));
		break;
	case PERF_RECORD_FORK:
		/* A new process starts with its parent's maps; threads share them. */
		if (event->fork.pid == event->fork.ppid)
			break;
		if (grow((void **)&h->forks, &h->cap_forks, h->nr_forks + 1, sizeof(*h->forks))) {
			h->all = true;
			break;
		}
		h->forks[h->nr_forks++] = (struct hit_fork){ event->fork.pid, event->fork.ppid };
		break;
	default:
		return;
	}
	h->sorted = false;
}

static int map_cmp(const void *a, const void *b)
{
	const struct hit_map *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int fork_cmp(const void *a, const void *b)
{
	const struct hit_fork *x = a, *y = b;

	return x->child < y->child ? -1 : x->child > y->child;
}

/* The first map of @pid, or nr_maps. */
static size_t hits__first_map(const struct dso_hits *h, u32 pid)
{
	size_t lo = 0, hi = h->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->maps[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nr_maps && h->maps[lo].pid == pid ? lo : h->nr_maps;
}

static bool hits__parent(const struct dso_hits *h, u32 *pid)
{
	struct hit_fork key = { *pid, 0 }, *f;

	if (!h->nr_forks)
		return false;
	f = bsearch(&key, h->forks, h->nr_forks, sizeof(*f), fork_cmp);
	if (!f)
		return false;
	*pid = f->parent;
	return true;
}

/* Marks the files page @key falls into, in its process or (forked) its ancestors'. */
static bool hits__match_page(struct dso_hits *h, u64 key)
{
	u32 pid = (key - 1) >> 36;
	u64 addr = ((key - 1) & ((1ULL << 36) - 1)) << 12;
	bool found = false;

	/* A handful of generations is plenty; a loop of forks must not hang us. */
	for (int depth = 0; depth < 16 && !found; depth++) {
		for (size_t m = hits__first_map(h, pid); m < h->nr_maps && h->maps[m].pid == pid;
		     m++) {
			if (addr + 4096 > h->maps[m].start && addr < h->maps[m].end) {
				h->hit[h->maps[m].name] = true;
				found = true;
			}
		}
		if (!found && !hits__parent(h, &pid))
			break;
	}
	return found;
}

/* Matches the pages waiting against the maps known now; matched ones leave the set. */
static void hits__match(struct dso_hits *h)
{
	struct hashtab old;
	const u64 *page;
	size_t i;

	if (h->cap_hit < h->nr_names) {
		bool *hit = realloc(h->hit, h->nr_names * sizeof(*hit));

		if (!hit) {
			h->all = true;
			return;
		}
		memset(hit + h->cap_hit, 0, (h->nr_names - h->cap_hit) * sizeof(*hit));
		h->hit = hit;
		h->cap_hit = h->nr_names;
	}
	if (!h->sorted) {
		/* (Empty arrays may be NULL, which qsort() must not be given.) */
		if (h->nr_maps)
			qsort(h->maps, h->nr_maps, sizeof(*h->maps), map_cmp);
		if (h->nr_forks)
			qsort(h->forks, h->nr_forks, sizeof(*h->forks), fork_cmp);
		h->sorted = true;
	}
	if (!h->pages.nr)
		return;
	if (hashtab__move(&h->pages, &old)) {
		h->all = true;
		return;
	}
	/* The table is as large as before: putting the unmatched back cannot fail. */
	hashtab__for_each(&old, i, page)
		if (!hits__match_page(h, *page))
			hashtab__add(&h->pages, page, u64__hash(*page));
	hashtab__exit(&old);
	h->last_page = 0;
}

bool dso_hits__hit(struct dso_hits *h, const char *name)
{
	const size_t *idx;

	if (!h)
		return true;
	if (!h->all) {
		hits__match(h);
		/* A sample in no known map: its file may be any. */
		if (h->pages.nr)
			h->all = true;
	}
	if (h->all)
		return true;
	idx = hashtab__find(&h->name_slots, name, str__hash(name));
	return idx && h->hit[*idx];
}
