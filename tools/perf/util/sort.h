#ifndef PERF_UTIL_SORT_H
#define PERF_UTIL_SORT_H
/*
 * perf report's sort keys (-s) and columns (-F): which keys make an entry,
 * how entries are ordered, and how a key's column reads.
 */
#include "types.h"
#include "callchain.h"
#include "hashtab.h"

struct hist_entry;
struct grp_stat;
struct dso;
struct symbol;

enum sort_key {
	SORT_COMM, SORT_DSO, SORT_SYM, SORT_PID, SORT_CPU, SORT_TRACE, SORT_SRCLINE, SORT_TID,
	SORT__MAX
};

/* -F columns that are not sort keys. */
enum { COL_CHILDREN = SORT__MAX, COL_SELF, COL_SAMPLES, COL_PERIOD, COL__MAX };

struct sort_keys {
	enum sort_key keys[SORT__MAX];
	int nr_keys;
	bool used[SORT__MAX];
	/* -F: the columns in order (keys as SORT_*, the rest as COL_*); 0 columns: defaults. */
	int cols[COL__MAX];
	int nr_cols;
	bool sort_set;		/* -s given with -F: its keys sort first */
};

/* The keys of a report without -s: comm, dso, sym. */
void sort_keys__init(struct sort_keys *s);
/* -s: the keys, in order (-EINVAL with a message for an unknown one). */
int sort_keys__parse(struct sort_keys *s, const char *arg);
/*
 * -F: the columns, in order.  Its keys join those of -s (or are the keys,
 * without -s); keys of -s that -F leaves out are shown after its columns.
 */
int sort_keys__parse_fields(struct sort_keys *s, const char *arg, bool sort_given);
void sort_keys__remove(struct sort_keys *s, enum sort_key k);

static inline bool sort_keys__has(const struct sort_keys *s, enum sort_key k)
{
	return s->used[k];
}

/* Column headers. */
extern const char *const sort_key__names[SORT__MAX];

/* How entries are ordered: by share, then the keys (see hists__sort). */
struct hist_sort {
	const struct sort_keys *keys;
	bool children;		/* by the Children column first */
	bool depth;		/* ... and equal ones callers first (call graphs shown) */
	enum callchain_order order;
	const struct grp_stat *gs;	/* group view: the members' values, nr_gs per entry */
	int nr_gs;
};

void hists__sort(const struct hist_sort *s, struct hist_entry **v, size_t n);

/* One sort key of two entries, ascending (names by strcmp, as the distro orders equal shares). */
int hist_entry__key_cmp(const struct hist_entry *x, const struct hist_entry *y, int k);
/* Key @k's column of @e, @width wide where the key pads or cuts to it (0: as long as it is). */
void hist_entry__key_snprintf(const struct hist_entry *e, enum sort_key k, int width, char *buf,
			      size_t len);
/*
 * How wide key @k's column must be for @e (0: the key sets no width, cpu):
 * a comm as its thread's last comm, as the distro sizes it; an object of
 * an entry at no symbol as wide as an address's 16 digits.
 */
int hist_entry__key_width(const struct hist_entry *e, enum sort_key k);
/* The last comm of the entry's task: the thread's own for its current task. */
const char *hist_entry__thread_comm(const struct hist_entry *e);
/* An object's name as the dso column shows it: the last part of its path. */
const char *dso__short(const struct dso *d);

/*
 * Objects are one key when their short names are equal, as in the distro
 * (two programs called "prog" are one "prog"): each dso maps to the first
 * one seen with its name.
 */
struct dso_canon {
	struct hashtab map;	/* of struct dso_canon_entry */
	struct dso *last, *last_canon;	/* the last answer */
};

void dso_canon__init(struct dso_canon *c);
void dso_canon__exit(struct dso_canon *c);
struct dso *dso_canon__get(struct dso_canon *c, struct dso *dso);

/*
 * --sort srcline: the last answers, by DSO and address, as the strings of
 * @strs (interned there, so they live as long as the entries that show them).
 */
struct strset;
struct srcline_cache {
	struct strset *strs;
	struct { struct dso *dso; u64 addr; const char *line; } slot[4096];
};
/*
 * The source line of @f's address from the DSO's debug info; without it
 * "sym+offset", or "dso[address]" outside any symbol; "??:0" outside any
 * DSO, as the distro names them.  NULL when out of memory.
 */
const char *srcline_cache__get(struct srcline_cache *c, const struct callchain_frame *f);

/*
 * What a sample's key is made with: the keys, where names are interned,
 * the objects by short name; the trace and srcline keys' helpers (report).
 */
struct perf_sample;
struct machine;
struct thread;
struct evsel;
struct tep_handle;
struct trace_seq;
struct hist_key {
	const struct sort_keys *sort;
	struct strset *strs;		/* comms and trace outputs */
	struct dso_canon *canon;
	struct srcline_cache *srclines;	/* --sort srcline */
	struct tep_handle *tep;		/* the trace key: the fields printed into seq */
	struct trace_seq *seq;
	/*
	 * perf diff's keys: the object even without a dso key (util/diff
	 * collapses one name's entries by object), and all addresses at no
	 * symbol of an object one entry, the sample's address in sym_off.
	 */
	bool by_object;
};

/* @key (zeroed) for @sample of @t named @comm: 0, or -ENOMEM. */
int hist_key__sample(const struct hist_key *hk, struct hist_entry *key, const struct evsel *evsel,
		     const struct perf_sample *sample, struct machine *machine,
		     const struct thread *t, const char *comm);
/* Where a sample or a frame of its chain is, as far as the keys look (not by_object). */
void hist_key__set_location(const struct hist_key *hk, struct hist_entry *key, struct dso *dso,
			    struct symbol *sym, u64 addr, u64 sym_addr);

#endif
