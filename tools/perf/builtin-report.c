/*
 * perf report --stdio (lean): per event, the samples grouped by the sort
 * keys (comm, dso, sym by default), by share of the event's period.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/session.h"
#include "util/raw-dump.h"
#include "util/debug.h"
#include "util/callchain.h"
#include "util/srcline.h"
#include "util/unwind.h"
#include "util/sample-filter.h"
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

enum sort_key {
	SORT_COMM, SORT_DSO, SORT_SYM, SORT_PID, SORT_CPU, SORT_TRACE, SORT_SRCLINE, SORT_TID,
	SORT__MAX
};

/* -F columns that are not sort keys. */
enum { COL_CHILDREN = SORT__MAX, COL_SELF, COL_SAMPLES, COL_PERIOD };

struct hist_entry {
	const char *comm;	/* interned (report__intern): equal names, equal pointers */
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
	u32 grp;		/* group view: where its members' values are (report__print) */
	bool used;		/* the slot holds an entry */
};

/* Group view: a member event's values for one entry of its leader. */
struct grp_stat {
	u64 period, nr, period_acc;
};

struct hists {
	struct hist_entry *e;	/* open-addressing table */
	size_t cap, nr;
	u64 total_period, nr_samples;
	u64 lost_samples;	/* from LOST_SAMPLES records naming this event */
};

struct report {
	struct perf_tool tool;
	struct perf_session *session;
	enum sort_key keys[SORT__MAX];
	int nr_keys;
	bool key_used[SORT__MAX];
	struct hists *hists;	/* one per evsel, by idx */
	char **strs;		/* interned comms, open addressing */
	size_t nr_strs, cap_strs;
	/* Call graphs: -g, --children. */
	struct callchain_param cc;
	bool callchain;		/* the file has callchains: children can be added up */
	bool trees;		/* ... and call graphs are built and printed */
	int children;		/* -1: as the file allows (the default) */
	bool want_callchain;	/* -g was given */
	int max_stack;
	struct callchain_frame *frames;	/* the chain of the sample at hand */
	size_t cap_frames;
	struct hist_entry **seen;	/* entries already credited for this sample */
	/* Columns and filters. */
	bool show_nr;
	bool show_period;	/* --show-total-period */
	int group;		/* groups in one view (-1: when the file has groups) */
	/* -F: the columns in order (keys as SORT_*, the rest as COL_*); 0 columns: defaults. */
	int cols[SORT__MAX + 4];
	int nr_cols;
	bool sort_set;		/* -s given: its keys sort first */
	double percent_limit;
	struct sample_filter filter;
	struct trace_seq seq;	/* for the trace key */
	/*
	 * Objects are one key when their short names are equal, as in the
	 * distro (two programs called "prog" are one "prog"): each dso maps to
	 * the first one seen with its name.
	 */
	struct dso_canon { struct dso *dso, *canon; } *canon;
	size_t nr_canon, cap_canon;
	struct dso_canon last_canon;
	/* --sort srcline: the last answers, by DSO and address. */
	struct { struct dso *dso; u64 addr; const char *line; } srclines[4096];
};

static u64 str__hash(const char *s)
{
	u64 h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* Comm strings move as threads' histories grow; entries keep a stable copy. */
static const char *report__intern(struct report *r, const char *s)
{
	size_t i;

	if (r->nr_strs * 2 >= r->cap_strs) {
		size_t cap = r->cap_strs ? r->cap_strs * 2 : 256;
		char **n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t j = 0; j < r->cap_strs; j++) {
			if (!r->strs[j])
				continue;
			for (i = str__hash(r->strs[j]) & (cap - 1); n[i]; i = (i + 1) & (cap - 1))
				;
			n[i] = r->strs[j];
		}
		free(r->strs);
		r->strs = n;
		r->cap_strs = cap;
	}
	for (i = str__hash(s) & (r->cap_strs - 1); r->strs[i]; i = (i + 1) & (r->cap_strs - 1))
		if (!strcmp(r->strs[i], s))
			return r->strs[i];
	r->strs[i] = strdup(s);
	if (r->strs[i])
		r->nr_strs++;
	return r->strs[i];
}

void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg);

static bool report__has(const struct report *r, enum sort_key k)
{
	return r->key_used[k];
}

static bool report__has_col(const struct report *r, int col)
{
	for (int i = 0; i < r->nr_cols; i++)
		if (r->cols[i] == col)
			return true;
	return false;
}

static u64 entry__hash(const struct hist_entry *h)
{
	u64 v = (u64)(uintptr_t)h->comm * 31 + (u64)h->pid;

	v = v * 1000003 ^ (u64)(uintptr_t)h->trace;
	v = v * 1000003 ^ (u64)(uintptr_t)h->srcline;
	v = v * 1000003 ^ (u64)h->cpu;
	v = v * 1000003 ^ (u64)(uintptr_t)h->dso;
	v = v * 1000003 ^ (h->sym ? (u64)(uintptr_t)h->sym : h->addr);
	return v * 0x9e3779b97f4a7c15ULL;
}

static bool entry__same(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->comm == b->comm && a->trace == b->trace && a->srcline == b->srcline && a->pid == b->pid && a->gen == b->gen && a->cpu == b->cpu && a->dso == b->dso &&
	       a->sym == b->sym && (a->sym || a->addr == b->addr);
}

/* Room for @more new entries, so that pointers into the table stay valid meanwhile. */
static int hists__reserve(struct hists *h, size_t more)
{
	size_t i, cap = h->cap ? h->cap : 1024;
	struct hist_entry *n;

	while ((h->nr + more) * 2 >= cap)
		cap *= 2;
	if (cap == h->cap)
		return 0;
	n = calloc(cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (size_t j = 0; j < h->cap; j++) {
		if (!h->e[j].used)
			continue;
		for (i = entry__hash(&h->e[j]) & (cap - 1); n[i].used; i = (i + 1) & (cap - 1))
			;
		n[i] = h->e[j];
	}
	free(h->e);
	h->e = n;
	h->cap = cap;
	return 0;
}

/* The entry for @key (the table has room: hists__reserve). */
static struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *key,
					 struct thread *thread)
{
	size_t i;

	for (i = entry__hash(key) & (h->cap - 1); h->e[i].used; i = (i + 1) & (h->cap - 1))
		if (entry__same(&h->e[i], key))
			return &h->e[i];
	h->e[i] = *key;
	h->e[i].used = true;
	h->e[i].tid = thread->tid;
	h->e[i].thread = thread;
	h->nr++;
	return &h->e[i];
}

/* Where a sample or a frame of its chain is, as far as the sort keys look. */
static const char *dso__short(const struct dso *d);

static size_t ptr__hash(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ULL);
}

static struct dso *report__canon_dso(struct report *r, struct dso *dso)
{
	size_t i, mask;

	if (!dso || r->last_canon.dso == dso)
		return dso ? r->last_canon.canon : NULL;
	if (r->nr_canon * 2 >= r->cap_canon) {
		size_t cap = r->cap_canon ? r->cap_canon * 2 : 64;
		struct dso_canon *n = calloc(cap, sizeof(*n));

		if (!n)
			return dso;	/* no memory: the object stands for itself */
		for (size_t j = 0; j < r->cap_canon; j++) {
			if (!r->canon[j].dso)
				continue;
			for (i = ptr__hash(r->canon[j].dso) & (cap - 1); n[i].dso; i = (i + 1) & (cap - 1))
				;
			n[i] = r->canon[j];
		}
		free(r->canon);
		r->canon = n;
		r->cap_canon = cap;
	}
	mask = r->cap_canon - 1;
	for (i = ptr__hash(dso) & mask; r->canon[i].dso; i = (i + 1) & mask)
		if (r->canon[i].dso == dso)
			break;
	if (!r->canon[i].dso) {
		struct dso *canon = dso;

		/* First sight of this object: is there one of the same name? (Few objects.) */
		for (size_t j = 0; j < r->cap_canon; j++)
			if (r->canon[j].dso && r->canon[j].canon == r->canon[j].dso &&
			    !strcmp(dso__short(r->canon[j].dso), dso__short(dso))) {
				canon = r->canon[j].dso;
				break;
			}
		r->canon[i].dso = dso;
		r->canon[i].canon = canon;
		r->nr_canon++;
	}
	r->last_canon = r->canon[i];
	return r->canon[i].canon;
}

