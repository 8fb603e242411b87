/*
 * perf diff: two files' profiles side by side.  Each file's samples are
 * added up by the sort keys (dso,sym by default), the baseline's entries
 * are paired with the new file's by those keys, and each event's table
 * shows the baseline's share and what changed: the delta of the shares,
 * their absolute delta (the default), the ratio of the periods or a
 * weighted difference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/session.h"
#include "util/debug.h"
#include "util/hist.h"
#include "util/sort.h"
#include "util/diff.h"
#include "util/parse-options.h"

/* One of the two files: its session and its entries, one table per event. */
struct diff_file {
	const char *path;
	struct perf_session *session;
	struct hists *hists;		/* by evsel idx */
	struct dso_canon canon;		/* the dso key: objects by short name */
};

struct diff {
	struct perf_tool tool;
	struct diff_file files[2];	/* the baseline, the new file */
	struct diff_file *cur;		/* the one being read */
	struct sort_keys sort;
	struct diff_opts opts;
	struct strset strs;		/* comms of the entries */
	bool baseline_only, formula, period, force;
	int order;			/* -o: 1 sorts by the computed column first */
};

/* The columns of the table besides the keys, in the distro's order. */
enum diff_col { COL_BASELINE, COL_BASE_PERIOD, COL_COMPUTED, COL_FORMULA, COL_NEW_PERIOD };

static const char *diff__computed_name(enum diff_compute c)
{
	static const char *const names[] = {
		[DIFF_DELTA] = "Delta", [DIFF_DELTA_ABS] = "Delta Abs",
		[DIFF_RATIO] = "Ratio", [DIFF_WDIFF] = "Weighted diff",
	};

	return names[c];
}

/* A column is as wide as its header, or the distro's least width for it. */
static int diff__col_width(const struct diff *d, enum diff_col col)
{
	static const int least[] = { [DIFF_DELTA] = 7, [DIFF_DELTA_ABS] = 7,
				     [DIFF_RATIO] = 14, [DIFF_WDIFF] = 14 };
	int w;

	switch (col) {
	case COL_BASELINE:
		return 8;
	case COL_BASE_PERIOD:
	case COL_NEW_PERIOD:
		return 14;
	case COL_FORMULA:
		return 70;
	case COL_COMPUTED:
		w = (int)strlen(diff__computed_name(d->opts.compute));
		return w > least[d->opts.compute] ? w : least[d->opts.compute];
	}
	return 0;
}

static const char *diff__col_name(const struct diff *d, enum diff_col col)
{
	static const char *const names[] = {
		[COL_BASELINE] = "Baseline", [COL_BASE_PERIOD] = "Base period",
		[COL_FORMULA] = "Formula", [COL_NEW_PERIOD] = "Period",
	};

	return col == COL_COMPUTED ? diff__computed_name(d->opts.compute) : names[col];
}

/* The address an entry at no symbol shows, now that no more samples come to it. */
static void diff__show_addresses(struct hists *h)
{
	struct hist_entry *e;
	size_t i;

	hashtab__for_each(&h->entries, i, e)
		if (!e->sym)
			e->addr = e->sym_off;
}

static int diff__sample(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct diff *d = container_of(tool, struct diff, tool);
	struct thread *t = machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid);
	struct hists *h = &d->cur->hists[evsel->idx];
	struct hist_entry key = { 0 }, *he;

	struct hist_key hk = { .sort = &d->sort, .strs = &d->strs, .canon = &d->cur->canon,
			       .by_object = true };

	(void)event;
	if (!t || hist_key__sample(&hk, &key, evsel, sample, machine, t,
				   thread__comm_at(t, sample->time)))
		return -ENOMEM;
	if (hists__reserve(h, 1))
		return -ENOMEM;
	he = hists__findnew(h, &key, t);
	if (!key.sym && key.sym_off < he->sym_off)
		he->sym_off = key.sym_off;
	he->last_comm = key.last_comm;
	he->nr++;
	he->period += sample->period;
	h->total_period += sample->period;
	h->nr_samples++;
	return 0;
}

