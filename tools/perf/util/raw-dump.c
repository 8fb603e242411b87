/*
 * perf report/script -D (see raw-dump.h).  The layout of every line is the
 * distro's, so that the dumps of a file by the two can be compared byte for
 * byte; the code is this project's own.
 */
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include "raw-dump.h"
#include "outbuf.h"
#include "session.h"
#include "cpumap.h"

static void dump__printf(struct raw_dump *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void dump__printf(struct raw_dump *d, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		outbuf__write(d->ob, buf, min_t(size_t, (size_t)n, sizeof(buf) - 1));
}

/* ".  0010:  37 5b 01 00 ...  7[......": 16 bytes a line, short lines padded. */
static void dump__hex(struct raw_dump *d, const unsigned char *p, u32 size)
{
	dump__printf(d, ".\n. ... raw event: size %u bytes\n", size);
	for (u32 line = 0; line < size; line += 16) {
		char *o = outbuf__room(d->ob, 96);
		u32 i;

		o += sprintf(o, ".  %04x: ", line);
		for (i = 0; i < 16; i++)
			o += line + i < size ? sprintf(o, " %02x", p[line + i]) : sprintf(o, "   ");
		*o++ = ' ';
		*o++ = ' ';
		/* Printable ASCII as is, whatever the locale says of other bytes. */
		for (i = 0; i < 16; i++)
			*o++ = line + i >= size ? ' ' :
			       p[line + i] >= 0x20 && p[line + i] < 0x7f ? (char)p[line + i] : '.';
		*o++ = '\n';
		outbuf__advance(d->ob, o);
	}
}

/* Every event's sample_type together: what decides the timestamp columns. */
static u64 dump__sample_type(struct perf_session *s)
{
	struct evsel *e;
	u64 type = 0;

	evlist__for_each_entry(s->evlist, e)
		type |= e->attr.sample_type;
	return type;
}

/*
 * "<cpu> <time> " before the offset, as far as the events record them; a
 * side-band record of events without sample_id_all has neither: "-1 -1 ".
 */
static void dump__tstamp(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
			 const struct perf_sample *sample)
{
	u64 type = dump__sample_type(s);

	if (!sample || (ev->header.type != PERF_RECORD_SAMPLE &&
			!evlist__first(s->evlist)->attr.sample_id_all)) {
		dump__printf(d, "-1 -1 ");
		return;
	}
	if (type & PERF_SAMPLE_CPU)
		dump__printf(d, "%u ", sample->cpu);
	if (type & PERF_SAMPLE_TIME)
		dump__printf(d, "%llu ", (unsigned long long)sample->time);
}

/* The x86-64 register names, by bit of sample_regs_user (asm/perf_regs.h). */
static const char *const x86_64_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

const char *perf_reg_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(x86_64_regs) ? x86_64_regs[bit] : "unknown";
}

/* User or interrupt registers: "user" or "intr", the mask, the ABI, a line each. */
static void dump__regs(struct raw_dump *d, const char *which, u64 mask, u64 abi_nr,
		       const u64 *regs)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	unsigned int n = 0;

	if (!regs)
		return;
	dump__printf(d, "... %s regs: mask 0x%llx ABI %s\n", which, (unsigned long long)mask,
		     abi_nr < ARRAY_SIZE(abi) ? abi[abi_nr] : "unknown");
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		dump__printf(d, ".... %-5s 0x%016llx\n", perf_reg_name(bit),
			     (unsigned long long)regs[n++]);
	}
}

const char *page_size_name(u64 size, char *buf, size_t len)
{
	static const char units[] = "BKMG";
	int i = 0;

	if (!size)
		return "N/A";
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)size, units[i]);
	return buf;
}

/* The thread and DSO lines that follow a sample: the machine as it stands. */
static void dump__sample_where(struct raw_dump *d, struct perf_session *s,
			       const struct perf_sample *sample)
{
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *t = machine__findnew_thread(&s->machine, (int)sample->pid,
						   (int)sample->tid);
	struct dso *dso;

	if (!t)
		return;
	dump__printf(d, " ... thread: %s:%d\n", thread__comm(t), t->tid);
	if (mode == PERF_RECORD_MISC_HYPERVISOR) {
		dump__printf(d, " ...... dso: [hypervisor]\n");
		return;
	}
	dso = machine__find_dso(&s->machine, (int)sample->pid, sample->ip,
				mode == PERF_RECORD_MISC_KERNEL ||
				mode == PERF_RECORD_MISC_GUEST_KERNEL);
	dump__printf(d, " ...... dso: %s\n", dso ? dso->name : "<not found>");
}

