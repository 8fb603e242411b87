#ifndef PERF_UTIL_TP_PRINT_H
#define PERF_UTIL_TP_PRINT_H
/*
 * A fast path for printing tracepoint fields the way
 * tep_print_event(tep, s, record, "%s", TEP_PRINT_INFO) does.
 *
 * libtraceevent interprets an event's print_fmt for every record: it walks
 * the parsed argument tree, builds a printf format per conversion and goes
 * through vsnprintf into a trace_seq.  Most formats are simple, literal text
 * and plain integer conversions of fixed-size fields, or a string from
 * __get_str(), so each event's print_fmt is compiled once, on first use,
 * into a short list of ops that write straight into an outbuf.
 *
 * Anything the compiler does not understand, and any record whose fields
 * do not lie inside it, is left to libtraceevent: tp_printer__print() then
 * returns -EOPNOTSUPP before it has written anything, and the caller prints
 * the record the slow way.  The output of both paths is byte for byte the
 * same (tests/tp-print.c checks that on every format tracefs has).
 */
#include "types.h"

struct outbuf;
struct tep_handle;
struct tp_printer;

struct tp_printer *tp_printer__new(struct tep_handle *tep);
void tp_printer__delete(struct tp_printer *tp);

/*
 * Prints the fields of one raw tracepoint record (PERF_SAMPLE_RAW data) to
 * @ob.  0 when printed; -EOPNOTSUPP when the caller must use libtraceevent
 * (nothing was written then); -ENOMEM.
 */
int tp_printer__print(struct tp_printer *tp, struct outbuf *ob, const void *data, u32 size);

#endif
