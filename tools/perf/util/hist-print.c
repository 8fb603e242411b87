/*
 * perf report --stdio's tables (see hist-print.h).  Column widths are
 * measured over every entry, shown or not, so that a table cut by
 * --percent-limit is as wide as the distro's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist-print.h"
#include "evlist.h"
#include "evsel.h"
#include "debug.h"

static double hist_entry__percent(const struct hists_print *p, const struct hist_entry *e,
			     const struct hists *h)
{
	u64 v = p->children ? e->period_acc : e->period;

	return h->total_period ? 100.0 * v / h->total_period : 0;
}


/*
 * Group view: the tables of @leader's members (they follow it in the list)
 * into @members, their number returned (-ENOMEM).  Every key a member has
 * gets an entry in the leader's table too, without samples when the leader
 * had none there, so that each key has its line, as in the distro.
 */
static int hists__group_members(const struct hists_print *p, struct evsel *leader, struct hists *h,
				 struct hists ***members)
{
	struct hists **m = calloc(leader->nr_members, sizeof(*m));
	struct evsel *e = leader;
	int nr = 0;

	if (!m)
		return -ENOMEM;
	while (nr < leader->nr_members - 1 && e->node.next != &p->evlist->entries) {
		e = list_entry(e->node.next, struct evsel, node);
		if (e->leader != leader)
			break;
		m[nr++] = &p->hists[e->idx];
	}
	for (int j = 0; j < nr; j++) {
		struct hist_entry **v;
		size_t n;

		if (hists__name_unnamed(m[j], p->strs))
			goto fail;
		v = hists__entries(m[j], &n);
		if (!v)
			goto fail;
		for (size_t i = 0; i < n; i++) {
			struct hist_entry key = *v[i];

			if (hists__reserve(h, 1)) {
				free(v);
				goto fail;
			}
			key.period = key.nr = key.period_acc = 0;
			key.cc = NULL;
			key.max_depth = 0;
			hists__findnew(h, &key, v[i]->thread);
		}
		free(v);
	}
	*members = m;
	return nr;
fail:
	free(m);
	return -ENOMEM;
}

/* What hists__print shows of one event (or group): its columns, their widths, its members. */
struct hists_table {
	int cols[COL__MAX];	/* keys as SORT_*, the rest as COL_* */
	int key_idx[COL__MAX];	/* a key column's index in the keys */
	int nr_cols;
	int width[SORT__MAX];	/* of each key's column */
	struct hists **members;	/* group view: the members' tables, nm of them */
	int nm;
	struct grp_stat *gs;	/* ... and their values, nm for each entry */
	bool trace_cut;		/* the trace column is cut to its header */
	const char *col_names[COL__MAX - COL_CHILDREN];
};

/* The columns: -F's, or Children, Self/Overhead, Samples (-n), Period, then the keys. */
static void table__columns(const struct hists_print *p, struct hists_table *t)
{
	const struct sort_keys *s = p->sort;

	if (s->nr_cols) {
		memcpy(t->cols, s->cols, s->nr_cols * sizeof(*t->cols));
		t->nr_cols = s->nr_cols;
	} else {
		if (p->children)
			t->cols[t->nr_cols++] = COL_CHILDREN;
		t->cols[t->nr_cols++] = COL_SELF;
		if (p->show_nr)
			t->cols[t->nr_cols++] = COL_SAMPLES;
		if (p->show_period)
			t->cols[t->nr_cols++] = COL_PERIOD;
		for (int k = 0; k < s->nr_keys; k++)
			t->cols[t->nr_cols++] = s->keys[k];
	}
	for (int c = 0; c < t->nr_cols; c++)
		for (int k = 0; k < s->nr_keys; k++)
			if ((int)s->keys[k] == t->cols[c])
				t->key_idx[c] = k;
	/* "Self" beside the default Children column; -F names it "Overhead" as given. */
	t->col_names[0] = "Children";
	t->col_names[1] = p->children && !s->nr_cols ? "Self" : "Overhead";
	t->col_names[2] = "Samples";
	t->col_names[3] = "Period";
}

/* Group view: each entry's values in the members' tables. */
static int table__group_stats(struct hists_table *t, struct hist_entry **v, size_t n)
{
	t->gs = calloc(n * t->nm + 1, sizeof(*t->gs));
	if (!t->gs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		v[i]->grp = (u32)i;
		for (int j = 0; j < t->nm; j++) {
			const struct hist_entry *f = hists__find(t->members[j], v[i]);
			struct grp_stat *g = &t->gs[i * t->nm + j];

			if (f) {
				g->period = f->period;
				g->nr = f->nr;
				g->period_acc = f->period_acc;
			}
		}
	}
	return 0;
}