static void entry__set_location(struct report *r, struct hist_entry *key, struct dso *dso,
				struct symbol *sym, u64 addr, u64 sym_addr)
{
	key->no_sym = !sym;
	key->sym_off = sym && sym_addr >= sym->start ? sym_addr - sym->start : 0;
	dso = report__canon_dso(r, dso);
	key->dso = NULL;
	key->sym = NULL;
	key->addr = 0;
	if (report__has(r, SORT_DSO))
		key->dso = dso;
	if (report__has(r, SORT_SYM)) {
		key->sym = sym;
		key->addr = sym ? 0 : addr;
		if (!report__has(r, SORT_DSO) && !sym)
			key->dso = dso;	/* addresses only mean something per dso */
	}
}

/*
 * Room for @nr frames of the sample at hand and for the nr + 1 entries it
 * credits (its own and one per frame).  A sample without a chain still
 * credits its own entry, so the first call allocates whatever @nr is.
 */
static int report__frames_room(struct report *r, size_t nr)
{
	struct callchain_frame *f;
	struct hist_entry **s;
	size_t cap = r->cap_frames ? r->cap_frames : 64;

	if (r->seen && nr <= r->cap_frames)
		return 0;
	while (cap < nr)
		cap *= 2;
	f = realloc(r->frames, cap * sizeof(*f));
	if (f)
		r->frames = f;
	s = realloc(r->seen, (cap + 1) * sizeof(*s));
	if (s)
		r->seen = s;
	if (!f || !s)
		return -ENOMEM;
	r->cap_frames = cap;
	return 0;
}

/*
 * The sample's callchain resolved, in the order the trees show it, at most
 * --max-stack frames: as recorded, or with the user part unwound from the
 * sampled registers and stack (--call-graph dwarf), as perf script shows
 * it.  An unwound frame where the debug info has inlined functions is
 * those functions, innermost first, then the one they are in, as in the
 * distro (unless --no-inline); recorded frames are not expanded, as the
 * distro's 6.1 does not.  A chain with a context the distro does not know
 * is dropped whole, as the distro drops it.
 */
static ssize_t report__frames(struct report *r, struct machine *machine,
			      struct perf_sample *sample, bool kernel)
{
	size_t nr = 0;
	bool kmode = kernel;
	u64 nr_chain;
	const u64 *chain = unwind__callchain(machine, sample, &nr_chain);
	bool unwound = chain != sample->callchain;

	if (report__frames_room(r, nr_chain))
		return -ENOMEM;
	for (u64 i = 0; i < nr_chain; i++) {
		u64 ip = chain[i];
		struct addr_location al;
		struct symbol *inl[16];
		int n_inl = 0;

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			if (ip != (u64)PERF_CONTEXT_HV && ip != (u64)PERF_CONTEXT_KERNEL &&
			    ip != (u64)PERF_CONTEXT_USER)
				return 0;
			kmode = ip == (u64)PERF_CONTEXT_KERNEL;
			continue;
		}
		machine__resolve(machine, (int)sample->pid, ip, kmode, &al);
		if (unwound && !kmode)
			n_inl = srcline__inline_frames(&al, inl, ARRAY_SIZE(inl));
		if (n_inl > 1 && report__frames_room(r, nr + (size_t)n_inl + (nr_chain - i)))
			return -ENOMEM;
		for (int k = 0; k < (n_inl ? n_inl : 1); k++)
			r->frames[nr++] = (struct callchain_frame){
				.dso = al.dso, .sym = n_inl ? inl[k] : al.sym, .ip = ip,
				.kernel = kmode, .mapped = al.map || (kmode && al.dso),
				.user_map = al.map != NULL, .addr = al.addr,
				.sym_addr = al.sym_addr,
			};
	}
	if (r->cc.order == ORDER_CALLER) {
		for (size_t i = 0; i < nr / 2; i++) {
			struct callchain_frame t = r->frames[i];

			r->frames[i] = r->frames[nr - 1 - i];
			r->frames[nr - 1 - i] = t;
		}
	}
	if (r->max_stack >= 0 && nr > (size_t)r->max_stack)
		nr = (size_t)r->max_stack;
	return (ssize_t)nr;
}

/*
 * --sort srcline: the source line of an address from the DSO's debug info;
 * without it "sym+offset", or "dso[address]" outside any symbol; "??:0"
 * outside any DSO, as the distro names them.  Interned, and remembered per
 * DSO and address.
 */
static const char *report__srcline(struct report *r, const struct callchain_frame *f)
{
	u64 addr = f->sym_addr;
	size_t slot = (size_t)((((uintptr_t)f->dso >> 4) ^ addr) * 0x9e3779b97f4a7c15ULL >> 52) &
		      (ARRAY_SIZE(r->srclines) - 1);
	char buf[PATH_MAX + 64];
	const char *line;

	if (!f->dso)
		return report__intern(r, "??:0");
	if (r->srclines[slot].line && r->srclines[slot].dso == f->dso &&
	    r->srclines[slot].addr == addr)
		return r->srclines[slot].line;
	if (dso__srcline(f->dso, addr, buf, sizeof(buf))) {
		if (f->sym)
			snprintf(buf, sizeof(buf), "%s+%llu", f->sym->name,
				 (unsigned long long)(addr - f->sym->start));
		else
			snprintf(buf, sizeof(buf), "%s[%llx]", dso__short(f->dso),
				 (unsigned long long)(f->user_map ? f->addr : f->ip));
	}
	line = report__intern(r, buf);
	if (line) {
		r->srclines[slot].dso = f->dso;
		r->srclines[slot].addr = addr;
		r->srclines[slot].line = line;
	}
	return line;
}

static int entry__append(const struct report *r, struct hist_entry *he,
			 const struct callchain_frame *frames, size_t nr, u64 period)
{
	if (nr > he->max_depth)
		he->max_depth = (u32)nr;
	if (!r->trees)
		return 0;
	if (!he->cc) {
		he->cc = calloc(1, sizeof(*he->cc));
		if (!he->cc)
			return -ENOMEM;
	}
	return callchain_root__append(he->cc, frames, nr, period);
}

