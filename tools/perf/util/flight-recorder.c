/*
 * The flight recorder's dump engine: see flight-recorder.h for the story.
 */
#include <errno.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "flight-recorder.h"
#include "clockid.h"
#include "cpumap.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"
#include "cgroup.h"
#include "mmap.h"
#include "overwrite-state.h"
#include "page-size.h"
#include "sideband.h"
#include "thread_map.h"

/*
 * How far back a backward buffer still reaches, learnt without pausing it:
 * pairs (t, w) of "by record time t, w bytes had been written".  Once the
 * kernel has written a buffer length past w, whatever was written before
 * t is gone, so t bounds the oldest record a dump of it can hold.
 */
#define FR_WRAP_SLOTS 64
/* One pair per millisecond of record time at most. */
#define FR_WRAP_STEP	1000000ULL
/* Per-CPU clocks may disagree a little: keep this much more than needed. */
#define FR_CLOCK_SKEW	100000000ULL
/* The records of a buffer the events just moved to that a dump compares with. */
#define FR_OVERLAP_MAX	8192
/*
 * How much earlier than its twin in the other buffer a record of one hit
 * may be timed: the twins write one after the other, and the move's own
 * interrupt may come between them (1-40 us seen here, with a numbered
 * stream); kept wide for a busy machine, as a match is used up.
 */
#define FR_TWIN_NS	1000000ULL
/* The niceness a dump is written at, where allowed. */
#define FR_DUMP_NICE	-10

struct fr_wrap {
	u64 t[FR_WRAP_SLOTS];
	u64 w[FR_WRAP_SLOTS];
	int n;
	u64 bound;		/* nothing older than this is left in the buffer */
};

/* One backward buffer's own state. */
struct fr_buffer {
	enum overwrite_evt_state state;
	u64 dumped;		/* its read position after the last dump that completed */
	struct fr_wrap wrap;
	/*
	 * Swap mode: the oldest record time in the buffer the events moved to
	 * when they left this one (0: none).  What this one took from then on
	 * is in that one too, and is left out of this one's dump.  And a copy
	 * of that one's oldest records then (FR_OVERLAP_MAX bytes at most):
	 * a record that fired while the events moved may carry a slightly
	 * earlier time in this buffer than in that one, and is known by its
	 * content instead.
	 */
	u64 cut;
	char *overlap;
	size_t overlap_len;
};

/*
 * Swap mode: the two buffers of one CPU (or thread), buffers 2p and 2p + 1
 * of the aux evlist.  Each overwrite event of the CPU is open twice, once
 * as a member of a group of each buffer (evsel->fds and ->twin_fds), and
 * a group's leader is a dummy event that never writes: the events write
 * into the buffer whose leaders are enabled.  Leader 0 of a side owns its
 * buffer (the mapping); the others, one per cgroup the events follow (a
 * member must follow its leader's), write into it.
 */
struct fr_lead {
	struct cgroup *cgrp;	/* the cgroup its members follow, NULL: none */
	int fd[2];		/* the leader of each buffer's group (-1: none yet) */
	u64 id[2];		/* their kernel ids */
};

struct fr_pair {
	struct fr_lead *leads;
	int nr_leads;
	int carrier[2];		/* leads[0].fd: the events owning the buffers (-1: fake) */
	int active;		/* which of the two the events write into */
	int cpu;		/* where its writers run, -1: anywhere */
	u64 swap_ns;		/* the last swap's two calls */
	bool moved;		/* by the swap under way */
};

struct flight_recorder {
	struct evlist *parent;
	struct evlist *evlist;		/* aux: the backward buffers */
	struct fr_buffer *bufs;		/* one per buffer of evlist */
	bool swap;			/* swap mode: nr_pairs pairs of buffers */
	bool on_exec;			/* the events start at a workload's exec */
	void (*fake_toggle)(void *arg, int pair, int k);	/* tests: a fake pair's move */
	void *fake_arg;
	bool frozen;			/* a freeze set the past aside for the next dump */
	struct fr_pair *pairs;
	int nr_pairs;
	void *staging;			/* one buffer's copy, reused for each */
	size_t staging_size;
	struct sideband *table;		/* the process table, or NULL */
	bool described;			/* this dump's table (and head) is written */
	/* Record times. */
	u64 t_seen;			/* the newest seen */
	u64 dump_bound;			/* no later dump holds anything older */
	u64 need_from;			/* the table was pruned up to here */
	u64 fwd_first;			/* the oldest forward sample in the file */
	u64 file_first, file_last;	/* the file's samples */
	bool since_dump;		/* the table describes all since the last dump */
	/* Where this thread may run; a dump moves it to buffers' CPUs and back. */
	cpu_set_t *home;
	size_t set_size;
	int nr_cpus;
	struct cpu_map *online;		/* where a per-thread buffer's writer may run */
	bool away;
	bool warned;
	bool no_boost;			/* SCHED_FIFO refused, or we were real-time already */
	int policy;			/* ours when not boosted */
	struct flight_recorder_stats stats;
};

struct flight_recorder *flight_recorder__new(struct evlist *parent, u64 table_max)
{
	struct flight_recorder *fr = calloc(1, sizeof(*fr));

	if (!fr)
		return NULL;
	fr->parent = parent;
	/* The kernel's affinity masks are as wide as the possible CPUs. */
	fr->nr_cpus = cpu__max_cpu();
	fr->set_size = CPU_ALLOC_SIZE(fr->nr_cpus);
	fr->home = CPU_ALLOC(fr->nr_cpus);
	fr->evlist = perf_evlist__new_aux(parent);
	fr->online = cpu_map__new(NULL);
	if (table_max)
		fr->table = sideband__new(table_max);
	if (!fr->home || !fr->evlist || !fr->online || (table_max && !fr->table)) {
		flight_recorder__delete(fr);
		return NULL;
	}
	if (sched_getaffinity(0, fr->set_size, fr->home) < 0) {
		/* Then we never move: every quiesce takes a grace period. */
		CPU_FREE(fr->home);
		fr->home = NULL;
	}
	fr->fwd_first = fr->file_first = ~0ULL;
	fr->policy = sched_getscheduler(0);
	/* Only a normal thread is boosted and put back: anything else stays as it is. */
	fr->no_boost = fr->policy != SCHED_OTHER;
	return fr;
}

static void fr__close_pairs(struct flight_recorder *fr)
{
	for (int p = 0; p < fr->nr_pairs; p++) {
		struct fr_pair *pair = &fr->pairs[p];

		for (int l = 0; l < pair->nr_leads; l++)
			for (int k = 0; k < 2; k++)
				if (pair->leads[l].fd[k] >= 0)
					close(pair->leads[l].fd[k]);
		free(pair->leads);
	}
	free(fr->pairs);
	fr->pairs = NULL;
	fr->nr_pairs = 0;
}

void flight_recorder__delete(struct flight_recorder *fr)
{
	if (!fr)
		return;
	for (int i = 0; fr->bufs && i < fr->evlist->nr_mmaps; i++)
		free(fr->bufs[i].overlap);
	free(fr->bufs);
	evlist__delete(fr->evlist);
	fr__close_pairs(fr);
	sideband__delete(fr->table);
	cpu_map__put(fr->online);
	free(fr->staging);
	if (fr->home)
		CPU_FREE(fr->home);
	free(fr);
}

static int fr__setup_buffers(struct flight_recorder *fr);

/*
 * Moves pair @pair's events into buffer @k: its leaders enabled, then the
 * other buffer's disabled.  ENABLE and DISABLE of a CPU's event are done
 * on that CPU before the call returns, and a group runs only while its
 * leader does, so each call starts or stops all of a group's events at
 * one instant (bench/twin-toggle-probe: 0.045 ms for the two).  In that
 * order nothing is lost; what fires between the two calls is in both
 * buffers.  Where a call fails the events are put back where they were.
 */
