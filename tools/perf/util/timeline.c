// SPDX-License-Identifier: GPL-2.0
/*
 * The view of a dump: its samples, switches and losses kept compact, and
 * written as one page with the flame graph's (see timeline.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "array.h"
#include "flamegraph.h"
#include "hash.h"
#include "hashtab.h"
#include "timeline.h"
#include "timeline-page.h"	/* generated: timeline_js[] */

/* Time is written in microseconds from the first event: 7 digits a sample for a 10 s dump. */
#define NS_PER_US 1000

struct task_id {
	int tid;
	u32 index;
};

static u64 task_id__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((u64)(u32)((const struct task_id *)entry)->tid);
}

static bool task_id__equal(const void *entry, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct task_id *)entry)->tid == *(const int *)key;
}

int timeline__init(struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->task_ids = malloc(sizeof(*tl->task_ids));
	if (!tl->task_ids)
		return -ENOMEM;
	hashtab__init(tl->task_ids, sizeof(struct task_id), 64, task_id__hash, task_id__equal,
		      NULL);
	return 0;
}

void timeline__exit(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nr_tasks; i++)
		free(tl->tasks[i].comm);
	if (tl->task_ids)
		hashtab__exit(tl->task_ids);
	free(tl->task_ids);
	free(tl->tasks);
	free(tl->samples);
	free(tl->switches);
	free(tl->lost);
	free(tl->cpu_last);
	memset(tl, 0, sizeof(*tl));
}

#define ROOM(tl, what) \
	array__room((void **)&(tl)->what, &(tl)->cap_##what, (tl)->nr_##what, sizeof(*(tl)->what), \
		    1024)

/* The index of task @tid, made with @comm if new; its pid learnt when known.  -1: ENOMEM. */
static long timeline__task(struct timeline *tl, int pid, int tid, const char *comm, size_t len)
{
	u64 h = task_id__hash(&(struct task_id){ .tid = tid }, NULL);
	struct task_id *id = hashtab__find(tl->task_ids, &tid, h);
	struct timeline_task *t;

	if (id) {
		t = &tl->tasks[id->index];
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return id->index;
	}
	if (ROOM(tl, tasks))
		return -1;
	t = &tl->tasks[tl->nr_tasks];
	t->comm = strndup(comm, len);
	if (!t->comm)
		return -1;
	if (!hashtab__add(tl->task_ids, &(struct task_id){ .tid = tid, .index = (u32)tl->nr_tasks },
			  h)) {
		free(t->comm);
		return -1;
	}
	t->pid = pid;
	t->tid = tid;
	return (long)tl->nr_tasks++;
}

void timeline__seen(struct timeline *tl, u64 time, int cpu)
{
	if (!tl->first_time || time < tl->first_time)
		tl->first_time = time;
	if (time > tl->last_time)
		tl->last_time = time;
	if (time > tl->last)
		tl->last = time;
	if (cpu < 0 || cpu >= 4096)
		return;
	if ((size_t)cpu >= tl->nr_cpu_last) {
		u64 *p = realloc(tl->cpu_last, (size_t)(cpu + 1) * sizeof(*p));

		if (!p)
			return;	/* a loss on this CPU then starts at the last event of any */
		memset(p + tl->nr_cpu_last, 0, (cpu + 1 - tl->nr_cpu_last) * sizeof(*p));
		tl->cpu_last = p;
		tl->nr_cpu_last = (size_t)cpu + 1;
	}
	if (time > tl->cpu_last[cpu])
		tl->cpu_last[cpu] = time;
}

int timeline__add_sample(struct timeline *tl, u64 time, int cpu, int pid, int tid,
			 const char *comm, const struct flamegraph_node *leaf)
{
	long task = timeline__task(tl, pid, tid, comm, strlen(comm));

	if (task < 0 || ROOM(tl, samples))
		return -ENOMEM;
	tl->samples[tl->nr_samples++] = (struct timeline_sample){
		.time = time, .leaf = leaf, .cpu = (u32)cpu, .task = (u32)task,
	};
	timeline__seen(tl, time, cpu);
	return 0;
}

bool timeline__is_switch(struct timeline *tl, const struct tep_event *format)
{
	struct tep_event *e = (struct tep_event *)format;

	if (!format)
		return false;
	if (format == tl->switch_format)
		return true;
	if (tl->switch_format || strcmp(e->system, "sched") || strcmp(e->name, "sched_switch"))
		return false;
	tl->prev_comm = tep_find_field(e, "prev_comm");
	tl->prev_pid = tep_find_field(e, "prev_pid");
	tl->prev_state = tep_find_field(e, "prev_state");
	tl->next_comm = tep_find_field(e, "next_comm");
	tl->next_pid = tep_find_field(e, "next_pid");
	/* A format without the fields we read is not the switch we know. */
	if (!tl->prev_comm || !tl->prev_pid || !tl->prev_state || !tl->next_comm ||
	    !tl->next_pid)
		return false;
	tl->switch_format = format;
	return true;
}