/* Reads one file into its tables: 0, or the exit status. */
static int diff__read(struct diff *d, struct diff_file *f)
{
	char msg[256];
	int err;

	f->session = perf_session__open(f->path, &err, msg, sizeof(msg));
	if (!f->session) {
		perf_session__report_open_error("diff", f->path, err, msg);
		return cmd_exit_status(-1);
	}
	f->hists = calloc(f->session->evlist->nr_entries, sizeof(*f->hists));
	if (!f->hists)
		return cmd_exit_status(-ENOMEM);
	for (int i = 0; i < f->session->evlist->nr_entries; i++)
		hists__init(&f->hists[i]);
	d->cur = f;
	err = perf_session__process_events(f->session, &d->tool);
	if (err) {
		fprintf(stderr, "perf diff: %s: %s\n", f->path,
			f->session->errmsg[0] ? f->session->errmsg : strerror(-err));
		return cmd_exit_status(err);
	}
	for (int i = 0; i < f->session->evlist->nr_entries; i++)
		if (hists__name_unnamed(&f->hists[i], &d->strs))
			return cmd_exit_status(-ENOMEM);
	for (int i = 0; i < f->session->evlist->nr_entries; i++)
		diff__show_addresses(&f->hists[i]);
	return 0;
}

/* The new file's event that is the baseline's @base (the same type and config), or NULL. */
static struct evsel *diff__match(struct evlist *evlist, const struct evsel *base)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (e->attr.type == base->attr.type && e->attr.config == base->attr.config)
			return e;
	return NULL;
}

/* What a table shows: its value columns, then the keys with their widths. */
struct diff_table {
	enum diff_col cols[5];
	int nr_cols;
	int width[SORT__MAX];		/* of each key's column, by the key's index */
	u64 base_total, new_total;
	/*
	 * What the Baseline column's shares are of: the baseline's total, or
	 * with -b the periods of the rows left, as the distro adds them up
	 * again after dropping the others (the deltas keep the whole total).
	 */
	u64 base_shown;
};

static void diff__columns(const struct diff *d, struct diff_table *t)
{
	t->cols[t->nr_cols++] = COL_BASELINE;
	if (d->period)
		t->cols[t->nr_cols++] = COL_BASE_PERIOD;
	t->cols[t->nr_cols++] = COL_COMPUTED;
	if (d->formula)
		t->cols[t->nr_cols++] = COL_FORMULA;
	if (d->period)
		t->cols[t->nr_cols++] = COL_NEW_PERIOD;
}

/* The entry that shows a row's keys: the baseline's, or the new file's for a row of its own. */
static const struct hist_entry *diff_row__entry(const struct diff_row *r)
{
	return r->base ? r->base : r->pair;
}

/* A key's column: as wide as its header, or its widest entry. */
static int diff__key_width(enum sort_key k, const struct diff_row *rows, size_t n)
{
	int width = (int)strlen(sort_key__names[k]);

	for (size_t i = 0; i < n; i++) {
		int w = hist_entry__key_width(diff_row__entry(&rows[i]), k);

		if (w > width)
			width = w;
	}
	return width;
}

static void diff__print_header(const struct diff *d, const struct diff_table *t)
{
	const struct sort_keys *s = &d->sort;

	for (int c = 0; c < t->nr_cols; c++)
		printf("%s%*s", c ? "  " : "# ", diff__col_width(d, t->cols[c]),
		       diff__col_name(d, t->cols[c]));
	for (int k = 0; k < s->nr_keys; k++)
		printf("  %-*s", t->width[k], sort_key__names[s->keys[k]]);
	printf("\n");
	for (int c = 0; c < t->nr_cols + s->nr_keys; c++) {
		int w = c < t->nr_cols ? diff__col_width(d, t->cols[c]) : t->width[c - t->nr_cols];

		printf(c ? "  " : "# ");
		for (int i = 0; i < w; i++)
			putchar('.');
	}
	printf("\n#\n");
}

/* The Formula column: how the computed value came about. */
static void diff__formula(const struct diff *d, const struct diff_table *t,
			  const struct diff_row *r, char *buf, size_t len)
{
	unsigned long long base = r->base ? r->base->period : 0, new = r->pair->period;

	switch (d->opts.compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS:
		snprintf(buf, len, "(%llu * 100 / %llu) - (%llu * 100 / %llu)", new,
			 (unsigned long long)t->new_total, base, (unsigned long long)t->base_shown);
		break;
	case DIFF_RATIO:
		snprintf(buf, len, "%llu / %llu", new, base);
		break;
	case DIFF_WDIFF:
		snprintf(buf, len, "(%llu * %lld) - (%llu * %lld)", new, (long long)d->opts.w2,
			 base, (long long)d->opts.w1);
		break;
	}
}

