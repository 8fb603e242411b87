#ifndef PERF_UTIL_SESSION_H
#define PERF_UTIL_SESSION_H
/*
 * Reading a perf.data file: the header is checked strictly (every length
 * before use), attrs become an evlist, features are loaded, and the data
 * section is walked in windows, records put in time order and handed to a
 * tool.  Errors are negative errno; for a corrupt file the reason is in
 * session->errmsg as "file is corrupt: <what> at offset <N>".
 */
#include <stdio.h>
#include "types.h"
#include "event.h"
#include "clockid.h"
#include "evlist.h"
#include "machine.h"
#include "ordered-events.h"
#include "compress.h"
#include "dump-request.h"

struct perf_session;
struct tep_handle;

struct perf_tool {
	int (*sample)(struct perf_tool *tool, union perf_event *event,
		      struct perf_sample *sample, struct evsel *evsel, struct machine *machine);
	/* Side-band records, after the machine has taken them into account. */
	int (*other)(struct perf_tool *tool, union perf_event *event,
		     struct perf_sample *sample, struct machine *machine);
	/*
	 * -D: every record, in the order the distro dumps them: a user record
	 * (ATTR, FINISHED_ROUND, ...) as it is read, a kernel record as it is
	 * delivered.  A user record's @sample is all zeroes; it is NULL for a
	 * record read before a stream's first attr.
	 */
	void (*dump)(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
		     const struct perf_sample *sample, u64 offset);
};

struct perf_session {
	char *path;
	int fd;
	u64 file_size;
	u64 attr_size;
	u64 data_offset, data_size, data_end;
	u64 features[4];		/* adds_features bitmap */
	struct evlist *evlist;
	bool one_layout;		/* every evsel has the same sample_type */

	/* Features. */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem;
	u64 first_sample_time, last_sample_time;	/* SAMPLE_TIME; 0 when absent */
	char *pmu_mappings;		/* PMU_MAPPINGS as "name = type, ..." */
	/* BPF_PROG_INFO and BPF_BTF as read (util/bpf-info.h). */
	void *bpf_prog_info, *bpf_btf;
	size_t bpf_prog_info_len, bpf_btf_len;
	u64 clockid_ns;			/* CLOCKID: the clock's resolution */
	struct clock_ref clock;		/* CLOCK_DATA: sample times to times of day */
	bool has_clock;			/* ... when the file has it (recorded with -k) */
	struct dump_request dump_request;	/* DUMP_REQUEST: what asked for this dump */
	bool has_dump_request;
	struct {			/* COMPRESSED: how the records were compressed */
		u32 version, type;	/* type 1: zstd */
		u32 level, ratio;
		u32 mmap_len;		/* the most one COMPRESSED record expands to */
	} comp;
	struct zstd_reader zstd;	/* the payloads of the COMPRESSED records, in order */
	u64 zstd_off;			/* ... the last one read, at this offset */
	char **cmdline;
	u32 nr_cmdline;
	struct tep_handle *tep;
	void *tracing_data;		/* TRACING_DATA as read, for perf inject */
	size_t tracing_data_len;
	/* BUILD_ID, in file order; user-space ones are also set on their DSOs. */
	struct build_id_entry {
		char *name;
		u16 cpumode;		/* PERF_RECORD_MISC_KERNEL / _USER / ... */
		u8 len;
		u8 bid[20];
	} *build_ids;
	size_t nr_build_ids;

	struct machine machine;
	struct ordered_events oe;
	struct perf_tool *tool;

	void *align_buf;		/* a record at an unaligned offset, copied */
	/* A stream (pipe format): read in order, a record at a time. */
	bool pipe;
	bool pipe_head_done;		/* attrs and features read: the data has begun */
	bool pipe_pending;		/* pipe_buf holds the first record of the data */
	void *pipe_buf;			/* the current record, 64 KiB */
	u64 pipe_off, pipe_rec_off;	/* bytes read; where the current record began */
	/*
	 * The records of the head, as read by perf_session__open, for a -D
	 * dump to show first: each an offset, the number of events known
	 * before it, then the record padded to 8 bytes.
	 */
	char *pipe_head;
	size_t pipe_head_len, pipe_head_cap;
	/* The window of the data section currently mapped. */
	char *win;
	u64 win_off, win_len;

	/* Statistics for the end-of-file warnings. */
	u64 nr_unordered;
	u64 nr_events, nr_samples, nr_lost_chunks, nr_lost, nr_unknown_id;
	u64 nr_by_type[PERF_RECORD_HEADER_MAX];	/* records read, by type (--stats) */
	u64 nr_unknown_type, first_unknown_type_off;	/* records of no known type */
	bool truncated;			/* the data section is cut short */
	bool features_truncated;	/* the file ends inside the feature sections */
	bool damaged;			/* a feature or the tracing data was named damaged */
	u32 nr_damaged_formats;		/* ... so many places in the tracing data */
	/* Where a tracepoint record says its event (common_type), from the formats. */
	u32 tp_type_off, tp_type_size;
	u64 nr_tp_mismatch;		/* tracepoint records that name another event */
	char errmsg[256];
};