static int report__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *t = machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid);
	struct hists *h = &r->hists[evsel->idx];
	struct hist_entry key = { 0 }, *he;
	struct addr_location al;
	ssize_t nr = 0;
	size_t nr_seen = 0;
	u64 period = sample->period;
	const char *comm;

	if (!t)
		return -ENOMEM;
	comm = thread__comm_at(t, sample->time);
	/*
	 * As in the distro: samples outside --cpu and --time are not there at
	 * all; those of other comms or threads still count in the totals, so
	 * shares stay those of the whole file.
	 */
	if (r->filter.active) {
		if (!sample_filter__match(&r->filter, comm, (int)sample->pid, (int)sample->tid,
					  (int)sample->cpu, sample->time)) {
			if (sample_filter__match_cpu(&r->filter, (int)sample->cpu) &&
			    sample_filter__match_time(&r->filter, sample->time)) {
				h->total_period += period;
				h->nr_samples++;
			}
			return 0;
		}
	}
	if (report__has(r, SORT_COMM)) {
		key.comm = report__intern(r, comm);
		if (!key.comm)
			return -ENOMEM;
		key.comm_unset = !t->comm_set;
	}
	/* "pid" is the thread, as in the distro: its tid and its last comm. */
	if (report__has(r, SORT_PID)) {
		key.pid = (int)sample->tid;
		key.gen = t->gen;
		key.last_comm = report__intern(r, comm);
		if (!key.last_comm)
			return -ENOMEM;
	}
	/* "tid": the thread's number alone, whatever tasks had it. */
	if (report__has(r, SORT_TID))
		key.pid = (int)sample->tid;
	if (report__has(r, SORT_CPU))
		key.cpu = (int)sample->cpu;
	if (report__has(r, SORT_TRACE) && evsel->tp_format) {
		struct tep_record rec = {
			.ts = sample->time, .cpu = (int)sample->cpu,
			.size = (int)sample->raw_size, .data = sample->raw_data,
		};

		trace_seq_reset(&r->seq);
		perf_session__print_tp(r->session->tep, &r->seq, &rec);
		key.trace = report__intern(r, r->seq.buffer);
		if (!key.trace)
			return -ENOMEM;
	}
	key.kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (report__has(r, SORT_DSO) || report__has(r, SORT_SYM) || report__has(r, SORT_SRCLINE)) {
		machine__resolve(machine, (int)sample->pid, sample->ip, key.kernel, &al);
		entry__set_location(r, &key, al.dso, al.sym, al.addr, al.sym_addr);
		if (report__has(r, SORT_SRCLINE)) {
			struct callchain_frame self = {
				.dso = al.dso, .sym = al.sym, .ip = sample->ip,
				.user_map = al.map != NULL, .addr = al.addr, .sym_addr = al.sym_addr,
			};

			key.srcline = report__srcline(r, &self);
			if (!key.srcline)
				return -ENOMEM;
		}
	}
	if (r->callchain && (r->trees || r->children) &&
	    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		nr = report__frames(r, machine, sample, key.kernel);
		if (nr < 0)
			return (int)nr;
	}
	if (hists__reserve(h, (size_t)nr + 1))
		return -ENOMEM;
	he = hists__findnew(h, &key, t);
	he->last_comm = key.last_comm;
	he->nr++;
	he->period += period;
	h->total_period += period;
	h->nr_samples++;
	if (r->callchain && entry__append(r, he, r->frames, (size_t)nr, period))
		return -ENOMEM;
	if (!r->children)
		return 0;
	/* A sample of an event without call graphs has no frames but needs its slot. */
	if (report__frames_room(r, (size_t)nr))
		return -ENOMEM;
	/* Every entry on the chain gets the sample once, with the chain from there on. */
	he->period_acc += period;
	r->seen[nr_seen++] = he;
	for (ssize_t i = 0; i < nr; i++) {
		const struct callchain_frame *f = &r->frames[i];
		size_t j;

		/* An address in no map keeps the sample's own space, as the distro has it. */
		if (f->mapped)
			key.kernel = f->kernel;
		entry__set_location(r, &key, f->dso, f->sym, f->ip, f->sym_addr);
		if (report__has(r, SORT_SRCLINE)) {
			key.srcline = report__srcline(r, f);
			if (!key.srcline)
				return -ENOMEM;
		}
		he = hists__findnew(h, &key, t);
		he->last_comm = key.last_comm;
		for (j = 0; j < nr_seen && r->seen[j] != he; j++)
			;
		if (j < nr_seen)
			continue;
		r->seen[nr_seen++] = he;
		he->period_acc += period;
		if (entry__append(r, he, f, (size_t)(nr - i), period))
			return -ENOMEM;
	}
	return 0;
}

static const char *dso__short(const struct dso *d)
{
	const char *slash;

	if (!d)
		return "[unknown]";
	slash = strrchr(d->name, '/');
	return slash ? slash + 1 : d->name;
}

/* Objects by short name; an entry in none ("[unknown]") after the others, as in the distro. */
static int dso__order(const struct dso *x, const struct dso *y)
{
	if (x == y)
		return 0;
	if (!x || !y)
		return x ? -1 : 1;
	return strcmp(dso__short(x), dso__short(y));
}

static bool sort_children, sort_depth;
/* Group view: the members' values (nr_members - 1 for each entry), or NULL. */
static const struct grp_stat *sort_gs;
static int sort_nr_gs;

enum grp_value { GV_ACC, GV_SELF, GV_SAMPLES };

static u64 grp_stat__value(const struct grp_stat *g, enum grp_value what)
{
	return what == GV_ACC ? g->period_acc : what == GV_SELF ? g->period : g->nr;
}

/* Equal leaders: the members' values decide, in order, each descending, as the distro. */
static int entry__members_cmp(const struct hist_entry *x, const struct hist_entry *y,
			      enum grp_value what)
{
	for (int j = 0; sort_gs && j < sort_nr_gs; j++) {
		u64 a = grp_stat__value(&sort_gs[(size_t)x->grp * sort_nr_gs + j], what);
		u64 b = grp_stat__value(&sort_gs[(size_t)y->grp * sort_nr_gs + j], what);

		if (a != b)
			return a > b ? -1 : 1;
	}
	return 0;
}
static const struct report *sort_report;
static int entry__key_cmp(const struct hist_entry *x, const struct hist_entry *y, int k);
static enum callchain_order sort_order;

static int entry__cmp(const void *a, const void *b)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;
	int c;

	if (sort_children) {
		if (x->period_acc != y->period_acc)
			return x->period_acc > y->period_acc ? -1 : 1;
		if ((c = entry__members_cmp(x, y, GV_ACC)))
			return c;
		/*
		 * Equal totals within one thread: callers above their callees, as
		 * the distro has it (the longer chains start further out) when it
		 * shows call graphs.
		 */
		if (sort_depth && x->tid == y->tid && x->max_depth != y->max_depth) {
			bool deeper_first = sort_order == ORDER_CALLER;

			return (x->max_depth > y->max_depth) == deeper_first ? -1 : 1;
		}
	}
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if ((c = entry__members_cmp(x, y, GV_SELF)))
		return c;
	/* Equal shares: by the sort keys in their order, each ascending, as the distro. */
	for (int k = 0; k < sort_report->nr_keys; k++)
		if ((c = entry__key_cmp(x, y, sort_report->keys[k])))
			return c;
	/* Then by the rest, so that the order does not depend on hashing. */
	if (x->comm != y->comm && x->comm && y->comm && (c = strcmp(x->comm, y->comm)))
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if ((c = dso__order(x->dso, y->dso)))
		return c;
	if (x->sym != y->sym) {
		if (x->sym && y->sym)
			return strcmp(x->sym->name, y->sym->name);
		if (x->sym || y->sym)
			return x->sym ? -1 : 1;
	}
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->trace != y->trace && x->trace && y->trace)
		return strcmp(x->trace, y->trace);
	if (x->srcline != y->srcline && x->srcline && y->srcline)
		return strcmp(x->srcline, y->srcline);
	return 0;
}

/* The last comm of the entry's task: the thread's own for its current task. */
static const char *entry__thread_comm(const struct hist_entry *e)
{
	if (e->thread->gen == e->gen || !e->last_comm)
		return thread__comm(e->thread);
	return e->last_comm;
}

static void entry__col(const struct report *r, const struct hist_entry *e, enum sort_key k,
		       int width, char *buf, size_t len)
{
	switch (k) {
	case SORT_COMM:
		/* Cut to the column, which the thread's last comm sets (see report__print). */
		if (width > 0)
			snprintf(buf, len, "%-*.*s", width, width, e->comm ? e->comm : "");
		else
			snprintf(buf, len, "%s", e->comm ? e->comm : "");
		break;
	case SORT_PID:
		/* "pid:comm", the comm in the columns left after the pid. */
		snprintf(buf, len, "%7d:%-*s", e->pid, width > 8 ? width - 8 : 0,
			 entry__thread_comm(e));
		break;
	case SORT_CPU:
		/* At least as many digits as the column is wide: -001 for no CPU. */
		snprintf(buf, len, "%*.*d", width, width, e->cpu);
		break;
	case SORT_TID:
		snprintf(buf, len, "%*d", width, e->pid);
		break;
	case SORT_DSO:
		snprintf(buf, len, "%s", dso__short(e->dso));
		break;
	case SORT_SYM:
		/* A data symbol with the offset of the entry's first sample in it, as the distro. */
		if (e->sym && e->sym->object)
			snprintf(buf, len, "[%c] %s+0x%llx", e->kernel ? 'k' : '.', e->sym->name,
				 (unsigned long long)e->sym_off);
		else if (e->sym)
			snprintf(buf, len, "[%c] %s%s", e->kernel ? 'k' : '.', e->sym->name,
				 symbol__inlined(e->sym) ? " (inlined)" : "");
		else
			snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.',
				 (unsigned long long)e->addr);
		break;
	case SORT_TRACE:
		snprintf(buf, len, "%s", e->trace ? e->trace : "");
		break;
	case SORT_SRCLINE:
		snprintf(buf, len, "%s", e->srcline ? e->srcline : "");
		break;
	case SORT__MAX:
		buf[0] = '\0';
		break;
	}
}