/* The counts a sample read: the times, then each count with its id (and lost). */
static void dump__sample_read(struct raw_dump *d, const struct perf_sample *sample, u64 rf)
{
	bool group = rf & PERF_FORMAT_GROUP;
	/* A group's times come before its counts; one count's, after it. */
	const u64 *t = group ? sample->read_values - !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) -
			       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) : sample->read_values + 1;

	dump__printf(d, "... sample_read:\n");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		dump__printf(d, "...... time enabled %016llx\n", (unsigned long long)*t++);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		dump__printf(d, "...... time running %016llx\n", (unsigned long long)*t++);
	if (group)
		dump__printf(d, ".... group nr %llu\n", (unsigned long long)sample->read_nr);
	for (u64 i = 0; i < sample->read_nr; i++) {
		const u64 *v = sample->read_values + i * sample->read_stride;
		u64 id = (rf & PERF_FORMAT_ID) ? v[sample->read_id_off] : 0;

		dump__printf(d, "..... id %016llx, value %016llx", (unsigned long long)id,
			     (unsigned long long)v[0]);
		if (rf & PERF_FORMAT_LOST)
			dump__printf(d, ", lost %llu",
				     (unsigned long long)v[sample->read_id_off +
							  !!(rf & PERF_FORMAT_ID)]);
		dump__printf(d, "\n");
	}
}

static void dump__sample(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
			 const struct perf_sample *sample)
{
	struct evsel *evsel = perf_session__evsel_by_id(s, sample->id);
	char size[32];
	u64 type;

	if (!evsel)
		evsel = evlist__first(s->evlist);
	type = evsel->attr.sample_type;
	dump__printf(d, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n", ev->header.misc,
		     (int)sample->pid, (int)sample->tid, (unsigned long long)sample->ip,
		     (unsigned long long)sample->period, (unsigned long long)sample->addr);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		dump__printf(d, "... FP chain: nr:%llu\n", (unsigned long long)sample->nr_callchain);
		for (u64 i = 0; i < sample->nr_callchain; i++)
			dump__printf(d, "..... %2d: %016llx\n", (int)i,
				     (unsigned long long)sample->callchain[i]);
	}
	if (type & PERF_SAMPLE_REGS_USER)
		dump__regs(d, "user", sample->user_regs_mask, sample->user_regs_abi,
			   sample->user_regs);
	if (type & PERF_SAMPLE_REGS_INTR)
		dump__regs(d, "intr", evsel->attr.sample_regs_intr, sample->intr_regs_abi,
			   sample->intr_regs);
	/* The offset is that of the stack's size word, which comes before its bytes. */
	if ((type & PERF_SAMPLE_STACK_USER) && sample->user_stack)
		dump__printf(d, "... ustack: size %llu, offset 0x%x\n",
			     (unsigned long long)sample->user_stack_size,
			     (unsigned int)((const char *)sample->user_stack - (const char *)ev -
					    sizeof(u64)));
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (type & PERF_SAMPLE_WEIGHT_STRUCT)
			dump__printf(d, "... weight: %llu,0x%x,0x%x\n",
				     (unsigned long long)sample->weight, sample->ins_lat,
				     sample->p_stage_cyc);
		else
			dump__printf(d, "... weight: %llu\n", (unsigned long long)sample->weight);
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		dump__printf(d, " . data_src: 0x%llx\n", (unsigned long long)sample->data_src);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		dump__printf(d, " .. phys_addr: 0x%llx\n", (unsigned long long)sample->phys_addr);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		dump__printf(d, " .. data page size: %s\n",
			     page_size_name(sample->data_page_size, size, sizeof(size)));
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		dump__printf(d, " .. code page size: %s\n",
			     page_size_name(sample->code_page_size, size, sizeof(size)));
	if (type & PERF_SAMPLE_TRANSACTION)
		dump__printf(d, "... transaction: %llx\n", (unsigned long long)sample->transaction);
	if ((type & PERF_SAMPLE_READ) && sample->read_values) {
		u64 rf = evsel->attr.read_format;

		dump__sample_read(d, sample, rf);
		/* Where each sample it gives is, as each is delivered. */
		if (rf & PERF_FORMAT_ID) {
			for (int n = perf_session__read_samples(s, sample); n > 0; n--)
				dump__sample_where(d, s, sample);
			return;
		}
	}
	dump__sample_where(d, s, sample);
}

