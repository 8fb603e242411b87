#ifndef PERF_UTIL_EVSEL_H
#define PERF_UTIL_EVSEL_H
#include <sys/types.h>
#include <linux/perf_event.h>
#include "types.h"
#include "list.h"
#include "event.h"
#include "../perf.h"

struct evlist;
struct record_opts;
struct cpu_map;
struct thread_map;
struct tep_event;
struct tep_format_field;
struct cgroup;

/* Per-event settings written inside /.../ in an -e string. */
enum evsel_term_type {
	EVSEL__CONFIG_TERM_PERIOD,	/* period=N */
	EVSEL__CONFIG_TERM_FREQ,	/* freq=N */
	EVSEL__CONFIG_TERM_CALLGRAPH,	/* call-graph=no|fp|dwarf[,size] (val.str) */
	EVSEL__CONFIG_TERM_STACK_USER,	/* stack-size=N */
	EVSEL__CONFIG_TERM_MAX_STACK,	/* max-stack=N */
	EVSEL__CONFIG_TERM_NAME,	/* name=STR (val.str) */
	EVSEL__CONFIG_TERM_INHERIT,	/* inherit / no-inherit (val.val = 1 / 0) */
	EVSEL__CONFIG_TERM_OVERWRITE,	/* overwrite / no-overwrite (val.val = 1 / 0) */
	EVSEL__CONFIG_TERM_CONFIG,	/* config=N (applied to attr at parse time too) */
	EVSEL__CONFIG_TERM_CONFIG1,	/* config1=N */
	EVSEL__CONFIG_TERM_CONFIG2,	/* config2=N */
	EVSEL__CONFIG_TERM_MAX
};

struct evsel_config_term {
	struct list_head list;
	enum evsel_term_type type;
	union {
		u64 val;
		char *str;
	} val;
};

struct evsel {
	struct list_head node;		/* in evlist->entries */
	struct evlist *evlist;
	struct perf_event_attr attr;
	char *name;			/* as the user sees it: "cpu-clock", "sched:sched_switch" */
	int idx;			/* position in the evlist, from 0 */

	struct list_head config_terms;	/* struct evsel_config_term, in parse order */

	struct evsel *leader;		/* itself unless in a {group} */
	int nr_members;			/* leader only: size of its group */
	char *group_name;		/* leader only: "name" of -e 'name{a,b}', or NULL */
	bool sample_read;		/* :S: its samples read the counts (of its group) */
	bool forced_leader;		/* leader of all events for report --group, no {group} recorded */

	char *tp_sys, *tp_name;		/* tracepoints only */
	struct tep_event *tp_format;	/* tracepoints only, once formats are loaded */
	bool tp_checked;		/* ... and a reader checked the file's format of it */
	struct {			/* evsel__tp_field's answers: name (by pointer) to field */
		const char *name;
		struct tep_format_field *field;
	} tp_fields[8];
	unsigned int nr_tp_fields;

	/* Which ring buffer the event goes to: backward, overwritable (aux evlist). */
	bool overwrite;
	/* Carries mmap/comm/task tracking bits for the whole session. */
	bool tracking;
	/*
	 * --switch-output-event: each sample asks for a dump.  Lives in the
	 * recorder's trigger evlist (perf_evlist__new_sideband); its samples go
	 * into the file (the dump they asked for) after the recorded events'.
	 */
	bool trigger;
	/* -G: counted only while a task of this cgroup runs (util/cgroup), or NULL. */
	struct cgroup *cgrp;
	/* The tracepoint filter (--filter, --exclude-perf), set after open. */
	char *filter;
	/* "cycles" fell back to cpu-clock, etc. */
	bool fallen_back;
	/* Set by parse_events when the user gave :p..:ppp etc.; informational. */
	char *modifiers;

	/* After open: fd[cpu_idx * nr_threads + thread_idx], and the kernel's ids. */
	int nr_cpus, nr_threads;
	int *fds;
	/*
	 * Swap mode (util/flight-recorder.c): the twin of each fd, the same
	 * event in the spare buffer's group, laid out as fds (-1: none); NULL
	 * otherwise.  Enabled, disabled, filtered and closed with fds.
	 */
	int *twin_fds;
	u64 *ids;			/* one per fd, from PERF_EVENT_IOC_ID */
	int nr_ids;
	int id_pos;			/* u64 index of the id in a sample, -1 if none */
	int is_pos;			/* u64 index of the id from the end of a trailer */
};

/*
 * Where attr.sample_type puts the sample id: *@id_pos u64 words after a
 * sample's header, *@is_pos words from the end of another record's
 * trailer; both -1 when there is no id.
 */
void evsel__id_pos(const struct evsel *evsel, int *id_pos, int *is_pos);