/* NULL on failure with *err = -errno and (if it got that far) a message in errbuf. */
struct perf_session *perf_session__open(const char *path, int *err, char *errbuf, size_t len);
void perf_session__delete(struct perf_session *s);
/* Walks the data section; warnings about the file go to stderr. 0 or -errno. */
int perf_session__process_events(struct perf_session *s, struct perf_tool *tool);
void perf_session__print_header(struct perf_session *s, FILE *fp);
/* Its first lines only: where the data and features are (a stream's head, closed). */
void perf_session__print_file_header(struct perf_session *s, FILE *fp);
/*
 * Walks the samples and sets dso->hit on the DSO of each sample's address
 * (the kernel's for kernel samples): what buildid-list --with-hits and
 * perf archive pack.  0 or -errno.
 */
int perf_session__mark_dso_hits(struct perf_session *s);
/* Without -i: "-" (a stream on stdin) when stdin is a pipe, as the distro does; else "perf.data". */
const char *perf_session__default_input(void);
/* "MMAP", "FINISHED_ROUND", ...: the name perf gives a record type; NULL if unknown. */
const char *perf_event__type_name(u32 type);
/* The event a sample id belongs to; NULL if none. */
struct evsel *perf_session__evsel_by_id(struct perf_session *s, u64 id);
/* How many samples a sample that reads counts (PERF_SAMPLE_READ) will give. */
int perf_session__read_samples(const struct perf_session *s, const struct perf_sample *sample);
/*
 * Prints the end-of-file summary (lost, out of order, unknown ids, records
 * of unknown or unsupported types, truncation, damage).  -EIO when the file
 * is truncated or damaged: the command shows what it could read but must
 * exit non-zero.
 */
int perf_session__warn_stats(struct perf_session *s);
/*
 * Whether what was read so far found the file cut short or damaged (each
 * finding was said on stderr where it was made).
 */
bool perf_session__damaged(const struct perf_session *s);

/*
 * session.c's reading of records and attrs, shared with session-pipe.c,
 * where a stream brings them one record at a time.
 */
/* Sets errmsg to "<kind>: <what> at offset <off>"; -EINVAL for the caller to return. */
int perf_session__refuse(struct perf_session *s, const char *kind, u64 off,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define perf_session__corrupt(s, off, ...) \
	perf_session__refuse(s, "file is corrupt", off, __VA_ARGS__)
/*
 * One attr as the file or stream holds it: @buf has @avail bytes for the
 * attr, the @i-th (at @off); *sz says how many are the attr's.  NULL with
 * *err set when it cannot be read.
 */
struct evsel *perf_session__add_attr(struct perf_session *s, const char *buf, u64 avail, u64 i,
				     u64 off, u32 *sz, int *err);
/* @e's @n sample ids, @ids (malloc'd, now @e's), into the evlist's table. */
int perf_session__set_ids(struct perf_session *s, struct evsel *e, u64 *ids, u64 n);
/* Names, tracepoint formats and the sample layout, once the attrs (at @attrs_off) are in. */
int perf_session__setup_evlist(struct perf_session *s, u64 attrs_off);
/* Whether records of @type may have a size that is not a multiple of 8. */
bool perf_event__type_unpadded(u32 type);
/* One record at @offset (of the file, or of the COMPRESSED record it came in). */
int perf_session__process_record(struct perf_session *s, const union perf_event *ev,
				 u64 offset);
/* The records in a COMPRESSED record's @payload, the record being at @off. */
int perf_session__process_compressed(struct perf_session *s, const char *payload, u32 len,
				     u64 off);
/* -D: a user record (no sample fields) as read. */
void perf_session__dump_user(struct perf_session *s, const union perf_event *ev, u64 offset);

/* session-pipe.c: a stream (the pipe format of perf record -o -). */
/* Its head, read up to the first record of the data. */
int perf_session__open_pipe(struct perf_session *s);
/* Its data, to the stream's end: -D dumps the head first. */
int perf_session__process_pipe(struct perf_session *s);

/* header-read.c: features and the tracing data, for session.c. */
int perf_session__read_features(struct perf_session *s);
/* One feature from a stream's FEATURE record (@off: where, for messages). */
int perf_session__read_feature(struct perf_session *s, int feat, const char *data, u64 len,
			       u64 off);
/*
 * The tracing data at @off of the file or stream: -EINVAL when its frame is
 * damaged; a format that is damaged is named and marks the file damaged.
 */
int perf_session__read_tracing_data(struct perf_session *s, const char *buf, u64 size, u64 off);
/* Whether the tracing data has a sound format for each tracepoint; names those it lacks. */
void perf_session__check_tp_formats(struct perf_session *s);
struct trace_seq;
struct tep_record;
/* tep_print_event(..., "%s", TEP_PRINT_INFO) that survives hostile formats. */
void perf_session__print_tp(struct tep_handle *tep, struct trace_seq *seq,
			    struct tep_record *rec);
/* "type: 2, size: 128, ..." as perf evlist -v prints it. */
void perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *attr, const char *sep);
/* perf evlist's lines: each event's name, with @details its attr too. */
void evlist__fprintf_events(FILE *fp, struct evlist *evlist, bool details);
/* Prints why perf @cmd could not open @path (@err, @msg), with what to do about it. */
void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg);

#endif