static void dump__mmap(struct raw_dump *d, const union perf_event *ev)
{
	const struct perf_record_mmap *m = &ev->mmap;
	size_t room = ev->header.size - offsetof(struct perf_record_mmap, filename);

	dump__printf(d, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %.*s\n", (int)m->pid, (int)m->tid,
		     (unsigned long long)m->start, (unsigned long long)m->len,
		     (unsigned long long)m->pgoff,
		     (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
		     (int)strnlen(m->filename, room), m->filename);
}

static void dump__mmap2(struct raw_dump *d, const union perf_event *ev)
{
	const struct perf_record_mmap2 *m = &ev->mmap2;
	size_t room = ev->header.size - offsetof(struct perf_record_mmap2, filename);
	char where[64];

	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		/* maj, min and ino hold the build id's length and bytes. */
		const u8 *bid = (const u8 *)&m->maj + 4;
		u8 len = min_t(u8, *(const u8 *)&m->maj, 20);
		char *o = where;

		*o++ = '<';
		for (u8 i = 0; i < len; i++)
			o += sprintf(o, "%02x", bid[i]);
		strcpy(o, ">");
	} else {
		snprintf(where, sizeof(where), "%02x:%02x %llu %llu", m->maj, m->min,
			 (unsigned long long)m->ino, (unsigned long long)m->ino_generation);
	}
	dump__printf(d, " %d/%d: [%#llx(%#llx) @ %#llx %s]: %c%c%c%c %.*s\n", (int)m->pid,
		     (int)m->tid, (unsigned long long)m->start, (unsigned long long)m->len,
		     (unsigned long long)m->pgoff, where, (m->prot & 1) ? 'r' : '-',
		     (m->prot & 2) ? 'w' : '-', (m->prot & 4) ? 'x' : '-',
		     (m->flags & 1) ? 's' : 'p', (int)strnlen(m->filename, room), m->filename);
}

/* ID_INDEX: which event, CPU and thread each sample id stands for. */
static void dump__id_index(struct raw_dump *d, const union perf_event *ev)
{
	const u64 *w = (const u64 *)ev + 1;
	u64 nr = w[0], room = (ev->header.size - 16) / 32;

	dump__printf(d, " nr: %llu\n", (unsigned long long)nr);
	for (u64 i = 0; i < nr && i < room; i++) {
		const u64 *e = w + 1 + i * 4;

		dump__printf(d, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			     (unsigned long long)e[0], (unsigned long long)e[1],
			     (long long)e[2], (long long)e[3]);
	}
}

static void dump__thread_map(struct raw_dump *d, const union perf_event *ev)
{
	const u64 *w = (const u64 *)ev + 1;
	u64 nr = w[0], room = (ev->header.size - 16) / 24;

	dump__printf(d, " nr: %llu thread%s:", (unsigned long long)nr, nr == 1 ? "" : "s");
	/* Each entry: the pid, then a 16-byte comm. */
	for (u64 i = 0; i < nr && i < room; i++)
		dump__printf(d, "%s %d", i ? "," : "", (int)w[1 + i * 3]);
	dump__printf(d, "\n");
}

/*
 * The CPUs of a CPU_MAP record's body @p (@room bytes) into @map, which has
 * room for @cap; returns how many.  Bodies are a u16 type, then for type 0
 * a u16 count and u16 CPU numbers, for type 1 a u16 count of words, their
 * u16 size and the mask words (4-byte ones packed from byte 6, 8-byte ones
 * aligned at byte 8), for type 2 the any-CPU flag, a pad byte and the u16
 * first and last CPUs of a range.
 */
