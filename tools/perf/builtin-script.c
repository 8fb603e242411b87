/*
 * perf script: one line per sample of a perf.data file, in the layout the
 * distro perf uses, with tracepoint fields formatted by libtraceevent and
 * callchains as indented "addr sym+off (dso)" lines.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "builtin.h"
#include "util/session.h"
#include "util/debug.h"

enum {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_CPU = 1 << 3, F_TIME = 1 << 4,
	F_EVENT = 1 << 5, F_TRACE = 1 << 6, F_IP = 1 << 7, F_SYM = 1 << 8, F_DSO = 1 << 9,
	F_PERIOD = 1 << 10, F_SYMOFF = 1 << 11,
};

static const struct { const char *name; unsigned bit; } field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "cpu", F_CPU },
	{ "time", F_TIME }, { "event", F_EVENT }, { "trace", F_TRACE }, { "ip", F_IP },
	{ "sym", F_SYM }, { "dso", F_DSO }, { "period", F_PERIOD }, { "symoff", F_SYMOFF },
};

struct script {
	struct perf_tool tool;
	struct perf_session *session;
	unsigned user_fields;	/* from -F; 0: the defaults per event type */
	int name_width;
	struct trace_seq seq;
	FILE *out;
};

void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg);

static unsigned script__fields(struct script *sc, struct evsel *evsel)
{
	u64 t = evsel->attr.sample_type;
	unsigned f = sc->user_fields;

	if (!f) {
		if (evsel__is_tracepoint(evsel))
			f = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE;
		else
			f = F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM |
			    F_SYMOFF | F_DSO;
	}
	/* Fields the event did not record are left out silently. */
	if (!(t & PERF_SAMPLE_CPU))
		f &= ~F_CPU;
	if (!(t & PERF_SAMPLE_TIME))
		f &= ~F_TIME;
	if (!(t & PERF_SAMPLE_PERIOD))
		f &= ~F_PERIOD;
	if (!(t & PERF_SAMPLE_IP))
		f &= ~(F_IP | F_SYM | F_SYMOFF | F_DSO);
	if (!(t & PERF_SAMPLE_RAW))
		f &= ~F_TRACE;
	return f;
}

static void script__print_addr(struct script *sc, unsigned f, struct addr_location *al,
			       u64 ip, bool chain)
{
	FILE *out = sc->out;

	if (f & F_IP)
		fprintf(out, chain ? "%16llx" : " %16llx",
			(unsigned long long)(chain && al->map ? al->addr : ip));
	if (f & F_SYM) {
		if (al->sym && (f & F_SYMOFF))
			fprintf(out, " %s+0x%llx", al->sym->name,
				(unsigned long long)(al->sym_addr - al->sym->start));
		else
			fprintf(out, " %s", al->sym ? al->sym->name : "[unknown]");
	}
	if (f & F_DSO) {
		const char *dso = al->dso ? al->dso->name : "[unknown]";

		if (al->sym && al->sym->module)
			dso = al->sym->module;
		fprintf(out, " (%s)", dso);
	}
}