static int fr__pair_toggle(struct fr_pair *pair, int k)
{
	int l, err = 0;

	for (l = 0; l < pair->nr_leads && !err; l++)
		if (ioctl(pair->leads[l].fd[k], PERF_EVENT_IOC_ENABLE, 0) < 0)
			err = -errno;
	for (int j = 0; j < pair->nr_leads && !err; j++)
		if (ioctl(pair->leads[j].fd[!k], PERF_EVENT_IOC_DISABLE, 0) < 0) {
			err = -errno;
			while (j-- > 0)
				ioctl(pair->leads[j].fd[!k], PERF_EVENT_IOC_ENABLE, 0);
		}
	if (err)
		while (l-- > 0)
			ioctl(pair->leads[l].fd[k], PERF_EVENT_IOC_DISABLE, 0);
	return err;
}

/* The lead of pair @pair for @cgrp, added if it is new; NULL without memory. */
static struct fr_lead *fr__pair_lead(struct fr_pair *pair, struct cgroup *cgrp)
{
	struct fr_lead *leads;

	for (int l = 0; l < pair->nr_leads; l++)
		if (pair->leads[l].cgrp == cgrp)
			return &pair->leads[l];
	leads = realloc(pair->leads, (pair->nr_leads + 1) * sizeof(*leads));
	if (!leads)
		return NULL;
	pair->leads = leads;
	leads[pair->nr_leads] = (struct fr_lead){ .cgrp = cgrp, .fd = { -1, -1 } };
	return &leads[pair->nr_leads++];
}

/*
 * The leaders of @lead, one per buffer of pair @p, with the clock and the
 * direction of the overwrite events (the kernel wants them alike in a
 * shared buffer); leaders past the first write into the first's buffers.
 * Both start disabled: a member enabled while its leader runs is not put
 * on until the leader is enabled again (6.18 here), so buffer 0's leaders
 * are enabled once the events are (flight_recorder__events_enabled()).
 */
static int fr__lead_open(struct flight_recorder *fr, int p, struct fr_lead *lead,
			 struct perf_event_attr *attr, const char **why)
{
	struct evlist *el = fr->evlist;
	struct fr_pair *pair = &fr->pairs[p];
	/*
	 * On the task the events follow (the first, per CPU; -1 for a whole
	 * CPU), which a user may watch where a whole CPU is not allowed.
	 */
	pid_t pid = lead->cgrp ? lead->cgrp->fd : el->threads->map[el->per_cpu ? 0 : p];
	unsigned long flags = PERF_FLAG_FD_CLOEXEC | (lead->cgrp ? PERF_FLAG_PID_CGROUP : 0);

	for (int k = 0; k < 2; k++) {
		attr->disabled = 1;
		/*
		 * A workload: the kernel starts buffer 0's groups at its exec,
		 * leader and members at once (fr__twins_open()); a cgroup's
		 * events are not the task's and are enabled as without one.
		 */
		attr->enable_on_exec = k == 0 && fr->on_exec && !lead->cgrp;
		lead->fd[k] = syscall(SYS_perf_event_open, attr, pid, pair->cpu, -1, flags);
		if (lead->fd[k] < 0 || ioctl(lead->fd[k], PERF_EVENT_IOC_ID, &lead->id[k]) < 0) {
			*why = "the buffers' group leaders cannot be opened";
			return -errno;
		}
		if (lead != pair->leads &&
		    ioctl(lead->fd[k], PERF_EVENT_IOC_SET_OUTPUT, pair->carrier[k]) < 0) {
			*why = "the kernel refused a cgroup's group leader the shared buffer";
			return -errno;
		}
	}
	return 0;
}

/* Pair @p's two buffers, owned by its first leaders. */
static int fr__pair_open(struct flight_recorder *fr, int p, struct perf_event_attr *attr,
			 const char **why)
{
	struct evlist *el = fr->evlist;
	struct fr_pair *pair = &fr->pairs[p];
	struct fr_lead *lead = fr__pair_lead(pair, NULL);
	int err;

	pair->cpu = el->per_cpu ? el->cpus->map[p] : -1;
	if (!lead) {
		*why = "out of memory";
		return -ENOMEM;
	}
	err = fr__lead_open(fr, p, lead, attr, why);
	for (int k = 0; k < 2 && !err; k++) {
		pair->carrier[k] = lead->fd[k];
		err = perf_mmap__mmap(&el->mmap[2 * p + k], pair->carrier[k], pair->cpu,
				      el->mmap_len, true);
		if (err)
			*why = "two buffers per CPU need twice the locked memory "
			       "(/proc/sys/kernel/perf_event_mlock_kb, or a smaller -m)";
	}
	return err;
}

/*
 * An overwrite event's fd @i as the twins of swap mode: both members of
 * pair @p's groups (of its cgroup's leaders), filtered as the event is.
 */
static int fr__twins_open(struct flight_recorder *fr, struct evsel *evsel, int i, int p,
			  struct perf_event_attr *lattr, int *twins, u64 *ids, const char **why)
{
	struct evlist *el = fr->evlist;
	struct fr_pair *pair = &fr->pairs[p];
	struct fr_lead *lead = fr__pair_lead(pair, evsel->cgrp);
	int c = i / evsel->nr_threads, t = i % evsel->nr_threads, err = 0;