/* Headers of the other columns; "Self" is "Overhead" without children. */
static const char *col_names[] = { "Children", "Self", "Samples", "Period" };

static const char *const key_names[] = {
	[SORT_COMM] = "Command", [SORT_DSO] = "Shared Object", [SORT_SYM] = "Symbol",
	[SORT_PID] = "    Pid:Command", [SORT_CPU] = "CPU", [SORT_TID] = "    Tid",
	[SORT_TRACE] = "Trace output", [SORT_SRCLINE] = "Source:Line",
};

static double entry__percent(const struct report *r, const struct hist_entry *e,
			     const struct hists *h)
{
	u64 v = r->children ? e->period_acc : e->period;

	return h->total_period ? 100.0 * v / h->total_period : 0;
}

/* One sort key, ascending (names by strcmp, as the distro orders equal shares). */
static int entry__key_cmp(const struct hist_entry *x, const struct hist_entry *y, int k)
{
	switch (k) {
	case SORT_COMM:
		return x->comm == y->comm ? 0 : strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	case SORT_PID:
	case SORT_TID:
		return x->pid == y->pid ? 0 : x->pid < y->pid ? -1 : 1;
	case SORT_CPU:
		return x->cpu == y->cpu ? 0 : x->cpu < y->cpu ? -1 : 1;
	case SORT_DSO:
		return dso__order(x->dso, y->dso);
	case SORT_SYM:
		if (x->sym && y->sym)
			return x->sym == y->sym ? 0 : strcmp(x->sym->name, y->sym->name);
		if (x->sym || y->sym)
			return x->sym ? -1 : 1;
		return x->addr == y->addr ? 0 : x->addr < y->addr ? -1 : 1;
	case SORT_TRACE:
		return x->trace == y->trace ? 0 : strcmp(x->trace ? x->trace : "",
							 y->trace ? y->trace : "");
	case SORT_SRCLINE:
		return x->srcline == y->srcline ? 0 : strcmp(x->srcline ? x->srcline : "",
							     y->srcline ? y->srcline : "");
	default:
		return 0;
	}
}

/* With -F: -s keys first, then the columns in the order -F gave them. */
static int entry__cols_cmp(const void *a, const void *b)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;
	const struct report *r = sort_report;
	int c;

	for (int pass = 0; pass < 2; pass++) {
		int n = pass ? r->nr_cols : (r->sort_set ? r->nr_keys : 0);

		for (int i = 0; i < n; i++) {
			int k = pass ? r->cols[i] : (int)r->keys[i];

			switch (k) {
			case COL_CHILDREN:
				c = x->period_acc == y->period_acc ? 0 :
				    x->period_acc > y->period_acc ? -1 : 1;
				if (!c)
					c = entry__members_cmp(x, y, GV_ACC);
				/* Callers above callees, as without -F. */
				if (!c && sort_depth && x->tid == y->tid && x->max_depth != y->max_depth)
					c = (x->max_depth > y->max_depth) ==
					    (sort_order == ORDER_CALLER) ? -1 : 1;
				break;
			case COL_SELF:
			case COL_PERIOD:
				c = x->period == y->period ? 0 : x->period > y->period ? -1 : 1;
				if (!c)
					c = entry__members_cmp(x, y, GV_SELF);
				break;
			case COL_SAMPLES:
				c = x->nr == y->nr ? 0 : x->nr > y->nr ? -1 : 1;
				if (!c)
					c = entry__members_cmp(x, y, GV_SAMPLES);
				break;
			default:
				c = entry__key_cmp(x, y, k);
				break;
			}
			if (c)
				return c;
		}
	}
	return entry__cmp(a, b);
}

/*
 * A thread seen before any record named it (it was born between the
 * recorder's look at /proc and the start of its events) has the made-up
 * name ":tid" until its first COMM, which then becomes its name from the
 * start, also for the samples already counted: the distro renames that
 * made-up name in place.  Those entries are renamed here and merged with
 * the entries of the same place under the real name.
 */
static int report__name_unnamed(struct report *r, struct hists *h)
{
	struct hist_entry *old = h->e;
	size_t cap = h->cap;
	bool any = false;

	for (size_t i = 0; i < cap; i++) {
		struct hist_entry *e = &old[i];

		if (e->used && e->comm_unset && e->thread->comm_set) {
			e->comm = report__intern(r, thread__comm_at(e->thread, 0));
			if (!e->comm)
				return -ENOMEM;
			e->comm_unset = false;
			any = true;
		}
	}
	if (!any)
		return 0;
	h->e = calloc(cap, sizeof(*h->e));
	if (!h->e) {
		h->e = old;
		return -ENOMEM;
	}
	h->nr = 0;
	for (size_t i = 0; i < cap; i++) {
		struct hist_entry *e = &old[i], *to;
		size_t nr = h->nr;

		if (!e->used)
			continue;
		to = hists__findnew(h, e, e->thread);
		if (h->nr != nr)
			continue;	/* a new slot: a copy of the whole entry */
		if (to->cc && e->cc)
			callchain_root__merge(to->cc, e->cc);
		else if (e->cc)
			to->cc = e->cc;
		to->nr += e->nr;
		to->period += e->period;
		to->period_acc += e->period_acc;
		if (e->max_depth > to->max_depth)
			to->max_depth = e->max_depth;
	}
	free(old);
	return 0;
}

/* The entry for @key in @h, or NULL. */
static struct hist_entry *hists__find(const struct hists *h, const struct hist_entry *key)
{
	if (!h->cap)
		return NULL;
	for (size_t i = entry__hash(key) & (h->cap - 1); h->e[i].used; i = (i + 1) & (h->cap - 1))
		if (entry__same(&h->e[i], key))
			return &h->e[i];
	return NULL;
}

/*
 * Group view: the tables of @leader's members (they follow it in the list)
 * into @members, their number returned (-ENOMEM).  Every key a member has
 * gets an entry in the leader's table too, without samples when the leader
 * had none there, so that each key has its line, as in the distro.
 */
static int report__group_members(struct report *r, struct evsel *leader, struct hists *h,
				 struct hists ***members)
{
	struct hists **m = calloc(leader->nr_members, sizeof(*m));
	struct evsel *e = leader;
	int nr = 0;

	if (!m)
		return -ENOMEM;
	while (nr < leader->nr_members - 1 && e->node.next != &r->session->evlist->entries) {
		e = list_entry(e->node.next, struct evsel, node);
		if (e->leader != leader)
			break;
		m[nr++] = &r->hists[e->idx];
	}
	for (int j = 0; j < nr; j++) {
		struct hists *mh = m[j];

		if (report__name_unnamed(r, mh))
			goto fail;
		for (size_t i = 0; i < mh->cap; i++) {
			struct hist_entry key;

			if (!mh->e[i].used)
				continue;
			if (hists__reserve(h, 1))
				goto fail;
			key = mh->e[i];
			key.period = key.nr = key.period_acc = 0;
			key.cc = NULL;
			key.max_depth = 0;
			hists__findnew(h, &key, mh->e[i].thread);
		}
	}
	*members = m;
	return nr;
fail:
	free(m);
	return -ENOMEM;
}

