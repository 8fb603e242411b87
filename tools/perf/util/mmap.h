#ifndef PERF_UTIL_MMAP_H
#define PERF_UTIL_MMAP_H
/*
 * One kernel ring buffer: a control page (struct perf_event_mmap_page)
 * followed by a power-of-two number of data pages.
 *
 * Forward buffers (PROT_READ|PROT_WRITE) are read from the saved tail up to
 * data_head, and the reader publishes data_tail so the kernel can reuse space.
 *
 * Backward buffers (attr.write_backward, mapped PROT_READ) are never flow
 * controlled: the kernel writes each record below the previous one, so
 * data_head decreases and the newest record starts at data_head.  A reader
 * pauses output, walks from data_head towards older records, and stops at
 * a zero header, at the position it read up to last time, or before the
 * walk would exceed one buffer length (what lies beyond has been partly
 * overwritten).
 */
#include "types.h"
#include "event.h"

#define PERF_SAMPLE_MAX_SIZE (1 << 16)

struct perf_mmap {
	void *base;		/* control page; data starts one page later */
	u64 mask;		/* data size - 1 */
	int fd;
	int cpu;
	int refcnt;
	bool overwrite;		/* backward, read-only */
	u64 prev;		/* forward: tail consumed so far; backward: head read last */
	u64 start, end;		/* the range being read (absolute positions) */
	u64 head;		/* data_head as of the last read_init (backward consume) */
	bool borrowed;		/* base is caller memory (perf_mmap__init_fake): no munmap */
	union perf_event *event_copy;	/* a record that wraps is copied here */
};

/* data_size is a power of two number of pages, in bytes. */
int perf_mmap__mmap(struct perf_mmap *map, int fd, int cpu, size_t data_size, bool overwrite);
void perf_mmap__munmap(struct perf_mmap *map);
/*
 * For tests: a map over caller memory laid out like a real mapping, a
 * struct perf_event_mmap_page at @base and @data_size bytes of data one
 * page later.  prev is taken from the fake page's data_tail (forward) or
 * data_head (backward).  perf_mmap__munmap() then frees only event_copy.
 */
int perf_mmap__init_fake(struct perf_mmap *map, void *base, size_t data_size, bool overwrite);
void *perf_mmap__data(const struct perf_mmap *map);
u64 perf_mmap__read_head(const struct perf_mmap *map);
void perf_mmap__write_tail(struct perf_mmap *map, u64 tail);

/*
 * Reading, both directions: read_init sets [start, end) (-EAGAIN when empty),
 * read_event hands out whole records in order (NULL at the end; a record
 * that crosses the end of the buffer is copied to event_copy), consume
 * publishes the tail (forward) or remembers the head (backward).
 */
int perf_mmap__read_init(struct perf_mmap *map);
union perf_event *perf_mmap__read_event(struct perf_mmap *map);
void perf_mmap__consume(struct perf_mmap *map);

/*
 * The backward walk on its own, for hand-built buffers: @data is @size bytes
 * (a power of two), @head the kernel's data_head, @stop the head read last
 * time (equal to @head when never read: then the whole buffer may be valid).
 * Sets *end to where the valid records stop (@head <= *end <= @head + size).
 */
int perf_mmap__backward_range(const void *data, u64 size, u64 head, u64 stop, u64 *end);
/*
 * The same walk, handing each whole record's header (a copy) and its
 * offset from @head to @fn as it goes, so a caller can look at every
 * record in the one pass.
 */
typedef void (*perf_mmap__walk_fn)(void *arg, const struct perf_event_header *hdr, u64 off);
int perf_mmap__backward_walk(const void *data, u64 size, u64 head, u64 stop, u64 *end,
			     perf_mmap__walk_fn fn, void *arg);

/* PERF_EVENT_IOC_PAUSE_OUTPUT on the buffer (every fd that feeds it). */
int perf_mmap__pause(struct perf_mmap *map, bool pause);

/*
 * For a paused backward buffer in which no writer is still inside a
 * record: copies what was written since the last copy (at most its whole
 * data area) to @dst, which has room for one data size, starting at
 * data_head so the copy starts with the newest record and never wraps, and
 * marks it read.  Returns the bytes copied (0: nothing was written): the
 * new records end there, or, when it is the whole data size, somewhere
 * before it where the oldest record was partly overwritten.
 */
u64 perf_mmap__backward_copy(struct perf_mmap *map, void *dst);

/* What perf_mmap__backward_records() found in a copy. */
struct perf_mmap_records {
	u64 len;		/* the whole records kept now fill [0, len) of the copy */
	u64 nr_records;		/* kept */
	u64 nr_samples;
	u64 newest, oldest;	/* offsets of the first and the last sample kept, or ~0 */
	u64 nr_lost;		/* LOST records taken out */
	u64 lost;		/* the events they say were not recorded */
};

/*
 * Walks the @len bytes perf_mmap__backward_copy() put in @copy (@size: the
 * buffer's data size), newest record first, and keeps only whole records:
 * it stops at the far end of a lap, where the oldest record was partly
 * overwritten by the newest.  LOST records are taken out (the rest moves
 * down over them) and counted: a backward buffer never runs full, so its
 * only losses are the events that came while it was paused for a dump,
 * which fell between two dumps.  @fn, if not NULL, is handed each record
 * kept and its offset in the copy.  Returns 0, or -EINVAL for a bad @size.
 */
int perf_mmap__backward_records(void *copy, u64 size, u64 len, struct perf_mmap_records *r,
				perf_mmap__walk_fn fn, void *arg);

#endif