/* The width of a key's column: its header's, or its widest entry's. */
static int table__key_width(const struct hists_print *p, const struct hists_table *t,
			     enum sort_key k, struct hist_entry **v, size_t n)
{
	int width = (int)strlen(sort_key__names[k]);
	char buf[1024];

	if (k == SORT_TRACE && t->trace_cut)
		return width;
	for (size_t i = 0; i < n; i++) {
		int w;

		/*
		 * A comm column is as wide as the longest last comm of the
		 * entries' threads, as the distro has it: an entry of a
		 * thread that exec'd later ("perf-exec" then "sleep") is
		 * cut to it.
		 */
		if (k == SORT_PID)
			w = 8 + (int)strlen(hist_entry__thread_comm(v[i]));
		else if (k == SORT_COMM)
			w = (int)strlen(hist_entry__thread_comm(v[i]));
		else if (k == SORT_CPU)
			continue;
		else {
			hist_entry__key_snprintf(v[i], k, 0, buf, sizeof(buf));
			w = (int)strlen(buf);
		}
		/* An address without a symbol widens objects to an address's 16 digits. */
		if (k == SORT_DSO && v[i]->no_sym && w < 16)
			w = 16;
		if (w > width)
			width = w;
	}
	return width;
}

/* A value column of a group holds one value for each of its events. */
static int table__col_width(const struct hists_table *t, int c)
{
	if (t->cols[c] < SORT__MAX)
		return t->width[t->key_idx[c]];
	return (t->cols[c] >= COL_SAMPLES ? 12 : 8) * (t->nm + 1);
}

static void table__print_header(const struct hists_print *p, const struct hists_table *t,
				 struct evsel *evsel, const char *desc, u64 nr, u64 total)
{
	char unit = ' ';

	/* Over 1000, in thousands: 1000 stays 1000, 1000000 is 1000K, as the distro prints them. */
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	/* A group's leader, even shown alone (--no-group), says "events". */
	printf("# Samples: %llu%c of event%s '%s'", (unsigned long long)nr, unit,
	       evsel->nr_members > 1 ? "s" : "", desc ? desc : evsel__name(evsel));
	/* --time, as given. */
	if (p->time_arg)
		printf(" (time slices: %s)", p->time_arg);
	putchar('\n');
	printf("# Event count (approx.): %llu\n#\n", (unsigned long long)total);
	for (int c = 0; c < t->nr_cols; c++) {
		const char *sep = !c ? "# " : p->field_sep ? p->field_sep : "  ";

		if (t->cols[c] < SORT__MAX)
			printf("%s%-*s", sep, table__col_width(t, c), sort_key__names[t->cols[c]]);
		else
			printf("%s%*s", sep, table__col_width(t, c),
			       t->col_names[t->cols[c] - COL_CHILDREN]);
	}
	printf("\n");
	/* Scripts splitting the lines at -t's string get no rule of dots, nor a '#' line. */
	if (p->field_sep)
		return;
	for (int c = 0; c < t->nr_cols; c++) {
		printf(c ? "  " : "# ");
		for (int i = 0; i < table__col_width(t, c); i++)
			putchar('.');
	}
	printf("\n#\n");
}

/*
 * What goes before column @c of a line: two blanks, or with -t its string
 * (nothing before the first column).
 */
static const char *col_sep(const struct hists_print *p, int c)
{
	if (!p->field_sep)
		return "  ";
	return c ? p->field_sep : "";
}

/*
 * A value with -t, as the distro prints it: after @before, the number
 * behind a blank, left-aligned in the column's width (8 for a percentage,
 * 12 for a count).
 */
static void print_sep_cell(const char *before, int width, const char *num)
{
	char buf[64];

	snprintf(buf, sizeof(buf), " %s", num);
	printf("%s%-*s", before, width, buf);
}

/* A percentage, after @before (NULL: a group member's, right after the leader's). */
static void print_percent(const struct hists_print *p, const char *before, u64 v, u64 total)
{
	double pct = total ? 100.0 * v / total : 0;
	char num[32];

	if (p->field_sep) {
		snprintf(num, sizeof(num), "%.2f%%", pct);
		print_sep_cell(before ? before : p->field_sep, 8, num);
		return;
	}
	printf("%s%7.2f%%", before ? before : "", pct);
}

static void print_count(const struct hists_print *p, const char *before, u64 v)
{
	char num[32];

	if (p->field_sep) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		print_sep_cell(before ? before : p->field_sep, 12, num);
		return;
	}
	printf("%s%12llu", before ? before : "", (unsigned long long)v);
}

