/*
 * Decoding PERF_RECORD_SAMPLE bodies and the sample-id trailer of other
 * records.  The layout is fixed by attr.sample_type (and read_format,
 * branch_sample_type, sample_regs_*): see perf_event_open(2).  Input comes
 * from files we do not trust, so every field is bounds-checked against the
 * record's own size before it is read.
 */
#include <errno.h>
#include <string.h>
#include "evsel.h"

size_t perf_event__sample_id_size(u64 sample_type)
{
	return (size_t)__builtin_popcountll(sample_type & SAMPLE_ID_BITS) * sizeof(u64);
}

/* A cursor over the u64 words of one record; reads fail once it would pass @end. */
struct sample_cursor {
	const u64 *p;
	const u64 *end;
};

static inline int cursor__need(const struct sample_cursor *c, u64 words)
{
	return (u64)(c->end - c->p) >= words ? 0 : -EFAULT;
}

static inline int cursor__u64(struct sample_cursor *c, u64 *val)
{
	if (c->p >= c->end)
		return -EFAULT;
	*val = *c->p++;
	return 0;
}

static void sample__init(struct perf_sample *sample, const union perf_event *event)
{
	memset(sample, 0, sizeof(*sample));
	sample->pid = (u32)-1;
	sample->tid = (u32)-1;
	sample->cpu = (u32)-1;
	sample->time = (u64)-1;
	sample->id = (u64)-1;
	sample->stream_id = (u64)-1;
	sample->period = 1;
	sample->misc = event->header.misc;
}

/* The trailer of a non-sample record: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static int sample__parse_id_trailer(u64 type, const union perf_event *event,
				    struct perf_sample *sample)
{
	size_t size = perf_event__sample_id_size(type);
	const u64 *p;

	if (event->header.size < sizeof(event->header) + size)
		return -EFAULT;
	p = (const u64 *)((const char *)event + event->header.size - size);
	if (type & PERF_SAMPLE_TID) {
		sample->pid = (u32)*p;
		sample->tid = (u32)(*p >> 32);
		p++;
	}
	if (type & PERF_SAMPLE_TIME)
		sample->time = *p++;
	if (type & PERF_SAMPLE_ID)
		sample->id = *p++;
	if (type & PERF_SAMPLE_STREAM_ID)
		sample->stream_id = *p++;
	if (type & PERF_SAMPLE_CPU)
		sample->cpu = (u32)*p++;
	if (type & PERF_SAMPLE_IDENTIFIER)
		sample->id = *p++;
	return 0;
}

/*
 * The READ block: its size depends on read_format only.  Group: nr, the
 * times, then { value, id, lost } each; alone: value, the times, id, lost.
 */
static int sample__read(struct sample_cursor *c, u64 read_format, struct perf_sample *s)
{
	u64 per_value = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
	u64 times = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	u64 nr = 1;

	if (read_format & PERF_FORMAT_GROUP) {
		if (cursor__u64(c, &nr))
			return -EFAULT;
		if (cursor__need(c, times))
			return -EFAULT;
		c->p += times;
		if (nr > (u64)(c->end - c->p) / per_value)
			return -EFAULT;
		s->read_values = c->p;
		s->read_nr = nr;
		s->read_stride = (u32)per_value;
		s->read_id_off = 1;
		c->p += nr * per_value;
		return 0;
	}
	per_value += times;
	if (cursor__need(c, per_value))
		return -EFAULT;
	s->read_values = c->p;
	s->read_nr = 1;
	s->read_stride = (u32)per_value;
	s->read_id_off = 1 + (u32)times;
	c->p += per_value;
	return 0;
}

/* abi, then one u64 per bit of @mask unless abi is PERF_SAMPLE_REGS_ABI_NONE. */
static int sample__regs(struct sample_cursor *c, u64 mask, u64 *abi, u64 **regs)
{
	u64 nr = __builtin_popcountll(mask);

	if (cursor__u64(c, abi))
		return -EFAULT;
	if (!*abi)
		return 0;
	if (cursor__need(c, nr))
		return -EFAULT;
	*regs = (u64 *)c->p;
	c->p += nr;
	return 0;
}