static int cpu_map_record__cpus(const unsigned char *p, u32 room, int *map, int cap)
{
	u16 type, n, a, b;
	int nr = 0;

	if (room < 8)
		return 0;
	memcpy(&type, p, 2);
	memcpy(&n, p + 2, 2);
	memcpy(&a, p + 4, 2);
	memcpy(&b, p + 6, 2);
	if (type == 0) {
		for (u32 i = 0; i < n && 4 + 2 * i + 2 <= room && nr < cap; i++) {
			memcpy(&a, p + 4 + 2 * i, 2);
			/* 0xffff is the "any CPU" entry of a per-thread map: -1. */
			map[nr++] = a == (u16)-1 ? -1 : a;
		}
	} else if (type == 1 && (a == 4 || a == 8)) {
		u32 start = a == 4 ? 6 : 8;
		u32 bits = min_t(u32, (u32)n * a, room - start) * 8;

		for (u32 bit = 0; bit < bits && nr < cap; bit++)
			if (p[start + bit / 8] & (1u << (bit % 8)))
				map[nr++] = (int)bit;
	} else if (type == 2) {
		if (p[2] && nr < cap)
			map[nr++] = -1;
		for (u32 c = a; c <= b && nr < cap; c++)
			map[nr++] = (int)c;
	}
	return nr;
}

/*
 * "0-3,5": the CPUs of a CPU map body (a CPU_MAP record's, or an
 * EVENT_UPDATE's), printed as -C takes them, then a newline.
 */
static void dump__cpu_map(struct raw_dump *d, const unsigned char *body, u32 room)
{
	/* At most one CPU per bit of the record, and a range of 65536. */
	int cap = (int)max_t(u32, room * 8, 65537);
	struct cpu_map *map = malloc(sizeof(*map) + cap * sizeof(int));
	char *buf = NULL;
	int len;

	if (map) {
		map->refcnt = 1;
		map->nr = cpu_map_record__cpus(body, room, map->map, cap);
		len = cpu_map__snprint(map, NULL, 0);
		buf = malloc(len + 1);
		if (buf) {
			cpu_map__snprint(map, buf, len + 1);
			outbuf__write(d->ob, buf, len);
		}
	}
	dump__printf(d, "\n");
	free(buf);
	cpu_map__put(map);
}

/* EVENT_UPDATE: the id, then a unit, a scale, a name or the event's CPUs. */
static void dump__event_update(struct raw_dump *d, const union perf_event *ev)
{
	const char *p = (const char *)ev;
	u32 room = ev->header.size - 24;
	u64 type, id;
	double scale;

	if (ev->header.size < 24) {
		dump__printf(d, "\n");
		return;
	}
	memcpy(&type, p + 8, sizeof(type));
	memcpy(&id, p + 16, sizeof(id));
	dump__printf(d, "\n... id:    %llu\n", (unsigned long long)id);
	switch (type) {
	case 0:
		dump__printf(d, "... unit:  %.*s\n", (int)strnlen(p + 24, room), p + 24);
		break;
	case 1:
		if (room >= sizeof(scale)) {
			memcpy(&scale, p + 24, sizeof(scale));
			dump__printf(d, "... scale: %f\n", scale);
		}
		break;
	case 2:
		dump__printf(d, "... name:  %.*s\n", (int)strnlen(p + 24, room), p + 24);
		break;
	case 3:
		dump__printf(d, "... ");
		dump__cpu_map(d, (const unsigned char *)p + 24, room);
		break;
	default:
		dump__printf(d, "... unknown type\n");
		break;
	}
}