/*
 * --group on a file that recorded no group shows all its events as one,
 * led by the first, as the distro does.
 */
static void report__force_group(struct evlist *evlist)
{
	struct evsel *e, *first = NULL;
	int nr = 0;

	evlist__for_each_entry(evlist, e) {
		if (e->nr_members > 1)
			return;
		if (!first)
			first = e;
		nr++;
	}
	if (nr < 2)
		return;
	evlist__for_each_entry(evlist, e)
		e->leader = first;
	first->nr_members = nr;
	first->forced_leader = true;
}

/* A percentage column's value (the leader's, then with --group each member's). */
static void print_percent(bool first, u64 v, u64 total)
{
	printf(first ? "  %7.2f%%" : "%7.2f%%", total ? 100.0 * v / total : 0);
}

static void print_count(bool first, u64 v)
{
	printf(first ? "  %12llu" : "%12llu", (unsigned long long)v);
}

static void report__print(struct report *r, struct evsel *evsel, struct hists *h)
{
	struct hist_entry **v = NULL;
	struct hists **members = NULL;
	struct grp_stat *gs = NULL;
	int width[SORT__MAX], nm = 0;
	bool trace_cut;
	char buf[1024], unit = ' ', *desc = NULL;
	u64 nr = h->nr_samples, total = h->total_period;
	size_t n = 0;

	int cols[SORT__MAX + 4], key_idx[SORT__MAX + 4], nr_cols = 0;

	if (report__name_unnamed(r, h))
		return;
	if (r->group && evsel->nr_members > 1) {
		nm = report__group_members(r, evsel, h, &members);
		if (nm < 0)
			return;
		for (int j = 0; j < nm; j++) {
			nr += members[j]->nr_samples;
			total += members[j]->total_period;
		}
		desc = evsel__group_desc(evsel, true);
	}
	v = malloc((h->nr ? h->nr : 1) * sizeof(*v));
	if (!v)
		goto out;
	/* The columns: -F's, or Children, Self/Overhead, Samples (-n), then the keys. */
	if (r->nr_cols) {
		memcpy(cols, r->cols, r->nr_cols * sizeof(*cols));
		nr_cols = r->nr_cols;
	} else {
		if (r->children)
			cols[nr_cols++] = COL_CHILDREN;
		cols[nr_cols++] = COL_SELF;
		if (r->show_nr)
			cols[nr_cols++] = COL_SAMPLES;
		if (r->show_period)
			cols[nr_cols++] = COL_PERIOD;
		for (int k = 0; k < r->nr_keys; k++)
			cols[nr_cols++] = r->keys[k];
	}
	for (int c = 0; c < nr_cols; c++)
		for (int k = 0; k < r->nr_keys; k++)
			if ((int)r->keys[k] == cols[c])
				key_idx[c] = k;
	for (size_t i = 0; i < h->cap; i++)
		if (h->e[i].used)
			v[n++] = &h->e[i];
	if (nm) {
		gs = calloc(n * nm + 1, sizeof(*gs));
		if (!gs)
			goto out;
		for (size_t i = 0; i < n; i++) {
			v[i]->grp = (u32)i;
			for (int j = 0; j < nm; j++) {
				const struct hist_entry *f = hists__find(members[j], v[i]);
				struct grp_stat *g = &gs[i * nm + j];

				if (f) {
					g->period = f->period;
					g->nr = f->nr;
					g->period_acc = f->period_acc;
				}
			}
		}
	}
	sort_gs = gs;
	sort_nr_gs = nm;
	sort_children = r->children;
	sort_depth = r->trees;
	sort_order = r->cc.order;
	sort_report = r;
	/* "Self" beside the default Children column; -F names it "Overhead" as given. */
	col_names[1] = r->children && !r->nr_cols ? "Self" : "Overhead";
	qsort(v, n, sizeof(*v), r->nr_cols ? entry__cols_cmp : entry__cmp);
	sort_gs = NULL;
	/*
	 * The distro formats a tracepoint's output when it compares two
	 * samples, and sizes the column from the outputs formatted by then:
	 * a table of a single sample keeps the header's width, and its one
	 * line is cut to it.
	 */
	trace_cut = n == 1 && v[0]->nr == 1 && !nm;
	for (int k = 0; k < r->nr_keys; k++) {
		width[k] = (int)strlen(key_names[r->keys[k]]);
		if (r->keys[k] == SORT_TRACE && trace_cut)
			continue;
		for (size_t i = 0; i < n; i++) {
			int w;

			/*
			 * A comm column is as wide as the longest last comm of the
			 * entries' threads, as the distro has it: an entry of a
			 * thread that exec'd later ("perf-exec" then "sleep") is
			 * cut to it.
			 */
			if (r->keys[k] == SORT_PID)
				w = 8 + (int)strlen(entry__thread_comm(v[i]));
			else if (r->keys[k] == SORT_COMM)
				w = (int)strlen(entry__thread_comm(v[i]));
			else if (r->keys[k] == SORT_CPU)
				continue;
			else {
				entry__col(r, v[i], r->keys[k], 0, buf, sizeof(buf));
				w = (int)strlen(buf);
			}
			/* An address without a symbol widens objects to an address's 16 digits. */
			if (r->keys[k] == SORT_DSO && v[i]->no_sym && w < 16)
				w = 16;
			if (w > width[k])
				width[k] = w;
		}
	}
	/* Over 1000, in thousands: 1000 stays 1000, 1000000 is 1000K, as the distro prints them. */
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	if (!quiet) {
		/* A group's leader, even shown alone (--no-group), says "events". */
		printf("# Samples: %llu%c of event%s '%s'", (unsigned long long)nr, unit,
		       evsel->nr_members > 1 ? "s" : "", desc ? desc : evsel__name(evsel));
		/* --time, as given. */
		if (r->filter.time_arg)
			printf(" (time slices: %s)", r->filter.time_arg);
		putchar('\n');
		printf("# Event count (approx.): %llu\n#\n", (unsigned long long)total);
		/* A value column of a group holds one value for each of its events. */
		for (int c = 0; c < nr_cols; c++) {
			const char *sep = c ? "  " : "# ";

			if (cols[c] < SORT__MAX)
				printf("%s%-*s", sep, width[key_idx[c]], key_names[cols[c]]);
			else
				printf("%s%*s", sep, (cols[c] >= COL_SAMPLES ? 12 : 8) * (nm + 1),
				       col_names[cols[c] - COL_CHILDREN]);
		}
		printf("\n");
		for (int c = 0; c < nr_cols; c++) {
			int w = cols[c] < SORT__MAX ? width[key_idx[c]] :
				(cols[c] >= COL_SAMPLES ? 12 : 8) * (nm + 1);

			printf(c ? "  " : "# ");
			for (int i = 0; i < w; i++)
				putchar('.');
		}
		printf("\n#\n");
	}
	for (size_t i = 0; i < n; i++) {
		struct hist_entry *e = v[i];

		/* Hidden, but their columns were measured: as wide as the distro's. */
		if (entry__percent(r, e, h) < r->percent_limit)
			continue;
		for (int c = 0; c < nr_cols; c++) {
			const struct grp_stat *g = gs ? &gs[(size_t)e->grp * nm] : NULL;

			switch (cols[c]) {
			case COL_CHILDREN:
				print_percent(true, e->period_acc, h->total_period);
				for (int j = 0; j < nm; j++)
					print_percent(false, g[j].period_acc, members[j]->total_period);
				break;
			case COL_SELF:
				print_percent(true, e->period, h->total_period);
				for (int j = 0; j < nm; j++)
					print_percent(false, g[j].period, members[j]->total_period);
				break;
			case COL_SAMPLES:
				print_count(true, e->nr);
				for (int j = 0; j < nm; j++)
					print_count(false, g[j].nr);
				break;
			case COL_PERIOD:
				print_count(true, e->period);
				for (int j = 0; j < nm; j++)
					print_count(false, g[j].period);
				break;
			default:
				entry__col(r, e, cols[c], width[key_idx[c]], buf, sizeof(buf));
				if (cols[c] == SORT_TRACE && trace_cut)
					printf("  %-*.*s", c == nr_cols - 1 ? 0 : width[key_idx[c]],
					       width[key_idx[c]], buf);
				/* The distro pads a last comm or dso column, no other. */
				else if (c == nr_cols - 1 && cols[c] != SORT_COMM && cols[c] != SORT_DSO)
					printf("  %s", buf);
				else
					printf("  %-*s", width[key_idx[c]], buf);
				break;
			}
		}
		putchar('\n');
		if (r->trees && e->cc)
			callchain_root__fprintf(stdout, e->cc, &r->cc, h->total_period,
						r->children ? e->period_acc : e->period);
	}
	if (!quiet)
		printf("\n\n");
out:
	free(gs);
	free(desc);
	free(members);
	free(v);
}

