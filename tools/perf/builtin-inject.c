/*
 * perf inject: reads a perf.data file or stream and writes it out again,
 * as a file or a stream (whichever -o names), its records decompressed and
 * in time order.  With -b, a HEADER_BUILD_ID record goes in front of the
 * first sample that falls into each DSO, so whoever reads the output knows
 * which build of each file the samples were taken in, even through a pipe
 * (which has no BUILD_ID feature to carry them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/header.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/symbol.h"

static const char * const inject_usage[] = { "perf inject [<options>]", NULL };

/*
 * The output is in time order, so a round mark may go anywhere; one every
 * so many records keeps a reader's sorting queue short.
 */
#define INJECT_ROUND_EVERY 4096

struct inject {
	struct perf_tool tool;		/* first: the callbacks get &inject.tool */
	struct perf_session *session;
	struct perf_data out;
	struct perf_header_info info;
	struct perf_host_desc host;	/* the input's machine, for the output's header */
	bool build_ids;			/* -b */
	struct perf_feat_buf bids;	/* the HEADER_BUILD_ID records, for a file's BUILD_ID */
	u64 since_round;
};

static int inject__write(struct inject *inj, const void *buf, size_t size)
{
	int err = perf_data__write(&inj->out, buf, size);

	if (err)
		fprintf(stderr, "perf inject: writing %s failed: %s\n", inj->out.path,
			strerror(-err));
	return err;
}

static int inject__record(struct inject *inj, const union perf_event *event)
{
	struct perf_event_header round = {
		.type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(round),
	};
	int err = inject__write(inj, event, event->header.size);

	if (!err && ++inj->since_round == INJECT_ROUND_EVERY) {
		inj->since_round = 0;
		err = inject__write(inj, &round, sizeof(round));
	}
	return err;
}

/*
 * The build id of a DSO the first time a sample falls into it: the one its
 * input named if any, else the file's as it is here.  A DSO without one
 * (anonymous memory, a file gone) gets no record.
 */
static int inject__build_id(struct inject *inj, struct dso *dso)
{
	size_t before = inj->bids.len;
	u8 bid[BUILD_ID_SIZE];
	int len = 0;

	if (dso->hit)
		return 0;
	dso->hit = true;
	if (dso->build_id_len) {
		len = dso->build_id_len;
		memcpy(bid, dso->build_id, len);
	} else if (dso->kernel) {
		len = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));
	} else if (!strcmp(dso->name, "[vdso]")) {
		len = vdso__build_id(bid, sizeof(bid));
	} else if (dso->name[0] == '/') {
		len = filename__read_build_id(dso->name, bid, sizeof(bid));
	}
	if (len <= 0)
		return 0;
	perf_feat_buf__add_build_id(&inj->bids, dso->kernel ? PERF_RECORD_MISC_KERNEL :
				    PERF_RECORD_MISC_USER, bid, len, dso->name);
	if (inj->bids.err)
		return inj->bids.err;
	return inject__write(inj, inj->bids.p + before, inj->bids.len - before);
}

static int inject__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *m)
{
	struct inject *inj = (struct inject *)tool;
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	int err;

	if (inj->build_ids) {
		struct dso *dso = machine__find_dso(m, (int)sample->pid, sample->ip,
						    mode == PERF_RECORD_MISC_KERNEL ||
						    mode == PERF_RECORD_MISC_GUEST_KERNEL);

		if (dso) {
			err = inject__build_id(inj, dso);
			if (err)
				return err;
		}
	}
	if (sample->time && sample->time != (u64)-1) {
		if (!inj->info.first_sample_time || sample->time < inj->info.first_sample_time)
			inj->info.first_sample_time = sample->time;
		if (sample->time > inj->info.last_sample_time)
			inj->info.last_sample_time = sample->time;
	}
	return inject__record(inj, event);
}

static int inject__other(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct machine *m)
{
	return inject__record((struct inject *)tool, event);
}

/*
 * What the input held that this machine cannot say again: its tracing data
 * and build ids.  The command line is this one's, "perf inject ...", as the
 * distro writes it.
 */