/* TIME_CONV: how TSC values convert to perf times; the cycles part only in newer records. */
static void dump__time_conv(struct raw_dump *d, const union perf_event *ev)
{
	const struct perf_record_time_conv *tc = &ev->time_conv;

	/* The distro's spelling of "Multiplier", kept for byte-for-byte dumps. */
	dump__printf(d, "\n... Time Shift      %llu\n... Time Muliplier  %llu\n"
		     "... Time Zero       %llu\n", (unsigned long long)tc->time_shift,
		     (unsigned long long)tc->time_mult, (unsigned long long)tc->time_zero);
	if (ev->header.size >= sizeof(*tc))
		dump__printf(d, "... Time Cycles     %llu\n... Time Mask       %#llx\n"
			     "... Cap Time Zero   %d\n... Cap Time Short  %d\n",
			     (unsigned long long)tc->time_cycles, (unsigned long long)tc->time_mask,
			     tc->cap_user_time_zero, tc->cap_user_time_short);
	dump__printf(d, ": unhandled!\n");
}

/* SWITCH and SWITCH_CPU_WIDE: the direction, and for the latter the other task. */
static void dump__switch(struct raw_dump *d, const union perf_event *ev)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *dir = !out ? "IN" :
			  (ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" :
										      "OUT";
	const u32 *w = (const u32 *)ev + 2;

	if (ev->header.type == PERF_RECORD_SWITCH || ev->header.size < 16) {
		dump__printf(d, " %-11s\n", dir);
		return;
	}
	dump__printf(d, " %-11s  %s pid/tid: %5d/%-5d\n", dir, out ? "next" : "prev",
		     (int)w[0], (int)w[1]);
}

/* NAMESPACES: "<index>/<name>: <dev>/<inode>" for each namespace of the task. */
static void dump__namespaces(struct raw_dump *d, const union perf_event *ev)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	const u32 *w = (const u32 *)ev + 2;
	const u64 *ns = (const u64 *)ev + 3;
	u64 nr, room;

	if (ev->header.size < 24) {
		dump__printf(d, "\n");
		return;
	}
	memcpy(&nr, w + 2, sizeof(nr));
	room = (ev->header.size - 24) / 16;
	dump__printf(d, " %d/%d - nr_namespaces: %llu\n\t\t[", (int)w[0], (int)w[1],
		     (unsigned long long)nr);
	/* Four to a line. */
	for (u64 i = 0; i < nr && i < room; i++)
		dump__printf(d, "%s%llu/%s: %llu/%#llx", !i ? "" : i % 4 ? ", " : ", \n\t\t ",
			     (unsigned long long)i,
			     i < ARRAY_SIZE(names) ? names[i] : "unknown",
			     (unsigned long long)ns[2 * i], (unsigned long long)ns[2 * i + 1]);
	dump__printf(d, "]\n");
}

/*
 * The size the fixed fields of a record need (the sample id trailer
 * aside); 8, the header's, for types whose fields are checked where they
 * are decoded.  A damaged file may hold shorter ones.
 */
static u32 record__min_size(u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:		return offsetof(struct perf_record_mmap, filename);
	case PERF_RECORD_MMAP2:		return offsetof(struct perf_record_mmap2, filename);
	case PERF_RECORD_COMM:		return 16;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:		return sizeof(struct perf_record_fork);
	case PERF_RECORD_LOST:		return sizeof(struct perf_record_lost);
	case PERF_RECORD_LOST_SAMPLES:	return sizeof(struct perf_record_lost_samples);
	case PERF_RECORD_KSYMBOL:	return sizeof(struct perf_record_ksymbol);
	case PERF_RECORD_BPF_EVENT:	return 16;
	case PERF_RECORD_ITRACE_START:	return 16;
	case PERF_RECORD_AUX:		return 32;
	case PERF_RECORD_CGROUP:	return 16;
	case PERF_RECORD_STAT_ROUND:	return 24;
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_THREAD_MAP:	return 16;
	case PERF_RECORD_TIME_CONV:	return offsetof(struct perf_record_time_conv, time_cycles);
	case PERF_RECORD_READ:		return 56;
	default:			return 8;
	}
}

/* Records the kernel lost: by the ring buffer (LOST) or before it (LOST_SAMPLES). */
static void dump__lost(struct raw_dump *d, const union perf_event *ev,
		       const struct perf_sample *sample)
{
	if (ev->header.type == PERF_RECORD_LOST)
		dump__printf(d, ": id:%llu: lost:%llu\n", (unsigned long long)ev->lost.id,
			     (unsigned long long)ev->lost.lost);
	else
		dump__printf(d, ": id:%llu: lost samples :%llu\n", (unsigned long long)sample->id,
			     (unsigned long long)ev->lost_samples.lost);
}

