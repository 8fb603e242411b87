#ifndef PERF_UTIL_SCRIPT_FIELDS_H
#define PERF_UTIL_SCRIPT_FIELDS_H
/*
 * perf script -F: the fields each event's lines show.  One list for every
 * event, lists per event type ("trace:comm,tid"), or +field/-field edits
 * of the defaults, read as the distro reads them; checked once the file
 * says what its samples hold.
 */
#include "types.h"
#include "event.h"
#include "evsel.h"

struct perf_session;
struct perf_option;

/* The fields, as bits of a set. */
enum script_field {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_CPU = 1 << 3, F_TIME = 1 << 4,
	F_EVENT = 1 << 5, F_TRACE = 1 << 6, F_IP = 1 << 7, F_SYM = 1 << 8, F_DSO = 1 << 9,
	F_PERIOD = 1 << 10, F_SYMOFF = 1 << 11, F_ADDR = 1 << 12,
	/* Indentation by call depth, which only branch traces have: prints nothing here. */
	F_CALLINDENT = 1 << 13,
	/* The source line of the address, on a line of its own below it. */
	F_SRCLINE = 1 << 14,
	F_TOD = 1 << 15,	/* the time of day, from CLOCK_DATA (perf record -k) */
	/* Sample fields of their own, printed as the distro prints them. */
	F_WEIGHT = 1 << 16, F_INS_LAT = 1 << 17, F_IREGS = 1 << 18, F_UREGS = 1 << 19,
	F_PHYS_ADDR = 1 << 20, F_DATA_PAGE_SIZE = 1 << 21, F_CODE_PAGE_SIZE = 1 << 22,
	/* What a BPF program wrote into a bpf-output event's sample (offcpu-time's: nothing). */
	F_BPF_OUTPUT = 1 << 23,
};

struct script_fields {
	/*
	 * A field named for every event that an event did not record is an
	 * error; one named for a type is left out quietly (both as the
	 * distro does).
	 */
	unsigned all_fields, type_fields[PERF_TYPE_BREAKPOINT + 1];
	bool all_set, type_set[PERF_TYPE_BREAKPOINT + 1];
	unsigned add_fields, del_fields;
	/* "type:+field,-field": edits of that type's fields, which it need not have. */
	unsigned type_add[PERF_TYPE_BREAKPOINT + 1], type_del[PERF_TYPE_BREAKPOINT + 1];
	bool hide_chain;	/* -G */
};

/* One -F argument added to @sf: 0, or -EINVAL (said) or -ENOMEM. */
int script_fields__parse(struct script_fields *sf, const char *arg);
/* -F as an option of a util/parse-options table, its value the struct script_fields. */
int script_fields__opt(const struct perf_option *opt, const char *arg, int unset);
/* The fields @evsel's lines show (@pipe: the file is a stream, which adds some). */
unsigned script_fields__get(const struct script_fields *sf, struct evsel *evsel, bool pipe);
/* The "cannot print" errors before any output, as the distro gives them: 0 or -EINVAL. */
int script_fields__check(const struct script_fields *sf, struct perf_session *s);

/* The sample's addr is an address of the task's (page faults), worth naming. */
static inline bool evsel__addr_is_code_or_data(const struct evsel *evsel)
{
	u64 c = evsel->attr.config;

	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (c == PERF_COUNT_SW_PAGE_FAULTS || c == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		c == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* The bpf-output software event, which a BPF program writes its samples into. */
static inline bool evsel__is_bpf_output(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       evsel->attr.config == PERF_COUNT_SW_BPF_OUTPUT;
}

#endif