	if (!lead)
		return -ENOMEM;
	if (lead->fd[0] < 0) {
		err = fr__lead_open(fr, p, lead, lattr, why);
		if (err)
			return err;
	}
	for (int k = 0; k < 2 && !err; k++) {
		struct perf_event_attr attr = evsel->attr;

		/*
		 * Where the kernel enables the events at a workload's exec, their
		 * groups' leaders carry that (fr__lead_open()) and the twins are
		 * on under them, as members of any group: only the leader is
		 * switched, at one instant.  The header keeps the events' attrs.
		 */
		if (evsel->attr.enable_on_exec) {
			evsel->attr.disabled = 0;
			evsel->attr.enable_on_exec = 0;
		}
		twins[k] = evsel__open_one(evsel, el->threads->map[t], el->cpus->map[c],
					   lead->fd[k], &ids[k]);
		evsel->attr = attr;
		if (twins[k] < 0) {
			*why = "an overwrite event cannot be opened twice";
			return twins[k];
		}
		if (ioctl(twins[k], PERF_EVENT_IOC_SET_OUTPUT, pair->carrier[k]) < 0 ||
		    (evsel->filter && ioctl(twins[k], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0)) {
			*why = "an overwrite event's twin cannot be set up as the event";
			err = -errno;
		}
	}
	return err;
}

/*
 * In place of @evsel's fds, twins @a (its fds now) and @b, with ids @ida
 * and @idb, each fd's pair together in the order they were opened (the
 * header's ids ascending, as readers print them).
 */
static int fr__twins_take(struct flight_recorder *fr, struct evsel *evsel, int *a, int *b,
			  u64 *ida, u64 *idb)
{
	int n = evsel->nr_cpus * evsel->nr_threads, nr = 0, err = 0;
	u64 *ids = calloc(2 * n, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (evsel->fds[i] < 0)
			continue;
		close(evsel->fds[i]);
		evsel->fds[i] = a[i];
		ids[2 * nr] = ida[i];
		ids[2 * nr + 1] = idb[i];
		nr++;
	}
	/* The ids of the events closed name nothing from now on. */
	for (int j = 0; j < evsel->nr_ids; j++) {
		struct perf_sample_id *sid = evlist__id2sid(fr->parent, evsel->ids[j]);

		if (sid)
			hashtab__remove(&fr->parent->ids, sid);
	}
	free(evsel->ids);
	evsel->ids = ids;
	evsel->nr_ids = 2 * nr;
	evsel->twin_fds = b;
	for (int i = 0, j = 0; i < n && !err; i++) {
		if (a[i] < 0)
			continue;
		err = evlist__id_add(fr->parent, evsel, i / evsel->nr_threads,
				     i % evsel->nr_threads, ids[2 * j]);
		if (!err)
			err = evlist__id_add(fr->parent, evsel, i / evsel->nr_threads,
					     i % evsel->nr_threads, ids[2 * j + 1]);
		j++;
	}
	return err;
}

/*
 * Every overwrite event as its twins.  The events recorded so far stay
 * until every twin is open: where one cannot be, they are as they were.
 */
static int fr__open_all_twins(struct flight_recorder *fr, struct perf_event_attr *lattr,
			      const char **why)
{
	struct evlist *el = fr->evlist;
	struct evsel *evsel;
	int err = 0;
	struct fr_twins {
		int *fd[2];
		u64 *id[2];
	} *tw = calloc(fr->parent->nr_entries, sizeof(*tw));

	if (!tw) {
		*why = "out of memory";
		return -ENOMEM;
	}
	evlist__for_each_entry(fr->parent, evsel) {
		struct fr_twins *w = &tw[evsel->idx];
		int n = evsel->nr_cpus * evsel->nr_threads;

		if (!evsel->overwrite || !evsel->fds)
			continue;
		if (evsel->leader != evsel || evsel->nr_members > 1 || evsel->sample_read) {
			*why = "events in groups of their own are paused, not swapped";
			err = -EOPNOTSUPP;
			goto out;
		}
		for (int k = 0; k < 2; k++) {
			w->fd[k] = malloc(n * sizeof(int));
			w->id[k] = calloc(n, sizeof(u64));
			if (!w->fd[k] || !w->id[k]) {
				*why = "out of memory";
				err = -ENOMEM;
				goto out;
			}
			for (int i = 0; i < n; i++)
				w->fd[k][i] = -1;
		}
		for (int i = 0; i < n && !err; i++) {
			int fds[2] = { -1, -1 };
			u64 ids[2];

			if (evsel->fds[i] < 0)
				continue;
			err = fr__twins_open(fr, evsel, i, el->per_cpu ? i / evsel->nr_threads :
					     i % evsel->nr_threads, lattr, fds, ids, why);
			for (int k = 0; k < 2; k++) {
				w->fd[k][i] = fds[k];
				w->id[k][i] = ids[k];
			}
		}
		if (err)
			goto out;
	}
	evlist__for_each_entry(fr->parent, evsel) {
		struct fr_twins *w = &tw[evsel->idx];

		if (!w->fd[0] || err)
			continue;
		err = fr__twins_take(fr, evsel, w->fd[0], w->fd[1], w->id[0], w->id[1]);
		free(w->fd[0]);
		w->fd[0] = w->fd[1] = NULL;
	}
	if (err)
		*why = "out of memory";
out:
	evlist__for_each_entry(fr->parent, evsel) {
		struct fr_twins *w = &tw[evsel->idx];

		for (int k = 0; k < 2; k++) {
			for (int i = 0; w->fd[k] && i < evsel->nr_cpus * evsel->nr_threads; i++)
				if (w->fd[k][i] >= 0)
					close(w->fd[k][i]);
			free(w->fd[k]);
			free(w->id[k]);
		}
	}
	free(tw);
	return err;
}

/*
 * The leaders' ids, listed with @evsel's (the first overwrite event, whose
 * trailer they have).  A leader never samples, but the kernel (6.18 here)
 * throttles a whole group when one member is, and each event of
 * it, the leader too, writes its THROTTLE and UNTHROTTLE record into the
 * buffer with its own id: a reader must find that id in the header.
 */
static int fr__leaders_listed(struct flight_recorder *fr, struct evsel *evsel)
{
	int nr = evsel->nr_ids, err = 0;
	u64 *ids;

	for (int p = 0; p < fr->nr_pairs; p++)
		nr += 2 * fr->pairs[p].nr_leads;
	ids = realloc(evsel->ids, nr * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	evsel->ids = ids;
	for (int p = 0; p < fr->nr_pairs && !err; p++) {
		struct fr_pair *pair = &fr->pairs[p];

		for (int l = 0; l < pair->nr_leads && !err; l++)
			for (int k = 0; k < 2 && !err; k++) {
				ids[evsel->nr_ids++] = pair->leads[l].id[k];
				err = evlist__id_add(fr->parent, evsel, fr->evlist->per_cpu ? p : 0,
						     fr->evlist->per_cpu ? 0 : p, pair->leads[l].id[k]);
			}
	}
	return err;
}

/* Undoes a swap setup that failed half way: the events point nowhere again. */
static void fr__unmap_swap(struct flight_recorder *fr)
{
	perf_evlist__munmap(fr->evlist);
	fr__close_pairs(fr);
}

/* Two backward buffers per CPU (or thread), the events writing into the first. */
static int fr__mmap_swap(struct flight_recorder *fr, size_t pages, const char **why)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.write_backward = 1,
		/* It counts nothing; a user may not open it with the kernel in. */
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct evlist *el = fr->evlist;
	struct evsel *evsel, *first = NULL;
	int nr = el->per_cpu ? el->cpus->nr : el->threads->nr, err = 0;

	evlist__for_each_entry(fr->parent, evsel) {
		if (evsel->overwrite) {
			first = evsel;
			/*
			 * Its records' trailers read as the event's
			 * (fr__leaders_listed()); no more, a dummy takes
			 * no branch stack.
			 */
			attr.sample_type = evsel->attr.sample_type & SAMPLE_ID_BITS;
			attr.sample_id_all = evsel->attr.sample_id_all;
			attr.use_clockid = evsel->attr.use_clockid;
			attr.clockid = evsel->attr.clockid;
			/* A process's new threads inherit the groups, leader first. */
			attr.inherit = evsel->attr.inherit;
			fr->on_exec = evsel->attr.enable_on_exec;
			break;
		}
	}
	el->mmap_len = pages * page_size();
	el->mmap = calloc(2 * nr, sizeof(*el->mmap));
	fr->pairs = calloc(nr, sizeof(*fr->pairs));
	if (!el->mmap || !fr->pairs) {
		*why = "out of memory";
		err = -ENOMEM;
		goto out_undo;
	}
	el->nr_mmaps = 2 * nr;
	fr->nr_pairs = nr;
	for (int p = 0; p < nr; p++)
		fr->pairs[p].carrier[0] = fr->pairs[p].carrier[1] = -1;
	for (int p = 0; p < nr && !err; p++)
		err = fr__pair_open(fr, p, &attr, why);
	if (!err)
		err = fr__open_all_twins(fr, &attr, why);
	if (!err && first && fr__leaders_listed(fr, first)) {
		*why = "out of memory";
		err = -ENOMEM;
	}
	if (!err)
		return 0;
out_undo:
	fr__unmap_swap(fr);
	return err;
}

int flight_recorder__mmap(struct flight_recorder *fr, size_t pages, bool swap)
{
	const char *why = NULL;
	int err;

	if (swap) {
		err = fr__mmap_swap(fr, pages, &why);
		if (!err) {
			fr->swap = true;
			pr_debug("overwrite buffers: swap mode, %d pairs of %zu KB\n", fr->nr_pairs,
				 pages * page_size() >> 10);
			return fr__setup_buffers(fr);
		}
		if (why)
			pr_warning("Dumps pause each overwrite buffer instead of swapping it: %s (%s); "
				   "--dump-mode=pause says so and keeps this quiet.\n", why,
				   strerror(-err));
	}
	pr_debug("overwrite buffers: pause mode, %zu KB each\n", pages * page_size() >> 10);
	err = perf_evlist__mmap(fr->evlist, pages);
	return err ? err : fr__setup_buffers(fr);
}

void flight_recorder__events_enabled(struct flight_recorder *fr)
{
	for (int p = 0; fr->swap && p < fr->nr_pairs; p++) {
		struct fr_pair *pair = &fr->pairs[p];

		/* Off and on: the leaders put their groups' members on again. */
		for (int l = 0; l < pair->nr_leads; l++) {
			ioctl(pair->leads[l].fd[pair->active], PERF_EVENT_IOC_DISABLE, 0);
			if (ioctl(pair->leads[l].fd[pair->active], PERF_EVENT_IOC_ENABLE, 0) < 0)
				pr_err("Cannot enable overwrite buffer %d: %s\n",
				       2 * p + pair->active, strerror(errno));
		}
	}
}

int flight_recorder__mmap_fake(struct flight_recorder *fr, void **bases, const size_t *sizes,
			       int nr, bool swap)
{
	if (swap && nr % 2)
		return -EINVAL;
	fr->evlist->mmap = calloc(nr, sizeof(*fr->evlist->mmap));
	if (!fr->evlist->mmap)
		return -ENOMEM;
	fr->evlist->nr_mmaps = nr;
	for (int i = 0; i < nr; i++) {
		int err = perf_mmap__init_fake(&fr->evlist->mmap[i], bases[i], sizes[i], true);

		if (err)
			return err;
	}
	if (swap) {
		fr->nr_pairs = nr / 2;
		fr->pairs = calloc(fr->nr_pairs, sizeof(*fr->pairs));
		if (!fr->pairs)
			return -ENOMEM;
		for (int p = 0; p < fr->nr_pairs; p++)
			fr->pairs[p] = (struct fr_pair){ .carrier = { -1, -1 }, .cpu = -1 };
		fr->swap = true;
	}
	return fr__setup_buffers(fr);
}

void flight_recorder__fake_toggle(struct flight_recorder *fr,
				  void (*fn)(void *arg, int pair, int k), void *arg)
{
	fr->fake_toggle = fn;
	fr->fake_arg = arg;
}

int flight_recorder__active(const struct flight_recorder *fr, int pair)
{
	return fr->swap && pair < fr->nr_pairs ? 2 * pair + fr->pairs[pair].active : -1;
}

/* Per-buffer state, the staging area, and the ring pages faulted in. */
static int fr__setup_buffers(struct flight_recorder *fr)
{
	fr->bufs = calloc(fr->evlist->nr_mmaps, sizeof(*fr->bufs));
	if (!fr->bufs)
		return -ENOMEM;
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		/* Swap mode: the first of a pair takes the events, the second waits. */
		fr->bufs[i].state = fr->swap && i % 2 ? OVERWRITE_EMPTY : OVERWRITE_RUNNING;
		if (!map->base)
			continue;
		fr->bufs[i].dumped = map->prev;
		/* Swap mode writes from the mappings: no staging copy. */
		if (!fr->swap)
			fr->staging_size = max_t(size_t, fr->staging_size, map->mask + 1);
	}
	if (!fr->staging_size)
		return 0;
	/* Touched now, so a copy made while a buffer is paused takes no page faults. */
	fr->staging = malloc(fr->staging_size);
	if (!fr->staging)
		return -ENOMEM;
	memset(fr->staging, 0, fr->staging_size);
	/*
	 * And one copy of each ring now: the first copy of an 8 MiB ring took
	 * 7.8 ms here, later ones 1.1-1.6 ms, with the ring's pages already
	 * touched once each.  That first one must not be a dump's.
	 */
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		if (map->base)
			memcpy(fr->staging, perf_mmap__data(map), map->mask + 1);
	}
	return 0;
}