static int sort_key__parse(const char *tok)
{
	static const char *const names[] = {
		[SORT_COMM] = "comm", [SORT_DSO] = "dso", [SORT_SYM] = "sym", [SORT_PID] = "pid",
		[SORT_CPU] = "cpu", [SORT_TRACE] = "trace", [SORT_SRCLINE] = "srcline",
		[SORT_TID] = "tid",
	};

	for (int k = 0; k < SORT__MAX; k++)
		if (!strcmp(tok, names[k]))
			return k;
	return -1;
}

/*
 * -F: the columns, in order.  Its keys join those of -s (or are the keys,
 * without -s); keys of -s that -F leaves out are shown after its columns.
 */
static int report__parse_fields(struct report *r, const char *arg, bool sort_given)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!sort_given) {
		r->nr_keys = 0;
		memset(r->key_used, 0, sizeof(r->key_used));
	}
	r->nr_cols = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c = sort_key__parse(tok);

		if (!strcmp(tok, "overhead"))
			c = COL_SELF;
		else if (!strcmp(tok, "overhead_children"))
			c = COL_CHILDREN;
		else if (!strcmp(tok, "sample"))
			c = COL_SAMPLES;
		else if (!strcmp(tok, "period"))
			c = COL_PERIOD;
		if (c < 0) {
			fprintf(stderr, "perf report: unknown -F field '%s'; use overhead, "
				"overhead_children, sample, period, comm, pid, cpu, dso, sym or "
				"trace.\n", tok);
			free(copy);
			return -EINVAL;
		}
		if (report__has_col(r, c))
			continue;
		r->cols[r->nr_cols++] = c;
		if (c < SORT__MAX && !r->key_used[c]) {
			r->keys[r->nr_keys++] = c;
			r->key_used[c] = true;
		}
	}
	free(copy);
	for (int k = 0; k < r->nr_keys; k++)
		if (!report__has_col(r, r->keys[k]))
			r->cols[r->nr_cols++] = r->keys[k];
	r->sort_set = sort_given;
	return r->nr_cols ? 0 : -EINVAL;
}

static int report__parse_sort(struct report *r, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	r->nr_keys = 0;
	memset(r->key_used, 0, sizeof(r->key_used));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = sort_key__parse(tok);

		if (k < 0) {
			fprintf(stderr, "perf report: unknown --sort key '%s'; "
				"use comm, pid, tid, cpu, dso, sym, srcline or trace.\n", tok);
			free(copy);
			return -EINVAL;
		}
		if (!report__has(r, k)) {
			r->keys[r->nr_keys++] = k;
			r->key_used[k] = true;
		}
	}
	free(copy);
	return r->nr_keys ? 0 : -EINVAL;
}

static const char report_usage[] = "perf report [<options>]";
static const char * const report_options[] = {
	"-i, --input <file>    input file name (default perf.data)",
	"    --stdio           use the stdio interface (the only one)",
	"-s, --sort <keys>     sort by key(s): comm,pid,cpu,dso,sym,trace (default comm,dso,sym)",
	"-F, --fields <cols>   the columns, in order: overhead,overhead_children,sample,period",
	"                      and sort keys",
	"-g, --call-graph <print_type,threshold[,print_limit],order,sort_key,value>",
	"                      call graphs: graph|flat|fractal|folded|none, a threshold in",
	"                      percent (0.5), caller|callee, percent|period",
	"    --children        add the callchains' callees to each entry (default with -g data)",
	"    --no-children     show each entry's own samples only",
	"-G, --inverted        caller-based call graphs (the same as -g caller)",
	"    --max-stack <n>   use at most n frames of each callchain",
	"-n, --show-nr-samples show the number of samples of each entry",
	"    --show-total-period add a Period column: the period of the line itself",
	"    --group           show the events of a group together (default when the file has groups)",
	"    --no-group        show each event of a group on its own",
	"    --percent-limit <n> hide entries below n percent",
	"-c, --comm <list>     only the samples of these comms",
	"    --pid <list>      only the samples of these process ids",
	"    --tid <list>      only the samples of these thread ids",
	"-C, --cpu <list>      only the samples on these CPUs (e.g. 0,2-3)",
	"    --time <range>    only the samples in start,stop (seconds) or percent slices",
	"    --header          show the data header first",
	"    --header-only     show the data header and stop",
	"    --stats           show the number of records of each type, and samples per event",
	"-D, --dump-raw-trace  dump every record (offset, bytes, fields), then the --stats summary",
	"    --tasks           show the threads as a process tree (pid, tid, ppid, comm)",
	"-q, --quiet           do not show warnings or the comment lines",
	"-v, --verbose         be more verbose (show why symbols were not found, ...)",
	SYMBOL_CONF_USAGE,
	NULL
};

enum {
	OPT_CHILDREN = 256, OPT_NO_CHILDREN, OPT_MAX_STACK, OPT_PERCENT_LIMIT, OPT_COMM, OPT_PID,
	OPT_TID, OPT_TIME, OPT_HEADER, OPT_HEADER_ONLY, OPT_STDIO, OPT_STATS, OPT_TASKS,
	OPT_GROUP, OPT_NO_GROUP, OPT_SHOW_PERIOD,
};

static void report__exit(struct report *r)
{
	if (r->hists) {
		for (int i = 0; i < r->session->evlist->nr_entries; i++) {
			for (size_t j = 0; j < r->hists[i].cap; j++)
				callchain_root__delete(r->hists[i].e[j].cc);
			free(r->hists[i].e);
		}
	}
	free(r->hists);
	for (size_t i = 0; i < r->cap_strs; i++)
		free(r->strs[i]);
	free(r->strs);
	free(r->frames);
	free(r->seen);
	free(r->canon);
	sample_filter__exit(&r->filter);
	if (r->seq.buffer)
		trace_seq_destroy(&r->seq);
	perf_session__delete(r->session);
}

static int report__count_sample(struct perf_tool *tool, union perf_event *event,
				struct perf_sample *sample, struct evsel *evsel,
				struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);

	r->hists[evsel->idx].nr_samples++;
	return 0;
}

/* --stats: LOST_SAMPLES records count for the event their sample id names. */
static int report__count_other(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);
	struct evsel *e;

	if (event->header.type != PERF_RECORD_LOST_SAMPLES ||
	    event->header.size < sizeof(event->lost_samples))
		return 0;
	e = sample->id ? perf_session__evsel_by_id(r->session, sample->id) :
			 evlist__first(r->session->evlist);
	if (e)
		r->hists[e->idx].lost_samples += event->lost_samples.lost;
	return 0;
}

