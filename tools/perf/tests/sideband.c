/*
 * The flight recorder's process table, fed hand-built records: which tasks
 * a dump of a given time range gets, with their parents and leaders;
 * pruning; the cap; tid reuse; records that arrive before their FORK;
 * JITed kernel code (KSYMBOL) for the dumps its lifetime overlaps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/sideband.h"

#define MS 1000000ULL

static union perf_event *ev_buf(void)
{
	static union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	return &ev;
}

static int add_fork(struct sideband *sb, u32 type, u32 pid, u32 ppid, u32 tid, u32 ptid, u64 t)
{
	union perf_event *e = ev_buf();

	e->fork.header.type = type;
	e->fork.header.size = sizeof(e->fork);
	e->fork.pid = pid;
	e->fork.ppid = ppid;
	e->fork.tid = tid;
	e->fork.ptid = ptid;
	e->fork.time = t;
	return sideband__add(sb, e, t);
}

static int add_comm(struct sideband *sb, u32 pid, u32 tid, const char *comm, u64 t)
{
	union perf_event *e = ev_buf();

	e->comm.header.type = PERF_RECORD_COMM;
	e->comm.header.size = sizeof(e->comm) + 8;	/* the name padded to 24 */
	e->comm.pid = pid;
	e->comm.tid = tid;
	strncpy(e->comm.comm, comm, sizeof(e->comm.comm) - 1);
	return sideband__add(sb, e, t);
}

static int add_mmap(struct sideband *sb, u32 pid, u32 tid, u64 start, u64 t, u16 size)
{
	union perf_event *e = ev_buf();

	e->mmap2.header.type = PERF_RECORD_MMAP2;
	e->mmap2.header.size = size;
	e->mmap2.pid = pid;
	e->mmap2.tid = tid;
	e->mmap2.start = start;
	e->mmap2.len = 4096;
	strcpy(e->mmap2.filename, "/bin/x");
	return sideband__add(sb, e, t);
}

/* What one emit wrote: (type, tid) of each record, in order. */
struct emitted {
	int n;
	u32 type[256];
	u32 tid[256];
	u64 start[256];
};

static int collect(void *arg, union perf_event *event)
{
	struct emitted *em = arg;

	if (em->n < 256) {
		em->type[em->n] = event->header.type;
		/* For KSYMBOL, its flags (1: unregistered); for BPF_EVENT, its type. */
		em->tid[em->n] = event->header.type == PERF_RECORD_MMAP2 ? event->mmap2.tid :
				 event->header.type == PERF_RECORD_COMM ? event->comm.tid :
				 event->header.type == PERF_RECORD_KSYMBOL ? event->ksymbol.flags :
				 event->header.type == PERF_RECORD_BPF_EVENT ? event->bpf.type :
				 event->fork.tid;
		em->start[em->n] = event->header.type == PERF_RECORD_MMAP2 ? event->mmap2.start : 0;
	}
	em->n++;
	return 0;
}

static int count_of(const struct emitted *em, u32 type, u32 tid)
{
	int n = 0;

	for (int i = 0; i < em->n && i < 256; i++)
		n += em->type[i] == type && em->tid[i] == tid;
	return n;
}

static int emit(struct sideband *sb, u64 first, u64 last, struct emitted *em, u64 *tasks)
{
	memset(em, 0, sizeof(*em));
	return sideband__emit(sb, first, last, collect, em, tasks);
}