int flight_recorder__nr_buffers(const struct flight_recorder *fr)
{
	return fr->evlist->nr_mmaps;
}

/* ---- the forward stream and the process table ----------------------- */

static void fr__note_sample(struct flight_recorder *fr, u64 t, bool forward)
{
	if (!t)
		return;
	if (t < fr->file_first)
		fr->file_first = t;
	if (t > fr->file_last)
		fr->file_last = t;
	if (forward && t < fr->fwd_first)
		fr->fwd_first = t;
	if (t > fr->t_seen)
		fr->t_seen = t;
}

void flight_recorder__seed(struct flight_recorder *fr, const union perf_event *event)
{
	if (fr->table && sideband__wants(event->header.type) &&
	    sideband__add(fr->table, event, 0) < 0)
		fr->stats.table_errors++;
}

/*
 * A KSYMBOL or BPF_EVENT record as the kernel meant it (evlist__record_size()),
 * cut in @buf when the kernel made it longer: its trailer, and so its time,
 * at its end again.  The recorder's reader cuts them already; this holds
 * for every other caller.
 */
static const union perf_event *fr__side_band(const struct flight_recorder *fr,
					     const union perf_event *event, union perf_event *buf)
{
	size_t size = evlist__record_size(fr->parent, event);

	if (size >= event->header.size || size > sizeof(*buf))
		return event;
	memcpy(buf, event, size);
	buf->header.size = size;
	return buf;
}

bool flight_recorder__track(struct flight_recorder *fr, const union perf_event *event)
{
	union perf_event buf;
	u64 t;

	event = fr__side_band(fr, event, &buf);
	t = evlist__event_time(fr->parent, event);
	if (fr->table && sideband__wants(event->header.type)) {
		if (t > fr->t_seen)
			fr->t_seen = t;
		if (sideband__add(fr->table, event, t) < 0)
			fr->stats.table_errors++;
		return false;
	}
	if (event->header.type == PERF_RECORD_SAMPLE)
		fr__note_sample(fr, t, true);
	return true;
}

bool flight_recorder__described(const struct flight_recorder *fr, u32 pid)
{
	return fr->table && fr->described && sideband__emitted(fr->table, pid);
}

bool flight_recorder__comm(const struct flight_recorder *fr, u32 tid, u64 time, char *buf,
			   size_t size)
{
	return fr->table && sideband__comm(fr->table, tid, time, buf, size);
}

/* Notes (t_seen, bytes written so far) and returns how far back the buffer reaches. */
static u64 fr_wrap__update(struct fr_wrap *wr, u64 t_seen, u64 written, u64 size)
{
	int drop = 0;

	while (drop < wr->n && wr->w[drop] + size <= written)
		wr->bound = wr->t[drop++];
	if (drop) {
		wr->n -= drop;
		memmove(wr->t, wr->t + drop, wr->n * sizeof(u64));
		memmove(wr->w, wr->w + drop, wr->n * sizeof(u64));
	}
	if (wr->n && t_seen < wr->t[wr->n - 1] + FR_WRAP_STEP)
		return wr->bound;
	if (wr->n == FR_WRAP_SLOTS) {
		/* Coarser steps: any subset of the pairs is just as true. */
		for (int j = 0; j < wr->n / 2; j++) {
			wr->t[j] = wr->t[2 * j + 1];
			wr->w[j] = wr->w[2 * j + 1];
		}
		wr->n /= 2;
	}
	wr->t[wr->n] = t_seen;
	wr->w[wr->n] = written;
	wr->n++;
	return wr->bound;
}

/*
 * The oldest record time a dump taken now can hold, learning on the way
 * how far back each buffer still reaches.  A dump holds backward records
 * no older than what each buffer still reaches, and none from before the
 * last dump; the file may also hold forward samples from its start.
 */
static u64 fr__oldest(struct flight_recorder *fr)
{
	u64 reach = ~0ULL, need;

	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];
		u64 bound;

		if (!map->base)
			continue;
		/* A backward head counts down from 0: minus it is what was written. */
		bound = fr_wrap__update(&fr->bufs[i].wrap, fr->t_seen,
					0 - perf_mmap__read_head(map), map->mask + 1);
		reach = min_t(u64, reach, bound);
	}
	need = reach == ~0ULL ? fr->dump_bound : max_t(u64, fr->dump_bound, reach);
	return min_t(u64, need, fr->fwd_first);
}