static bool field__fits(const struct tep_format_field *f, u32 size)
{
	return f->offset >= 0 && f->size >= 0 && (u32)f->offset + (u32)f->size <= size;
}

/* A task named by a switch's pid and comm fields (the comm need not end in NUL). */
static long switch__task(struct timeline *tl, const void *raw, struct tep_format_field *pid,
			 struct tep_format_field *comm)
{
	unsigned long long tid;
	const char *name = (const char *)raw + comm->offset;

	if (tep_read_number_field(pid, raw, &tid))
		return -1;
	return timeline__task(tl, -1, (int)tid, name, strnlen(name, (size_t)comm->size));
}

int timeline__add_switch(struct timeline *tl, u64 time, int cpu, const void *raw, u32 size)
{
	unsigned long long state;
	long prev, next;

	if (!raw || !field__fits(tl->prev_comm, size) || !field__fits(tl->prev_pid, size) ||
	    !field__fits(tl->prev_state, size) || !field__fits(tl->next_comm, size) ||
	    !field__fits(tl->next_pid, size) || tep_read_number_field(tl->prev_state, raw, &state))
		return -EINVAL;
	prev = switch__task(tl, raw, tl->prev_pid, tl->prev_comm);
	next = switch__task(tl, raw, tl->next_pid, tl->next_comm);
	if (prev < 0 || next < 0 || ROOM(tl, switches))
		return -ENOMEM;
	tl->switches[tl->nr_switches++] = (struct timeline_switch){
		.time = time, .cpu = (u32)cpu, .prev = (u32)prev, .next = (u32)next,
		.prev_state = (u32)state,
	};
	timeline__seen(tl, time, cpu);
	return 0;
}

/*
 * The kernel writes a LOST record once there is room again, so what was
 * lost lies between the CPU's last event we have and the record itself.
 */
int timeline__add_lost(struct timeline *tl, u64 time, int cpu, u64 nr, bool samples)
{
	u64 start = cpu >= 0 && (size_t)cpu < tl->nr_cpu_last && tl->cpu_last[cpu] ?
		    tl->cpu_last[cpu] : tl->last;

	if (ROOM(tl, lost))
		return -ENOMEM;
	if (!time)
		time = tl->last;
	tl->lost[tl->nr_lost++] = (struct timeline_lost){
		.start = start && start < time ? start : time, .end = time, .nr = nr, .cpu = cpu,
		.samples = samples,
	};
	return 0;
}

static u64 timeline__us(const struct timeline *tl, u64 time)
{
	return time > tl->first_time ? (time - tl->first_time) / NS_PER_US : 0;
}

/* A column of a table: the field at @off of each entry, of the kind it is. */
enum column_kind { COL_TIME, COL_U32, COL_INT, COL_U64, COL_BOOL };

struct column {
	const char *key;
	size_t off;
	enum column_kind kind;
};

#define COL(st, key, field, kind) { key, offsetof(struct st, field), kind }

static const struct column sample_columns[] = {
	COL(timeline_sample, "t", time, COL_TIME), COL(timeline_sample, "cpu", cpu, COL_U32),
	COL(timeline_sample, "task", task, COL_U32),
};

static const struct column switch_columns[] = {
	COL(timeline_switch, "t", time, COL_TIME), COL(timeline_switch, "cpu", cpu, COL_U32),
	COL(timeline_switch, "prev", prev, COL_U32), COL(timeline_switch, "next", next, COL_U32),
	COL(timeline_switch, "state", prev_state, COL_U32),
};

static const struct column lost_columns[] = {
	COL(timeline_lost, "t0", start, COL_TIME), COL(timeline_lost, "t1", end, COL_TIME),
	COL(timeline_lost, "cpu", cpu, COL_INT), COL(timeline_lost, "n", nr, COL_U64),
	COL(timeline_lost, "samples", samples, COL_BOOL),
};

static const struct column task_columns[] = {
	COL(timeline_task, "pid", pid, COL_INT), COL(timeline_task, "tid", tid, COL_INT),
};

static unsigned long long column__value(const struct timeline *tl, const struct column *c,
					const char *entry)
{
	const void *p = entry + c->off;

	switch (c->kind) {
	case COL_TIME:
		return timeline__us(tl, *(const u64 *)p);
	case COL_U32:
		return *(const u32 *)p;
	case COL_INT:
		return (unsigned long long)(long long)*(const int *)p;
	case COL_BOOL:
		return *(const bool *)p;
	default:
		return *(const u64 *)p;
	}
}

/* "key": [...] for each column of @nr entries of @size bytes at @base. */
static void columns__write(const struct timeline *tl, const struct column *cols, size_t nr_cols,
			   const void *base, size_t nr, size_t size, FILE *fp)
{
	for (size_t c = 0; c < nr_cols; c++) {
		fprintf(fp, "%s\"%s\": [", c ? ", " : "", cols[c].key);
		for (size_t i = 0; i < nr; i++) {
			unsigned long long v = column__value(tl, &cols[c], (const char *)base + i * size);

			fprintf(fp, cols[c].kind == COL_INT ? "%s%lld" : "%s%llu", i ? "," : "", v);
		}
		fputs("]", fp);
	}
}