static void report__print_stats(struct report *r)
{
	struct perf_session *s = r->session;
	u64 total = 0;
	struct evsel *e;

	for (u32 t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		total += s->nr_by_type[t];
	printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (u32 t = 0; t < PERF_RECORD_HEADER_MAX; t++) {
		const char *name = perf_event__type_name(t);

		if (!s->nr_by_type[t] || !name)
			continue;
		printf("%16s events: %10llu  (%4.1f%%)\n", name,
		       (unsigned long long)s->nr_by_type[t], 100.0 * s->nr_by_type[t] / total);
	}
	/* An event that only lost samples (a dummy's) has its lines too. */
	evlist__for_each_entry(s->evlist, e) {
		if (!r->hists[e->idx].nr_samples && !r->hists[e->idx].lost_samples)
			continue;
		printf("%s stats:\n", evsel__name(e));
		if (r->hists[e->idx].nr_samples)
			printf("%16s events: %10llu\n", "SAMPLE",
			       (unsigned long long)r->hists[e->idx].nr_samples);
		if (r->hists[e->idx].lost_samples)
			printf("%16s events: %10llu\n", "LOST_SAMPLES",
			       (unsigned long long)r->hists[e->idx].lost_samples);
	}
}

static int task__cmp(const void *a, const void *b)
{
	const struct thread *x = *(struct thread * const *)a, *y = *(struct thread * const *)b;

	/* The distro walks its threads by tid modulo 256, then by tid. */
	if ((x->tid & 255) != (y->tid & 255))
		return (x->tid & 255) < (y->tid & 255) ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct thread *task__parent(struct thread **v, size_t n, const struct thread *t)
{
	if (t->ppid < 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (v[i]->tid == t->ppid && v[i] != t)
			return v[i];
	return NULL;
}

static void task__print(struct thread **v, struct thread **parent, size_t n, size_t i,
			int depth)
{
	printf("%10d %8d %8d |%*s%s\n", v[i]->pid, v[i]->tid, v[i]->ppid, depth, "",
	       thread__comm(v[i]));
	/* Deeper than any real process tree: a loop in a damaged file. */
	if (depth > 1000)
		return;
	for (size_t j = 0; j < n; j++)
		if (parent[j] == v[i])
			task__print(v, parent, n, j, depth + 1);
}

/* --task: the threads of the file as a process tree, each with its parent's pid. */
static int report__print_tasks(struct machine *m)
{
	struct thread **v, **parent;
	size_t n = 0;

	if (!machine__findnew_thread(m, 0, 0))
		return -ENOMEM;
	v = calloc(m->nr_threads ? m->nr_threads : 1, sizeof(*v));
	parent = calloc(m->nr_threads ? m->nr_threads : 1, sizeof(*parent));
	if (!v || !parent) {
		free(v);
		free(parent);
		return -ENOMEM;
	}
	for (size_t b = 0; b < m->nr_thread_buckets; b++)
		for (struct thread *t = m->threads[b]; t && n < m->nr_threads; t = t->next)
			v[n++] = t;
	qsort(v, n, sizeof(*v), task__cmp);
	for (size_t i = 0; i < n; i++)
		parent[i] = task__parent(v, n, v[i]);
	printf("#      pid      tid     ppid  comm\n");
	for (size_t i = 0; i < n; i++)
		if (!parent[i])
			task__print(v, parent, n, i, 0);
	free(v);
	free(parent);
	return 0;
}

static int report__task_sample(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct evsel *evsel,
			       struct machine *machine)
{
	return machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid) ? 0 : -ENOMEM;
}

static bool report__all_tracepoints(struct report *r)
{
	struct evsel *e;

	evlist__for_each_entry(r->session->evlist, e)
		if (!evsel__is_tracepoint(e))
			return false;
	return true;
}

/* Whether any event of the file recorded callchains. */
static bool report__file_has_callchains(struct report *r)
{
	struct evsel *e;

	evlist__for_each_entry(r->session->evlist, e)
		if (e->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

int cmd_report(int argc, const char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "fields", required_argument, NULL, 'F' },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "inverted", no_argument, NULL, 'G' },
		{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "comms", required_argument, NULL, OPT_COMM },
		{ "show-total-period", no_argument, NULL, OPT_SHOW_PERIOD },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "cpu", required_argument, NULL, 'C' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "header", no_argument, NULL, OPT_HEADER },
		{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "tasks", no_argument, NULL, OPT_TASKS },
		{ "task", no_argument, NULL, OPT_TASKS },
		{ "group", no_argument, NULL, OPT_GROUP },
		{ "no-group", no_argument, NULL, OPT_NO_GROUP },
		{ "help", no_argument, NULL, 'h' },
		SYMBOL_CONF_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct report r = {
		.tool = { .sample = report__sample },
		.keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nr_keys = 3,
		.key_used = { [SORT_COMM] = true, [SORT_DSO] = true, [SORT_SYM] = true },
		.children = -1, .max_stack = -1, .group = -1,
	};
	const char *input = perf_session__default_input(), *sort_arg = NULL, *fields_arg = NULL;
	bool header = false, header_only = false, elided = false, stats = false, tasks = false;
	bool truncated = false;	/* shown, but the exit status must say the file is cut */
	struct raw_dump dump = { .script = false };	/* -D */
	struct evsel *e;
	char msg[256], *end;
	int c, err;

	callchain_param__init(&r.cc);
	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+i:s:F:qg::GnC:hDvc:", longopts, NULL)) != -1) {
		msg[0] = '\0';
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 's':
			sort_arg = optarg;
			if (report__parse_sort(&r, optarg))
				return 129;
			break;
		case 'F':
			fields_arg = optarg;
			break;
		case OPT_STDIO:
			break;
		case 'q':
			quiet = 1;
			break;
		case 'v':
			verbose++;
			break;
		case SYMBOL_OPT_DEMANGLE:
		case SYMBOL_OPT_NO_DEMANGLE:
		case SYMBOL_OPT_SYMFS:
		case SYMBOL_OPT_INLINE:
		case SYMBOL_OPT_NO_INLINE:
			symbol_conf__option(c, optarg);
			break;
		case 'g':
			/* As the distro takes it: "-g caller" gives -g its argument. */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = (char *)argv[optind++];
			r.want_callchain = true;
			if (optarg && callchain_param__parse(&r.cc, optarg, msg, sizeof(msg))) {
				fprintf(stderr, "perf report: %s\n", msg);
				return 129;
			}
			break;
		case 'G':
			r.cc.order = ORDER_CALLER;
			r.cc.order_set = true;
			break;
		case OPT_CHILDREN:
			r.children = 1;
			break;
		case OPT_NO_CHILDREN:
			r.children = 0;
			break;
		case OPT_MAX_STACK:
			r.max_stack = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || r.max_stack < 0) {
				fprintf(stderr, "perf report: --max-stack takes a number of frames, "
					"not '%s'.\n", optarg);
				return 129;
			}
			break;
		case 'n':
			r.show_nr = true;
			break;
		case OPT_PERCENT_LIMIT:
			r.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end) {
				fprintf(stderr, "perf report: --percent-limit takes a percentage, "
					"not '%s'.\n", optarg);
				return 129;
			}
			break;
		case OPT_COMM:
		case 'c':
			err = sample_filter__add_comms(&r.filter, optarg, msg, sizeof(msg));
			goto filter_done;
		case OPT_SHOW_PERIOD:
			r.show_period = true;
			break;
		case OPT_PID:
		case OPT_TID:
			err = sample_filter__add_pids(&r.filter, optarg, c == OPT_TID, msg,
						      sizeof(msg));
			goto filter_done;
		case 'C':
			err = sample_filter__add_cpus(&r.filter, optarg, msg, sizeof(msg));
			goto filter_done;
		case OPT_TIME:
			free(r.filter.time_arg);
			r.filter.time_arg = strdup(optarg);
			err = r.filter.time_arg ? 0 : -ENOMEM;