#define FD(evsel, cpu, thread) ((evsel)->fds[(cpu) * (evsel)->nr_threads + (thread)])

struct evsel *evsel__new(const struct perf_event_attr *attr);
void evsel__delete(struct evsel *evsel);
const char *evsel__name(struct evsel *evsel);

static inline bool evsel__is_group_leader(const struct evsel *evsel)
{
	return evsel->leader == evsel;
}

/*
 * A group as the distro names it, in a new string: "name{a,b}" ("{a,b}"
 * without a name), or with @spaced, as report's sample line has it,
 * "name { a, b }" ("anon group { a, b }").
 */
char *evsel__group_desc(const struct evsel *leader, bool spaced);
int evsel__set_name(struct evsel *evsel, const char *name);
/* Appends a term; @str is copied when the term carries a string. */
int evsel__add_config_term(struct evsel *evsel, enum evsel_term_type type, u64 val,
			   const char *str);
struct evsel_config_term *evsel__get_config_term(struct evsel *evsel,
						 enum evsel_term_type type);
bool evsel__is_tracepoint(const struct evsel *evsel);
/* The software dummy event, which counts nothing and samples nothing. */
bool evsel__is_dummy(const struct evsel *evsel);
/* Adds @expr to the event's filter: "(what is there) && (@expr)". */
int evsel__append_filter(struct evsel *evsel, const char *expr);
/* PERF_EVENT_IOC_SET_FILTER on every fd; -errno if the kernel refuses it. */
int evsel__apply_filter(struct evsel *evsel);
/* PERF_EVENT_IOC_ENABLE / _DISABLE on every fd. */
int evsel__enable(struct evsel *evsel, bool on);

/* Fills attr from the options and then the event's own terms (builtin-record). */
void evsel__config(struct evsel *evsel, const struct record_opts *opts);
/* "no", "fp", "dwarf" or "dwarf,SIZE" (-g / --call-graph / call-graph=). */
int callchain__parse(const char *s, enum callchain_mode *mode, u32 *stack_size);
/*
 * Opens one fd per (cpu, thread) and reads each one's id.  On failure every
 * fd opened so far is closed and -errno returned.
 */
int evsel__open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads);
/*
 * One more event of @evsel's attr on CPU @cpu for task @pid (its cgroup's
 * if it follows one), in @group_fd's group (-1: none): its fd, with its
 * kernel id in *@id, or -errno.  Not added to the evsel's fds.
 */
int evsel__open_one(struct evsel *evsel, pid_t pid, int cpu, int group_fd, u64 *id);
void evsel__close(struct evsel *evsel);
enum evsel_fallback {
	EVSEL_FALLBACK_NONE,		/* nothing weaker to try: report @err */
	EVSEL_FALLBACK_CPU_CLOCK,	/* cycles without a PMU -> cpu-clock */
	EVSEL_FALLBACK_USER_ONLY,	/* paranoid > 1, not root: exclude kernel and hv */
	EVSEL_FALLBACK_PRECISE,		/* precise_ip lowered by one */
	EVSEL_FALLBACK_ATTR,		/* an attr field the kernel is too old for, dropped */
};
/*
 * After an open failed with @err: if a weaker form of the event may work,
 * changes the evsel, describes the change in @msg and says which it was.
 * Only cycles becomes cpu-clock; other hardware and raw events do not.
 */
enum evsel_fallback evsel__fallback(struct evsel *evsel, int err, char *msg, size_t size);
/* /proc/sys/kernel/perf_event_paranoid (2 if unreadable). */
int perf_event_paranoid(void);
/* One-line reason and advice for an open failure of this evsel. */
void evsel__open_strerror(struct evsel *evsel, int err, char *msg, size_t size);
/* Size in bytes of the sample-id trailer for this sample_type. */
/* The fields of the trailer, which is laid out in this order at the record's end. */
#define SAMPLE_ID_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
size_t perf_event__sample_id_size(u64 sample_type);
/* Decodes a record (sample or trailer) laid out for @sample_type/@read_format. */
int evsel__parse_sample(const struct perf_event_attr *attr, const union perf_event *event,
			struct perf_sample *sample);
/* Only the time of such a record: (u64)-1 if it has none, -EFAULT if too short. */
int perf_event__time(const struct perf_event_attr *attr, const union perf_event *event,
		     u64 *time);

/*
 * The field @name of a tracepoint's format, NULL when it has none or the
 * event is not a tracepoint.  @name is kept by pointer (pass a literal or
 * a string that outlives @e): readers ask for the same few fields on
 * every sample, and a name is looked up in the format once.
 */
struct tep_format_field *evsel__tp_field(struct evsel *e, const char *name);

#endif
