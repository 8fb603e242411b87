#ifndef PERF_UTIL_TRACE_EVENT_INFO_H
#define PERF_UTIL_TRACE_EVENT_INFO_H
#include <stddef.h>

struct evlist;

/*
 * Builds the HEADER_TRACING_DATA payload (trace-cmd's "tracing" block,
 * version 0.6) for the tracepoint evsels of @evlist: the tracefs header
 * formats, the format file of each of those tracepoints grouped by system,
 * an empty kallsyms, printk formats and saved cmdlines.  *@buf is malloc'd.
 * Returns 0, -ENOENT when the evlist has no tracepoints, or -errno.
 */
int tracing_data__get(struct evlist *evlist, void **buf, size_t *size);

#endif
