#ifndef PERF_UTIL_HIST_PRINT_H
#define PERF_UTIL_HIST_PRINT_H
/*
 * perf report --stdio's tables: one event's (or group's) entries as the
 * distro lays them out -- the header lines, the columns and their widths,
 * a line per entry in sorted order, each with its call graph.
 */
#include "hist.h"
#include "sort.h"

struct evsel;
struct evlist;

/* What the tables show, as the options and the file decided it. */
struct hists_print {
	const struct sort_keys *sort;	/* -s, -F */
	const struct callchain_param *cc;	/* -g */
	bool children;		/* the Children column, and entries by it */
	bool trees;		/* call graphs under the lines */
	bool show_nr;		/* -n: a Samples column */
	bool show_period;	/* --show-total-period: a Period column */
	bool group;		/* members of a group shown with their leader */
	double percent_limit;	/* lines below it are hidden */
	const char *field_sep;	/* -t: the columns joined by it, not aligned by blanks */
	const char *time_arg;	/* --time, as given, named in the header */
	struct hists *hists;	/* the entries of each event, by its idx */
	struct evlist *evlist;
	struct strset *strs;	/* where the names of entries made unnamed go */
};

/* The table of @evsel (with --group, its members' too), on stdout. */
void hists__print(const struct hists_print *p, struct evsel *evsel);

#endif
