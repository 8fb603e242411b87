#ifndef PERF_UTIL_TRACE_EVENT_INFO_H
#define PERF_UTIL_TRACE_EVENT_INFO_H
#include <stddef.h>

struct evlist;
struct perf_feat_buf;

/*
 * Builds the HEADER_TRACING_DATA payload (trace-cmd's "tracing" block,
 * version 0.6) for the tracepoint evsels of @evlist: the tracefs header
 * formats, the format file of each of those tracepoints grouped by system,
 * an empty kallsyms, printk formats and saved cmdlines -- appended to @b.
 * Returns 0, -ENOENT when the evlist has no tracepoints (nothing added), or
 * -errno (what was added is dropped again).
 */
int tracing_data__write(struct perf_feat_buf *b, struct evlist *evlist);

#endif
