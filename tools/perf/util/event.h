#ifndef PERF_UTIL_EVENT_H
#define PERF_UTIL_EVENT_H
/*
 * Layouts of the records the kernel writes into a ring buffer and of the
 * extra records perf.data files carry.  Every record starts with a
 * struct perf_event_header; when the event has sample_id_all set, non-sample
 * records end with the sample-id trailer (see perf_event__sample_id_size()).
 */
#include <linux/perf_event.h>
#include <limits.h>
#include "types.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Records that only exist in perf.data files, never in a ring buffer. */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START	= 64,
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,	/* its data follows, outside header.size */
	PERF_RECORD_AUXTRACE_ERROR	= 72,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_STAT_CONFIG		= 75,
	PERF_RECORD_STAT		= 76,
	PERF_RECORD_STAT_ROUND		= 77,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
	PERF_RECORD_HEADER_MAX
};

struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[PATH_MAX];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	u32 maj, min;
	u64 ino, ino_generation;
	u32 prot, flags;
	char filename[PATH_MAX];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[16];
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT share this layout. */
struct perf_record_fork {
	struct perf_event_header header;
	u32 pid, ppid;
	u32 tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id;
	u64 lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

struct perf_record_throttle {
	struct perf_event_header header;
	u64 time, id, stream_id;
};

struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;
	u64 id[];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	u64 time_shift, time_mult, time_zero;
	u64 time_cycles, time_mask;
	u8 cap_user_time_zero, cap_user_time_short, reserved[6];
};

/* JITed kernel code registered or unregistered (BPF programs, trampolines). */
struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type;
	u16 flags;		/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	char name[];		/* NUL-terminated, padded to 8 bytes; the sample id follows */
};

/* A BPF program loaded or unloaded (PERF_BPF_EVENT_PROG_LOAD/UNLOAD). */
struct perf_record_bpf_event {
	struct perf_event_header header;
	u16 type;
	u16 flags;
	u32 id;
	u8 tag[8];		/* BPF_TAG_SIZE */
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_bpf_event bpf;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_header_attr attr;
	struct perf_record_time_conv time_conv;
};

/* The decoded fields of a sample (or of a non-sample record's trailer). */
struct perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 id;
	u64 stream_id;
	u64 period;
	u32 cpu;
	u32 raw_size;
	void *raw_data;
	u64 nr_callchain;
	u64 *callchain;
	u64 user_regs_abi, user_regs_mask;
	u64 *user_regs;
	u64 user_stack_size;
	void *user_stack;
	u64 data_src;		/* PERF_SAMPLE_DATA_SRC */
	u64 weight;		/* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's 32-bit weight */
	u16 ins_lat, p_stage_cyc;	/* ... and its two 16-bit latencies */
	u64 transaction, phys_addr, data_page_size, code_page_size;
	u64 intr_regs_abi;	/* PERF_SAMPLE_REGS_INTR, the mask is the attr's */
	u64 *intr_regs;
	/*
	 * PERF_SAMPLE_READ: read_nr counts (one without PERF_FORMAT_GROUP),
	 * each read_stride words from read_values: the count, its id
	 * read_id_off words on (with PERF_FORMAT_ID), ...
	 */
	const u64 *read_values;
	u64 read_nr;
	u32 read_stride, read_id_off;
	u16 misc;
};

/*
 * Handler that consumes one whole record (header.size bytes at @event).
 * Returns 0 or a negative errno.
 */
typedef int (*perf_event__handler_t)(void *ctx, union perf_event *event);

#endif