/* Drops from the process table what no dump can need any more. */
void flight_recorder__tick(struct flight_recorder *fr)
{
	u64 need;

	if (!fr->table || !fr->t_seen)
		return;
	need = fr__oldest(fr);
	need = need > FR_CLOCK_SKEW ? need - FR_CLOCK_SKEW : 0;
	if (need >= fr->need_from + FR_WRAP_STEP) {
		fr->need_from = need;
		sideband__prune(fr->table, need);
	}
}

u64 flight_recorder__pending_bytes(const struct flight_recorder *fr)
{
	u64 sum = 0;

	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		if (map->base)
			sum += map->prev - perf_mmap__read_head(map);
	}
	return sum;
}

/* ---- a dump ---------------------------------------------------------- */

/*
 * The ioctl a move of buffer @i needs.  Pause mode: PAUSE_OUTPUT on or off.
 * Swap mode: resuming a buffer moves its pair's events into it (its
 * group leaders enabled, the other buffer's disabled), and pausing one
 * needs nothing: it was left when its partner took the events.
 */
static int fr__act(struct flight_recorder *fr, int i, enum overwrite_action action)
{
	struct fr_pair *pair;
	int err = 0;

	if (!fr->swap)
		return perf_mmap__pause(&fr->evlist->mmap[i], action == OVERWRITE_ACTION_PAUSE);
	if (action == OVERWRITE_ACTION_PAUSE)
		return 0;
	pair = &fr->pairs[i / 2];
	if (pair->carrier[0] >= 0)
		err = fr__pair_toggle(pair, i % 2);
	else if (fr->fake_toggle)
		fr->fake_toggle(fr->fake_arg, i / 2, i % 2);
	if (!err)
		pair->active = i % 2;
	return err;
}

/* Moves buffer @i's state machine towards @want, with the ioctl the move needs. */
static int fr__move(struct flight_recorder *fr, int i, enum overwrite_evt_state want)
{
	struct fr_buffer *b = &fr->bufs[i];
	enum overwrite_evt_state next;
	enum overwrite_action action;
	int err = 0;

	next = overwrite_state__next(b->state, want, &action);
	if (action != OVERWRITE_ACTION_NONE)
		err = fr__act(fr, i, action);
	/* The buffer is as it was when the ioctl fails: so is its state. */
	if (!err)
		b->state = next;
	else
		pr_err("Cannot %s overwrite ring buffer %d: %s\n",
		       action == OVERWRITE_ACTION_PAUSE ? "pause" :
		       fr->swap ? "redirect the events into" : "resume", i, strerror(-err));
	return err;
}

/* Runs this thread on @cpu; 0 once it does. */
static int fr__run_on(struct flight_recorder *fr, int cpu)
{
	cpu_set_t *set;
	int err = 0;

	if (sched_getcpu() == cpu)
		return 0;
	if (!fr->home || cpu >= fr->nr_cpus)
		return -EINVAL;
	set = CPU_ALLOC(fr->nr_cpus);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(fr->set_size, set);
	CPU_SET_S(cpu, fr->set_size, set);
	if (sched_setaffinity(0, fr->set_size, set) < 0)
		err = -errno;
	else
		fr->away = true;
	CPU_FREE(set);
	/* sched_setaffinity() returns on a CPU of the new set: this one. */
	if (!err && sched_getcpu() != cpu)
		err = -EAGAIN;
	return err;
}

static void fr__go_home(struct flight_recorder *fr)
{
	if (fr->away && sched_setaffinity(0, fr->set_size, fr->home) == 0)
		fr->away = false;
}

/*
 * Makes sure that no writer is still inside a record in a buffer that was
 * just paused.  PAUSE_OUTPUT only turns away the writers that start after
 * it; one already between perf_output_begin() and perf_output_end() goes on
 * writing below data_head and publishes a lower head when it is done.
 * Every such writer runs with preemption disabled (perf_output_get_handle()
 * to perf_output_put_handle(), and its callers: tracepoint probes, software
 * events, side-band iteration, interrupts) on the CPU where its event fired.
 * So once this thread has run on a CPU after the pause, every writer that
 * was inside a record there has left it, and later ones see the pause.
 *
 * A per-CPU buffer is written only by events bound to its CPU: running on
 * that CPU once is enough (a migration: 13 us measured here).  A per-thread
 * buffer (cpu -1) may be written on any CPU: we run on each in turn.  Where
 * the scheduler will not let us, membarrier(MEMBARRIER_CMD_GLOBAL) waits
 * for an RCU grace period, which every preemption-disabled section that
 * started before it has ended by (9 ms measured here, so not the default).
 */
static int fr__quiesce(struct flight_recorder *fr, int cpu)
{
	int err = 0;

	if (cpu >= 0) {
		err = fr__run_on(fr, cpu);
	} else {
		/* Starting where we are: that CPU is visited already. */
		int here = cpu_map__idx(fr->online, sched_getcpu()), n = fr->online->nr;

		if (here < 0)
			here = 0;
		for (int k = 0; k < n && !err; k++)
			err = fr__run_on(fr, fr->online->map[(here + k) % n]);
	}
	if (!err)
		return 0;
	fr->stats.quiesce_global++;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return 0;
	if (!fr->warned) {
		pr_warning("Warning: cannot make sure no event is half written in a paused buffer "
			   "(membarrier: %s); a dump may end in a torn record.\n", strerror(errno));
		fr->warned = true;
	}
	return 0;
}

/*
 * For the blind window only, this thread runs SCHED_FIFO where it may (root):
 * a busy machine would otherwise keep it waiting for the buffer's CPU, or
 * preempt it in the middle of the copy, while the buffer misses events (a
 * window of one 8 MiB buffer grew from 2 ms to 39 ms with 16 threads
 * spinning on 2 CPUs).  The writes that follow run at the usual priority.
 */
static void fr__boost(struct flight_recorder *fr, bool on)
{
	struct sched_param rt = { .sched_priority = 1 }, normal = { .sched_priority = 0 };

	if (fr->no_boost)
		return;
	if (on && sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt) < 0) {
		pr_debug("flight recorder: copies at normal priority (SCHED_FIFO: %s)\n",
			 strerror(errno));
		fr->no_boost = true;
	} else if (!on) {
		sched_setscheduler(0, fr->policy, &normal);
	}
}

/* Pauses buffer @i, copies what is new in it, resumes it: its blind window. */
static int fr__copy(struct flight_recorder *fr, int i, u64 *len)
{
	struct perf_mmap *map = &fr->evlist->mmap[i];
	u64 t0 = now_ns(), t1, t2, t3, d;
	int err, err2;

	*len = 0;
	fr__boost(fr, true);
	err = fr__move(fr, i, OVERWRITE_DATA_PENDING);
	if (err) {
		fr__boost(fr, false);
		return err;
	}
	t1 = now_ns();
	fr__quiesce(fr, map->cpu);
	t2 = now_ns();
	*len = perf_mmap__backward_copy(map, fr->staging);
	t3 = now_ns();
	fr__move(fr, i, OVERWRITE_EMPTY);
	err2 = fr__move(fr, i, OVERWRITE_RUNNING);
	d = now_ns() - t0;
	fr__boost(fr, false);
	pr_debug2("buffer %d: paused in %.3f ms, quiet in %.3f ms, %llu bytes copied in %.3f ms, "
		  "resumed in %.3f ms\n", i, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
		  (unsigned long long)*len, (t3 - t2) / 1e6, (t0 + d - t3) / 1e6);
	fr->stats.pauses++;
	fr->stats.pause_ns_total += d;
	fr->stats.pause_ns_max = max_t(u64, fr->stats.pause_ns_max, d);
	return err2;
}