/* Report has no handler for it, and says so; script's ends the line with the map. */
static void dump__cpu_map_record(struct raw_dump *d, const union perf_event *ev)
{
	dump__printf(d, ": ");
	dump__cpu_map(d, (const unsigned char *)ev + 8, ev->header.size - 8);
	if (!d->script)
		dump__printf(d, ": unhandled!\n");
}

static void dump__ksymbol(struct raw_dump *d, const union perf_event *ev)
{
	size_t room = ev->header.size - sizeof(ev->ksymbol);

	dump__printf(d, " addr %llx len %u type %u flags 0x%x name %.*s\n",
		     (unsigned long long)ev->ksymbol.addr, ev->ksymbol.len,
		     ev->ksymbol.ksym_type, ev->ksymbol.flags,
		     (int)strnlen(ev->ksymbol.name, room), ev->ksymbol.name);
}

static void dump__aux(struct raw_dump *d, const union perf_event *ev)
{
	const u64 *q = (const u64 *)ev;

	dump__printf(d, " offset: %#llx size: %#llx flags: %#llx [%s%s%s]\n",
		     (unsigned long long)q[1], (unsigned long long)q[2],
		     (unsigned long long)q[3], (q[3] & PERF_AUX_FLAG_TRUNCATED) ? "T" : "",
		     (q[3] & PERF_AUX_FLAG_OVERWRITE) ? "O" : "",
		     (q[3] & PERF_AUX_FLAG_PARTIAL) ? "P" : "");
}

/*
 * A task's count at its exit (record -s): pid, tid, then the count and
 * what read_format adds, read where the distro reads them (value, times,
 * id, lost), named by the record's event.
 */
static void dump__read(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
		       const struct perf_sample *sample)
{
	const u32 *w = (const u32 *)ev;
	const u64 *q = (const u64 *)ev;
	struct evsel *e = perf_session__evsel_by_id(s, sample->id);
	u64 rf;

	if (!e)
		e = evlist__first(s->evlist);
	rf = e ? e->attr.read_format : 0;
	dump__printf(d, ": %d %d %s %llu\n", (int)w[2], (int)w[3],
		     e ? evsel__name(e) : "unknown", (unsigned long long)q[2]);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		dump__printf(d, "... time enabled : %llu\n", (unsigned long long)q[3]);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		dump__printf(d, "... time running : %llu\n", (unsigned long long)q[4]);
	if (rf & PERF_FORMAT_ID)
		dump__printf(d, "... id           : %llu\n", (unsigned long long)q[5]);
	if (rf & PERF_FORMAT_LOST)
		dump__printf(d, "... lost         : %llu\n", (unsigned long long)q[6]);
	/* Script has no handler for it, and says so. */
	if (d->script)
		dump__printf(d, ": unhandled!\n");
}

static void dump__cgroup(struct raw_dump *d, const union perf_event *ev)
{
	const u64 *q = (const u64 *)ev;

	dump__printf(d, " cgroup: %llu %.*s\n", (unsigned long long)q[1],
		     (int)strnlen((const char *)(q + 2), ev->header.size - 16),
		     (const char *)(q + 2));
}

/*
 * The records whose line carries nothing past their name: what the
 * distro's handler (or its lack of one) ends the line with.
 */
static void dump__nameonly(struct raw_dump *d, const union perf_event *ev)
{
	const u64 *q = (const u64 *)ev;

	switch (ev->header.type) {
	case PERF_RECORD_STAT_ROUND:
		dump__printf(d, "\n... time %llu, type %s\n: unhandled!\n", (unsigned long long)q[2],
			     q[1] == 1 ? "FINAL" : "INTERVAL");
		break;
	/* The distro ends these without a newline: the next record's blank line ends them. */
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_HEADER_EVENT_TYPE:
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* Script's handler ends the line no more than the ones above. */
		if (!d->script)
			dump__printf(d, ": unhandled!\n");
		break;
	case PERF_RECORD_FINISHED_ROUND:
		dump__printf(d, "\n");
		break;
	default:
		/* Nothing in the distro's perf report or script reads these. */
		dump__printf(d, ": unhandled!\n");
		break;
	}
}

