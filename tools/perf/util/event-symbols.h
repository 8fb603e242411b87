#ifndef PERF_UTIL_EVENT_SYMBOLS_H
#define PERF_UTIL_EVENT_SYMBOLS_H
/*
 * The hardware and software events known by name: what -e parses, what
 * perf list prints, and the name a file's event gets when the file does
 * not say (no EVENT_DESC).
 */
#include <stddef.h>
#include "types.h"

struct event_symbol {
	const char *name;
	const char *alias;	/* NULL when there is none */
	u32 type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	u64 config;
};
extern const struct event_symbol event_symbols[];
extern const size_t event_symbols__nr;

/* The symbol named, or aliased, by the @len bytes at @name; NULL for none. */
const struct event_symbol *event_symbol__find(const char *name, size_t len);
/* The name of the event @type/@config; NULL when it has none here. */
const char *event_symbol__name(u32 type, u64 config);

#endif
