/* perf evlist: the events recorded in a perf.data file (-v: every attr field). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include <traceevent/event-parse.h>
#include "util/session.h"
#include "util/evsel.h"
#include "util/debug.h"
#include "util/parse-options.h"

static const char * const evlist_usage[] = { "perf evlist [<options>]", NULL };

/*
 * As the distro prints them: each name, then after ": " what -F and
 * --trace-fields ask, joined by ", "; -v shows the whole attr instead.  A
 * tip after any list with tracepoints, unless their fields were shown.
 */
static void evlist__fprintf_list(FILE *fp, struct evlist *evlist, bool details, bool freq,
				 bool fields, bool group)
{
	bool tracepoints = false;
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		const char *sep = ": ";

		tracepoints |= evsel__is_tracepoint(e);
		/* -g: a group as one line, "{a,b}" ("name{a,b}"), and nothing more. */
		if (group && !evsel__is_group_leader(e))
			continue;
		if (group && e->nr_members > 1) {
			char *desc = evsel__group_desc(e, false);

			fprintf(fp, "%s\n", desc ? desc : evsel__name(e));
			free(desc);
			continue;
		}
		fprintf(fp, "%s", evsel__name(e));
		if (group) {
			fputc('\n', fp);
			continue;
		}
		if (details) {
			fprintf(fp, ": ");
			perf_event_attr__fprintf(fp, &e->attr, ": ");
			sep = ", ";
		} else if (freq) {
			fprintf(fp, "%s%s=%llu", sep, e->attr.freq ? "sample_freq" : "sample_period",
				(unsigned long long)e->attr.sample_period);
			sep = ", ";
		}
		if (fields && !evsel__is_tracepoint(e)) {
			fprintf(fp, "%s(not a tracepoint)", sep);
		} else if (fields) {
			struct tep_format_field *f = e->tp_format ? e->tp_format->format.fields : NULL;

			fprintf(fp, "%strace_fields: ", sep);
			for (; f; f = f->next)
				fprintf(fp, "%s%s", f->name, f->next ? "," : "");
		}
		fputc('\n', fp);
	}
	if (tracepoints && !fields)
		fprintf(fp, "# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint "
			"events\n");
}

int cmd_evlist(int argc, const char **argv)
{
	const char *input = perf_session__default_input();
	bool details = false, freq = false, fields = false, group = false, force = false;
	const struct perf_option options[] = {
		OPT_STRING('i', "input", &input, "file", "Input file name (default perf.data)"),
		OPT_BOOLEAN('v', "verbose", &details, "Show all event attr details"),
		OPT_BOOLEAN('F', "freq", &freq, "Show the sample frequency (or period)"),
		OPT_BOOLEAN('g', "group", &group, "Show event group information"),
		OPT_BOOLEAN(0, "trace-fields", &fields, "Show tracepoint fields"),
		/* Ownership is not checked here: nothing to force. */
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_END_WORDS("perf evlist: unexpected argument '%s'; the file goes after -i.\n")
	};
	struct perf_session *s;
	char msg[256];
	int err;

	/* Nothing is taken after the options (the distro shows its usage). */
	argc = parse_options(argc, argv, options, evlist_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_NO_WORDS);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (group && (details || freq)) {
		fprintf(stderr, "  Error: --group option is not compatible with other options\n\n");
		parse_options__usage(stderr, evlist_usage, options);
		return PERF_EXIT_USAGE;
	}
	s = perf_session__open(input, &err, msg, sizeof(msg));
	if (!s) {
		perf_session__report_open_error("evlist", input, err, msg);
		return cmd_exit_status(-1);
	}
	evlist__fprintf_list(stdout, s->evlist, details, freq, fields, group);
	/* What the header holds was listed; the warnings above said what is damaged. */
	err = perf_session__damaged(s);
	if (err)
		fprintf(stderr, "perf evlist: %s is damaged or truncated.\n", input);
	perf_session__delete(s);
	return err;
}