/* Read the next word into v, or fail the whole parse: the record ended early. */
#define GET(dst) do { if (cursor__u64(c, &v)) return -EFAULT; dst; } while (0)

/* The fixed words ahead of READ: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD. */
static int sample__parse_head(struct sample_cursor *c, u64 type, struct perf_sample *sample)
{
	u64 v;

	if (type & PERF_SAMPLE_IDENTIFIER)
		GET(sample->id = v);
	if (type & PERF_SAMPLE_IP)
		GET(sample->ip = v);
	if (type & PERF_SAMPLE_TID)
		GET((sample->pid = (u32)v, sample->tid = (u32)(v >> 32)));
	if (type & PERF_SAMPLE_TIME)
		GET(sample->time = v);
	if (type & PERF_SAMPLE_ADDR)
		GET(sample->addr = v);
	if (type & PERF_SAMPLE_ID)
		GET(sample->id = v);
	if (type & PERF_SAMPLE_STREAM_ID)
		GET(sample->stream_id = v);
	if (type & PERF_SAMPLE_CPU)
		GET(sample->cpu = (u32)v);
	if (type & PERF_SAMPLE_PERIOD)
		GET(sample->period = v);
	return 0;
}

/* nr, then nr addresses, left in the record. */
static int sample__callchain(struct sample_cursor *c, struct perf_sample *sample)
{
	u64 v;

	GET(sample->nr_callchain = v);
	if (cursor__need(c, v))
		return -EFAULT;
	sample->callchain = (u64 *)c->p;
	c->p += v;
	return 0;
}

/* A u32 size, the data, and padding up to the next u64. */
static int sample__raw(struct sample_cursor *c, struct perf_sample *sample)
{
	u32 raw_size;
	u64 words;

	if (cursor__need(c, 1))
		return -EFAULT;
	memcpy(&raw_size, c->p, sizeof(raw_size));
	words = PERF_ALIGN((u64)raw_size + sizeof(u32), sizeof(u64)) / sizeof(u64);
	if (cursor__need(c, words))
		return -EFAULT;
	sample->raw_size = raw_size;
	sample->raw_data = (char *)c->p + sizeof(u32);
	c->p += words;
	return 0;
}

