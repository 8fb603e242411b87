/*
 * libFuzzer harness over the perf.data reader: each input is written to a
 * memory file and read the way perf script reads it (header, features with
 * the BUILD_ID list, tracing data, records, ordering, samples decoded,
 * the header printed as --header prints it (BPF programs and BTF too),
 * user stacks unwound, addresses resolved through binaries found by build
 * id, tracepoint fields formatted; plain files, pipe-format streams and
 * COMPRESSED records alike), then the head of a stream is written from it
 * as perf inject writes one.  Any crash, hang or sanitizer report is a bug.
 *
 * Tracepoint records also go through the compiled printer (util/tp-print.c),
 * and whatever it prints must be what libtraceevent prints: a difference
 * aborts, so the fuzzer hunts for formats and records the two read apart.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <fcntl.h>
#include "util/session.h"
#include "util/data.h"
#include "util/header.h"
#include "util/debug.h"
#include "util/symbol.h"
#include "util/outbuf.h"
#include "util/tp-print.h"
#include "util/unwind.h"

static struct trace_seq seq;
static struct outbuf ob;
static struct tp_printer *tp;

static void fuzz__compare_tp(struct tep_handle *tep, struct tep_record *rec)
{
	size_t len;

	/* One printer per input: a session's formats are fixed once it is open. */
	if (!tp)
		tp = tp_printer__new(tep);
	if (!tp)
		return;
	ob.len = 0;
	if (tp_printer__print(tp, &ob, rec->data, (u32)rec->size))
		return;
	len = strlen(seq.buffer);
	if (len != ob.len || memcmp(seq.buffer, ob.buf, len)) {
		fprintf(stderr, "tp-print and libtraceevent differ:\n  '%s'\n  '%.*s'\n",
			seq.buffer, (int)ob.len, ob.buf);
		abort();
	}
}

static int fuzz__sample(struct perf_tool *tool, union perf_event *event,
			struct perf_sample *sample, struct evsel *evsel, struct machine *m)
{
	struct thread *t = machine__findnew_thread(m, (int)sample->pid, (int)sample->tid);
	struct addr_location al;

	if (t)
		(void)thread__comm_at(t, sample->time);
	const u64 *chain;
	u64 nr;

	machine__resolve(m, (int)sample->pid, sample->ip, sample->ip >> 63, &al);
	/*
	 * As perf script shows it: with user registers and a stack copy (any
	 * bits at all, once mutated), the user part is unwound through the
	 * binaries the maps name, found by their build ids.
	 */
	chain = unwind__callchain(m, sample, &nr);
	for (u64 i = 0; chain && i < nr; i++)
		machine__resolve(m, (int)sample->pid, chain[i], false, &al);
	if (evsel->tp_format && sample->raw_data) {
		struct tep_record rec = {
			.ts = sample->time, .cpu = (int)sample->cpu,
			.size = (int)sample->raw_size, .data = sample->raw_data,
		};

		trace_seq_reset(&seq);
		perf_session__print_tp(evsel->tp_format->tep, &seq, &rec);
		fuzz__compare_tp(evsel->tp_format->tep, &rec);
	}
	return 0;
}

/*
 * What perf inject does with what was read: the head of a pipe-format
 * stream from the input's events, names and tracing data, to /dev/null.
 */
static void fuzz__write_head(struct perf_session *s)
{
	static int null_fd = -1;
	struct perf_header_info info = {
		.tracing_data = s->tracing_data, .tracing_data_len = s->tracing_data_len,
	};
	struct perf_data out = { .path = (char *)"/dev/null", .is_pipe = true };

	if (null_fd < 0)
		null_fd = open("/dev/null", O_WRONLY);
	out.fd = null_fd;
	perf_header__write_pipe(&out, s->evlist, &info);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static FILE *null_fp;
	struct perf_tool tool = { .sample = fuzz__sample };
	struct perf_session *s;
	char path[64], msg[256];
	int err;

	if (fd < 0) {
		fd = memfd_create("fuzz-perf-data", 0);
		if (fd < 0)
			abort();
		quiet = 1;
		/* Kernel symbols would be loaded once per input: leave them out. */
		symbol__kallsyms_path = "/dev/null";
		trace_seq_init(&seq);
		if (outbuf__init(&ob, -1))
			abort();
		null_fp = fopen("/dev/null", "w");
		if (!null_fp)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = perf_session__open(path, &err, msg, sizeof(msg));
	if (!s)
		return 0;
	perf_session__process_events(s, &tool);
	perf_session__warn_stats(s);
	/* As --header prints it: BPF program lists and their BTF included. */
	perf_session__print_header(s, null_fp);
	fuzz__write_head(s);
	/* The next input has its own formats. */
	tp_printer__delete(tp);
	tp = NULL;
	perf_session__delete(s);
	return 0;
}
