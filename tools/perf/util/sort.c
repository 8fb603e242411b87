/* perf report's sort keys and columns (see sort.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sort.h"
#include "hist.h"
#include "hash.h"
#include "machine.h"
#include "symbol.h"
#include "srcline.h"
#include "strset.h"
#include "session.h"
#include "evsel.h"
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

const char *const sort_key__names[SORT__MAX] = {
	[SORT_COMM] = "Command", [SORT_DSO] = "Shared Object", [SORT_SYM] = "Symbol",
	[SORT_PID] = "    Pid:Command", [SORT_CPU] = "CPU", [SORT_TID] = "    Tid",
	[SORT_TRACE] = "Trace output", [SORT_SRCLINE] = "Source:Line",
};

void sort_keys__init(struct sort_keys *s)
{
	memset(s, 0, sizeof(*s));
	s->keys[0] = SORT_COMM;
	s->keys[1] = SORT_DSO;
	s->keys[2] = SORT_SYM;
	s->nr_keys = 3;
	s->used[SORT_COMM] = s->used[SORT_DSO] = s->used[SORT_SYM] = true;
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

static void sort_keys__add(struct sort_keys *s, int k)
{
	if (s->used[k])
		return;
	s->keys[s->nr_keys++] = k;
	s->used[k] = true;
}

static bool sort_keys__has_col(const struct sort_keys *s, int col)
{
	for (int i = 0; i < s->nr_cols; i++)
		if (s->cols[i] == col)
			return true;
	return false;
}

/* A -F field: a sort key's SORT_* or a column's COL_*; -1 for neither. */
static int sort_field__parse(const char *tok)
{
	if (!strcmp(tok, "overhead"))
		return COL_SELF;
	if (!strcmp(tok, "overhead_children"))
		return COL_CHILDREN;
	if (!strcmp(tok, "sample"))
		return COL_SAMPLES;
	if (!strcmp(tok, "period"))
		return COL_PERIOD;
	return sort_key__parse(tok);
}

int sort_keys__parse_fields(struct sort_keys *s, const char *arg, bool sort_given)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!sort_given) {
		s->nr_keys = 0;
		memset(s->used, 0, sizeof(s->used));
	}
	s->nr_cols = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c = sort_field__parse(tok);

		if (c < 0) {
			fprintf(stderr, "perf report: unknown -F field '%s'; use overhead, "
				"overhead_children, sample, period, comm, pid, cpu, dso, sym or "
				"trace.\n", tok);
			free(copy);
			return -EINVAL;
		}
		if (sort_keys__has_col(s, c))
			continue;
		s->cols[s->nr_cols++] = c;
		if (c < SORT__MAX)
			sort_keys__add(s, c);
	}
	free(copy);
	for (int k = 0; k < s->nr_keys; k++)
		if (!sort_keys__has_col(s, s->keys[k]))
			s->cols[s->nr_cols++] = s->keys[k];
	s->sort_set = sort_given;
	return s->nr_cols ? 0 : -EINVAL;
}

int sort_keys__parse(struct sort_keys *s, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	s->nr_keys = 0;
	memset(s->used, 0, sizeof(s->used));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = sort_key__parse(tok);

		if (k < 0) {
			fprintf(stderr, "perf report: unknown --sort key '%s'; "
				"use comm, pid, tid, cpu, dso, sym, srcline or trace.\n", tok);
			free(copy);
			return -EINVAL;
		}
		sort_keys__add(s, k);
	}
	free(copy);
	return s->nr_keys ? 0 : -EINVAL;
}

/* Out of the keys entries are sorted and shown by (what makes them stays). */
void sort_keys__remove(struct sort_keys *s, enum sort_key k)
{
	int j = 0;

	for (int i = 0; i < s->nr_keys; i++)
		if (s->keys[i] != k)
			s->keys[j++] = s->keys[i];
	s->nr_keys = j;
}

const char *dso__short(const struct dso *d)
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

enum grp_value { GV_ACC, GV_SELF, GV_SAMPLES };

static u64 grp_stat__value(const struct grp_stat *g, enum grp_value what)
{
	return what == GV_ACC ? g->period_acc : what == GV_SELF ? g->period : g->nr;
}

/* Equal leaders: the members' values decide, in order, each descending, as the distro. */
static int hist_entry__members_cmp(const struct hist_sort *s, const struct hist_entry *x,
				   const struct hist_entry *y, enum grp_value what)
{
	for (int j = 0; s->gs && j < s->nr_gs; j++) {
		u64 a = grp_stat__value(&s->gs[(size_t)x->grp * s->nr_gs + j], what);
		u64 b = grp_stat__value(&s->gs[(size_t)y->grp * s->nr_gs + j], what);

		if (a != b)
			return a > b ? -1 : 1;
	}
	return 0;
}

