/*
 * perf record's forward ring buffers read into its output (see
 * record-read.h).
 */
#include <string.h>
#include "event.h"
#include "evlist.h"
#include "flight-recorder.h"
#include "mmap.h"
#include "record-output.h"
#include "record-read.h"

static int record_read__write_round(struct record_read *rd)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return record_output__write(rd->out, &h, sizeof(h));
}

/* A record cut to its size: a KSYMBOL's name is at most 512 bytes. */
union record_read_cut {
	struct perf_event_header header;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_bpf_event bpf;
	u64 bytes[1024 / sizeof(u64)];
};

/*
 * @event at the size the kernel meant (evlist__record_size()): itself, or
 * its copy in @cut, short of the bytes its header counted in excess.
 */
static const union perf_event *record_read__meant(struct record_read *rd,
						  const union perf_event *event,
						  union record_read_cut *cut)
{
	u16 size = evlist__record_size(rd->evlist, event);

	if (size == event->header.size || size > sizeof(*cut))
		return event;
	memcpy(cut, event, size);
	cut->header.size = size;
	rd->cut++;
	return (const union perf_event *)cut;
}

/*
 * Overwrite mode: the forward stream carries the tracking records, which
 * go to the flight recorder's process table rather than the file (each
 * dump writes those it needs), and the samples of any no-overwrite event,
 * which are written (or counted as dropped while a failed dump left no file).
 */
static int record_read__tracking(struct record_read *rd, struct perf_mmap *map)
{
	union record_read_cut cut;
	const union perf_event *event;
	bool any = false;
	int err;

	if (perf_mmap__read_init(map) < 0)
		return 0;
	while ((event = perf_mmap__read_event(map))) {
		any = true;
		event = record_read__meant(rd, event, &cut);
		if (event->header.type == PERF_RECORD_MMAP2)
			perf_header_info__note_mapping(&rd->out->hinfo, event);
		if (!flight_recorder__track(rd->fr, event))
			continue;
		if (!rd->out->open) {
			rd->dropped++;
			continue;
		}
		err = record_output__write_event(rd->out, event);
		if (err)
			return err;
	}
	perf_mmap__consume(map);
	return any;
}

/* The bytes of @map from @start to @end as they lie: one piece, or two if they wrap. */
static int record_read__write_span(struct record_read *rd, struct perf_mmap *map, u64 start,
				   u64 end)
{
	unsigned char *data = perf_mmap__data(map);
	int err;

	if (end == start)
		return 0;
	if ((start & map->mask) + (end - start) > map->mask + 1) {
		size_t first = map->mask + 1 - (start & map->mask);

		err = record_output__write(rd->out, data + (start & map->mask), first);
		if (!err)
			err = record_output__write(rd->out, data, end - start - first);
		return err;
	}
	return record_output__write(rd->out, data + (start & map->mask), end - start);
}

/*
 * Writes the whole records of one forward buffer and hands the space back:
 * as they lie, but for a record the kernel made longer than it is, which
 * goes at its own size (record_read__meant()).
 */
static int record_read__forward(struct record_read *rd, struct perf_mmap *map)
{
	union record_read_cut cut;
	const union perf_event *event, *meant;
	u64 start, from;
	int err;

	if (rd->fr)
		return record_read__tracking(rd, map);
	if (perf_mmap__read_init(map) < 0)
		return 0;
	start = from = map->start;
	while ((event = perf_mmap__read_event(map))) {
		meant = record_read__meant(rd, event, &cut);
		record_output__account(rd->out, meant);
		if (meant == event)
			continue;
		err = record_read__write_span(rd, map, from, map->start - event->header.size);
		if (!err)
			err = record_output__write(rd->out, meant, meant->header.size);
		if (err)
			return err;
		from = map->start;
	}
	if (map->start == start)
		return 0;
	err = record_read__write_span(rd, map, from, map->start);
	if (err)
		return err;
	perf_mmap__consume(map);
	return 1;
}

/*
 * The trigger buffers' heads, taken before the pass reads the tracking
 * stream.  A trigger names its task from the process table, and the task's
 * COMM (its exec) was written before the trigger's sample: read after the
 * trigger was seen, the tracking stream holds that COMM.  Read before,
 * a task that exec'ed just then is still named after its parent.
 */
static void record_read__triggers_seen(struct record_read *rd)
{
	struct evlist *tl = rd->triggers;

	for (int i = 0; tl && i < tl->nr_mmaps; i++)
		if (tl->mmap[i].base)
			perf_mmap__read_init(&tl->mmap[i]);
}

/*
 * --switch-output-event: the trigger events' own buffers, as far as
 * record_read__triggers_seen() saw them.  Every sample is a request (a
 * loss means there were requests too), and goes into the file, the dump it
 * asks for or joins: the header describes the triggers after the recorded
 * events, and a reader sorts the sample in by its time.
 */
static int record_read__triggers(struct record_read *rd)
{
	struct evlist *tl = rd->triggers;
	int err = 0;

	if (!tl)
		return 0;
	for (int i = 0; i < tl->nr_mmaps && !err; i++) {
		struct perf_mmap *map = &tl->mmap[i];
		union perf_event *event;

		/* A failed read_init left nothing to read (start == end). */
		if (!map->base)
			continue;
		while (!err && (event = perf_mmap__read_event(map))) {
			if (event->header.type != PERF_RECORD_SAMPLE &&
			    event->header.type != PERF_RECORD_LOST)
				continue;
			if (event->header.type == PERF_RECORD_LOST) {
				rd->trigger(rd->arg, tl, NULL);
				continue;
			}
			rd->trigger(rd->arg, tl, event);
			if (!rd->out->open) {
				rd->dropped++;
				continue;
			}
			if (rd->fr)
				flight_recorder__track(rd->fr, event);
			err = record_output__write_event(rd->out, event);
		}
		perf_mmap__consume(map);
	}
	perf_evlist__release_drained(tl);
	return err;
}

int record_read__all(struct record_read *rd)
{
	int nr = 0, err;

	record_read__triggers_seen(rd);
	for (int i = 0; i < rd->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &rd->evlist->mmap[i];

		if (!map->base)
			continue;
		err = record_read__forward(rd, map);
		if (err < 0)
			return err;
		nr += err;
	}
	/* Before the round: a trigger is newer than what the round before it flushed. */
	err = record_read__triggers(rd);
	if (err)
		return err;
	/*
	 * Rounds tell a reader it may sort and flush what came before.  A file
	 * that will also hold backward data gets no rounds from the forward
	 * stream, so the reader sorts the process table's records together
	 * with the (older) backward samples and every sample finds its comm
	 * and maps.
	 */
	if (nr && !rd->fr) {
		err = record_read__write_round(rd);
		if (err)
			return err;
	}
	if (rd->fr)
		flight_recorder__tick(rd->fr);
	perf_evlist__release_drained(rd->evlist);
	return nr;
}