/* The computed column: blank without a new entry, N/A for a ratio or weight without a baseline. */
static void diff__computed(const struct diff *d, const struct diff_row *r, char *buf, size_t len)
{
	if (d->opts.compute == DIFF_DELTA || d->opts.compute == DIFF_DELTA_ABS)
		snprintf(buf, len, "%+4.2f%%", r->delta);
	else if (!r->base)
		snprintf(buf, len, "N/A");
	else if (d->opts.compute == DIFF_RATIO)
		snprintf(buf, len, "%14.6f", r->ratio);
	else
		snprintf(buf, len, "%14lld", (long long)r->wdiff);
}

static void diff__print_value(const struct diff *d, const struct diff_table *t,
			      const struct diff_row *r, enum diff_col col)
{
	char buf[256] = "";

	switch (col) {
	case COL_BASELINE:
		if (r->base)
			snprintf(buf, sizeof(buf), "%6.2f%%",
				 t->base_shown ? 100.0 * r->base->period / t->base_shown : 0);
		break;
	case COL_BASE_PERIOD:
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)(r->base ? r->base->period : 0));
		break;
	case COL_COMPUTED:
		if (r->pair)
			diff__computed(d, r, buf, sizeof(buf));
		break;
	case COL_FORMULA:
		if (r->pair)
			diff__formula(d, t, r, buf, sizeof(buf));
		break;
	case COL_NEW_PERIOD:
		if (r->pair)
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->pair->period);
		break;
	}
	printf("  %*s", diff__col_width(d, col), buf);
}

static void diff__print_row(const struct diff *d, const struct diff_table *t,
			    const struct diff_row *r)
{
	const struct sort_keys *s = &d->sort;
	const struct hist_entry *e = diff_row__entry(r);
	char buf[1024];

	for (int c = 0; c < t->nr_cols; c++)
		diff__print_value(d, t, r, t->cols[c]);
	for (int k = 0; k < s->nr_keys; k++) {
		enum sort_key key = s->keys[k];

		hist_entry__key_snprintf(e, key, t->width[k], buf, sizeof(buf));
		/* As in perf report: a last comm or dso column is padded, no other. */
		if (k == s->nr_keys - 1 && key != SORT_COMM && key != SORT_DSO)
			printf("  %s", buf);
		else
			printf("  %-*s", t->width[k], buf);
	}
	putchar('\n');
}

/* One event's table: the baseline's entries against those of @new (NULL: none to pair). */
static int diff__print_event(struct diff *d, struct evsel *evsel, struct hists *base,
			     struct hists *new, bool first)
{
	struct hists none;
	struct hist_entry **vb = NULL, **vn = NULL;
	struct diff_row *rows = NULL;
	struct diff_table t = { .nr_cols = 0 };
	size_t nb = 0, nn = 0, n = 0;
	int err = -ENOMEM;

	hists__init(&none);
	if (!new)
		new = &none;
	vb = hists__entries(base, &nb);
	vn = hists__entries(new, &nn);
	if (!vb || !vn)
		goto out;
	nb = diff__collapse(vb, nb, &d->sort);
	nn = diff__collapse(vn, nn, &d->sort);
	t.base_total = base->total_period;
	t.new_total = new->total_period;
	rows = diff__pair(vb, nb, vn, nn, &d->sort, &d->opts, t.base_total, t.new_total,
			  d->baseline_only, &n);
	if (!rows)
		goto out;
	diff__sort(rows, n, &d->sort, &d->opts);
	t.base_shown = t.base_total;
	if (d->baseline_only) {
		t.base_shown = 0;
		for (size_t i = 0; i < n; i++)
			t.base_shown += rows[i].base->period;
	}
	diff__columns(d, &t);
	for (int k = 0; k < d->sort.nr_keys; k++)
		t.width[k] = diff__key_width(d->sort.keys[k], rows, n);
	if (!quiet) {
		printf("%s# Event '%s'\n#\n", first ? "" : "\n", evsel__name(evsel));
		diff__print_header(d, &t);
	}
	for (size_t i = 0; i < n; i++)
		diff__print_row(d, &t, &rows[i]);
	err = 0;
out:
	free(rows);
	free(vb);
	free(vn);
	hists__exit(&none);
	return err;
}