#define COLUMNS(tl, cols, what, fp) \
	columns__write(tl, cols, ARRAY_SIZE(cols), (tl)->what, (tl)->nr_##what, \
		       sizeof(*(tl)->what), fp)

static void node__write_table(const struct flamegraph_node *n, u32 parent, FILE *fp,
			      int pass, bool *first)
{
	if (!*first)
		putc(',', fp);
	*first = false;
	if (pass == 0)
		json__string(fp, n->name, true);
	else if (pass == 1)
		fprintf(fp, "%d", (int)n->type);
	else
		fprintf(fp, "%u", parent);
	for (const struct flamegraph_node *c = n->child; c; c = c->next)
		node__write_table(c, n->id, fp, pass, first);
}

/* The tree as columns in preorder: names, types (0 user, 1 kernel, 2 root), parents. */
static void timeline__write_nodes(const struct flamegraph *fg, FILE *fp)
{
	static const char *const keys[] = { "n", "l", "p" };

	fputs("\"nodes\": {", fp);
	for (int pass = 0; pass < 3; pass++) {
		bool first = true;

		fprintf(fp, "%s\"%s\": [", pass ? ", " : "", keys[pass]);
		node__write_table(&fg->root, 0, fp, pass, &first);
		fputs("]", fp);
	}
	fputs("}", fp);
}

static void timeline__write_tasks(const struct timeline *tl, FILE *fp)
{
	fputs("\"tasks\": {", fp);
	COLUMNS(tl, task_columns, tasks, fp);
	fputs(", \"comm\": [", fp);
	for (size_t i = 0; i < tl->nr_tasks; i++) {
		if (i)
			putc(',', fp);
		json__string(fp, tl->tasks[i].comm, true);
	}
	fputs("]}", fp);
}

static void timeline__write_events(const struct timeline *tl, FILE *fp)
{
	fputs(", \"samples\": {", fp);
	COLUMNS(tl, sample_columns, samples, fp);
	/* The stack: its leaf's number in the node table. */
	fputs(", \"s\": [", fp);
	for (size_t i = 0; i < tl->nr_samples; i++)
		fprintf(fp, i ? ",%u" : "%u", tl->samples[i].leaf->id);
	fputs("]}, \"switches\": {", fp);
	COLUMNS(tl, switch_columns, switches, fp);
	fputs("}, \"lost\": {", fp);
	COLUMNS(tl, lost_columns, lost, fp);
	fputs("}", fp);
}

/* What asked for the dump: its words, and for a trigger its sample's time, CPU and task. */
static void timeline__write_request(const struct timeline *tl, FILE *fp)
{
	const struct dump_request *r = &tl->request;
	char text[512];

	fputs(", \"request\": ", fp);
	if (!tl->has_request || r->kind == DUMP_REQUEST_NONE) {
		fputs("null", fp);
		return;
	}
	fputs("{\"text\": ", fp);
	json__string(fp, dump_request__format(r, text, sizeof(text)), true);
	/* "at": the time in the words' own digits, which microseconds from the start can miss. */
	if (r->kind == DUMP_REQUEST_TRIGGER)
		fprintf(fp, ", \"t\": %llu, \"at\": \"%llu.%06llu\", \"cpu\": %u, \"pid\": %u, "
			"\"tid\": %u", (unsigned long long)timeline__us(tl, r->time),
			(unsigned long long)(r->time / 1000000000ULL),
			(unsigned long long)(r->time % 1000000000ULL / NS_PER_US), r->cpu, r->pid,
			r->tid);
	else
		fprintf(fp, ", \"t\": %llu", (unsigned long long)timeline__us(tl, tl->last_time));
	fputs("}", fp);
}

struct timeline_page {
	const struct timeline *tl;
	const struct flamegraph *fg;
};

static int timeline__write_data(FILE *fp, const void *ctx)
{
	const struct timeline_page *p = ctx;
	const struct timeline *tl = p->tl;

	/* Seconds as the title gives them, so that #range= takes what it shows. */
	fprintf(fp, "<script type=\"application/json\" id=\"timeline-data\">{\"start\": %.6f, "
		"\"end\": %.6f, ", tl->first_time / 1e9, tl->last_time / 1e9);
	timeline__write_nodes(p->fg, fp);
	fputs(", ", fp);
	timeline__write_tasks(tl, fp);
	timeline__write_events(tl, fp);
	timeline__write_request(tl, fp);
	fputs("}</script>\n", fp);
	return ferror(fp) ? -EIO : 0;
}

int timeline__write_html(struct timeline *tl, struct flamegraph *fg, const char *title,
			 const char *colorscheme, FILE *fp)
{
	struct timeline_page p = { .tl = tl, .fg = fg };

	flamegraph__number(fg);
	return flamegraph__write_html(fg, &(struct flamegraph_page){
		.title = title, .colorscheme = colorscheme, .write_data = timeline__write_data,
		.ctx = &p, .script = timeline_js, .script_len = timeline_js_len }, fp);
}
