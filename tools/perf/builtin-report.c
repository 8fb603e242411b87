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
#include "util/debug.h"

enum sort_key { SORT_COMM, SORT_DSO, SORT_SYM, SORT_PID };

struct hist_entry {
	const char *comm;	/* interned (report__intern): equal names, equal pointers */
	int pid;
	struct dso *dso;
	struct symbol *sym;
	u64 addr;		/* when sym is NULL */
	bool kernel;
	u64 period, nr;
};

struct hists {
	struct hist_entry *e;	/* open-addressing table */
	size_t cap, nr;
	u64 total_period, nr_samples;
};

struct report {
	struct perf_tool tool;
	struct perf_session *session;
	enum sort_key keys[4];
	int nr_keys;
	struct hists *hists;	/* one per evsel, by idx */
	char **strs;		/* interned comms, open addressing */
	size_t nr_strs, cap_strs;
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
	for (int i = 0; i < r->nr_keys; i++)
		if (r->keys[i] == k)
			return true;
	return false;
}

static u64 entry__hash(const struct hist_entry *h)
{
	u64 v = (u64)(uintptr_t)h->comm * 31 + (u64)h->pid;

	v = v * 1000003 ^ (u64)(uintptr_t)h->dso;
	v = v * 1000003 ^ (h->sym ? (u64)(uintptr_t)h->sym : h->addr);
	return v * 0x9e3779b97f4a7c15ULL;
}

static bool entry__same(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->comm == b->comm && a->pid == b->pid && a->dso == b->dso && a->sym == b->sym &&
	       (a->sym || a->addr == b->addr) && a->kernel == b->kernel;
}

static int hists__add(struct hists *h, const struct hist_entry *key, u64 period)
{
	size_t i;

	if (h->nr * 2 >= h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		struct hist_entry *n = calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t j = 0; j < h->cap; j++) {
			if (!h->e[j].nr)
				continue;
			for (i = entry__hash(&h->e[j]) & (cap - 1); n[i].nr; i = (i + 1) & (cap - 1))
				;
			n[i] = h->e[j];
		}
		free(h->e);
		h->e = n;
		h->cap = cap;
	}
	for (i = entry__hash(key) & (h->cap - 1); h->e[i].nr; i = (i + 1) & (h->cap - 1))
		if (entry__same(&h->e[i], key))
			break;
	if (!h->e[i].nr) {
		h->e[i] = *key;
		h->nr++;
	}
	h->e[i].nr++;
	h->e[i].period += period;
	h->total_period += period;
	h->nr_samples++;
	return 0;
}

static int report__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *t = machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid);
	struct hist_entry key = { 0 };
	struct addr_location al;

	if (!t)
		return -ENOMEM;
	if (report__has(r, SORT_COMM)) {
		key.comm = report__intern(r, thread__comm_at(t, sample->time));
		if (!key.comm)
			return -ENOMEM;
	}
	if (report__has(r, SORT_PID))
		key.pid = (int)sample->pid;
	key.kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (report__has(r, SORT_DSO) || report__has(r, SORT_SYM)) {
		machine__resolve(machine, (int)sample->pid, sample->ip, key.kernel, &al);
		if (report__has(r, SORT_DSO))
			key.dso = al.dso;
		if (report__has(r, SORT_SYM)) {
			key.sym = al.sym;
			key.addr = al.sym ? 0 : al.addr;
			if (!report__has(r, SORT_DSO) && !al.sym)
				key.dso = al.dso;	/* addresses only mean something per dso */
		}
	}
	return hists__add(&r->hists[evsel->idx], &key, sample->period);
}