struct fr_note {
	const struct flight_recorder_writer *w;
	const char *copy;
};

static void fr__note(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct fr_note *nt = arg;

	nt->w->note(nt->w->arg, (const union perf_event *)(nt->copy + off));
}

/* A dump's process table and head, written through fr__emit(). */
struct fr_emit {
	struct flight_recorder *fr;
	const struct flight_recorder_writer *w;
	bool headed;		/* the writer's head is written */
};

static int fr__head(struct fr_emit *e)
{
	e->headed = true;
	return e->w->head ? e->w->head(e->w->arg) : 0;
}

/* A record of the table: the writer's head goes before the first one of a real time. */
static int fr__emit(void *arg, union perf_event *event)
{
	struct fr_emit *e = arg;
	int err;

	if (!e->headed && evlist__event_time(e->fr->parent, event)) {
		err = fr__head(e);
		if (err)
			return err;
	}
	return e->w->event(e->w->arg, event);
}

/*
 * Once per dump, before any buffer's record is written: the process
 * table's records of every task alive from the oldest record the dump can
 * hold on (with describe_since_dump, from the last dump on), in time
 * order, and the writer's head (its time-0 records) after the table's
 * time-0 records, before the rest.  So a reader that flushes the records
 * it sorted never meets an older one after them: the table's records are
 * mostly older than the buffers' samples.  The buffers are not read yet,
 * so their range is bounded from what is known of them.
 */
static int fr__describe(struct flight_recorder *fr, const struct flight_recorder_writer *w,
			struct flight_recorder_dump *d)
{
	struct fr_emit e = { .fr = fr, .w = w };
	u64 first;
	int err;

	if (fr->described)
		return 0;
	fr->described = true;
	if (!fr->table)
		return fr__head(&e);
	first = fr->t_seen ? fr__oldest(fr) : 0;
	if (fr->since_dump)
		first = min_t(u64, first, fr->dump_bound);
	err = sideband__emit(fr->table, first, ~0ULL, fr__emit, &e, &d->tasks);
	if (!err && !e.headed)
		err = fr__head(&e);
	return err;
}

/* Whether buffer @i holds records no dump wrote yet. */
static bool fr__holds(struct flight_recorder *fr, int i)
{
	struct perf_mmap *map = &fr->evlist->mmap[i];

	return map->base && perf_mmap__read_head(map) != map->prev;
}

/* One buffer of a dump: its blind window, then its whole records written. */
static int fr__take(struct flight_recorder *fr, int i, const struct flight_recorder_writer *w,
		    struct flight_recorder_dump *d, u64 *held_from, u64 *held_to)
{
	struct perf_mmap *map = &fr->evlist->mmap[i];
	struct fr_note nt = { .w = w, .copy = fr->staging };
	struct perf_mmap_records r;
	u64 len;
	int err;

	if (!map->base)
		return 0;
	err = fr__copy(fr, i, &len);
	if (err || !len)
		return err;
	err = perf_mmap__backward_records(fr->staging, map->mask + 1, len, &r,
					  w->note ? fr__note : NULL, &nt);
	if (err)
		return err;
	d->lost += r.lost;
	if (!r.len)
		return 0;
	if (r.nr_samples) {
		/* A buffer is written newest record first: its first and last samples. */
		u64 newest = evlist__event_time(fr->parent, (union perf_event *)
						((char *)fr->staging + r.newest));
		u64 oldest = evlist__event_time(fr->parent, (union perf_event *)
						((char *)fr->staging + r.oldest));

		fr__note_sample(fr, newest, false);
		fr__note_sample(fr, oldest, false);
		*held_to = max_t(u64, *held_to, newest);
		/* A full copy: the buffer turned over, what came before its oldest sample is gone. */
		if (len == map->mask + 1)
			*held_from = max_t(u64, *held_from, oldest);
	}
	d->samples += r.nr_samples;
	d->bytes += r.len;
	return w->write(w->arg, fr->staging, r.len);
}

/* Writes ring positions [from, to) of @map, which may run off its end and on at its start. */
static int fr__write_ring(struct perf_mmap *map, const struct flight_recorder_writer *w,
			  u64 from, u64 to)
{
	u64 off = from & map->mask, first = min_t(u64, to - from, map->mask + 1 - off);
	char *data = perf_mmap__data(map);
	int err = 0;

	if (first)
		err = w->write(w->arg, data + off, first);
	if (!err && to - from > first)
		err = w->write(w->arg, data, to - from - first);
	return err;
}

/* What fr__write_mapped() found, for the dump's range. */
struct fr_span {
	u64 newest, oldest;	/* record times of the first and the last sample, or 0 */
};

static void fr_span__add(struct fr_span *sp, u64 t)
{
	if (!sp->newest)
		sp->newest = t;
	sp->oldest = t;
}

/*
 * Swap mode: buffer @i has no writer (it was left, and quiesced), so its
 * records since its last read are written straight from the mapping,
 * newest first, in runs between the LOST records, which are counted and
 * left out as in pause mode.  The read position moves to its head; the
 * dump commits or rolls it back.
 */
struct fr_overlap_walk {
	struct flight_recorder *fr;
	struct fr_buffer *b;
	const char *data;
	u64 mask, head;
	union perf_event *rec;	/* FR_OVERLAP_MAX bytes to copy a record into */
};

/* One record of the walk below: its time towards the cut, a sample into the overlap. */
static void fr__overlap_record(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct fr_overlap_walk *ow = arg;
	struct fr_buffer *b = ow->b;
	u64 at = (ow->head + off) & ow->mask, first, t;

	if (hdr->size > FR_OVERLAP_MAX)
		return;
	first = min_t(u64, hdr->size, ow->mask + 1 - at);
	memcpy(ow->rec, ow->data + at, first);
	memcpy((char *)ow->rec + first, ow->data, hdr->size - first);
	ow->rec->header = *hdr;
	t = evlist__event_time(ow->fr->parent, ow->rec);
	if (t && (!b->cut || t < b->cut))
		b->cut = t;
	if (hdr->type != PERF_RECORD_SAMPLE)
		return;
	/* The walk goes from the newest: the oldest kept, the newest copied so far make room. */
	while (b->overlap_len + hdr->size > FR_OVERLAP_MAX) {
		size_t gone = ((const struct perf_event_header *)b->overlap)->size;

		memmove(b->overlap, b->overlap + gone, b->overlap_len - gone);
		b->overlap_len -= gone;
	}
	memcpy(b->overlap + b->overlap_len, ow->rec, hdr->size);
	b->overlap_len += hdr->size;
}

/*
 * Swap mode, right after the events left buffer @left for buffer @i and
 * the quiesce: the cut of @left, the oldest record time in @i from its
 * head now to where it was read last (0 when there is none), and a copy
 * of the oldest of those records, FR_OVERLAP_MAX bytes at most.  Among
 * them are all that both buffers took during the move; the events go on
 * writing @i, but below that head, and only a lap of the whole buffer
 * reaches them: then the copy is dropped, and nothing is cut.
 */
static void fr__note_overlap(struct flight_recorder *fr, int left, int i)
{
	u64 snap = fr->evlist->mmap[i].base ? perf_mmap__read_head(&fr->evlist->mmap[i]) : 0;
	struct fr_buffer *b = &fr->bufs[left];
	struct perf_mmap *map = &fr->evlist->mmap[i];
	struct fr_overlap_walk ow = {
		.fr = fr, .b = b, .data = perf_mmap__data(map), .mask = map->mask, .head = snap,
	};
	u64 end;

	b->cut = 0;
	b->overlap_len = 0;
	if (!map->base || snap == map->prev)
		return;
	if (!b->overlap)
		b->overlap = malloc(2 * FR_OVERLAP_MAX);
	if (!b->overlap)
		return;
	ow.rec = (union perf_event *)(b->overlap + FR_OVERLAP_MAX);
	perf_mmap__backward_walk(ow.data, map->mask + 1, snap, map->prev, &end,
				 fr__overlap_record, &ow);
	if (map->prev - perf_mmap__read_head(map) > map->mask + 1)
		b->cut = b->overlap_len = 0;
}