static int test__sideband(void)
{
	struct sideband *sb = sideband__new(64 << 20);
	const struct sideband_stats *st;
	struct emitted em;
	u64 tasks;

	TEST_ASSERT_VAL("new", sb);
	st = sideband__stats(sb);

	/* A shell (from /proc at start), a program it runs 100..200 ms, a thread of it. */
	TEST_ASSERT_EQUAL("seed fork", add_fork(sb, PERF_RECORD_FORK, 10, 1, 10, 1, 0), 0);
	TEST_ASSERT_EQUAL("seed comm", add_comm(sb, 10, 10, "sh", 0), 0);
	TEST_ASSERT_EQUAL("seed map", add_mmap(sb, 10, 10, 0x1000, 0, 96), 0);
	TEST_ASSERT_EQUAL("fork", add_fork(sb, PERF_RECORD_FORK, 20, 10, 20, 10, 100 * MS), 0);
	TEST_ASSERT_EQUAL("exec", add_comm(sb, 20, 20, "prog", 101 * MS), 0);
	TEST_ASSERT_EQUAL("map", add_mmap(sb, 20, 20, 0x2000, 101 * MS, 96), 0);
	TEST_ASSERT_EQUAL("thread", add_fork(sb, PERF_RECORD_FORK, 20, 20, 21, 20, 110 * MS), 0);
	TEST_ASSERT_EQUAL("thread map", add_mmap(sb, 20, 21, 0x3000, 120 * MS, 96), 0);
	TEST_ASSERT_EQUAL("thread exit", add_fork(sb, PERF_RECORD_EXIT, 20, 20, 21, 20, 150 * MS),
			  0);
	TEST_ASSERT_EQUAL("exit", add_fork(sb, PERF_RECORD_EXIT, 20, 10, 20, 10, 200 * MS), 0);
	TEST_ASSERT_EQUAL("tasks", st->tasks, 3);
	TEST_ASSERT_EQUAL("a short record is refused", add_mmap(sb, 20, 20, 0, 1, 16), -EINVAL);

	/* A window inside its life: it, its parent's state, its thread's. */
	TEST_ASSERT_EQUAL("emit", emit(sb, 140 * MS, 160 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("three tasks", tasks, 3);
	TEST_ASSERT_EQUAL("records", em.n, 10);
	TEST_ASSERT_EQUAL("the program's exec", count_of(&em, PERF_RECORD_COMM, 20), 1);
	TEST_ASSERT_EQUAL("its maps, the thread's too", count_of(&em, PERF_RECORD_MMAP2, 20) +
			  count_of(&em, PERF_RECORD_MMAP2, 21), 2);
	TEST_ASSERT_EQUAL("the parent's name", count_of(&em, PERF_RECORD_COMM, 10), 1);
	TEST_ASSERT_VAL("emitted pid 20", sideband__emitted(sb, 20));
	TEST_ASSERT_VAL("not pid 99", !sideband__emitted(sb, 99));

	/* After the thread exited: the program (and the shell it came from) only. */
	TEST_ASSERT_EQUAL("emit late", emit(sb, 160 * MS, 190 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("two tasks", tasks, 2);
	TEST_ASSERT_EQUAL("no thread exit", count_of(&em, PERF_RECORD_EXIT, 21), 0);
	/* After the program exited: the shell alone. */
	TEST_ASSERT_EQUAL("emit after", emit(sb, 300 * MS, 400 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("one task", tasks, 1);
	TEST_ASSERT_VAL("not pid 20", !sideband__emitted(sb, 20));
	/* Before the program was born. */
	TEST_ASSERT_EQUAL("emit before", emit(sb, 10 * MS, 50 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("the shell", tasks, 1);

	/* A child of the exited program that outlives it keeps its record alive. */
	TEST_ASSERT_EQUAL("orphan", add_fork(sb, PERF_RECORD_FORK, 30, 20, 30, 20, 190 * MS), 0);
	sideband__prune(sb, 250 * MS);
	TEST_ASSERT_EQUAL("pruned the program and its thread", st->pruned, 2);
	TEST_ASSERT_EQUAL("emit orphan", emit(sb, 300 * MS, 400 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("orphan, its parent, the shell", tasks, 3);
	TEST_ASSERT_EQUAL("the parent's exec is there", count_of(&em, PERF_RECORD_COMM, 20), 1);
	TEST_ASSERT_EQUAL("orphan exits", add_fork(sb, PERF_RECORD_EXIT, 30, 1, 30, 1, 310 * MS),
			  0);
	sideband__prune(sb, 400 * MS);
	TEST_ASSERT_EQUAL("only the shell is left", st->tasks, 1);

	/* A tid reused: both lives are kept, each emitted for its own time. */
	TEST_ASSERT_EQUAL("a", add_fork(sb, PERF_RECORD_FORK, 40, 10, 40, 10, 500 * MS), 0);
	TEST_ASSERT_EQUAL("a comm", add_comm(sb, 40, 40, "first", 501 * MS), 0);
	TEST_ASSERT_EQUAL("a exit", add_fork(sb, PERF_RECORD_EXIT, 40, 10, 40, 10, 510 * MS), 0);
	TEST_ASSERT_EQUAL("b", add_fork(sb, PERF_RECORD_FORK, 40, 10, 40, 10, 600 * MS), 0);
	TEST_ASSERT_EQUAL("b comm", add_comm(sb, 40, 40, "second", 601 * MS), 0);
	TEST_ASSERT_EQUAL("emit a", emit(sb, 505 * MS, 508 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("a only", count_of(&em, PERF_RECORD_COMM, 40), 1);
	TEST_ASSERT_EQUAL("a's fork", count_of(&em, PERF_RECORD_FORK, 40), 1);
	TEST_ASSERT_EQUAL("emit both", emit(sb, 505 * MS, 605 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("both lives", count_of(&em, PERF_RECORD_FORK, 40), 2);

	/* A child's exec read before its FORK (another CPU's buffer): one task. */
	TEST_ASSERT_EQUAL("early comm", add_comm(sb, 50, 50, "early", 702 * MS), 0);
	TEST_ASSERT_EQUAL("late fork", add_fork(sb, PERF_RECORD_FORK, 50, 10, 50, 10, 700 * MS),
			  0);
	TEST_ASSERT_EQUAL("emit early", emit(sb, 701 * MS, 703 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("one fork", count_of(&em, PERF_RECORD_FORK, 50), 1);
	TEST_ASSERT_EQUAL("one comm", count_of(&em, PERF_RECORD_COMM, 50), 1);
	TEST_ASSERT_EQUAL("the shell, b, early", tasks, 3);

	/* A long fork chain (each child forks the next and exits): emitted whole. */
	for (u32 i = 0; i < 5000; i++) {
		u32 tid = 1000 + i, parent = i ? tid - 1 : 10;

		TEST_ASSERT_EQUAL("chain", add_fork(sb, PERF_RECORD_FORK, tid, parent, tid, parent,
						    (1000 + i) * MS), 0);
		if (i < 4999)
			TEST_ASSERT_EQUAL("chain exit", add_fork(sb, PERF_RECORD_EXIT, tid, parent,
								 tid, parent,
								 (1000 + i) * MS + 1), 0);
	}
	sideband__prune(sb, 9000 * MS);
	TEST_ASSERT_EQUAL("emit chain", emit(sb, 9000 * MS, 9001 * MS, &em, &tasks), 0);
	TEST_ASSERT_EQUAL("the chain's 5000, the shell, b and early", tasks, 5003);
	sideband__delete(sb);

	/*
	 * A long-lived process: 300 maps, an exec, the same range mapped 300
	 * times, ten renames, all before what a dump can need; then new maps
	 * until its history is compacted.
	 */
	sb = sideband__new(64 << 20);
	TEST_ASSERT_VAL("new", sb);
	st = sideband__stats(sb);
	TEST_ASSERT_EQUAL("seed", add_fork(sb, PERF_RECORD_FORK, 60, 1, 60, 1, 0), 0);
	TEST_ASSERT_EQUAL("seed comm", add_comm(sb, 60, 60, "old", 0), 0);
	for (u32 i = 0; i < 300; i++)
		TEST_ASSERT_EQUAL("map", add_mmap(sb, 60, 60, 0x1000 * (i + 1), (i + 1) * MS, 96), 0);
	{
		union perf_event *e = ev_buf();

		e->comm.header.type = PERF_RECORD_COMM;
		e->comm.header.misc = PERF_RECORD_MISC_COMM_EXEC;
		e->comm.header.size = sizeof(e->comm) + 8;
		e->comm.pid = e->comm.tid = 60;
		strcpy(e->comm.comm, "new");
		TEST_ASSERT_EQUAL("exec", sideband__add(sb, e, 400 * MS), 0);
	}
	for (u32 i = 0; i < 300; i++)
		TEST_ASSERT_EQUAL("remap", add_mmap(sb, 60, 60, 0x100000, (401 + i) * MS, 96), 0);
	for (u32 i = 0; i < 10; i++)
		TEST_ASSERT_EQUAL("rename", add_comm(sb, 60, 60, "renamed", (710 + i) * MS), 0);
	sideband__prune(sb, 1000 * MS);
	{
		u64 before = st->bytes;
		u32 k = 0;

		while (!st->trimmed && k < 5000) {
			TEST_ASSERT_EQUAL("late map", add_mmap(sb, 60, 60, 0x10000000 + 0x1000 * k,
							       (1001 + k) * MS, 96), 0);
			k++;
		}
		TEST_ASSERT_EQUAL("300 maps before the exec, 299 covered, 11 old names",
				  st->trimmed, 610);
		TEST_ASSERT_VAL("memory given back", st->bytes < before);
		TEST_ASSERT_EQUAL("emit", emit(sb, 1000 * MS, 9000 * MS, &em, &tasks), 0);
		TEST_ASSERT_EQUAL("one task", tasks, 1);
		TEST_ASSERT_EQUAL("its fork", count_of(&em, PERF_RECORD_FORK, 60), 1);
		TEST_ASSERT_EQUAL("the name in force", count_of(&em, PERF_RECORD_COMM, 60), 1);
		TEST_ASSERT_EQUAL("the covering map and every late one",
				  count_of(&em, PERF_RECORD_MMAP2, 60), 1 + k);
	}
	sideband__delete(sb);

	/* The cap: exited tasks go first, then records are refused; nothing over it. */
	sb = sideband__new(1 << 20);
	TEST_ASSERT_VAL("new", sb);
	st = sideband__stats(sb);
	for (u32 i = 0; i < 20000; i++) {
		u32 tid = 100 + i;

		TEST_ASSERT_EQUAL("add", add_fork(sb, PERF_RECORD_FORK, tid, 1, tid, 1, (i + 1) * MS),
				  0);
		TEST_ASSERT_EQUAL("add", add_comm(sb, tid, tid, "short", (i + 1) * MS), 0);
		TEST_ASSERT_EQUAL("add", add_mmap(sb, tid, tid, 0x1000, (i + 1) * MS, 96), 0);
		if (i % 2)
			TEST_ASSERT_EQUAL("exit", add_fork(sb, PERF_RECORD_EXIT, tid, 1, tid, 1,
							   (i + 1) * MS + 1), 0);
		TEST_ASSERT_VAL("under the cap", st->bytes <= (1 << 20));
	}
	TEST_ASSERT_VAL("evicted some", st->evicted > 0);
	TEST_ASSERT_VAL("the live ones first filled it", st->dropped > 0);
	TEST_ASSERT_VAL("peak under the cap", st->peak_bytes <= (1 << 20));
	sideband__delete(sb);
	return TEST_OK;
}

DEFINE_SUITE(sideband, "Flight recorder process table: windows, parents, pruning, cap");

static int add_ksymbol(struct sideband *sb, u64 addr, bool unregister, u64 t)
{
	union perf_event *e = ev_buf();

	e->ksymbol.header.type = PERF_RECORD_KSYMBOL;
	e->ksymbol.header.size = sizeof(e->ksymbol) + 16;
	e->ksymbol.addr = addr;
	e->ksymbol.len = 64;
	e->ksymbol.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0;
	strcpy(e->ksymbol.name, "bpf_prog_x");
	return sideband__add(sb, e, t);
}

/*
 * How many records of @type, a program's code (KSYMBOL or BPF_EVENT), a
 * dump of [first, last] gets: those that end it (kind @end: KSYMBOL's
 * unregister flag, BPF_EVENT's unload) and those that begin it.
 */
static int code_records(struct sideband *sb, u32 type, u32 end, u64 first, u64 last,
			int *begin, int *ended)
{
	struct emitted em;
	u64 tasks;
	int err = emit(sb, first, last, &em, &tasks);

	*begin = *ended = 0;
	for (int i = 0; i < em.n && i < 256; i++)
		if (em.type[i] == type)
			(*(em.tid[i] == end ? ended : begin))++;
	return err;
}

/* How many KSYMBOL records of each kind a dump of [first, last] gets. */
static int ksymbols(struct sideband *sb, u64 first, u64 last, int *reg, int *unreg)
{
	return code_records(sb, PERF_RECORD_KSYMBOL, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER,
			    first, last, reg, unreg);
}

static int test__sideband_ksymbol(void)
{
	struct sideband *sb = sideband__new(1 << 20);
	const struct sideband_stats *st;
	int reg, unreg;

	TEST_ASSERT_VAL("table", sb);
	st = sideband__stats(sb);
	TEST_ASSERT_EQUAL("unregistered unseen", add_ksymbol(sb, 0x1000, true, 50 * MS), 0);
	TEST_ASSERT_EQUAL("nothing held for it", st->code, 0);
	TEST_ASSERT_EQUAL("register", add_ksymbol(sb, 0x1000, false, 100 * MS), 0);
	TEST_ASSERT_EQUAL("another, live", add_ksymbol(sb, 0x2000, false, 150 * MS), 0);
	TEST_ASSERT_EQUAL("unregister", add_ksymbol(sb, 0x1000, true, 200 * MS), 0);
	TEST_ASSERT_EQUAL("two held", st->code, 2);

	TEST_ASSERT_EQUAL("before both", ksymbols(sb, 10 * MS, 90 * MS, &reg, &unreg), 0);
	TEST_ASSERT_VAL("before both: none", reg == 0 && unreg == 0);
	TEST_ASSERT_EQUAL("while the first lives", ksymbols(sb, 110 * MS, 120 * MS, &reg, &unreg), 0);
	TEST_ASSERT_VAL("the first, and its end", reg == 1 && unreg == 1);
	TEST_ASSERT_EQUAL("both", ksymbols(sb, 120 * MS, 160 * MS, &reg, &unreg), 0);
	TEST_ASSERT_VAL("both registrations", reg == 2 && unreg == 1);
	TEST_ASSERT_EQUAL("after the first", ksymbols(sb, 250 * MS, 300 * MS, &reg, &unreg), 0);
	TEST_ASSERT_VAL("the live one only", reg == 1 && unreg == 0);

	sideband__prune(sb, 199 * MS);
	TEST_ASSERT_EQUAL("still needed", st->code, 2);
	sideband__prune(sb, 201 * MS);
	TEST_ASSERT_EQUAL("pruned once gone before any dump", st->code, 1);
	TEST_ASSERT_EQUAL("the rest", ksymbols(sb, 0, 1000 * MS, &reg, &unreg), 0);
	TEST_ASSERT_VAL("the live one", reg == 1 && unreg == 0);
	{
		union perf_event *e = ev_buf();

		e->ksymbol.header.type = PERF_RECORD_KSYMBOL;
		e->ksymbol.header.size = sizeof(e->ksymbol);
		TEST_ASSERT_EQUAL("no name", sideband__add(sb, e, 300 * MS), -EINVAL);
	}
	sideband__delete(sb);
	return TEST_OK;
}

DEFINE_SUITE(sideband_ksymbol, "Flight recorder process table: JITed kernel code for the dumps it overlaps");

static int add_bpf_event(struct sideband *sb, u32 id, u16 type, u64 t)
{
	union perf_event *e = ev_buf();

	e->bpf.header.type = PERF_RECORD_BPF_EVENT;
	e->bpf.header.size = sizeof(e->bpf);
	e->bpf.type = type;
	e->bpf.id = id;
	return sideband__add(sb, e, t);
}

/* How many BPF_EVENT loads and unloads a dump of [first, last] gets. */
static int bpf_events(struct sideband *sb, u64 first, u64 last, int *load, int *unload)
{
	return code_records(sb, PERF_RECORD_BPF_EVENT, PERF_BPF_EVENT_PROG_UNLOAD,
			    first, last, load, unload);
}

/*
 * A program's load and unload (BPF_EVENT) are kept as its code is, from
 * one to the other, for every dump they overlap: not written into
 * whatever file is open when they come, ahead of the dump's older records.
 */
static int test__sideband_bpf_event(void)
{
	struct sideband *sb = sideband__new(1 << 20);
	const struct sideband_stats *st;
	int load, unload;

	TEST_ASSERT_VAL("table", sb);
	st = sideband__stats(sb);
	TEST_ASSERT_VAL("wanted", sideband__wants(PERF_RECORD_BPF_EVENT));
	TEST_ASSERT_EQUAL("load", add_bpf_event(sb, 7, PERF_BPF_EVENT_PROG_LOAD, 100 * MS), 0);
	TEST_ASSERT_EQUAL("another", add_bpf_event(sb, 8, PERF_BPF_EVENT_PROG_LOAD, 150 * MS), 0);
	TEST_ASSERT_EQUAL("unload", add_bpf_event(sb, 7, PERF_BPF_EVENT_PROG_UNLOAD, 200 * MS), 0);
	TEST_ASSERT_EQUAL("two held", st->code, 2);
	TEST_ASSERT_EQUAL("both", bpf_events(sb, 120 * MS, 160 * MS, &load, &unload), 0);
	TEST_ASSERT_VAL("both loads, the first's unload", load == 2 && unload == 1);
	TEST_ASSERT_EQUAL("after the first", bpf_events(sb, 250 * MS, 300 * MS, &load, &unload), 0);
	TEST_ASSERT_VAL("the live one only", load == 1 && unload == 0);
	sideband__prune(sb, 201 * MS);
	TEST_ASSERT_EQUAL("the unloaded one pruned", st->code, 1);
	sideband__delete(sb);
	return TEST_OK;
}

DEFINE_SUITE(sideband_bpf_event, "Flight recorder process table: BPF programs' loads and unloads for the dumps they overlap");

/*
 * The name a trigger's task had: its last COMM by then (in time, not in the
 * order read), else what it was forked from.
 */
static int test__sideband_comm(void)
{
	struct sideband *sb = sideband__new(64 << 20);
	char name[16];

	TEST_ASSERT_VAL("new", sb);
	TEST_ASSERT_EQUAL("seed fork", add_fork(sb, PERF_RECORD_FORK, 10, 1, 10, 1, 0), 0);
	TEST_ASSERT_EQUAL("seed comm", add_comm(sb, 10, 10, "sh", 0), 0);
	TEST_ASSERT_EQUAL("fork", add_fork(sb, PERF_RECORD_FORK, 20, 10, 20, 10, 100 * MS), 0);
	TEST_ASSERT_EQUAL("exec", add_comm(sb, 20, 20, "prog", 101 * MS), 0);
	TEST_ASSERT_EQUAL("thread", add_fork(sb, PERF_RECORD_FORK, 20, 20, 21, 20, 110 * MS), 0);

	TEST_ASSERT_VAL("the shell", sideband__comm(sb, 10, 50 * MS, name, sizeof(name)) &&
			!strcmp(name, "sh"));
	TEST_ASSERT_VAL("forked, before its exec: its parent's name",
			sideband__comm(sb, 20, 100 * MS, name, sizeof(name)) && !strcmp(name, "sh"));
	TEST_ASSERT_VAL("after its exec", sideband__comm(sb, 20, 105 * MS, name, sizeof(name)) &&
			!strcmp(name, "prog"));
	TEST_ASSERT_VAL("a thread: its process's name",
			sideband__comm(sb, 21, 120 * MS, name, sizeof(name)) &&
			!strcmp(name, "prog"));
	TEST_ASSERT_VAL("an unknown task", !sideband__comm(sb, 99, 120 * MS, name, sizeof(name)));

	/*
	 * perf record's workload: "perf-exec" from /proc at the start, then
	 * its own prctl() name on one CPU and its exec on another.  The CPU
	 * of the exec was read first, so the older COMM was filed last.
	 */
	TEST_ASSERT_EQUAL("seeded workload", add_comm(sb, 30, 30, "perf-exec", 0), 0);
	TEST_ASSERT_EQUAL("its exec", add_comm(sb, 30, 30, "perf", 130 * MS), 0);
	TEST_ASSERT_EQUAL("its prctl, read later", add_comm(sb, 30, 30, "perf-exec", 120 * MS), 0);
	TEST_ASSERT_VAL("after its exec, whatever the order read",
			sideband__comm(sb, 30, 140 * MS, name, sizeof(name)) &&
			!strcmp(name, "perf"));
	TEST_ASSERT_VAL("between prctl and exec",
			sideband__comm(sb, 30, 125 * MS, name, sizeof(name)) &&
			!strcmp(name, "perf-exec"));
	TEST_ASSERT_VAL("at its exec",
			sideband__comm(sb, 30, 130 * MS, name, sizeof(name)) &&
			!strcmp(name, "perf"));
	sideband__delete(sb);
	return 0;
}

DEFINE_SUITE(sideband_comm, "Flight recorder process table: a task's name at a given time, for a trigger");