static int entry__cmp(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
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

static void entry__col(const struct report *r, const struct hist_entry *e, enum sort_key k,
		       char *buf, size_t len)
{
	switch (k) {
	case SORT_COMM:
		snprintf(buf, len, "%s", e->comm ? e->comm : "");
		break;
	case SORT_PID:
		snprintf(buf, len, "%d", e->pid);
		break;
	case SORT_DSO:
		snprintf(buf, len, "%s", dso__short(e->dso));
		break;
	case SORT_SYM:
		if (e->sym)
			snprintf(buf, len, "[%c] %s", e->kernel ? 'k' : '.', e->sym->name);
		else
			snprintf(buf, len, "[%c] %#018llx", e->kernel ? 'k' : '.',
				 (unsigned long long)e->addr);
		break;
	}
}

static const char *const key_names[] = { "Command", "Shared Object", "Symbol", "Pid" };

static void report__print(struct report *r, struct evsel *evsel, struct hists *h)
{
	struct hist_entry *v = malloc((h->nr ? h->nr : 1) * sizeof(*v));
	int width[4];
	char buf[1024], unit = ' ';
	u64 nr = h->nr_samples;
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < h->cap; i++)
		if (h->e[i].nr)
			v[n++] = h->e[i];
	qsort(v, n, sizeof(*v), entry__cmp);
	for (int k = 0; k < r->nr_keys; k++) {
		width[k] = (int)strlen(key_names[r->keys[k]]);
		for (size_t i = 0; i < n; i++) {
			entry__col(r, &v[i], r->keys[k], buf, sizeof(buf));
			if ((int)strlen(buf) > width[k])
				width[k] = (int)strlen(buf);
		}
	}
	if (nr >= 1000) {
		nr /= 1000;
		unit = 'K';
		if (nr >= 1000) {
			nr /= 1000;
			unit = 'M';
		}
	}
	printf("# Samples: %llu%c of event '%s'\n", (unsigned long long)nr, unit,
	       evsel__name(evsel));
	printf("# Event count (approx.): %llu\n#\n", (unsigned long long)h->total_period);
	printf("# Overhead");
	for (int k = 0; k < r->nr_keys; k++)
		printf("  %-*s", width[k], key_names[r->keys[k]]);
	printf("\n# ........");
	for (int k = 0; k < r->nr_keys; k++) {
		printf("  ");
		for (int i = 0; i < width[k]; i++)
			putchar('.');
	}
	printf("\n#\n");
	for (size_t i = 0; i < n; i++) {
		printf("  %7.2f%%", h->total_period ? 100.0 * v[i].period / h->total_period : 0);
		for (int k = 0; k < r->nr_keys; k++) {
			entry__col(r, &v[i], r->keys[k], buf, sizeof(buf));
			if (k == r->nr_keys - 1)
				printf("  %s", buf);
			else
				printf("  %-*s", width[k], buf);
		}
		putchar('\n');
	}
	printf("\n\n");
	free(v);
}

static int report__parse_sort(struct report *r, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	r->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum sort_key k;

		if (!strcmp(tok, "comm"))
			k = SORT_COMM;
		else if (!strcmp(tok, "dso"))
			k = SORT_DSO;
		else if (!strcmp(tok, "sym"))
			k = SORT_SYM;
		else if (!strcmp(tok, "pid"))
			k = SORT_PID;
		else {
			fprintf(stderr, "perf report: unknown --sort key '%s'; "
				"use comm, pid, dso or sym.\n", tok);
			free(copy);
			return -EINVAL;
		}
		if (!report__has(r, k) && r->nr_keys < 4)
			r->keys[r->nr_keys++] = k;
	}
	free(copy);
	return r->nr_keys ? 0 : -EINVAL;
}

static const char report_usage[] = "perf report [<options>]";
static const char * const report_options[] = {
	"-i, --input <file>    input file name (default perf.data)",
	"    --stdio           use the stdio interface (the only one)",
	"-s, --sort <keys>     sort by key(s): comm,pid,dso,sym (default comm,dso,sym)",
	"-q, --quiet           do not show warnings",
	SYMBOL_CONF_USAGE,
	NULL
};

int cmd_report(int argc, const char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "stdio", no_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		SYMBOL_CONF_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct report r = {
		.tool = { .sample = report__sample },
		.keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nr_keys = 3,
	};
	const char *input = "perf.data";
	struct evsel *e;
	char msg[256];
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+i:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 's':
			if (report__parse_sort(&r, optarg))
				return 129;
			break;
		case 'S':
			break;
		case 'q':
			quiet = 1;
			break;
		case SYMBOL_OPT_DEMANGLE:
		case SYMBOL_OPT_NO_DEMANGLE:
		case SYMBOL_OPT_SYMFS:
			symbol_conf__option(c, optarg);
			break;
		case 'h':
			usage_with_options(report_usage, report_options);
			return 0;
		default:
			usage_with_options(report_usage, report_options);
			return 129;
		}
	}
	r.session = perf_session__open(input, &err, msg, sizeof(msg));
	if (!r.session) {
		perf_session__report_open_error("report", input, err, msg);
		return 1;
	}
	r.hists = calloc(r.session->evlist->nr_entries, sizeof(*r.hists));
	if (!r.hists) {
		perf_session__delete(r.session);
		return 1;
	}
	err = perf_session__process_events(r.session, &r.tool);
	if (err) {
		fprintf(stderr, "perf report: %s: %s\n", input,
			r.session->errmsg[0] ? r.session->errmsg : strerror(-err));
	} else {
		perf_session__warn_stats(r.session);
		printf("#\n# Total Lost Samples: %llu\n#\n",
		       (unsigned long long)r.session->nr_lost);
		evlist__for_each_entry(r.session->evlist, e)
			if (r.hists[e->idx].nr_samples)
				report__print(&r, e, &r.hists[e->idx]);
	}
	for (int i = 0; i < r.session->evlist->nr_entries; i++)
		free(r.hists[i].e);
	free(r.hists);
	for (size_t i = 0; i < r.cap_strs; i++)
		free(r.strs[i]);
	free(r.strs);
	perf_session__delete(r.session);
	return err ? 1 : 0;
}