/* Every event of the baseline, in its order, with its match in the new file. */
static int diff__print(struct diff *d)
{
	struct diff_file *b = &d->files[0], *n = &d->files[1];
	struct evsel *e;
	bool first = true;

	evlist__for_each_entry(b->session->evlist, e) {
		struct evsel *m = diff__match(n->session->evlist, e);

		if (diff__print_event(d, e, &b->hists[e->idx], m ? &n->hists[m->idx] : NULL, first))
			return cmd_exit_status(-ENOMEM);
		first = false;
	}
	return 0;
}

static int diff__opt_compute(const struct perf_option *opt, const char *arg, int unset)
{
	struct diff *d = opt->value;
	char err[256];

	(void)unset;
	if (!diff_opts__parse_compute(&d->opts, arg, err, sizeof(err)))
		return 0;
	fputs(err, stderr);
	return -1;
}

static int diff__opt_sort(const struct perf_option *opt, const char *arg, int unset)
{
	struct diff *d = opt->value;

	(void)unset;
	if (sort_keys__parse(&d->sort, arg))
		return -1;
	if (sort_keys__has(&d->sort, SORT_TRACE) || sort_keys__has(&d->sort, SORT_SRCLINE)) {
		fprintf(stderr, "perf diff: --sort %s: trace and srcline keys are not supported "
			"here; use comm, pid, tid, cpu, dso or sym.\n", arg);
		return -1;
	}
	return 0;
}

static const char * const diff_usage[] = { "perf diff [<options>] [old_file] [new_file]", NULL };

/* The options and the files: -1 to go on, or the exit status. */
static int diff__parse_options(struct diff *d, int argc, const char **argv)
{
	bool q = false;
	const struct perf_option options[] = {
		OPT_BOOLEAN('b', "baseline-only", &d->baseline_only,
			    "Show only items with match in baseline"),
		{ .type = OPTION_CALLBACK, .short_name = 'c', .long_name = "compute", .value = d,
		  .argh = "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs)",
		  .help = "Entries differential computation selection",
		  .flags = PARSE_OPT_NONEG | PARSE_OPT_SHOW_USAGE, .callback = diff__opt_compute },
		OPT_BOOLEAN('f', "force", &d->force, "don't complain, do it"),
		OPT_BOOLEAN('F', "formula", &d->formula, "Show formula."),
		OPT_INTEGER('o', "order", &d->order, "n", "Specify compute sorting."),
		OPT_BOOLEAN('p', "period", &d->period, "Show period values."),
		OPT_BOOLEAN('q', "quiet", &q, "Do not show any warnings or messages"),
		OPT_CALLBACK('s', "sort", d, "key[,key2...]",
			     "sort by key(s): comm, pid, tid, cpu, dso, sym (default dso,sym)",
			     diff__opt_sort),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, diff_usage, 0);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (q)
		quiet = 1;
	if (argc > 2) {
		fprintf(stderr, "perf diff: %d files given; this perf compares two, "
			"the baseline and the new one.\n", argc);
		return PERF_EXIT_USAGE;
	}
	if (argc == 2)
		d->files[0].path = argv[0];
	if (argc)
		d->files[1].path = argv[argc - 1];
	if (d->order < 0 || d->order > 1) {
		fprintf(stderr, "Order option out of limit.\n");
		return PERF_EXIT_FAILURE;
	}
	d->opts.by_compute = d->order == 1;
	return -1;
}

static void diff__exit(struct diff *d)
{
	for (int i = 0; i < 2; i++) {
		struct diff_file *f = &d->files[i];

		for (int j = 0; f->hists && j < f->session->evlist->nr_entries; j++)
			hists__exit(&f->hists[j]);
		free(f->hists);
		if (f->session)
			perf_session__delete(f->session);
		dso_canon__exit(&f->canon);
	}
	strset__exit(&d->strs);
}

int cmd_diff(int argc, const char **argv)
{
	struct diff d = {
		.tool = { .sample = diff__sample },
		.files = { { .path = "perf.data.old" }, { .path = "perf.data" } },
		.opts = { .compute = DIFF_DELTA_ABS },
		.order = 1,
	};
	int err;

	sort_keys__init(&d.sort);
	sort_keys__parse(&d.sort, "dso,sym");
	strset__init(&d.strs, 256);
	dso_canon__init(&d.files[0].canon);
	dso_canon__init(&d.files[1].canon);
	err = diff__parse_options(&d, argc, argv);
	if (err >= 0)
		goto out;
	err = diff__read(&d, &d.files[0]);
	if (!err)
		err = diff__read(&d, &d.files[1]);
	if (!err)
		err = diff__print(&d);
out:
	diff__exit(&d);
	return err;
}
