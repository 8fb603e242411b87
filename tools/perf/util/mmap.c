/*
 * One perf ring buffer.  The protocol (perf_event_open(2), "MMAP layout"):
 *
 * - The first page is struct perf_event_mmap_page.  data_head is where the
 *   kernel will write next, as an ever-growing (forward) or ever-shrinking
 *   (write_backward) u64; position p lives at offset p & mask of the data
 *   area, so arithmetic on positions simply wraps as unsigned.
 * - Forward: the records between data_tail and data_head are complete and
 *   the kernel will not touch them until we move data_tail past them.  The
 *   load of data_head must be an acquire (records written before the head
 *   moved are visible to us); the store of data_tail a release (we are done
 *   reading before the kernel may overwrite).
 * - Backward: data_tail is ignored, the mapping is read-only and the kernel
 *   overwrites the oldest data freely.  Records laid out upward from
 *   data_head are newest first; the reader pauses the output to read them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <unistd.h>
#include "mmap.h"
#include "page-size.h"
#include "debug.h"

static struct perf_event_mmap_page *perf_mmap__control(const struct perf_mmap *map)
{
	return map->base;
}

void *perf_mmap__data(const struct perf_mmap *map)
{
	return (char *)map->base + page_size();
}

u64 perf_mmap__read_head(const struct perf_mmap *map)
{
	return __atomic_load_n(&perf_mmap__control(map)->data_head, __ATOMIC_ACQUIRE);
}

void perf_mmap__write_tail(struct perf_mmap *map, u64 tail)
{
	/* A backward mapping is read-only, and the kernel ignores its tail. */
	if (map->overwrite)
		return;
	__atomic_store_n(&perf_mmap__control(map)->data_tail, tail, __ATOMIC_RELEASE);
}

static bool is_power_of_2(u64 n)
{
	return n && !(n & (n - 1));
}

/* Common to real and fake maps: everything but obtaining the memory. */
static int perf_mmap__setup(struct perf_mmap *map, void *base, size_t data_size,
			    bool overwrite, bool borrowed)
{
	memset(map, 0, sizeof(*map));
	map->event_copy = malloc(PERF_SAMPLE_MAX_SIZE);
	if (!map->event_copy)
		return -ENOMEM;
	map->base = base;
	map->mask = data_size - 1;
	map->fd = -1;
	map->cpu = -1;
	map->refcnt = 1;
	map->overwrite = overwrite;
	map->borrowed = borrowed;
	/*
	 * A fresh buffer has head == tail == 0.  Backward reads walk from the
	 * current head up to prev, so starting prev at the initial head makes
	 * the first read cover exactly what was written since the mapping.
	 */
	if (overwrite)
		map->prev = perf_mmap__read_head(map);
	else
		map->prev = perf_mmap__control(map)->data_tail;
	map->head = map->start = map->end = map->prev;
	return 0;
}

int perf_mmap__mmap(struct perf_mmap *map, int fd, int cpu, size_t data_size, bool overwrite)
{
	int prot = overwrite ? PROT_READ : PROT_READ | PROT_WRITE;
	size_t len = page_size() + data_size;
	void *base;
	int err;

	if (!is_power_of_2(data_size) || data_size % page_size())
		return -EINVAL;
	/*
	 * Backward buffers are read only in a dump, with output paused: fault
	 * their pages in now, not while the kernel waits for us.
	 */
	base = mmap(NULL, len, prot, MAP_SHARED | (overwrite ? MAP_POPULATE : 0), fd, 0);
	if (base == MAP_FAILED) {
		err = -errno;
		pr_debug("mmap of %zu bytes on fd %d failed: %s\n", len, fd, strerror(errno));
		return err;
	}
	err = perf_mmap__setup(map, base, data_size, overwrite, false);
	if (err) {
		munmap(base, len);
		map->base = NULL;
		return err;
	}
	map->fd = fd;
	map->cpu = cpu;
	return 0;
}

int perf_mmap__init_fake(struct perf_mmap *map, void *base, size_t data_size, bool overwrite)
{
	if (!is_power_of_2(data_size) || data_size < sizeof(struct perf_event_header))
		return -EINVAL;
	return perf_mmap__setup(map, base, data_size, overwrite, true);
}