/* nr, the hw index when asked for, then the entries: skipped, nothing reads them. */
static int sample__branch_stack(struct sample_cursor *c, u64 branch_sample_type)
{
	u64 nr, v;

	GET(nr = v);
	if (branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		GET((void)v);
	/* Each entry is from, to and a flags word. */
	if (nr > (u64)(c->end - c->p) / 3)
		return -EFAULT;
	c->p += nr * 3;
	return 0;
}

/* The copy's size, the copy, then (if there was one) how much of it is real stack. */
static int sample__stack_user(struct sample_cursor *c, struct perf_sample *sample)
{
	u64 size, v;

	GET(size = v);
	if (!size)
		return 0;
	if (size % sizeof(u64) || cursor__need(c, size / sizeof(u64) + 1))
		return -EFAULT;
	sample->user_stack = (void *)c->p;
	c->p += size / sizeof(u64);
	GET(sample->user_stack_size = min_t(u64, v, size));
	return 0;
}

/* What follows the user stack: WEIGHT* through AUX. */
static int sample__parse_tail(struct sample_cursor *c, const struct perf_event_attr *attr,
			      struct perf_sample *sample)
{
	u64 type = attr->sample_type;
	u64 v;

	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		GET(sample->weight = v);
	/* The struct: a 32-bit weight, then two 16-bit latencies. */
	if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
		sample->ins_lat = (u16)(sample->weight >> 32);
		sample->p_stage_cyc = (u16)(sample->weight >> 48);
		sample->weight &= 0xffffffff;
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		GET(sample->data_src = v);
	if (type & PERF_SAMPLE_TRANSACTION)
		GET(sample->transaction = v);
	if ((type & PERF_SAMPLE_REGS_INTR) &&
	    sample__regs(c, attr->sample_regs_intr, &sample->intr_regs_abi, &sample->intr_regs))
		return -EFAULT;
	if (type & PERF_SAMPLE_PHYS_ADDR)
		GET(sample->phys_addr = v);
	if (type & PERF_SAMPLE_CGROUP)
		GET((void)v);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		GET(sample->data_page_size = v);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		GET(sample->code_page_size = v);
	if (type & PERF_SAMPLE_AUX) {
		u64 size;

		GET(size = v);
		if (size > (u64)(c->end - c->p) * sizeof(u64))
			return -EFAULT;
	}
	return 0;
}
#undef GET

int evsel__parse_sample(const struct perf_event_attr *attr, const union perf_event *event,
			struct perf_sample *sample)
{
	u64 type = attr->sample_type;
	struct sample_cursor cur, *c = &cur;

	sample__init(sample, event);
	if (event->header.size < sizeof(event->header) || event->header.size % sizeof(u64))
		return -EFAULT;
	if (event->header.type != PERF_RECORD_SAMPLE) {
		if (!attr->sample_id_all)
			return 0;
		return sample__parse_id_trailer(type, event, sample);
	}

	/* Without PERIOD in the sample, every sample stands for the fixed -c period. */
	if (!attr->freq && attr->sample_period)
		sample->period = attr->sample_period;
	c->p = (const u64 *)((const char *)event + sizeof(event->header));
	c->end = (const u64 *)((const char *)event + event->header.size);

	if (sample__parse_head(c, type, sample))
		return -EFAULT;
	if ((type & PERF_SAMPLE_READ) && sample__read(c, attr->read_format, sample))
		return -EFAULT;
	if ((type & PERF_SAMPLE_CALLCHAIN) && sample__callchain(c, sample))
		return -EFAULT;
	if ((type & PERF_SAMPLE_RAW) && sample__raw(c, sample))
		return -EFAULT;
	if ((type & PERF_SAMPLE_BRANCH_STACK) && sample__branch_stack(c, attr->branch_sample_type))
		return -EFAULT;
	if ((type & PERF_SAMPLE_REGS_USER) &&
	    sample__regs(c, attr->sample_regs_user, &sample->user_regs_abi, &sample->user_regs))
		return -EFAULT;
	sample->user_regs_mask = attr->sample_regs_user;
	if ((type & PERF_SAMPLE_STACK_USER) && sample__stack_user(c, sample))
		return -EFAULT;
	return sample__parse_tail(c, attr, sample);
}

/*
 * The time of a record, read where the layout puts it without decoding the
 * rest: in a sample after IDENTIFIER, IP and TID; in any other record in
 * the sample-id trailer at its end.  *@time is (u64)-1 when it carries
 * none; -EFAULT when the record is too short to hold it.
 */
int perf_event__time(const struct perf_event_attr *attr, const union perf_event *event,
		     u64 *time)
{
	u64 type = attr->sample_type;
	u64 words = event->header.size / sizeof(u64);
	const u64 *w = (const u64 *)event + 1;
	u64 pos;

	*time = (u64)-1;
	if (!(type & PERF_SAMPLE_TIME))
		return 0;
	if (words-- == 0)
		return -EFAULT;
	if (event->header.type == PERF_RECORD_SAMPLE) {
		pos = !!(type & PERF_SAMPLE_IDENTIFIER) + !!(type & PERF_SAMPLE_IP) +
		      !!(type & PERF_SAMPLE_TID);
	} else {
		u64 trailer = perf_event__sample_id_size(type) / sizeof(u64);

		if (!attr->sample_id_all)
			return 0;
		if (trailer > words)
			return -EFAULT;
		pos = words - trailer + !!(type & PERF_SAMPLE_TID);
	}
	if (pos >= words)
		return -EFAULT;
	*time = w[pos];
	return 0;
}
