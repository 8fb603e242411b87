#ifndef PERF_UTIL_DUMP_REQUEST_H
#define PERF_UTIL_DUMP_REQUEST_H
/*
 * What asked for a dump of `perf record --switch-output`: kept in the
 * dump's header (the DUMP_REQUEST feature, see header.h), named in the
 * recorder's dump message and in `perf report --header-only`.
 */
#include <stddef.h>
#include "types.h"

enum dump_request_kind {
	DUMP_REQUEST_NONE,
	DUMP_REQUEST_SIGNAL,	/* SIGUSR2 */
	DUMP_REQUEST_CONTROL,	/* 'snapshot' on the --control channel */
	DUMP_REQUEST_SIZE,	/* --switch-output=SIZE reached */
	DUMP_REQUEST_TIME,	/* --switch-output=TIME passed */
	DUMP_REQUEST_EXIT,	/* the end of recording */
	DUMP_REQUEST_TRIGGER,	/* a sample of a --switch-output-event */
	DUMP_REQUEST__MAX,
};

#define DUMP_REQUEST_EVENT_MAX	128
#define DUMP_REQUEST_COMM_MAX	16

struct dump_request {
	u32 kind;
	u32 joined;		/* later requests the same dump served */
	u64 threshold;		/* SIZE: bytes; TIME: seconds */
	/* TRIGGER: its sample (the first one, that opened the dump's window). */
	u64 time;		/* the sample's record time */
	u32 cpu, pid, tid;
	char event[DUMP_REQUEST_EVENT_MAX];
	char comm[DUMP_REQUEST_COMM_MAX];	/* "" if unknown */
};

/*
 * The request in words, e.g. "signal SIGUSR2" or "trigger
 * syscalls:sys_exit_read at 123.456789 on CPU 1 by cat 4242/4242", as the
 * dump message and --header-only print it.  Returns @buf.
 */
char *dump_request__format(const struct dump_request *r, char *buf, size_t size);

#include <stdbool.h>
#include <stdio.h>

struct clock_ref;
struct evlist;
struct flight_recorder;
struct flight_recorder_dump;
union perf_event;
/*
 * Fills @r's TRIGGER fields from @event, a sample of one of @triggers:
 * its event's name, time, CPU, pid/tid, and the task's name from the
 * process table of @fr (NULL: none) or else from /proc.
 */
void dump_request__describe(struct dump_request *r, struct evlist *triggers,
			    const union perf_event *event, const struct flight_recorder *fr);

/*
 * The line on @f that says the dump @name served @r: the distro's
 * "[ perf record: Dump NAME ]" without a process table (@d NULL; the
 * request then only with -v), else with what the dump covers: its
 * @samples, their first and last record times as perf script prints them
 * (with @tod, the -k clock's reference, also as times of day) and the tasks
 * the table described.
 */
void dump_request__print_served(FILE *f, const struct dump_request *r, const char *name,
				const struct flight_recorder_dump *d, u64 samples,
				const struct clock_ref *tod);
/*
 * A request's dump is taken --switch-output-delay (@delay_ms) after it;
 * when the buffers of the dump @name held only the last @held_ns, what led
 * to the request was overwritten by then.  Says so on @f, and returns
 * true, in that case only.
 */
bool dump_request__warn_delay(FILE *f, const char *name, u64 delay_ms, u64 held_ns);

#endif