void perf_mmap__munmap(struct perf_mmap *map)
{
	if (map->base && !map->borrowed)
		munmap(map->base, page_size() + map->mask + 1);
	map->base = NULL;
	free(map->event_copy);
	map->event_copy = NULL;
}

/*
 * Copies @len bytes starting at ring position @pos; the bytes may run off
 * the end of the data area and continue at its start.  Used for headers as
 * well as whole records: nothing stops a header from straddling the end
 * when positions are not 8-byte aligned.
 */
static void ring__copy(const void *data, u64 mask, u64 pos, void *dst, size_t len)
{
	u64 off = pos & mask;
	size_t first = min_t(u64, len, mask + 1 - off);

	memcpy(dst, (const char *)data + off, first);
	memcpy((char *)dst + first, data, len - first);
}

/*
 * Walks whole records upward from @head.  The walk may cover at most @size
 * bytes (one lap: beyond it we would be back at the newest record), or fewer
 * when @stop says where the previous read began; the records from there on
 * were handed out already.  A record that does not fit in what is left was
 * partly overwritten by newer ones, so the walk ends before it.  A zero
 * header is buffer space the kernel has never written.
 */
int perf_mmap__backward_walk(const void *data, u64 size, u64 head, u64 stop, u64 *end,
			     perf_mmap__walk_fn fn, void *arg)
{
	struct perf_event_header hdr;
	u64 limit = stop - head;	/* bytes written since @stop */
	u64 pos = 0;			/* offset from @head */

	*end = head;
	if (!is_power_of_2(size))
		return -EINVAL;
	if (stop == head || limit > size)
		limit = size;
	while (limit - pos >= sizeof(hdr)) {
		ring__copy(data, size - 1, head + pos, &hdr, sizeof(hdr));
		if (hdr.size == 0)
			break;
		if (hdr.size < sizeof(hdr) || hdr.size % sizeof(u64)) {
			pr_debug("backward ring buffer: bad record size %u at %#" PRIx64 "\n",
				 hdr.size, head + pos);
			break;
		}
		if (hdr.size > limit - pos)
			break;
		if (fn)
			fn(arg, &hdr, pos);
		pos += hdr.size;
	}
	*end = head + pos;
	return pos ? 0 : -EAGAIN;
}

int perf_mmap__backward_range(const void *data, u64 size, u64 head, u64 stop, u64 *end)
{
	return perf_mmap__backward_walk(data, size, head, stop, end, NULL, NULL);
}

int perf_mmap__read_init(struct perf_mmap *map)
{
	u64 size = map->mask + 1;
	u64 head;

	if (!map->base)
		return -EINVAL;
	head = perf_mmap__read_head(map);
	map->head = head;
	if (map->overwrite) {
		map->start = head;
		/* backward_range() would take stop == head as "never read". */
		if (head == map->prev) {
			map->end = head;
			return -EAGAIN;
		}
		return perf_mmap__backward_range(perf_mmap__data(map), size, head, map->prev,
						 &map->end);
	}

	map->start = map->prev;
	map->end = head;
	if (map->start == map->end)
		return -EAGAIN;
	/*
	 * The kernel never overwrites unread forward data (it counts LOST
	 * records instead), so more than a buffer's worth means our tail and
	 * its head disagree.  No record boundary can be trusted: drop it all.
	 */
	if (map->end - map->start > size) {
		pr_debug("ring buffer of fd %d: %" PRIu64 " bytes pending in %" PRIu64
			 " bytes of space, skipping to the head\n",
			 map->fd, map->end - map->start, size);
		map->start = head;
		map->prev = head;
		perf_mmap__write_tail(map, head);
		return -EAGAIN;
	}
	return 0;
}

/*
 * A record that is short, empty, or longer than what is left of the range
 * is not something the kernel wrote: stop there rather than hand out
 * garbage, and leave start on it so the caller can tell where it was.
 */