/*
 * Whether sample @ev, timed @t, is the twin of one of the records @b's
 * overlap holds, which is then used up: the same bytes but for the words
 * that differ between an event's two twins (the time, and the ids of
 * IDENTIFIER, ID and STREAM_ID), and a time at most FR_TWIN_NS later.
 * One hit gives one record in each buffer, so a record is matched once:
 * a run of like records (a loop's same syscall) is not all taken for
 * the one copy the other buffer holds.
 */
static bool fr__in_overlap(struct flight_recorder *fr, struct fr_buffer *b,
			   const struct perf_event_attr *attr, const union perf_event *ev, u64 t)
{
	u64 st = attr->sample_type, mask = 0;
	int w = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		mask |= 1ULL << w++;
	w += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID);
	if (st & PERF_SAMPLE_TIME)
		mask |= 1ULL << w++;
	w += !!(st & PERF_SAMPLE_ADDR);
	if (st & PERF_SAMPLE_ID)
		mask |= 1ULL << w++;
	if (st & PERF_SAMPLE_STREAM_ID)
		mask |= 1ULL << w++;
	for (size_t off = 0; off < b->overlap_len;) {
		struct perf_event_header *h = (void *)(b->overlap + off);
		const char *a = (const char *)ev + sizeof(ev->header), *c = (const char *)(h + 1);
		size_t n = ev->header.size - sizeof(ev->header), k;
		u64 th;

		off += h->size;
		if (h->size < sizeof(*h))
			break;
		if (h->type != PERF_RECORD_SAMPLE || h->size != ev->header.size ||
		    h->misc != ev->header.misc)
			continue;
		th = evlist__event_time(fr->parent, (const union perf_event *)h);
		if (th < t || th - t > FR_TWIN_NS)
			continue;
		for (k = 0; k < n; k += 8) {
			size_t len = min_t(size_t, 8, n - k);

			if (k / 8 < 64 && (mask >> (k / 8) & 1))
				continue;
			if (memcmp(a + k, c + k, len))
				break;
		}
		if (k >= n) {
			pr_debug2("overlap: a twin %llu ns later\n", (unsigned long long)(th - t));
			h->type = 0;	/* used up */
			return true;
		}
	}
	return false;
}

/* Whether @ev, at @buf's newest end, was taken by the buffer the events moved to as well. */
static bool fr__taken_after(struct flight_recorder *fr, struct fr_buffer *buf,
			    const union perf_event *ev)
{
	u64 t = evlist__event_time(fr->parent, ev);
	struct evsel *evsel;

	if (t >= buf->cut)
		return true;
	if (ev->header.type != PERF_RECORD_SAMPLE || t + FR_TWIN_NS < buf->cut)
		return false;
	evsel = evlist__event2evsel(fr->parent, ev);
	return evsel && fr__in_overlap(fr, buf, &evsel->attr, ev, t);
}

/*
 * Buffer @i into the dump, from its head to where it was read last.
 * Records from its cut on at its newest end are left out: they fired
 * while the events were moving, and are in the buffer the events moved
 * to, for the next dump.
 */
static int fr__write_mapped(struct flight_recorder *fr, int i,
			    const struct flight_recorder_writer *w, struct flight_recorder_dump *d,
			    u64 *held_from, u64 *held_to)
{
	u64 cut = fr->bufs[i].cut;
	struct perf_mmap *map = &fr->evlist->mmap[i];
	struct fr_span sp = { 0 };
	union perf_event *ev;
	u64 pending, run, from;
	int err;

	if (!map->base)
		return 0;
	pending = map->prev - perf_mmap__read_head(map);
	err = perf_mmap__read_init(map);
	if (err)
		return err == -EAGAIN ? 0 : err;
	for (run = map->start;;) {
		from = map->start;
		ev = perf_mmap__read_event(map);
		if (!ev || ev->header.type == PERF_RECORD_LOST) {
			err = fr__write_ring(map, w, run, from);
			if (err || !ev)
				break;
			d->lost += ev->lost.lost;
			run = map->start;
			continue;
		}
		if (cut && run == from && fr__taken_after(fr, &fr->bufs[i], ev)) {
			run = map->start;
			continue;
		}
		if (w->note)
			w->note(w->arg, ev);
		if (ev->header.type == PERF_RECORD_SAMPLE) {
			fr_span__add(&sp, evlist__event_time(fr->parent, ev));
			d->samples++;
		}
		d->bytes += ev->header.size;
	}
	perf_mmap__consume(map);
	if (!err)
		fr->bufs[i].cut = fr->bufs[i].overlap_len = 0;
	if (sp.newest) {
		fr__note_sample(fr, sp.newest, false);
		fr__note_sample(fr, sp.oldest, false);
		*held_to = max_t(u64, *held_to, sp.newest);
		/* More than a lap since the last read: what came before its oldest sample is gone. */
		if (pending > map->mask)
			*held_from = max_t(u64, *held_from, sp.oldest);
	}
	return err;
}

/*
 * Swap mode: every pair @want says is moved to its spare, the buffers left
 * marked DATA_PENDING, and no writer inside any of them on return.  Each
 * move is two calls on the pair's CPU, so the buffers are set aside one
 * after the other within well under a millisecond of the request.
 */
static int fr__swap_pairs(struct flight_recorder *fr, bool (*want)(struct flight_recorder *, int))
{
	int err = 0, swapped = 0, cpu = -1;

	for (int p = 0; p < fr->nr_pairs; p++) {
		struct fr_pair *pair = &fr->pairs[p];
		int left = 2 * p + pair->active, e;
		u64 t0;

		pair->moved = false;
		if (!want(fr, p))
			continue;
		t0 = now_ns();
		e = fr__move(fr, left ^ 1, OVERWRITE_RUNNING);
		pair->swap_ns = now_ns() - t0;
		if (e) {
			err = err ?: e;
			continue;
		}
		fr__move(fr, left, OVERWRITE_DATA_PENDING);
		pair->moved = true;
		cpu = swapped++ ? -1 : pair->cpu;
		fr->stats.swaps++;
		fr->stats.swap_ns_max = max_t(u64, fr->stats.swap_ns_max, pair->swap_ns);
		pr_debug2("buffers %d -> %d: swapped in %.3f ms\n", left, left ^ 1,
			  pair->swap_ns / 1e6);
	}
	/*
	 * A writer interrupted inside a record by the DISABLE may still be
	 * finishing it: one quiesce for all the buffers left, this thread on
	 * their CPU, or on every CPU in turn, which covers every writer of
	 * every buffer.
	 */
	if (!swapped)
		return err;
	fr__quiesce(fr, cpu);
	/* Every record both buffers of a pair took is in the new one's oldest few. */
	for (int p = 0; p < fr->nr_pairs; p++) {
		struct fr_pair *pair = &fr->pairs[p];

		if (pair->moved)
			fr__note_overlap(fr, 2 * p + !pair->active, 2 * p + pair->active);
	}
	return err;
}

/* A pair a dump swaps: one whose events have a buffer. */
static bool fr__pair_mapped(struct flight_recorder *fr, int p)
{
	return fr->evlist->mmap[2 * p].base;
}

