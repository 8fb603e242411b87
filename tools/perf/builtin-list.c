/*
 * perf list [KIND|WORD|SYS:NAME...]: the events this machine offers, by
 * kind, optionally only some kinds (hw, sw, cache, tracepoint), the events
 * whose name has a word in it, or the tracepoints whose system and name
 * match fnmatch(3) globs.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/parse-events.h"
#include "util/event-symbols.h"
#include "util/tracepoint.h"

struct list_state {
	const char *glob;	/* names (or aliases) of symbolic events; NULL: all */
	const char *sys_glob;	/* tracepoints: their system, and */
	const char *tp_glob;	/* their name; NULL: any */
	bool ids;		/* --ids: "sys:name id" per tracepoint, for tests */
	bool raw;		/* --raw-dump: the names on one line, for completion */
	const char *searched;	/* the first word or globs given (not a kind) */
	int printed;
	/* Tracepoints found, "sys:name" then NUL then the id as text. */
	char **tps;
	size_t nr_tps, cap_tps;
};

static bool list__match(const struct list_state *st, const char *name, const char *alias)
{
	if (!st->glob)
		return true;
	return !fnmatch(st->glob, name, 0) || (alias && !fnmatch(st->glob, alias, 0));
}

/* Can this machine count the event?  Try it on ourselves, counting only. */
static bool list__supported(u32 type, u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void list__symbols(struct list_state *st, u32 type, const char *kind)
{
	if (st->ids)
		return;
	for (size_t i = 0; i < event_symbols__nr; i++) {
		const struct event_symbol *sym = &event_symbols[i];
		char name[128];

		if (sym->type != type || !list__match(st, sym->name, sym->alias))
			continue;
		if (sym->alias)
			snprintf(name, sizeof(name), "%s OR %s", sym->name, sym->alias);
		else
			snprintf(name, sizeof(name), "%s", sym->name);
		/* Hardware events this machine cannot count are left out, as the distro leaves them. */
		if (type == PERF_TYPE_HARDWARE && !list__supported(type, sym->config))
			continue;
		if (st->raw) {
			printf("%s ", sym->name);
			continue;
		}
		printf("  %-50s [%s]\n", name, kind);
		st->printed++;
	}
}

/* Keeps a tracepoint that has an id (ftrace's own events have none: they cannot be opened). */
static int list__tracepoint(const char *sys, const char *name, void *arg)
{
	struct list_state *st = arg;
	char full[512], *copy;
	int id;

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	id = tracepoint__id(sys, name);
	if (id < 0)
		return 0;
	if (st->nr_tps == st->cap_tps) {
		size_t cap = st->cap_tps ? st->cap_tps * 2 : 1024;
		char **n = realloc(st->tps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->tps = n;
		st->cap_tps = cap;
	}
	if (asprintf(&copy, "%s%c%d", full, '\0', id) < 0)
		return -ENOMEM;
	st->tps[st->nr_tps++] = copy;
	return 0;
}

static int list__strcmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The tracepoints kept, ordered by their whole "sys:name" as the distro orders them. */
static void list__print_tracepoints(struct list_state *st)
{
	qsort(st->tps, st->nr_tps, sizeof(*st->tps), list__strcmp);
	for (size_t i = 0; i < st->nr_tps; i++) {
		const char *full = st->tps[i];

		if (st->raw)
			printf("%s ", full);
		else if (st->ids)
			printf("%s %s\n", full, full + strlen(full) + 1);
		else
			printf("  %-50s [Tracepoint event]\n", full);
		st->printed++;
		free(st->tps[i]);
	}
	free(st->tps);
	st->tps = NULL;
	st->nr_tps = st->cap_tps = 0;
}

/* The tracepoints of @st's globs, sorted; 1 when tracefs cannot be read. */
static int list__tracepoints(struct list_state *st)
{
	if (!tracepoint__tracefs_dir())
		return 1;
	tracepoint__for_each(st->sys_glob, st->tp_glob, list__tracepoint, st);
	list__print_tracepoints(st);
	return 0;
}

/*
 * One word of the command line, as the distro takes it: a kind (hw, sw,
 * cache, tracepoint) lists that kind; "sys:name" globs list the
 * tracepoints whose system and name match them; any other word lists the
 * events whose name has it in it ("sched": "*sched*"), every kind, the
 * tracepoints by their name alone.  -1 on no memory.
 */
static int list__word(struct list_state *st, const char *w)
{
	char *sep = strchr(w, ':'), *glob;

	st->glob = st->sys_glob = st->tp_glob = NULL;
	if (!strcmp(w, "hw") || !strcmp(w, "hardware")) {
		list__symbols(st, PERF_TYPE_HARDWARE, "Hardware event");
		return 0;
	}
	if (!strcmp(w, "sw") || !strcmp(w, "software")) {
		list__symbols(st, PERF_TYPE_SOFTWARE, "Software event");
		return 0;
	}
	/* No hardware cache events are known here (as on a machine without a PMU). */
	if (!strcmp(w, "cache") || !strcmp(w, "hwcache"))
		return 0;
	if (!strcmp(w, "tracepoint")) {
		if (list__tracepoints(st))
			fprintf(stderr, "No tracepoints listed: %s\n", tracepoint__error());
		return 0;
	}
	if (!st->searched)
		st->searched = w;
	if (sep) {
		glob = strndup(w, (size_t)(sep - w));
		if (!glob)
			return -1;
		st->sys_glob = glob;
		st->tp_glob = sep + 1;
		list__tracepoints(st);
		free(glob);
		return 0;
	}
	if (asprintf(&glob, "*%s*", w) < 0)
		return -1;
	st->glob = st->tp_glob = glob;
	list__symbols(st, PERF_TYPE_HARDWARE, "Hardware event");
	list__symbols(st, PERF_TYPE_SOFTWARE, "Software event");
	list__tracepoints(st);
	free(glob);
	return 0;
}

static const char * const list_usage[] = {
	"perf list [<options>] [hw|sw|cache|tracepoint|WORD|SYS:NAME...]", NULL
};

int cmd_list(int argc, const char **argv)
{
	struct list_state st = { 0 };
	const struct perf_option options[] = {
		OPT_BOOLEAN(0, "ids", &st.ids, "print each matching tracepoint with its id"),
		/* For the shell's completion: hidden from -h, as the distro hides it. */
		{ .type = OPTION_BOOLEAN, .long_name = "raw-dump", .value = &st.raw,
		  .help = "the event names alone, on one line", .flags = PARSE_OPT_HIDDEN },
		OPT_END()
	};

	argc = parse_options(argc, argv, options, list_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	/* The names alone, for a shell's completion: no kinds, no words. */
	if (st.raw) {
		list__symbols(&st, PERF_TYPE_HARDWARE, NULL);
		list__symbols(&st, PERF_TYPE_SOFTWARE, NULL);
		list__tracepoints(&st);
		putchar('\n');
		return 0;
	}
	/* The distro heads the list on a terminal (its pager) only. */
	if (!st.ids && isatty(STDOUT_FILENO))
		printf("\nList of pre-defined events (to be used in -e or -M):\n\n");
	if (argc > 0) {
		for (int i = 0; i < argc; i++) {
			if (list__word(&st, argv[i]) < 0) {
				pr_err("perf list: out of memory\n");
				return 1;
			}
		}
		if (st.searched && !st.printed) {
			fprintf(stderr, "No event matches '%s'.\n", st.searched);
			return 1;
		}
		return 0;
	}
	if (!st.ids) {
		list__symbols(&st, PERF_TYPE_HARDWARE, "Hardware event");
		list__symbols(&st, PERF_TYPE_SOFTWARE, "Software event");
		printf("  %-50s [Raw hardware event descriptor]\n", "rNNN");
	}
	if (list__tracepoints(&st) && !st.ids && !quiet)
		fprintf(stderr, "\nNo tracepoints listed: %s\n", tracepoint__error());
	return 0;
}
