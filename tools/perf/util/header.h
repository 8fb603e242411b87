#ifndef PERF_UTIL_HEADER_H
#define PERF_UTIL_HEADER_H
#include "types.h"
#include "clockid.h"
#include "event.h"

struct evlist;
struct perf_data;
struct dump_request;

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" read as a little-endian u64 */

/* perf.data feature bits (HEADER_*), as in the file format. */
enum {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS = 256,
};

/*
 * Ours: what asked for a dump of --switch-output (struct dump_request),
 * as u32 version (1), kind, joined, cpu; u64 time, threshold; u32 pid,
 * tid; then the event's name and the task's comm as perf.data strings.
 *
 * The top bit of the feature bitmap.  A reader finds the section of a
 * feature by counting the bits set below it, so any bit works for any
 * reader; the distro (6.1, and every upstream version) reads the section
 * table for all HEADER_FEAT_BITS bits but processes and prints only those
 * below its HEADER_LAST_FEATURE, so it skips this one without a word (a
 * pipe would be another matter: a feature record it does not know is
 * warned about, and dumps are never pipes).  Upstream numbers its new
 * features upwards from HEADER_LAST_FEATURE (32 in 6.1): the top bit is the
 * last it would ever reach.
 */
#define HEADER_DUMP_REQUEST	(HEADER_FEAT_BITS - 1)

/*
 * What the features of one file say beyond the evlist.  Zero it before use;
 * perf_header_info__exit() frees what note_event collected.
 */
/*
 * A machine as a file's features describe it (HOSTNAME to TOTAL_MEM): a
 * NULL string or zero count is a feature the file did not have.
 */
struct perf_host_desc {
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem;
};

struct perf_header_info {
	int argc;
	/*
	 * CMDLINE: the command's own arguments as cmd_record got them
	 * (argv[0] = "record"); the path of this perf binary is put in front.
	 */
	const char **argv;
	u64 first_sample_time, last_sample_time;	/* SAMPLE_TIME, written if last != 0 */
	u64 last_time;			/* the latest time of any record noted so far */
	struct evlist *evlist;		/* where note_event finds a sample's time */
	/* -k: CLOCKID (the clock's resolution) and CLOCK_DATA (its reference to wall-clock). */
	bool use_clockid;
	u64 clock_res_ns;
	struct clock_ref clock;
	struct perf_dso_set *dsos;	/* files seen in MMAP/MMAP2 records, for BUILD_ID */
	bool vdso;			/* a process mapped the [vdso] */
	struct dso_hits *hits;		/* which of dsos samples fell into; NULL: all */
	/* From perf_header_info__setup(). */
	bool no_buildid;		/* -B: no BUILD_ID feature, no cache */
	bool no_buildid_cache;		/* -N: BUILD_ID feature, but no cache */
	u32 comp_level, comp_ratio;	/* -z: COMPRESSED, written if comp_level != 0 */
	u32 comp_mmap_len;		/* -z: the COMPRESSED feature's mmap_len (from -m) */
	/* perf inject: what its input held, written instead of what this machine has. */
	const struct perf_host_desc *host;	/* HOSTNAME ... TOTAL_MEM; NULL: this machine */
	const void *tracing_data;	/* TRACING_DATA payload */
	size_t tracing_data_len;
	const void *build_ids;		/* BUILD_ID payload: HEADER_BUILD_ID records */
	size_t build_ids_len;
	/* A dump of --switch-output: what asked for it (DUMP_REQUEST); NULL: not a dump. */
	const struct dump_request *request;
};

/*
 * A growable byte buffer that one feature's payload is built in.  On
 * allocation failure err becomes -ENOMEM and later additions are ignored,
 * so a writer checks err once at the end.
 */
struct perf_feat_buf {
	char *p;
	size_t len, cap;
	int err;
};

void perf_feat_buf__add(struct perf_feat_buf *b, const void *data, size_t len);
/* One HEADER_BUILD_ID record, as BUILD_ID holds them and perf inject -b writes them (pid -1). */
void perf_feat_buf__add_build_id(struct perf_feat_buf *b, u16 cpumode, const u8 *bid, int len,
				 const char *name);

/*
 * Writes the file header (data size still zero, so an unfinished file is
 * detectably incomplete: the distro perf says "data size field is 0") and
 * the attr section -- each evsel's attr with attr.size = sizeof(struct
 * perf_event_attr) and its evsel->ids -- and leaves the file positioned at
 * the start of the data section (data->data_offset; data_size reset to 0).
 * The evlist's ids must be final: they are not rewritten at finish.
 */
int perf_header__write_begin(struct perf_data *data, struct evlist *evlist);
/*
 * Writes the feature sections at data_offset + data_size -- those of the
 * table in util/header-feat.c that have a writer: TRACING_DATA (if the
 * evlist has tracepoints), BUILD_ID (kernel + info's DSOs that have one),
 * HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * CMDLINE, EVENT_DESC, GROUP_DESC, SAMPLE_TIME, CLOCKID and CLOCK_DATA
 * (with -k), COMPRESSED (with -z), DUMP_REQUEST (a dump) -- leaving out any
 * that does not apply or this machine cannot describe, then rewrites the
 * header with the real sizes and feature bits.
 * @info may be NULL.  0 or -errno.
 */
int perf_header__write_finish(struct perf_data *data, struct evlist *evlist,
			      struct perf_header_info *info);
/* One feature's payload as a file holds it; -ENOENT if it does not apply or we do not write it. */
int perf_header__feature(int feat, struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info);
/*
 * The head of a pipe-format stream (util/header-pipe.c), instead of
 * write_begin: the 16-byte pipe header, then attrs, the features known at
 * the start, tracing data and event names as records.  0 or -errno.
 */
int perf_header__write_pipe(struct perf_data *data, struct evlist *evlist,
			    struct perf_header_info *info);
/*
 * Remembers the file of a user-space executable MMAP/MMAP2 record for
 * BUILD_ID (a hash set; anon, [vdso], /dev/, memfd and deleted files are
 * skipped), where samples fell (SAMPLE, FORK), the first and last sample
 * times and the latest time of any record.  Cheap: call it for every
 * record written, whatever its type.
 */
void perf_header_info__note_event(struct perf_header_info *info, const union perf_event *event);
/*
 * After zeroing @info for a new file: takes -B, -N and --buildid-all from
 * @opts, and without --buildid-all starts noting which files samples fall
 * into, so BUILD_ID and the cache hold only those (as upstream's do).
 */
struct record_opts;
void perf_header_info__setup(struct perf_header_info *info, struct evlist *evlist,
			     const struct record_opts *opts);
void perf_header_info__exit(struct perf_header_info *info);
/*
 * Adds the files BUILD_ID names, the vdso and kallsyms to the build-id
 * cache, when a file is finished.  A file already added by this process is
 * recognised by its identity (device, inode, size, mtime) and costs one
 * stat(); the vdso and kallsyms are added once per process.  A cache that
 * cannot be written gives one warning per process; it is not an error for
 * the recording.
 */
/*
 * An MMAP2 record of the flight recorder's tracking stream, as it comes: an
 * executable file goes into the build-id cache now, while the binary mapped
 * can still be read (a deploy may replace it before a dump), and BUILD_ID
 * lists the id it had when it was mapped.
 */
void perf_header_info__note_mapping(struct perf_header_info *info, const union perf_event *event);
void perf_header_info__cache_build_ids(struct perf_header_info *info);

#endif
