/*
 * perf bench: workloads that measure the kernel, run by collection and
 * name, printed as the distro prints them.  The sched collection is here:
 * messaging (groups of tasks exchanging messages) and pipe (two tasks
 * passing an int back and forth); the workloads are in util/bench-sched.
 */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include "builtin.h"
#include "util/bench-sched.h"
#include "util/parse-options.h"
#include "perf.h"

/* -f: the full layout, or only the time in seconds. */
static bool bench_simple;

static const char * const bench_usage[] = {
	"perf bench [<common options>] <collection> <benchmark> [<options>]",
	NULL
};

static void bench__print_total(const struct timeval *t)
{
	if (bench_simple) {
		printf("%lu.%03lu\n", (unsigned long)t->tv_sec, (unsigned long)t->tv_usec / 1000);
		return;
	}
	printf("     Total time: %lu.%03lu [sec]\n", (unsigned long)t->tv_sec,
	       (unsigned long)t->tv_usec / 1000);
}

static const char * const messaging_usage[] = {
	"perf bench sched messaging <options>",
	NULL
};

static int bench_sched_messaging(int argc, const char **argv)
{
	struct bench_messaging m = { .groups = 10, .loops = 100 };
	const struct perf_option options[] = {
		OPT_BOOLEAN('p', "pipe", &m.pipe, "Use pipe() instead of socketpair()"),
		OPT_BOOLEAN('t', "thread", &m.thread, "Be multi thread instead of multi process"),
		OPT_UINTEGER('g', "group", &m.groups, "n", "Specify number of groups"),
		OPT_UINTEGER('l', "nr_loops", &m.loops, "n",
			     "Specify the number of loops to run (default: 100)"),
		OPT_END()
	};
	const char *what;
	struct timeval t;
	int err;

	argc = parse_options(argc, argv, options, messaging_usage, 0);
	if (argc < 0)
		return parse_options__exit_status(argc);
	err = bench_messaging__run(&m, &t);
	if (err)
		return cmd_exit_status(err);
	what = m.thread ? "threads" : "processes";
	if (!bench_simple)
		printf("# %d sender and receiver %s per group\n# %u groups == %u %s run\n\n",
		       BENCH_MESSAGING_FDS, what, m.groups,
		       m.groups * 2 * BENCH_MESSAGING_FDS, what);
	bench__print_total(&t);
	return 0;
}

static const char * const pipe_usage[] = {
	"perf bench sched pipe <options>",
	NULL
};

static int bench_sched_pipe(int argc, const char **argv)
{
	struct bench_pipe p = { .loops = 1000000 };
	const struct perf_option options[] = {
		OPT_UINTEGER('l', "loop", &p.loops, "n", "Specify number of loops"),
		OPT_BOOLEAN('T', "threaded", &p.threaded,
			    "Specify threads/process based task setup"),
		OPT_END()
	};
	double usecs, per_op;
	struct timeval t;
	int err;

	argc = parse_options(argc, argv, options, pipe_usage, 0);
	if (argc < 0)
		return parse_options__exit_status(argc);
	err = bench_pipe__run(&p, &t);
	if (err)
		return cmd_exit_status(err);
	if (!bench_simple)
		printf("# Executed %u pipe operations between two %s\n\n", p.loops,
		       p.threaded ? "threads" : "processes");
	bench__print_total(&t);
	if (bench_simple)
		return 0;
	usecs = t.tv_sec * 1e6 + t.tv_usec;
	per_op = p.loops ? usecs / p.loops : 0;
	printf("\n %14lf usecs/op\n %14d ops/sec\n", per_op, per_op > 0 ? (int)(1e6 / per_op) : 0);
	return 0;
}

struct bench {
	const char *name;
	const char *summary;
	int (*fn)(int argc, const char **argv);
};