/* The rest of the decoded line, after "PERF_RECORD_<name>". */
static void dump__fields(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
			 const struct perf_sample *sample)
{
	u16 misc = ev->header.misc;
	/* The record as words, for the fixed-size ones; sizes were checked by the session. */
	const u32 *w = (const u32 *)ev;

	if (ev->header.size < record__min_size(ev->header.type)) {
		dump__printf(d, ": record too short for its type\n");
		return;
	}
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		dump__sample(d, s, ev, sample);
		break;
	case PERF_RECORD_MMAP:
		dump__mmap(d, ev);
		break;
	case PERF_RECORD_MMAP2:
		dump__mmap2(d, ev);
		break;
	case PERF_RECORD_COMM:
		dump__printf(d, "%s: %.16s:%d/%d\n", (misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			     ev->comm.comm, (int)ev->comm.pid, (int)ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		dump__printf(d, "(%d:%d):(%d:%d)\n", (int)ev->fork.pid, (int)ev->fork.tid,
			     (int)ev->fork.ppid, (int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		dump__lost(d, ev, sample);
		break;
	case PERF_RECORD_KSYMBOL:
		dump__ksymbol(d, ev);
		break;
	case PERF_RECORD_BPF_EVENT:
		dump__printf(d, " type %u, flags %u, id %u\n", ev->bpf.type, ev->bpf.flags,
			     ev->bpf.id);
		break;
	case PERF_RECORD_ID_INDEX:
		dump__id_index(d, ev);
		break;
	case PERF_RECORD_THREAD_MAP:
		dump__thread_map(d, ev);
		if (!d->script)
			dump__printf(d, ": unhandled!\n");
		break;
	case PERF_RECORD_CPU_MAP:
		dump__cpu_map_record(d, ev);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		dump__event_update(d, ev);
		break;
	case PERF_RECORD_TIME_CONV:
		dump__time_conv(d, ev);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump__switch(d, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		dump__namespaces(d, ev);
		break;
	case PERF_RECORD_ITRACE_START:
		dump__printf(d, " pid: %u tid: %u\n", w[2], w[3]);
		break;
	case PERF_RECORD_AUX:
		dump__aux(d, ev);
		break;
	case PERF_RECORD_READ:
		dump__read(d, s, ev, sample);
		break;
	case PERF_RECORD_CGROUP:
		dump__cgroup(d, ev);
		break;
	default:
		dump__nameonly(d, ev);
		break;
	}
}

void raw_dump__record(struct raw_dump *d, struct perf_session *s, const union perf_event *ev,
		      const struct perf_sample *sample, u64 offset)
{
	const char *name = perf_event__type_name(ev->header.type);

	/* A stream's offsets count from the end of its 16-byte header, as the distro's do. */
	if (s->pipe && offset >= 16)
		offset -= 16;

	dump__printf(d, "\n%#llx@%s [%#x]: event: %u\n", (unsigned long long)offset,
		     s->pipe ? "pipe" : s->path, ev->header.size, ev->header.type);
	dump__hex(d, (const unsigned char *)ev, ev->header.size);
	dump__printf(d, "\n");
	dump__tstamp(d, s, ev, sample);
	dump__printf(d, "%#llx [%#x]: PERF_RECORD_%s", (unsigned long long)offset,
		     ev->header.size, name ? name : "UNKNOWN");
	dump__fields(d, s, ev, sample);
}

int raw_dump__init_stdout(struct raw_dump *d)
{
	int err;

	d->own = calloc(1, sizeof(*d->own));
	if (!d->own)
		return -ENOMEM;
	fflush(stdout);
	err = outbuf__init(d->own, STDOUT_FILENO);
	if (err) {
		free(d->own);
		d->own = NULL;
		return err;
	}
	d->ob = d->own;
	return 0;
}

int raw_dump__exit(struct raw_dump *d)
{
	int err;

	if (!d->own)
		return 0;
	err = outbuf__flush(d->own);
	outbuf__exit(d->own);
	free(d->own);
	d->own = NULL;
	d->ob = NULL;
	return err;
}
