/*
 * Threads, maps and DSOs rebuilt from a file's side-band records.  Threads
 * and processes are found by tid / pid in util/hashtab tables; a process's
 * maps are a sorted array searched by bisection, since lookups (one per
 * sample and callchain entry) far outnumber MMAP records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "machine.h"
#include "unwind.h"
#include "hash.h"

/*
 * Both tables hold pointers: callers keep a thread or a process's maps
 * across lookups that may grow the table.
 */
static u64 thread__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((u32)(*(struct thread * const *)entry)->tid);
}

static bool thread__equal(const void *entry, const void *tid, void *ctx)
{
	(void)ctx;
	return (*(struct thread * const *)entry)->tid == *(const int *)tid;
}

static u64 maps__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((u32)(*(struct maps * const *)entry)->pid);
}

static bool maps__equal(const void *entry, const void *pid, void *ctx)
{
	(void)ctx;
	return (*(struct maps * const *)entry)->pid == *(const int *)pid;
}

int machine__init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	hashtab__init(&m->threads, sizeof(struct thread *), 256, thread__hash, thread__equal, NULL);
	hashtab__init(&m->maps, sizeof(struct maps *), 256, maps__hash, maps__equal, NULL);
	dso_table__init(&m->dsos);
	m->kernel_dso = dso_table__findnew(&m->dsos, "[kernel.kallsyms]", true);
	return m->kernel_dso ? 0 : -ENOMEM;
}

void machine__exit(struct machine *m)
{
	struct thread **t;
	struct maps **p;
	size_t i;

	hashtab__for_each(&m->threads, i, t) {
		free((*t)->comms);
		free(*t);
	}
	hashtab__for_each(&m->maps, i, p) {
		unwind__maps_exit((*p)->unwind);
		free((*p)->map);
		free(*p);
	}
	hashtab__exit(&m->threads);
	hashtab__exit(&m->maps);
	free(m->ksyms);
	dso_table__exit(&m->dsos);
	memset(m, 0, sizeof(*m));
}

static struct thread *machine__find_thread(struct machine *m, int tid)
{
	struct thread **t = hashtab__find(&m->threads, &tid, u64__hash((u32)tid));

	return t ? *t : NULL;
}