static const struct bench sched_benches[] = {
	{ "messaging", "Benchmark for scheduling and IPC", bench_sched_messaging },
	{ "pipe", "Benchmark for pipe() between two processes", bench_sched_pipe },
	{ NULL, NULL, NULL },
};

struct collection {
	const char *name;
	const char *summary;
	const char *all_summary;	/* what its "all" runs, in its listing */
	const struct bench *benches;
};

static const struct collection collections[] = {
	{ "sched", "Scheduler and IPC benchmarks", "Run all scheduler benchmarks", sched_benches },
	{ NULL, NULL, NULL, NULL },
};

/* The tasks of a benchmark are named after it ("sched-messaging"), as the distro's. */
static void bench__set_comm(const struct collection *c, const struct bench *b)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "%s-%s", c->name, b->name);
	prctl(PR_SET_NAME, comm);
}

/* "all": every benchmark of @c with its defaults, a blank line after each. */
static int collection__run_all(const struct collection *c)
{
	int ret = 0;

	for (const struct bench *b = c->benches; b->name && !ret; b++) {
		const char *argv[] = { b->name, NULL };

		printf("# Running %s/%s benchmark...\n", c->name, b->name);
		fflush(stdout);
		bench__set_comm(c, b);
		ret = b->fn(1, argv);
		putchar('\n');
	}
	return ret;
}

static void collections__list(void)
{
	printf("Usage: \n\t%s\n\n", bench_usage[0]);
	printf("        # List of all available benchmark collections:\n\n");
	for (const struct collection *c = collections; c->name; c++)
		printf("%14s: %s\n", c->name, c->summary);
	printf("%14s: %s\n\n", "all", "All benchmarks");
}

static void collection__list(const struct collection *c)
{
	printf("\n        # List of available benchmarks for collection '%s':\n\n", c->name);
	for (const struct bench *b = c->benches; b->name; b++)
		printf("%14s: %s\n", b->name, b->summary);
	printf("%14s: %s\n\n", "all", c->all_summary);
}

/* @argv[0] is the benchmark's name; its options follow. */
static int collection__run(const struct collection *c, int argc, const char **argv)
{
	if (!strcmp(argv[0], "all"))
		return collection__run_all(c);
	for (const struct bench *b = c->benches; b->name; b++) {
		if (strcmp(b->name, argv[0]))
			continue;
		/* Before its options are read, as the distro says it (-h too). */
		if (!bench_simple)
			printf("# Running '%s/%s' benchmark:\n", c->name, b->name);
		fflush(stdout);
		bench__set_comm(c, b);
		return b->fn(argc, argv);
	}
	printf("Unknown benchmark: '%s' for collection '%s'\n", argv[0], c->name);
	return 1;
}

int cmd_bench(int argc, const char **argv)
{
	const char *format = "default";
	int repeat = 10;	/* taken for the distro's syntax: no sched benchmark repeats */
	const struct perf_option options[] = {
		OPT_STRING('f', "format", &format, "default|simple",
			   "Specify the output formatting style"),
		OPT_INTEGER('r', "repeat", &repeat, "n",
			    "Specify amount of times to repeat the run"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, bench_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (!argc) {
		collections__list();
		return 0;
	}
	/* The distro says so on stdout and exits 0, running nothing. */
	if (strcmp(format, "default") && strcmp(format, "simple")) {
		printf("Unknown format descriptor: '%s'\n", format);
		return 0;
	}
	bench_simple = !strcmp(format, "simple");
	if (!strcmp(argv[0], "all")) {
		int ret = 0;

		for (const struct collection *c = collections; c->name && !ret; c++)
			ret = collection__run_all(c);
		return ret;
	}
	for (const struct collection *c = collections; c->name; c++) {
		if (strcmp(c->name, argv[0]))
			continue;
		if (argc < 2) {
			collection__list(c);
			return 0;
		}
		return collection__run(c, argc - 1, argv + 1);
	}
	printf("Unknown collection: '%s'\n", argv[0]);
	return 1;
}