/*
 * Swap mode, the buffers of a dump.  The spares first: they hold what a
 * failed dump left, or the past a trigger set aside, and no writer (each
 * is read before it takes the events again, so what comes next lands
 * below what was read).  Then every pair's events go to its spare, and
 * the buffers they left are written.  The process table goes before the
 * first buffer written: after the swap, so that it does not hold the
 * swap back, unless a spare is written before.
 */
static int fr__take_pairs(struct flight_recorder *fr, const struct flight_recorder_writer *w,
			  struct flight_recorder_dump *d, u64 *held_from, u64 *held_to)
{
	int err = 0, err2;

	for (int p = 0; p < fr->nr_pairs && !err; p++) {
		int s = 2 * p + !fr->pairs[p].active;

		if (fr__holds(fr, s))
			err = fr__describe(fr, w, d);
		if (!err)
			err = fr__write_mapped(fr, s, w, d, held_from, held_to);
		if (!err)
			fr__move(fr, s, OVERWRITE_EMPTY);
	}
	if (err)
		return err;
	err = fr__swap_pairs(fr, fr__pair_mapped);
	/* Should it fail, the buffers left wait as the next dump's spares. */
	err2 = fr__describe(fr, w, d);
	if (err2)
		return err2;
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		if (fr->bufs[i].state != OVERWRITE_DATA_PENDING)
			continue;
		err2 = fr__write_mapped(fr, i, w, d, held_from, held_to);
		fr__move(fr, i, OVERWRITE_EMPTY);
		err = err ?: err2;
		/* The others are written at the next dump, as the spares they are now. */
		if (err)
			break;
	}
	return err;
}

/* A pair a trigger's freeze swaps: one whose spare holds nothing unwritten. */
static bool fr__pair_freezable(struct flight_recorder *fr, int p)
{
	int s = 2 * p + !fr->pairs[p].active;
	struct perf_mmap *spare = &fr->evlist->mmap[s];

	/* A failed dump's records in the spare would be lost under the window's. */
	return spare->base && fr->bufs[s].state == OVERWRITE_EMPTY &&
	       spare->prev == perf_mmap__read_head(spare);
}

int flight_recorder__freeze(struct flight_recorder *fr)
{
	int err;

	if (!fr->swap)
		return 0;
	err = fr__swap_pairs(fr, fr__pair_freezable);
	fr__go_home(fr);
	fr->frozen = true;
	return err;
}

static void fr__end_file(struct flight_recorder *fr)
{
	fr->fwd_first = fr->file_first = ~0ULL;
	fr->file_last = 0;
}

void flight_recorder__describe_since_dump(struct flight_recorder *fr)
{
	fr->since_dump = true;
}

int flight_recorder__dump(struct flight_recorder *fr, const struct flight_recorder_writer *w)
{
	struct flight_recorder_dump d = { .samples = 0 };
	struct perf_event_header round = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	/* Whatever the buffers take from the first pause on is newer than this. */
	u64 bound = fr->t_seen, t0, held_from = 0, held_to = 0;
	int nr = fr->evlist->nr_mmaps, err = 0;
	int nice0 = getpriority(PRIO_PROCESS, 0);

	/*
	 * The dump's writes get a larger share of a busy machine, where that is
	 * allowed (root): 64 threads spinning on 2 CPUs left a recorder at nice
	 * 0 about 3% of a CPU, and its dump 25 s.  Undone when it is written.
	 */
	if (nice0 > FR_DUMP_NICE)
		setpriority(PRIO_PROCESS, 0, FR_DUMP_NICE);

	/* Pause mode: the process table first, each buffer is paused in turn. */
	if (!fr->swap)
		err = fr__describe(fr, w, &d);
	t0 = now_ns();
	if (fr->swap)
		err = fr__take_pairs(fr, w, &d, &held_from, &held_to);
	else
		for (int i = 0; i < nr && !err; i++)
			err = fr__take(fr, i, w, &d, &held_from, &held_to);
	fr__go_home(fr);
	d.span_ns = now_ns() - t0;
	/* After a freeze the window laps the spares, not what led to the request. */
	if (held_from && !fr->frozen)
		d.held_ns = max_t(u64, held_to - held_from, 1);
	d.first = fr->file_first;
	d.last = fr->file_last;
	if (!err && d.bytes)
		err = w->write(w->arg, &round, sizeof(round));
	if (!err)
		err = w->finish(w->arg, &d);
	/* What the table described is the finished file's business only. */
	fr->described = false;
	for (int i = 0; i < nr; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		/* A failed dump's records stay in the buffers for the next one. */
		if (err)
			map->prev = fr->bufs[i].dumped;
		else
			fr->bufs[i].dumped = map->prev;
	}
	fr__end_file(fr);
	fr->frozen = false;
	if (nice0 > FR_DUMP_NICE)
		setpriority(PRIO_PROCESS, 0, nice0);
	if (err) {
		fr->stats.failed++;
		return err;
	}
	fr->stats.dumps++;
	fr->stats.lost += d.lost;
	fr->stats.span_ns_max = max_t(u64, fr->stats.span_ns_max, d.span_ns);
	fr->dump_bound = max_t(u64, fr->dump_bound, bound);
	flight_recorder__tick(fr);
	return 0;
}

const struct flight_recorder_stats *flight_recorder__stats(const struct flight_recorder *fr)
{
	return &fr->stats;
}

const struct sideband_stats *flight_recorder__table_stats(const struct flight_recorder *fr)
{
	return fr->table ? sideband__stats(fr->table) : NULL;
}

void flight_recorder__print_summary(const struct flight_recorder *fr, u64 table_max)
{
	const struct flight_recorder_stats *fs = &fr->stats;
	const struct sideband_stats *st = flight_recorder__table_stats(fr);

	if (fs->lost)
		fprintf(stderr, "[ perf record: %llu events were not recorded in the overwrite "
			"buffers (%s) ]\n", (unsigned long long)fs->lost,
			fr->swap ? "the kernel's LOST records" : "paused for dumps");
	else if (fs->dumps)
		pr_debug("overwrite buffers: no event lost in %llu dumps\n",
			 (unsigned long long)fs->dumps);
	if (fs->swaps)
		pr_debug("overwrite buffers: %llu dumps, %llu pairs swapped, %.3f ms at most each\n",
			 (unsigned long long)fs->dumps, (unsigned long long)fs->swaps,
			 fs->swap_ns_max / 1e6);
	if (fs->pauses)
		pr_debug("overwrite buffers: %llu dumps, %llu pauses of one buffer, %.3f ms at most, "
			 "%.3f ms on average; a dump's first pause to its last resume %.3f ms at "
			 "most%s\n", (unsigned long long)fs->dumps, (unsigned long long)fs->pauses,
			 fs->pause_ns_max / 1e6, fs->pause_ns_total / 1e6 / fs->pauses,
			 fs->span_ns_max / 1e6,
			 fs->quiesce_global ? "; some pauses waited for a grace period" : "");
	if (!st)
		return;
	pr_debug("process table: %llu records, %llu tasks held, %llu KB (peak %llu KB of %llu KB), "
		 "%llu tasks pruned, %llu superseded records trimmed\n",
		 (unsigned long long)st->records, (unsigned long long)st->tasks,
		 (unsigned long long)(st->bytes >> 10), (unsigned long long)(st->peak_bytes >> 10),
		 (unsigned long long)(table_max >> 10), (unsigned long long)st->pruned,
		 (unsigned long long)st->trimmed);
	if (st->evicted || st->dropped || fs->table_errors)
		fprintf(stderr, "Warning:\nThe process table reached --sideband-max=%lluK: %llu exited "
			"tasks evicted, %llu records dropped%s; some samples may lack their task's "
			"name or maps. Give a larger --sideband-max.\n",
			(unsigned long long)(table_max >> 10), (unsigned long long)st->evicted,
			(unsigned long long)st->dropped,
			fs->table_errors ? " (and some out of memory)" : "");
}