static void inject__setup_info(struct inject *inj, int argc, const char **argv)
{
	struct perf_session *s = inj->session;

	/* The machine that recorded, as the input describes it, and its clock. */
	inj->host = (struct perf_host_desc){
		.hostname = s->hostname, .osrelease = s->osrelease, .version = s->version,
		.arch = s->arch, .cpudesc = s->cpudesc, .cpuid = s->cpuid,
		.nr_cpus_avail = s->nr_cpus_avail, .nr_cpus_online = s->nr_cpus_online,
		.total_mem = s->total_mem,
	};
	inj->info.host = &inj->host;
	if (s->has_clock) {
		inj->info.use_clockid = true;
		inj->info.clock_res_ns = s->clockid_ns;
		inj->info.clock = s->clock;
	}
	inj->info.tracing_data = s->tracing_data;
	inj->info.tracing_data_len = s->tracing_data_len;
	inj->info.argc = argc;
	inj->info.argv = argv;
	inj->info.no_buildid_cache = true;
	/* Without -b a file keeps the input's BUILD_ID as it was. */
	for (size_t i = 0; !inj->build_ids && i < s->nr_build_ids; i++)
		perf_feat_buf__add_build_id(&inj->bids, s->build_ids[i].cpumode,
					    s->build_ids[i].bid, s->build_ids[i].len,
					    s->build_ids[i].name);
}

/*
 * The output's header, every record of the input through the tool, and a
 * file's closing header with the build ids found: 0 or the error (-errno),
 * said; -EIO for an input cut short or damaged.
 */
static int inject__copy(struct inject *inj, const char *input, const char *output)
{
	int err = inj->out.is_pipe ?
		  perf_header__write_pipe(&inj->out, inj->session->evlist, &inj->info) :
		  perf_header__write_begin(&inj->out, inj->session->evlist);

	if (!err)
		err = perf_session__process_events(inj->session, &inj->tool);
	if (err && inj->session->errmsg[0])
		fprintf(stderr, "perf inject: %s: %s\n", input, inj->session->errmsg);
	else if (err)
		fprintf(stderr, "perf inject: reading %s failed: %s\n", input, strerror(-err));
	if (!err && !inj->out.is_pipe) {
		inj->info.build_ids = inj->bids.p;
		inj->info.build_ids_len = inj->bids.len;
		inj->info.no_buildid = !inj->bids.len;
		err = perf_header__write_finish(&inj->out, inj->session->evlist, &inj->info);
		if (err)
			fprintf(stderr, "perf inject: cannot finish %s: %s\n", output,
				strerror(-err));
	}
	if (!err)
		err = perf_session__warn_stats(inj->session);
	return err;
}

int cmd_inject(int argc, const char **argv)
{
	struct inject inj = {
		.tool = { .sample = inject__sample, .other = inject__other },
	};
	const char *input = "-", *output = "-";
	const struct perf_option options[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file name (default: standard input)"),
		OPT_STRING('o', "output", &output, "file",
			   "output file name (default: standard output, pipe format)"),
		OPT_BOOLEAN('b', "build-ids", &inj.build_ids,
			    "inject build ids for the DSOs with samples"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END_WORDS("perf inject: unexpected argument '%s'\n")
	};
	/* The whole command line, for the output's cmdline feature. */
	const char **cmdline = calloc((size_t)argc + 1, sizeof(*cmdline));
	int cmdline_argc = argc;
	char msg[256];
	int err;

	if (!cmdline) {
		fprintf(stderr, "perf inject: out of memory\n");
		return cmd_exit_status(-ENOMEM);
	}
	memcpy(cmdline, argv, (size_t)argc * sizeof(*cmdline));
	argc = parse_options(argc, argv, options, inject_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_NO_WORDS);
	if (argc < 0) {
		free(cmdline);
		return parse_options__exit_status(argc);
	}
	if (!strcmp(output, "-") && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "perf inject: standard output is a terminal: give -o FILE, or "
			"a pipe to a reader.\n");
		free(cmdline);
		return PERF_EXIT_USAGE;
	}
	inj.session = perf_session__open(input, &err, msg, sizeof(msg));
	if (!inj.session) {
		perf_session__report_open_error("inject", input, err, msg);
		free(cmdline);
		return cmd_exit_status(-1);
	}
	err = perf_data__create(&inj.out, output);
	if (err) {
		fprintf(stderr, "perf inject: cannot create %s: %s\n", output, strerror(-err));
		goto out_delete;
	}
	inject__setup_info(&inj, cmdline_argc, cmdline);
	err = inject__copy(&inj, input, output);
	perf_data__close(&inj.out);
	/* A file we could not finish must not look like a good one. */
	if (err && !inj.out.is_pipe && unlink(output) == 0)
		fprintf(stderr, "perf inject: removed the incomplete %s\n", output);
out_delete:
	free(inj.bids.p);
	perf_session__delete(inj.session);
	free(cmdline);
	return cmd_exit_status(err);
}