filter_done:
			if (err) {
				fprintf(stderr, "perf report: %s\n", msg[0] ? msg : strerror(-err));
				sample_filter__exit(&r.filter);
				return 129;
			}
			break;
		case OPT_HEADER:
			header = true;
			break;
		case OPT_HEADER_ONLY:
			header_only = true;
			break;
		case OPT_STATS:
			stats = true;
			break;
		case 'D':
			/* The dump, then the --stats summary, as the distro prints them. */
			r.tool.dump = &dump;
			stats = true;
			break;
		case OPT_TASKS:
			tasks = true;
			break;
		case OPT_GROUP:
			r.group = 1;
			break;
		case OPT_NO_GROUP:
			r.group = 0;
			break;
		case 'h':
			usage_with_options(report_usage, report_options);
			return 0;
		default:
			usage_with_options(report_usage, report_options);
			sample_filter__exit(&r.filter);
			return 129;
		}
	}
	/*
	 * The distro takes one word after the options as a symbol filter, and
	 * shows its usage for more; there is no symbol filter here.
	 */
	if (optind < argc) {
		fprintf(stderr, "perf report: unexpected argument '%s': filtering by a symbol "
			"name is not supported; the file goes after -i.\n", argv[optind]);
		sample_filter__exit(&r.filter);
		return 129;
	}
	if (fields_arg && report__parse_fields(&r, fields_arg, sort_arg != NULL)) {
		sample_filter__exit(&r.filter);
		return 129;
	}
	r.session = perf_session__open(input, &err, msg, sizeof(msg));
	if (!r.session) {
		perf_session__report_open_error("report", input, err, msg);
		sample_filter__exit(&r.filter);
		return cmd_exit_status(-1);
	}
	if (r.filter.cpus && !(evlist__first(r.session->evlist)->attr.sample_type & PERF_SAMPLE_CPU)) {
		fprintf(stderr, "perf report: %s has no CPU in its samples; remove -C/--cpu.\n",
			input);
		report__exit(&r);
		return cmd_exit_status(-1);
	}
	if (r.filter.time_arg &&
	    sample_filter__set_time(&r.filter, r.filter.time_arg, false, r.session->first_sample_time,
				    r.session->last_sample_time, msg, sizeof(msg))) {
		fprintf(stderr, "perf report: %s\n", msg);
		report__exit(&r);
		return cmd_exit_status(-EINVAL);
	}
	/* Call graphs when the file has callchains, as the distro does; children with them. */
	if (report__file_has_callchains(&r)) {
		r.callchain = true;
		r.trees = r.cc.mode != CHAIN_NONE;
	} else if (r.want_callchain && r.cc.mode != CHAIN_NONE) {
		/* "-g none" asks for no call graph: nothing to refuse, as in the distro. */
		fprintf(stderr, "perf report: -g was given but %s has no callchains; "
			"record with -g to get them.\n", input);
		report__exit(&r);
		return cmd_exit_status(-1);
	}
	if (r.children < 0)
		r.children = r.callchain;
	/* The groups a file recorded are shown as such unless --no-group, as the distro does. */
	if (r.group < 0) {
		r.group = 0;
		evlist__for_each_entry(r.session->evlist, e)
			if (e->nr_members > 1)
				r.group = 1;
	} else if (r.group) {
		report__force_group(r.session->evlist);
	}
	if (!r.callchain)
		r.children = 0;
	/* With children the distro shows callers first unless told otherwise. */
	if (r.children && !r.cc.order_set)
		r.cc.order = ORDER_CALLER;
	/*
	 * A stream: the distro's reader sets up before it knows the stream has
	 * call graphs, so it adds no callees up (no Children column), though
	 * its graphs keep the callers-first order that children asked for.
	 */
	if (r.session->pipe)
		r.children = 0;
	r.cc.skip_first = sort_arg && !strncmp(sort_arg, "sym", 3);
	/* A line hidden under --percent-limit hides call-graph branches as small too. */
	if (r.percent_limit > r.cc.min_percent)
		r.cc.min_percent = r.percent_limit;
	/*
	 * A file of tracepoints only is sorted by what they say, as the
	 * distro does; a stream keeps the default keys, as the distro's
	 * reader picks them before a stream's events are known.
	 */
	if (!sort_arg && !fields_arg && !r.session->pipe && report__all_tracepoints(&r))
		report__parse_sort(&r, "trace");
	trace_seq_init(&r.seq);
	if (header || header_only) {
		perf_session__print_header(r.session, stdout);
		if (header_only) {
			report__exit(&r);
			return 0;
		}
	} else if (!quiet && (!stats || r.tool.dump) && !tasks) {
		printf("# To display the perf.data header info, please use "
		       "--header/--header-only options.\n#\n");
	}
	/* One comm asked for: the column would say it on every line; the distro says it once. */
	if (r.filter.nr_comms == 1 && r.nr_keys > 1 && report__has(&r, SORT_COMM)) {
		elided = true;
		if (!quiet && !stats && !tasks)
			printf("# comm: %s\n#\n", r.filter.comms[0]);
		for (int k = 0, j = 0; k < r.nr_keys; k++)
			if (r.keys[k] != SORT_COMM)
				r.keys[j++] = r.keys[k];
		r.nr_keys--;
	}
	r.hists = calloc(r.session->evlist->nr_entries, sizeof(*r.hists));
	if (!r.hists) {
		report__exit(&r);
		return cmd_exit_status(-ENOMEM);
	}
	if (tasks) {
		r.tool.sample = report__task_sample;
		err = perf_session__process_events(r.session, &r.tool);
		if (!err)
			err = report__print_tasks(&r.session->machine);
		if (err)
			fprintf(stderr, "perf report: %s: %s\n", input,
				r.session->errmsg[0] ? r.session->errmsg : strerror(-err));
		report__exit(&r);
		return cmd_exit_status(err);
	}
	if (stats) {
		/* --stats: the records of the file by type, and each event's samples. */
		r.tool.sample = report__count_sample;
		/* The distro's summary after -D counts no LOST_SAMPLES by event. */
		r.tool.other = r.tool.dump ? NULL : report__count_other;
		err = r.tool.dump ? raw_dump__init_stdout(&dump) : 0;
		if (!err)
			err = perf_session__process_events(r.session, &r.tool);
		if (raw_dump__exit(&dump) && !err)
			err = -EIO;
		if (!err)
			report__print_stats(&r);
		else
			fprintf(stderr, "perf report: %s: %s\n", input,
				r.session->errmsg[0] ? r.session->errmsg : strerror(-err));
		/* A cut or damaged file's counts are shown, and the exit status says so. */
		truncated = perf_session__damaged(r.session);
		report__exit(&r);
		return err ? cmd_exit_status(err) : truncated;
	}
	/* "Total Lost Samples" adds up the LOST_SAMPLES records, as the distro's. */
	r.tool.other = report__count_other;
	err = perf_session__process_events(r.session, &r.tool);
	if (err) {
		fprintf(stderr, "perf report: %s: %s\n", input,
			r.session->errmsg[0] ? r.session->errmsg : strerror(-err));
	} else {
		u64 nr_samples = 0, lost = 0;

		if (perf_session__warn_stats(r.session))
			truncated = true;
		evlist__for_each_entry(r.session->evlist, e) {
			nr_samples += r.hists[e->idx].nr_samples;
			lost += r.hists[e->idx].lost_samples;
		}
		/*
		 * No sample at all (none in the file, or none in --time or
		 * --cpu), as the distro says it; samples only filtered by
		 * --comm, --pid or --tid still give their tables.
		 */
		if (!nr_samples)
			fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
		else if (!quiet)
			printf("%s# Total Lost Samples: %llu\n#\n", elided ? "" : "#\n",
			       (unsigned long long)lost);
		evlist__for_each_entry(r.session->evlist, e) {
			/* A group's members are shown with their leader. */
			if (r.group && !evsel__is_group_leader(e))
				continue;
			if (r.hists[e->idx].nr_samples)
				report__print(&r, e, &r.hists[e->idx]);
		}
	}
	report__exit(&r);
	/* A cut file: what it holds is shown, and it exits 1, as gzip -d does on a cut stream. */
	return err ? cmd_exit_status(err) : truncated;
}