static int thread__push_comm(struct thread *t, const char *comm, size_t len, u64 time)
{
	struct comm_entry *c;

	if (t->nr_comms == t->cap_comms) {
		int cap = t->cap_comms ? t->cap_comms * 2 : 2;

		c = realloc(t->comms, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		t->comms = c;
		t->cap_comms = cap;
	}
	c = &t->comms[t->nr_comms++];
	c->time = time;
	if (len > sizeof(c->comm) - 1)
		len = sizeof(c->comm) - 1;
	memcpy(c->comm, comm, len);
	c->comm[len] = '\0';
	return 0;
}

struct thread *machine__findnew_thread(struct machine *m, int pid, int tid)
{
	struct thread *t = machine__find_thread(m, tid);
	char name[32];

	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	/* Until a COMM says otherwise: the idle task's name, or ":tid" as perf shows it. */
	if (tid == 0)
		snprintf(name, sizeof(name), "swapper");
	else
		snprintf(name, sizeof(name), ":%d", tid);
	if (thread__push_comm(t, name, strlen(name), 0) ||
	    !hashtab__add(&m->threads, &t, u64__hash((u32)tid))) {
		free(t->comms);
		free(t);
		return NULL;
	}
	return t;
}

const char *thread__comm(const struct thread *t)
{
	return t->comms[t->nr_comms - 1].comm;
}

const char *thread__comm_at(const struct thread *t, u64 time)
{
	int lo = 0, hi = t->nr_comms;

	if (time == (u64)-1)
		return thread__comm(t);
	/* The last entry not newer than @time; the oldest one if all are. */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (t->comms[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->comms[lo ? lo - 1 : 0].comm;
}

int machine__process_comm(struct machine *m, const union perf_event *event, u64 time)
{
	const struct perf_record_comm *c = &event->comm;
	size_t max, len;
	struct thread *t;

	if (event->header.size < offsetof(struct perf_record_comm, comm))
		return -EINVAL;
	max = event->header.size - offsetof(struct perf_record_comm, comm);
	len = strnlen(c->comm, max);
	t = machine__findnew_thread(m, c->pid, c->tid);
	if (!t)
		return -ENOMEM;
	if (time == (u64)-1)
		time = 0;
	/* The first real name replaces the made-up one rather than following it. */
	if (!t->comm_set && t->nr_comms == 1) {
		t->nr_comms = 0;
		time = 0;
	}
	t->comm_set = true;
	return thread__push_comm(t, c->comm, len, time);
}

static struct maps *machine__find_maps(struct machine *m, int pid)
{
	struct maps **p;

	if (m->last_maps && m->last_maps->pid == pid)
		return m->last_maps;
	p = hashtab__find(&m->maps, &pid, u64__hash((u32)pid));
	if (!p)
		return NULL;
	m->last_maps = *p;
	return *p;
}

struct maps *machine__findnew_maps(struct machine *m, int pid)
{
	struct maps *p = machine__find_maps(m, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (!hashtab__add(&m->maps, &p, u64__hash((u32)pid))) {
		free(p);
		return NULL;
	}
	return p;
}

static int maps__reserve(struct maps *p, size_t extra)
{
	struct map *n;
	size_t cap;

	if (p->nr + extra <= p->cap)
		return 0;
	cap = p->cap ? p->cap * 2 : 16;
	while (cap < p->nr + extra)
		cap *= 2;
	n = realloc(p->map, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->map = n;
	p->cap = cap;
	return 0;
}

/* Index of the first map ending after @addr. */
static size_t maps__lower(const struct maps *p, u64 addr)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->map[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A new mapping replaces whatever it overlaps, as mmap(2) does. */
static int maps__insert(struct maps *p, const struct map *new)
{
	size_t i, j;

	if (maps__reserve(p, 2))
		return -ENOMEM;
	i = maps__lower(p, new->start);
	if (i < p->nr && p->map[i].start < new->start && p->map[i].end > new->end) {
		/* Split the one map that contains the new one. */
		struct map tail = p->map[i];

		tail.pgoff += new->end - tail.start;
		tail.start = new->end;
		p->map[i].end = new->start;
		/* The maps after it move two places up: the new one and the tail go between. */
		memmove(&p->map[i + 3], &p->map[i + 1], (p->nr - i - 1) * sizeof(struct map));
		p->map[i + 1] = *new;
		p->map[i + 2] = tail;
		p->nr += 2;
		p->last_hit = 0;
		return 0;
	}
	if (i < p->nr && p->map[i].start < new->start) {
		p->map[i].end = new->start;
		i++;
	}
	for (j = i; j < p->nr && p->map[j].end <= new->end; j++)
		;
	if (j < p->nr && p->map[j].start < new->end) {
		p->map[j].pgoff += new->end - p->map[j].start;
		p->map[j].start = new->end;
	}
	/* Replace p->map[i, j) by the new map. */
	memmove(&p->map[i + 1], &p->map[j], (p->nr - j) * sizeof(struct map));
	p->map[i] = *new;
	p->nr = p->nr - (j - i) + 1;
	p->last_hit = 0;
	return 0;
}

static int machine__add_map(struct machine *m, int pid, u64 start, u64 len, u64 pgoff,
			    const char *filename, size_t max)
{
	char name[PATH_MAX];
	size_t n = strnlen(filename, max);
	struct map map;
	struct maps *p;

	/* Kernel and module maps: every kernel address is resolved via kallsyms. */
	if (pid == -1 && len && (!m->kernel_start || start < m->kernel_start))
		m->kernel_start = start;
	if (pid == -1 || !len || start + len < start)
		return 0;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, filename, n);
	name[n] = '\0';
	p = machine__findnew_maps(m, pid);
	if (!p)
		return -ENOMEM;
	map.start = start;
	map.end = start + len;
	map.pgoff = pgoff;
	map.dso = dso_table__findnew(&m->dsos, name, false);
	if (!map.dso)
		return -ENOMEM;
	return maps__insert(p, &map);
}

/* MMAP and MMAP2 lead with the same fields; only where the file name starts differs. */
_Static_assert(offsetof(struct perf_record_mmap, pgoff) == offsetof(struct perf_record_mmap2, pgoff),
	       "MMAP and MMAP2 must agree up to pgoff");

static int machine__process_map(struct machine *m, const union perf_event *event, size_t name_off)
{
	const struct perf_record_mmap *e = &event->mmap;

	if (event->header.size <= name_off)
		return -EINVAL;
	return machine__add_map(m, (int)e->pid, e->start, e->len, e->pgoff,
				(const char *)event + name_off, event->header.size - name_off);
}

int machine__process_mmap(struct machine *m, const union perf_event *event)
{
	return machine__process_map(m, event, offsetof(struct perf_record_mmap, filename));
}

int machine__process_mmap2(struct machine *m, const union perf_event *event)
{
	return machine__process_map(m, event, offsetof(struct perf_record_mmap2, filename));
}

int machine__process_fork(struct machine *m, const union perf_event *event)
{
	const struct perf_record_fork *f = &event->fork;
	struct thread *parent, *child;
	char comm[16];

	if (event->header.size < sizeof(*f))
		return -EINVAL;
	/*
	 * A FORK for a tid already known starts a new task under that number
	 * (perf report's "pid" key tells them apart, as the distro does).
	 */
	child = machine__find_thread(m, (int)f->tid);
	if (child && child->tid != (int)f->ptid)
		child->gen++;
	parent = machine__findnew_thread(m, (int)f->ppid, (int)f->ptid);
	child = machine__findnew_thread(m, (int)f->pid, (int)f->tid);
	if (!parent || !child)
		return -ENOMEM;
	/* A reused tid: the old thread's history no longer applies. */
	child->exited = false;
	child->pid = (int)f->pid;
	child->ppid = (int)f->ppid;
	/*
	 * Copied first: parent and child may be one thread in a damaged file.
	 * A parent known by number only passes nothing on: the child keeps
	 * its own ":tid", as in the distro ("swapper", the idle task, is a name).
	 */
	if (parent->comm_set || parent->tid == 0) {
		snprintf(comm, sizeof(comm), "%s", thread__comm(parent));
		if (thread__push_comm(child, comm, strlen(comm), f->time))
			return -ENOMEM;
		child->comm_set = true;
	}

	/* A new process starts with a copy of its parent's address space. */
	if ((int)f->pid != (int)f->ppid) {
		struct maps *pm = machine__find_maps(m, (int)f->ppid);
		struct maps *cm;

		if (!pm || !pm->nr)
			return 0;
		cm = machine__findnew_maps(m, (int)f->pid);
		/* findnew may have grown the table: pm itself stays where it is. */
		if (!cm || maps__reserve(cm, pm->nr))
			return -ENOMEM;
		memcpy(cm->map, pm->map, pm->nr * sizeof(struct map));
		cm->nr = pm->nr;
		cm->last_hit = 0;
	}
	return 0;
}

int machine__process_exit(struct machine *m, const union perf_event *event)
{
	struct thread *t;

	if (event->header.size < sizeof(event->fork))
		return -EINVAL;
	t = machine__find_thread(m, (int)event->fork.tid);
	if (t)
		t->exited = true;
	return 0;
}

/* The newest JITed code at @addr (a range may be reused once unregistered). */
static struct ksym_map *machine__find_ksym(struct machine *m, u64 addr)
{
	for (size_t i = m->nr_ksyms; i-- > 0;)
		if (addr >= m->ksyms[i].start && addr < m->ksyms[i].end)
			return &m->ksyms[i];
	return NULL;
}

int machine__process_ksymbol(struct machine *m, const union perf_event *event)
{
	const struct perf_record_ksymbol *k = &event->ksymbol;
	size_t max = event->header.size - sizeof(*k);
	struct ksym_map *km;
	struct symbol *sym;
	struct dso *dso;
	char *name;

	if (event->header.size < sizeof(*k) + 1 || !memchr(k->name, '\0', max) || !k->len)
		return -EINVAL;
	km = machine__find_ksym(m, k->addr);
	if (k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) {
		if (km)
			*km = m->ksyms[--m->nr_ksyms];
		return 0;
	}
	dso = dso_table__findnew(&m->dsos, k->name, true);
	if (!dso)
		return -ENOMEM;
	/* One symbol, the whole range, named as its DSO. */
	if (!dso->syms) {
		name = strdup(k->name);
		sym = name ? calloc(1, sizeof(*sym)) : NULL;
		if (!sym) {
			free(name);
			return -ENOMEM;
		}
		dso->syms = sym;
		dso->strpool = name;
		dso->nr_syms = 1;
		dso->loaded = true;
	}
	dso->syms[0] = (struct symbol){ .start = k->addr, .end = k->addr + k->len,
					.name = dso->strpool };
	if (!km) {
		if (m->nr_ksyms == m->cap_ksyms) {
			size_t cap = m->cap_ksyms ? m->cap_ksyms * 2 : 16;
			struct ksym_map *v = realloc(m->ksyms, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			m->ksyms = v;
			m->cap_ksyms = cap;
		}
		km = &m->ksyms[m->nr_ksyms++];
	}
	*km = (struct ksym_map){ .start = k->addr, .end = k->addr + k->len, .dso = dso };
	return 0;
}

struct map *machine__find_map(struct machine *m, int pid, u64 addr)
{
	struct maps *p = machine__find_maps(m, pid);
	size_t i;

	if (!p || !p->nr)
		return NULL;
	i = p->last_hit;
	if (i >= p->nr || addr < p->map[i].start || addr >= p->map[i].end) {
		i = maps__lower(p, addr);
		if (i >= p->nr || addr < p->map[i].start)
			return NULL;
		p->last_hit = i;
	}
	return &p->map[i];
}

/* The DSO of kernel address @addr: JITed code's own, else the kernel's if it is one. */
static struct dso *machine__kernel_dso(struct machine *m, u64 addr)
{
	struct ksym_map *km = m->nr_ksyms ? machine__find_ksym(m, addr) : NULL;

	if (km)
		return km->dso;
	return addr < m->kernel_start ? NULL : m->kernel_dso;
}

struct dso *machine__find_dso(struct machine *m, int pid, u64 addr, bool kernel)
{
	struct map *map;

	if (kernel)
		return machine__kernel_dso(m, addr);
	map = machine__find_map(m, pid, addr);
	return map ? map->dso : NULL;
}

/*
 * Memory no file backs (the stack, the heap, anonymous and zero-page
 * maps): its addresses are its own, as the distro shows them.  The stack's
 * page offset is where exec first put it, before it was moved at random.
 */
static bool map_name__is_anon(const char *name)
{
	static const char *const prefixes[] = {
		"//anon", "[stack", "[heap]", "/anon_hugepage", "/dev/zero",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

void machine__resolve(struct machine *m, int pid, u64 addr, bool kernel,
		      struct addr_location *al)
{
	memset(al, 0, sizeof(*al));
	al->addr = addr;
	al->sym_addr = addr;
	if (kernel) {
		al->dso = machine__kernel_dso(m, addr);
		if (al->dso)
			al->sym = dso__find_symbol(al->dso, addr, &al->sym_addr);
		return;
	}
	al->map = machine__find_map(m, pid, addr);
	if (!al->map)
		return;
	al->dso = al->map->dso;
	if (!map_name__is_anon(al->dso->name))
		al->addr = addr - al->map->start + al->map->pgoff;
	al->sym = dso__find_symbol(al->dso, al->addr, &al->sym_addr);
}