static int u64__cmp_desc(u64 a, u64 b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

/*
 * Equal totals within one thread: callers above their callees, as the
 * distro has it (the longer chains start further out) when it shows call
 * graphs.
 */
static int hist_entry__depth_cmp(const struct hist_sort *s, const struct hist_entry *x,
				 const struct hist_entry *y)
{
	if (!s->depth || x->tid != y->tid || x->max_depth == y->max_depth)
		return 0;
	return (x->max_depth > y->max_depth) == (s->order == ORDER_CALLER) ? -1 : 1;
}

/* Equal in every key: by the rest, so that the order does not depend on hashing. */
static int hist_entry__rest_cmp(const struct hist_entry *x, const struct hist_entry *y)
{
	int c;

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

static int hist_entry__cmp(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;
	const struct hist_sort *s = arg;
	int c;

	if (s->children) {
		if ((c = u64__cmp_desc(x->period_acc, y->period_acc)))
			return c;
		if ((c = hist_entry__members_cmp(s, x, y, GV_ACC)))
			return c;
		if ((c = hist_entry__depth_cmp(s, x, y)))
			return c;
	}
	if ((c = u64__cmp_desc(x->period, y->period)))
		return c;
	if ((c = hist_entry__members_cmp(s, x, y, GV_SELF)))
		return c;
	/* Equal shares: by the sort keys in their order, each ascending, as the distro. */
	for (int k = 0; k < s->keys->nr_keys; k++)
		if ((c = hist_entry__key_cmp(x, y, s->keys->keys[k])))
			return c;
	return hist_entry__rest_cmp(x, y);
}

/* One -F column of two entries: values descending, keys ascending. */
static int hist_entry__col_cmp(const struct hist_sort *s, const struct hist_entry *x,
			       const struct hist_entry *y, int col)
{
	int c;

	switch (col) {
	case COL_CHILDREN:
		c = u64__cmp_desc(x->period_acc, y->period_acc);
		if (!c)
			c = hist_entry__members_cmp(s, x, y, GV_ACC);
		/* Callers above callees, as without -F. */
		if (!c)
			c = hist_entry__depth_cmp(s, x, y);
		return c;
	case COL_SELF:
	case COL_PERIOD:
		c = u64__cmp_desc(x->period, y->period);
		return c ? c : hist_entry__members_cmp(s, x, y, GV_SELF);
	case COL_SAMPLES:
		c = u64__cmp_desc(x->nr, y->nr);
		return c ? c : hist_entry__members_cmp(s, x, y, GV_SAMPLES);
	default:
		return hist_entry__key_cmp(x, y, col);
	}
}

/* With -F: -s keys first, then the columns in the order -F gave them. */
static int hist_entry__cols_cmp(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = *(struct hist_entry * const *)a;
	const struct hist_entry *y = *(struct hist_entry * const *)b;
	const struct hist_sort *s = arg;
	const struct sort_keys *k = s->keys;
	int c;

	for (int i = 0; k->sort_set && i < k->nr_keys; i++)
		if ((c = hist_entry__col_cmp(s, x, y, k->keys[i])))
			return c;
	for (int i = 0; i < k->nr_cols; i++)
		if ((c = hist_entry__col_cmp(s, x, y, k->cols[i])))
			return c;
	return hist_entry__cmp(a, b, arg);
}

void hists__sort(const struct hist_sort *s, struct hist_entry **v, size_t n)
{
	qsort_r(v, n, sizeof(*v), s->keys->nr_cols ? hist_entry__cols_cmp : hist_entry__cmp,
		(void *)s);
}

int hist_entry__key_cmp(const struct hist_entry *x, const struct hist_entry *y, int k)
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

int hist_entry__key_width(const struct hist_entry *e, enum sort_key k)
{
	char buf[1024];
	int w;

	switch (k) {
	case SORT_PID:
		return 8 + (int)strlen(hist_entry__thread_comm(e));
	case SORT_COMM:
		return (int)strlen(hist_entry__thread_comm(e));
	case SORT_CPU:
		return 0;
	default:
		hist_entry__key_snprintf(e, k, 0, buf, sizeof(buf));
		w = (int)strlen(buf);
		return k == SORT_DSO && e->no_sym && w < 16 ? 16 : w;
	}
}

const char *hist_entry__thread_comm(const struct hist_entry *e)
{
	if (e->thread->gen == e->gen || !e->last_comm)
		return thread__comm(e->thread);
	return e->last_comm;
}

/* The symbol column: "[k] name", a data symbol with its offset, or the bare address. */
static void hist_entry__sym_snprintf(const struct hist_entry *e, char *buf, size_t len)
{
	char mode = e->kernel ? 'k' : '.';

	/* A data symbol with the offset of the entry's first sample in it, as the distro. */
	if (e->sym && e->sym->object)
		snprintf(buf, len, "[%c] %s+0x%llx", mode, e->sym->name,
			 (unsigned long long)e->sym_off);
	else if (e->sym)
		snprintf(buf, len, "[%c] %s%s", mode, e->sym->name,
			 symbol__inlined(e->sym) ? " (inlined)" : "");
	else
		snprintf(buf, len, "[%c] %#.16llx", mode, (unsigned long long)e->addr);
}

void hist_entry__key_snprintf(const struct hist_entry *e, enum sort_key k, int width, char *buf,
			      size_t len)
{
	switch (k) {
	case SORT_COMM:
		/* Cut to the column, which the thread's last comm sets (hist-print.c). */
		if (width > 0)
			snprintf(buf, len, "%-*.*s", width, width, e->comm ? e->comm : "");
		else
			snprintf(buf, len, "%s", e->comm ? e->comm : "");
		break;
	case SORT_PID:
		/* "pid:comm", the comm in the columns left after the pid. */
		snprintf(buf, len, "%7d:%-*s", e->pid, width > 8 ? width - 8 : 0,
			 hist_entry__thread_comm(e));
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
		hist_entry__sym_snprintf(e, buf, len);
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

struct dso_canon_entry {
	struct dso *dso, *canon;
};

static u64 dso_canon__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((uintptr_t)((const struct dso_canon_entry *)entry)->dso >> 4);
}

static bool dso_canon__equal(const void *entry, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct dso_canon_entry *)entry)->dso == key;
}

void dso_canon__init(struct dso_canon *c)
{
	memset(c, 0, sizeof(*c));
	hashtab__init(&c->map, sizeof(struct dso_canon_entry), 64, dso_canon__hash,
		      dso_canon__equal, NULL);
}

void dso_canon__exit(struct dso_canon *c)
{
	hashtab__exit(&c->map);
}

/* First sight of @dso: the object of the same name seen first, or itself (few objects). */
static struct dso *dso_canon__first_named(const struct dso_canon *c, struct dso *dso)
{
	const struct dso_canon_entry *e;
	size_t i;

	hashtab__for_each(&c->map, i, e)
		if (e->canon == e->dso && !strcmp(dso__short(e->dso), dso__short(dso)))
			return e->dso;
	return dso;
}

struct dso *dso_canon__get(struct dso_canon *c, struct dso *dso)
{
	u64 hash = u64__hash((uintptr_t)dso >> 4);
	struct dso_canon_entry *e, add;

	if (!dso || c->last == dso)
		return dso ? c->last_canon : NULL;
	e = hashtab__find(&c->map, dso, hash);
	if (!e) {
		add = (struct dso_canon_entry){ dso, dso_canon__first_named(c, dso) };
		e = hashtab__add(&c->map, &add, hash);
		if (!e)
			return dso;	/* no memory: the object stands for itself */
	}
	c->last = e->dso;
	c->last_canon = e->canon;
	return e->canon;
}

const char *srcline_cache__get(struct srcline_cache *c, const struct callchain_frame *f)
{
	u64 addr = f->sym_addr;
	size_t slot = (size_t)(u64__hash(((uintptr_t)f->dso >> 4) ^ addr) >> 52) &
		      (ARRAY_SIZE(c->slot) - 1);
	char buf[PATH_MAX + 64];
	const char *line;

	if (!f->dso)
		return strset__intern(c->strs, "??:0");
	if (c->slot[slot].line && c->slot[slot].dso == f->dso && c->slot[slot].addr == addr)
		return c->slot[slot].line;
	if (dso__srcline(f->dso, addr, buf, sizeof(buf))) {
		if (f->sym)
			snprintf(buf, sizeof(buf), "%s+%llu", f->sym->name,
				 (unsigned long long)(addr - f->sym->start));
		else
			snprintf(buf, sizeof(buf), "%s[%llx]", dso__short(f->dso),
				 (unsigned long long)(f->user_map ? f->addr : f->ip));
	}
	line = strset__intern(c->strs, buf);
	if (line) {
		c->slot[slot].dso = f->dso;
		c->slot[slot].addr = addr;
		c->slot[slot].line = line;
	}
	return line;
}

void hist_key__set_location(const struct hist_key *hk, struct hist_entry *key, struct dso *dso,
			    struct symbol *sym, u64 addr, u64 sym_addr)
{
	bool by_dso = sort_keys__has(hk->sort, SORT_DSO);

	key->no_sym = !sym;
	key->sym_off = sym && sym_addr >= sym->start ? sym_addr - sym->start : 0;
	dso = dso_canon__get(hk->canon, dso);
	key->dso = NULL;
	key->sym = NULL;
	key->addr = 0;
	if (by_dso)
		key->dso = dso;
	if (sort_keys__has(hk->sort, SORT_SYM)) {
		key->sym = sym;
		key->addr = sym ? 0 : addr;
		if (!by_dso && !sym)
			key->dso = dso;	/* addresses only mean something per dso */
	}
}

/*
 * perf diff's place: symbols are one key when their names are equal, and
 * addresses at no symbol are one "no symbol" per object, as in the
 * distro's diff; such an entry shows its lowest address, kept in sym_off
 * meanwhile.
 */
static void hist_key__set_object(const struct hist_key *hk, struct hist_entry *key,
				 const struct addr_location *al)
{
	key->no_sym = !al->sym;
	key->sym_off = al->sym && al->sym_addr >= al->sym->start ? al->sym_addr - al->sym->start : 0;
	key->dso = dso_canon__get(hk->canon, al->dso);
	if (sort_keys__has(hk->sort, SORT_SYM)) {
		key->sym = al->sym;
		if (!al->sym)
			key->sym_off = al->addr;
	}
}

/* The keys of the thread: comm, pid (the thread with its last comm) or tid. */
static int hist_key__thread(const struct hist_key *hk, struct hist_entry *key,
			    const struct thread *t, const struct perf_sample *sample,
			    const char *comm)
{
	if (sort_keys__has(hk->sort, SORT_COMM)) {
		key->comm = strset__intern(hk->strs, comm);
		if (!key->comm)
			return -ENOMEM;
		key->comm_unset = !t->comm_set;
	}
	/* "pid" is the thread, as in the distro: its tid and its last comm. */
	if (sort_keys__has(hk->sort, SORT_PID)) {
		key->pid = (int)sample->tid;
		key->gen = t->gen;
		key->last_comm = strset__intern(hk->strs, comm);
		if (!key->last_comm)
			return -ENOMEM;
	}
	/* "tid": the thread's number alone, whatever tasks had it. */
	if (sort_keys__has(hk->sort, SORT_TID))
		key->pid = (int)sample->tid;
	return 0;
}

/* The trace key: the tracepoint's fields as perf script prints them, interned. */
static const char *hist_key__trace(const struct hist_key *hk, const struct perf_sample *sample)
{
	struct tep_record rec = {
		.ts = sample->time, .cpu = (int)sample->cpu,
		.size = (int)sample->raw_size, .data = sample->raw_data,
	};

	trace_seq_reset(hk->seq);
	perf_session__print_tp(hk->tep, hk->seq, &rec);
	return strset__intern(hk->strs, hk->seq->buffer);
}

/* The srcline key of the sample's own address. */
static const char *hist_key__srcline(const struct hist_key *hk, const struct perf_sample *sample,
				     const struct addr_location *al)
{
	struct callchain_frame self = {
		.dso = al->dso, .sym = al->sym, .ip = sample->ip,
		.user_map = al->map != NULL, .addr = al->addr, .sym_addr = al->sym_addr,
	};

	return srcline_cache__get(hk->srclines, &self);
}

int hist_key__sample(const struct hist_key *hk, struct hist_entry *key, const struct evsel *evsel,
		     const struct perf_sample *sample, struct machine *machine,
		     const struct thread *t, const char *comm)
{
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool srcline = sort_keys__has(hk->sort, SORT_SRCLINE);
	struct addr_location al;

	if (hist_key__thread(hk, key, t, sample, comm))
		return -ENOMEM;
	if (sort_keys__has(hk->sort, SORT_CPU))
		key->cpu = (int)sample->cpu;
	if (sort_keys__has(hk->sort, SORT_TRACE) && evsel->tp_format) {
		key->trace = hist_key__trace(hk, sample);
		if (!key->trace)
			return -ENOMEM;
	}
	key->kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (!sort_keys__has(hk->sort, SORT_DSO) && !sort_keys__has(hk->sort, SORT_SYM) && !srcline)
		return 0;
	machine__resolve(machine, (int)sample->pid, sample->ip, key->kernel, &al);
	if (hk->by_object)
		hist_key__set_object(hk, key, &al);
	else
		hist_key__set_location(hk, key, al.dso, al.sym, al.addr, al.sym_addr);
	if (srcline) {
		key->srcline = hist_key__srcline(hk, sample, &al);
		if (!key->srcline)
			return -ENOMEM;
	}
	return 0;
}
