#ifndef PERF_UTIL_RAW_DUMP_H
#define PERF_UTIL_RAW_DUMP_H
/*
 * -D/--dump-raw-trace of perf report and perf script: every record of a
 * file as its bytes and as a decoded line, in the layout the distro's perf
 * prints.  A command's perf_tool dump callback calls raw_dump__record()
 * with what the session hands it: a user record (ATTR, FINISHED_ROUND, ...)
 * as it is read, and a kernel record (samples, MMAP, COMM, ...) as it is
 * delivered, that is in time order.  The distro dumps at the same two
 * points, so the two dumps list records in the same order.
 */
#include <stdbool.h>
#include "types.h"
#include "event.h"

struct outbuf;
struct perf_session;

struct raw_dump {
	struct outbuf *ob;	/* where the dump goes (perf script interleaves its own lines) */
	struct outbuf *own;	/* ob when raw_dump__init_stdout() made it */
	/*
	 * For perf script, not perf report.  The distro's two handle different
	 * record types and follow a dump of one they have no handler for with
	 * ": unhandled!": report does not handle THREAD_MAP, CPU_MAP, THROTTLE
	 * and UNTHROTTLE records, script does.
	 */
	bool script;
};

/* The dump to standard output through a buffer of its own (stdio is flushed first). */
int raw_dump__init_stdout(struct raw_dump *d);
/* Writes out what that buffer holds and frees it; 0 or the first write error (-errno). */
int raw_dump__exit(struct raw_dump *d);

/*
 * One record: "0x<offset>@<file> [0x<size>]: event: <type>", its bytes in
 * hex and ASCII, and its fields.  For a user record @sample is all zeroes;
 * NULL for one read before any event was known (the first ATTR of a stream).
 * A sample is followed by its thread and the DSO of its ip, looked up in
 * the session's machine as it stands.
 */
void raw_dump__record(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
		      const struct perf_sample *sample, u64 offset);

/* The x86-64 name of bit @bit of a registers mask (sample_regs_user/intr). */
const char *perf_reg_name(unsigned int bit);
/* A page size as the distro names it: "N/A" for none, else 4K, 2M, 1G... */
const char *page_size_name(u64 size, char *buf, size_t len);

#endif