static int script__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct script *sc = container_of(tool, struct script, tool);
	unsigned f = script__fields(sc, evsel);
	bool chain = (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && (f & F_IP);
	struct thread *thread = machine__findnew_thread(machine, (int)sample->pid,
							(int)sample->tid);
	FILE *out = sc->out;
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct addr_location al;

	if (!thread)
		return -ENOMEM;
	if (f & F_COMM)
		fprintf(out, chain ? "%s " : "%16s ", thread__comm_at(thread, sample->time));
	if ((f & F_PID) && (f & F_TID))
		fprintf(out, "%5d/%-5d ", (int)sample->pid, (int)sample->tid);
	else if (f & F_PID)
		fprintf(out, "%5d ", (int)sample->pid);
	else if (f & F_TID)
		fprintf(out, "%5d ", (int)sample->tid);
	if (f & F_CPU)
		fprintf(out, "[%03d] ", (int)sample->cpu);
	if (f & F_TIME)
		fprintf(out, "%5llu.%06llu: ", (unsigned long long)(sample->time / 1000000000),
			(unsigned long long)(sample->time % 1000000000 / 1000));
	if (f & F_PERIOD)
		fprintf(out, "%10llu ", (unsigned long long)sample->period);
	if (f & F_EVENT)
		fprintf(out, "%*s: ", sc->name_width, evsel__name(evsel));
	if ((f & F_TRACE) && evsel->tp_format) {
		struct tep_record rec = {
			.ts = sample->time, .cpu = (int)sample->cpu,
			.size = (int)sample->raw_size, .data = sample->raw_data,
		};

		trace_seq_reset(&sc->seq);
		perf_session__print_tp(sc->session->tep, &sc->seq, &rec);
		fputs(sc->seq.buffer, out);
	}
	if (chain) {
		bool kmode = kernel;

		for (u64 i = 0; i < sample->nr_callchain; i++) {
			u64 ip = sample->callchain[i];

			if (ip >= (u64)PERF_CONTEXT_MAX) {
				kmode = ip == (u64)PERF_CONTEXT_KERNEL ||
					ip == (u64)PERF_CONTEXT_GUEST_KERNEL;
				continue;
			}
			machine__resolve(machine, (int)sample->pid, ip, kmode, &al);
			fputs("\n\t", out);
			script__print_addr(sc, f, &al, ip, true);
		}
		fputs("\n\n", out);
		return 0;
	}
	if (f & (F_IP | F_SYM | F_DSO)) {
		machine__resolve(machine, (int)sample->pid, sample->ip, kernel, &al);
		script__print_addr(sc, f, &al, sample->ip, false);
	}
	fputc('\n', out);
	return 0;
}

static int script__parse_fields(struct script *sc, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == ARRAY_SIZE(field_names)) {
			fprintf(stderr, "perf script: unknown field '%s' in -F.\n"
				"Known fields: comm,tid,pid,cpu,time,event,trace,ip,sym,symoff,dso,"
				"period\n", tok);
			err = -EINVAL;
			break;
		}
		sc->user_fields |= field_names[i].bit;
	}
	free(copy);
	return err;
}

static const char script_usage[] = "perf script [<options>]";
static const char * const script_options[] = {
	"-i, --input <file>    input file name (default perf.data)",
	"-F, --fields <str>    comma separated output fields: comm,tid,pid,cpu,time,event,",
	"                      trace,ip,sym,symoff,dso,period",
	"    --header          show the data header",
	"-q, --quiet           do not show warnings",
	NULL
};

int cmd_script(int argc, const char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "header", no_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct script sc = { .tool = { .sample = script__sample } };
	const char *input = "perf.data";
	bool header = false;
	static char outbuf[1 << 20];
	struct evsel *e;
	char msg[256];
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+i:F:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (script__parse_fields(&sc, optarg))
				return 129;
			break;
		case 'H':
			header = true;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage_with_options(script_usage, script_options);
			return 0;
		default:
			usage_with_options(script_usage, script_options);
			return 129;
		}
	}
	sc.session = perf_session__open(input, &err, msg, sizeof(msg));
	if (!sc.session) {
		perf_session__report_open_error("script", input, err, msg);
		return 1;
	}
	sc.out = stdout;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	trace_seq_init(&sc.seq);
	evlist__for_each_entry(sc.session->evlist, e) {
		int len = (int)strlen(evsel__name(e));

		if (len > sc.name_width)
			sc.name_width = len;
	}
	if (header)
		perf_session__print_header(sc.session, stdout);
	err = perf_session__process_events(sc.session, &sc.tool);
	fflush(stdout);
	if (err) {
		if (sc.session->errmsg[0])
			fprintf(stderr, "perf script: %s: %s\n", input, sc.session->errmsg);
		else
			fprintf(stderr, "perf script: reading %s failed: %s\n", input,
				strerror(-err));
	} else {
		perf_session__warn_stats(sc.session);
	}
	trace_seq_destroy(&sc.seq);
	perf_session__delete(sc.session);
	return err ? 1 : 0;
}
