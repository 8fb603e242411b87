#ifndef PERF_UTIL_HIST_H
#define PERF_UTIL_HIST_H
/*
 * perf report's entries: the samples of one event added up by where they
 * are, as far as the sort keys (util/sort.h) look.
 */
#include "types.h"
#include "hashtab.h"
#include "callchain.h"
#include "strset.h"

struct thread;
struct dso;
struct symbol;

struct hist_entry {
	const char *comm;	/* interned (strset): equal names, equal pointers */
	const char *trace;	/* the tracepoint's fields as printed, interned */
	const char *srcline;	/* "file.c:123" (or what stands for it), interned */
	int pid, cpu;
	int tid;		/* of the sample that made the entry (not a key) */
	struct thread *thread;	/* ditto; "pid" shows its last comm */
	u32 gen;		/* "pid": which task of that tid (thread->gen) */
	const char *last_comm;	/* "pid": the comm of its latest sample, interned */
	struct dso *dso;
	struct symbol *sym;
	u64 addr;		/* when sym is NULL */
	u64 sym_off;		/* where in sym its first sample was (not a key): data symbols show it */
	bool kernel;		/* "[k]"; of the sample that made the entry, not a key */
	bool no_sym;		/* ... at no symbol (not a key): widens the dso column */
	bool comm_unset;	/* comm is the ":tid" of a thread with no name yet */
	u64 period, nr;		/* samples whose own address is here */
	u64 period_acc;		/* ... and those with this entry in their callchain */
	struct callchain_root *cc;
	u32 max_depth;		/* frames of its longest chain */
	u32 grp;		/* group view: where its members' values are (see struct grp_stat) */
	u64 seq;		/* the order entries were made in (not a key) */
};

/* Group view: a member event's values for one entry of its leader. */
struct grp_stat {
	u64 period, nr, period_acc;
};

/* One event's entries. */
struct hists {
	struct hashtab entries;	/* of struct hist_entry */
	u64 nr_made;		/* entries made: the next one's seq */
	u64 total_period, nr_samples;
	u64 lost_samples;	/* from LOST_SAMPLES records naming this event */
};

void hists__init(struct hists *h);
/* Frees the entries and their call graphs. */
void hists__exit(struct hists *h);
/* Room for @more new entries, so that pointers into the table stay valid meanwhile. */
int hists__reserve(struct hists *h, size_t more);
/* The entry for @key, a copy of it made by @thread's sample if new (after hists__reserve). */
struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *key,
				  struct thread *thread);
/* The entry for @key, or NULL. */
struct hist_entry *hists__find(const struct hists *h, const struct hist_entry *key);
/*
 * The entries in the order they were made, @n of them (NULL when out of
 * memory): what is done entry by entry goes in this order, never in slot
 * order, which hashing pointers makes depend on where malloc put things.
 */
struct hist_entry **hists__entries(const struct hists *h, size_t *n);
/* Adds @from's samples, chains and depth to @to (the same place). */
void hist_entry__merge(struct hist_entry *to, struct hist_entry *from);
/* Adds a sample's chain from @he on (when @trees: to its call graph). */
int hist_entry__append(struct hist_entry *he, const struct callchain_frame *frames, size_t nr,
		       u64 period, bool trees);

/*
 * Entries made before their thread had a name carry the made-up ":tid"
 * (comm_unset): renamed to the thread's first comm, and merged with the
 * entries of the same place under that name.
 */
int hists__name_unnamed(struct hists *h, struct strset *strs);

/*
 * perf report --stats: the records of session @s by type, with their shares, then
 * each event's samples and lost samples (@hists by evsel index), as the
 * distro lays them out.
 */
struct perf_session;
void hists__print_stats(const struct hists *hists, struct perf_session *s);

#endif