/* A value column of @e: the leader's value, then each member's. */
static void table__print_value(const struct hists_print *p, const struct hists_table *t,
			       const struct hist_entry *e, const struct hists *h, int c)
{
	const struct grp_stat *g = t->gs ? &t->gs[(size_t)e->grp * t->nm] : NULL;
	const char *before = col_sep(p, c);

	switch (t->cols[c]) {
	case COL_CHILDREN:
		print_percent(p, before, e->period_acc, h->total_period);
		for (int j = 0; j < t->nm; j++)
			print_percent(p, NULL, g[j].period_acc, t->members[j]->total_period);
		break;
	case COL_SELF:
		print_percent(p, before, e->period, h->total_period);
		for (int j = 0; j < t->nm; j++)
			print_percent(p, NULL, g[j].period, t->members[j]->total_period);
		break;
	case COL_SAMPLES:
		print_count(p, before, e->nr);
		for (int j = 0; j < t->nm; j++)
			print_count(p, NULL, g[j].nr);
		break;
	case COL_PERIOD:
		print_count(p, before, e->period);
		for (int j = 0; j < t->nm; j++)
			print_count(p, NULL, g[j].period);
		break;
	}
}

/* With -t, the string's first character in a name would split it: a dot instead. */
static void key__mask_sep(const struct hists_print *p, char *buf)
{
	if (!p->field_sep || !*p->field_sep)
		return;
	for (char *q = buf; (q = strchr(q, *p->field_sep)); q++)
		*q = '.';
}

/* One line of the table, then the entry's call graph. */
static void table__print_entry(const struct hists_print *p, const struct hists_table *t,
				const struct hist_entry *e, const struct hists *h)
{
	char buf[1024];

	for (int c = 0; c < t->nr_cols; c++) {
		int col = t->cols[c], w = table__col_width(t, c);

		const char *sep = col_sep(p, c);

		if (col >= SORT__MAX) {
			table__print_value(p, t, e, h, c);
			continue;
		}
		hist_entry__key_snprintf(e, col, w, buf, sizeof(buf));
		key__mask_sep(p, buf);
		if (col == SORT_TRACE && t->trace_cut)
			printf("%s%-*.*s", sep, c == t->nr_cols - 1 ? 0 : w, w, buf);
		/* The distro pads a last comm or dso column, no other. */
		else if (c == t->nr_cols - 1 && col != SORT_COMM && col != SORT_DSO)
			printf("%s%s", sep, buf);
		else
			printf("%s%-*s", sep, w, buf);
	}
	putchar('\n');
	if (p->trees && e->cc)
		callchain_root__fprintf(stdout, e->cc, p->cc, h->total_period,
					p->children ? e->period_acc : e->period);
}

/* The entries of @h sorted, as hists__print shows them. */
static struct hist_entry **table__sorted(const struct hists_print *p, struct hists_table *t,
					  struct hists *h, size_t *n)
{
	struct hist_entry **v = hists__entries(h, n);
	struct hist_sort sort = {
		.keys = p->sort, .children = p->children, .depth = p->trees,
		.order = p->cc->order, .nr_gs = t->nm,
	};

	if (!v)
		return NULL;
	if (t->nm && table__group_stats(t, v, *n)) {
		free(v);
		return NULL;
	}
	sort.gs = t->gs;
	hists__sort(&sort, v, *n);
	return v;
}

void hists__print(const struct hists_print *p, struct evsel *evsel)
{
	struct hists *h = &p->hists[evsel->idx];
	struct hists_table t = { .nr_cols = 0 };
	struct hist_entry **v = NULL;
	char *desc = NULL;
	u64 nr = h->nr_samples, total = h->total_period;
	size_t n = 0;

	if (hists__name_unnamed(h, p->strs))
		return;
	if (p->group && evsel->nr_members > 1) {
		t.nm = hists__group_members(p, evsel, h, &t.members);
		if (t.nm < 0)
			return;
		for (int j = 0; j < t.nm; j++) {
			nr += t.members[j]->nr_samples;
			total += t.members[j]->total_period;
		}
		desc = evsel__group_desc(evsel, true);
	}
	table__columns(p, &t);
	v = table__sorted(p, &t, h, &n);
	if (!v)
		goto out;
	/*
	 * The distro formats a tracepoint's output when it compares two
	 * samples, and sizes the column from the outputs formatted by then:
	 * a table of a single sample keeps the header's width, and its one
	 * line is cut to it.
	 */
	t.trace_cut = n == 1 && v[0]->nr == 1 && !t.nm;
	for (int k = 0; k < p->sort->nr_keys; k++)
		t.width[k] = table__key_width(p, &t, p->sort->keys[k], v, n);
	if (!quiet)
		table__print_header(p, &t, evsel, desc, nr, total);
	for (size_t i = 0; i < n; i++) {
		/* Hidden, but their columns were measured: as wide as the distro's. */
		if (hist_entry__percent(p, v[i], h) >= p->percent_limit)
			table__print_entry(p, &t, v[i], h);
	}
	/* Two blank lines end a table, with -q too, as the distro ends it. */
	printf("\n\n");
out:
	free(t.gs);
	free(desc);
	free(t.members);
	free(v);
}
