/*
 * perf buildid-list: the build ids a perf.data file names (its BUILD_ID
 * feature), one "<id> <dso>" line each, in file order; --with-hits lists
 * the DSOs that samples fell into instead; -k prints the running kernel's
 * id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/session.h"
#include "util/debug.h"
#include "util/parse-options.h"

static const char * const buildid_list_usage[] = { "perf buildid-list [<options>]", NULL };

static int dso__seq_cmp(const void *a, const void *b)
{
	const struct dso *x = *(struct dso * const *)a, *y = *(struct dso * const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The DSOs with samples, in the order the reader met them (the file's
 * BUILD_ID order first), with the id the file gives each -- blank where it
 * gives none (perf record -B, or a DSO it did not list): the id of
 * whatever is at the path now would be a guess.
 */
static int show_hit_dsos(struct perf_session *s)
{
	struct dso_table *t = &s->machine.dsos;
	struct dso **v = calloc(t->by_name.nr ? t->by_name.nr : 1, sizeof(*v)), **d;
	char hex[2 * BUILD_ID_SIZE + 1];
	size_t n = 0, i;

	if (!v)
		return -ENOMEM;
	dso_table__for_each(t, i, d)
		if ((*d)->hit)
			v[n++] = *d;
	qsort(v, n, sizeof(*v), dso__seq_cmp);
	for (i = 0; i < n; i++) {
		build_id__sprintf(v[i]->build_id, v[i]->build_id_len, hex);
		printf("%-40s %s\n", hex, v[i]->name);
	}
	free(v);
	return 0;
}

static int show_kernel(void)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	int len = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));

	if (len <= 0) {
		fprintf(stderr, "perf buildid-list: cannot read the kernel's build id from "
			"/sys/kernel/notes: %s\n", strerror(len ? -len : ENOENT));
		return 1;
	}
	build_id__sprintf(bid, len, hex);
	printf("%s\n", hex);
	return 0;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = perf_session__default_input();
	bool with_hits = false, kernel = false, force = false;
	const struct perf_option options[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	struct perf_session *s;
	char msg[256], hex[2 * BUILD_ID_SIZE + 1];
	int err;

	argc = parse_options(argc, argv, options, buildid_list_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	/* -k reads no file: the other options do not matter. */
	if (kernel)
		return show_kernel();
	s = perf_session__open(input, &err, msg, sizeof(msg));
	if (!s) {
		perf_session__report_open_error("buildid-list", input, err, msg);
		return cmd_exit_status(-1);
	}
	if (with_hits || !s->nr_build_ids) {
		err = perf_session__mark_dso_hits(s);
		if (err) {
			fprintf(stderr, "perf buildid-list: %s: %s\n", input,
				s->errmsg[0] ? s->errmsg : strerror(-err));
			perf_session__delete(s);
			return cmd_exit_status(err);
		}
		err = show_hit_dsos(s);
	} else {
		for (size_t i = 0; i < s->nr_build_ids; i++) {
			const struct build_id_entry *e = &s->build_ids[i];

			build_id__sprintf(e->bid, e->len, hex);
			printf("%s %s\n", hex, e->name);
		}
	}
	perf_session__delete(s);
	return cmd_exit_status(err);
}