union perf_event *perf_mmap__read_event(struct perf_mmap *map)
{
	struct perf_event_header hdr = { .size = 0 };
	u64 avail = map->end - map->start;
	u64 off = map->start & map->mask;
	void *data = perf_mmap__data(map);
	union perf_event *event;

	if (!avail)
		return NULL;
	if (avail < sizeof(hdr))
		goto out_corrupt;
	ring__copy(data, map->mask, map->start, &hdr, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size > avail)
		goto out_corrupt;

	if (off + hdr.size <= map->mask + 1) {
		event = (union perf_event *)((char *)data + off);
	} else {
		ring__copy(data, map->mask, map->start, map->event_copy, hdr.size);
		event = map->event_copy;
	}
	map->start += hdr.size;
	return event;

out_corrupt:
	pr_debug("ring buffer of fd %d: bad record (size %u, %" PRIu64 " bytes left) at %#"
		 PRIx64 "\n", map->fd, hdr.size, avail, map->start);
	return NULL;
}

void perf_mmap__consume(struct perf_mmap *map)
{
	if (map->overwrite) {
		map->prev = map->head;
		return;
	}
	map->prev = map->start;
	perf_mmap__write_tail(map, map->start);
}

int perf_mmap__pause(struct perf_mmap *map, bool pause)
{
	/* A fake map (tests) has no fd: its writer is the test itself. */
	if (!map->base || map->borrowed)
		return 0;
	return ioctl(map->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0) < 0 ? -errno : 0;
}

/*
 * The caller has paused the output and made sure no writer is still inside
 * a record (see flight_recorder's quiesce), so head and the records above
 * it hold still while we copy.  The new bytes are copied raw, starting at
 * head, so the copy begins with the newest record and never wraps; no
 * record is looked at, which keeps the pause to one or two memcpy()s.
 */
u64 perf_mmap__backward_copy(struct perf_mmap *map, void *dst)
{
	u64 size = map->mask + 1, head = perf_mmap__read_head(map);
	u64 stop = map->prev - head, len;

	map->head = head;
	if (head == map->prev)
		return 0;
	/*
	 * Less than a buffer written since the last copy: only that is new,
	 * so only that is copied (a quiet buffer costs next to nothing).
	 * Otherwise all of it may be.
	 */
	len = stop < size ? stop : size;
	ring__copy(perf_mmap__data(map), map->mask, head, dst, len);
	map->prev = head;
	return len;
}

struct backward_records_walk {
	char *copy;
	struct perf_mmap_records *r;
	u64 w;		/* where the next kept record goes */
	perf_mmap__walk_fn fn;
	void *arg;
};

static void backward_records__one(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct backward_records_walk *wk = arg;
	struct perf_mmap_records *r = wk->r;

	if (hdr->type == PERF_RECORD_LOST) {
		const union perf_event *ev = (const void *)(wk->copy + off);

		r->lost += ev->lost.lost;
		r->nr_lost++;
		return;
	}
	if (wk->w != off)
		memmove(wk->copy + wk->w, wk->copy + off, hdr->size);
	if (hdr->type == PERF_RECORD_SAMPLE) {
		if (r->newest == ~0ULL)
			r->newest = wk->w;
		r->oldest = wk->w;
		r->nr_samples++;
	}
	r->nr_records++;
	if (wk->fn)
		wk->fn(wk->arg, hdr, wk->w);
	wk->w += hdr->size;
}

int perf_mmap__backward_records(void *copy, u64 size, u64 len, struct perf_mmap_records *r,
				perf_mmap__walk_fn fn, void *arg)
{
	struct backward_records_walk wk = { .copy = copy, .r = r, .fn = fn, .arg = arg };
	u64 end;
	int err;

	memset(r, 0, sizeof(*r));
	r->newest = r->oldest = ~0ULL;
	if (!len)
		return 0;
	/* The copy starts at the head, position 0; a stop of 0 lets the walk use it all. */
	err = perf_mmap__backward_walk(copy, size, 0, len < size ? len : 0, &end,
				       backward_records__one, &wk);
	if (err && err != -EAGAIN)
		return err;
	r->len = wk.w;
	return 0;
}
