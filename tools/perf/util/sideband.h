#ifndef PERF_UTIL_SIDEBAND_H
#define PERF_UTIL_SIDEBAND_H
/*
 * The process table of a flight recorder.
 *
 * With --overwrite, samples live in backward buffers that the kernel keeps
 * overwriting, while the records that name their tasks (COMM, FORK, EXIT,
 * MMAP2) come once, when a task is born, execs or maps a file.  A dump taken
 * long after a program exec'd would find its samples but not its name or
 * its maps.  So the recorder drains those records from a forward tracking
 * stream as they come and folds them in here, task by task; each dump then
 * writes, ahead of its samples, the records of every task that was alive
 * at some time the dump covers (with their parents and process leaders,
 * whose state a reader replays to inherit names and maps).
 *
 * Memory is bounded three ways: a task that exited before anything a future
 * dump can hold is dropped (sideband__prune(), the recorder tells the time);
 * a live task with a long history has what it said before that time
 * compacted (its last name, its maps since its last exec, minus those a
 * later map covers); and a hard cap evicts the oldest exited tasks first,
 * then refuses records.  All are counted in the stats.
 *
 * JITed kernel code (KSYMBOL records: BPF programs that come and go) is
 * kept beside the tasks, each program from its registration to its
 * unregistration, and emitted into every dump whose time it overlaps, so a
 * dump names the samples that ran in it; so are the programs' loads and
 * unloads (BPF_EVENT records), which would otherwise go into whatever file
 * is open, ahead of the records of older times its dump writes.
 *
 * Records are kept as they came from the kernel (with their sample-id
 * trailers, so a reader sorts them by time); records synthesized from /proc
 * at the start carry time 0 and predate everything.
 */
#include "types.h"
#include "event.h"

struct sideband;

struct sideband_stats {
	u64 bytes;		/* held now: tasks, their records, the hash */
	u64 peak_bytes;
	u64 tasks;		/* tasks in the table now */
	u64 records;		/* records folded in, in all */
	u64 pruned;		/* tasks dropped: exited before anything a dump can need */
	u64 evicted;		/* tasks forced out by the cap */
	u64 dropped;		/* records refused by the cap */
	u64 trimmed;		/* records of live tasks superseded before anything a dump can need */
	u64 code;		/* JITed kernel code (KSYMBOL) and programs (BPF_EVENT) held now */
};

/* @max_bytes: the hard cap on what the table holds. */
struct sideband *sideband__new(u64 max_bytes);
void sideband__delete(struct sideband *sb);

/* The record types the table keeps. */
static inline bool sideband__wants(u32 type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
	       type == PERF_RECORD_EXIT || type == PERF_RECORD_MMAP ||
	       type == PERF_RECORD_MMAP2 || type == PERF_RECORD_KSYMBOL ||
	       type == PERF_RECORD_BPF_EVENT;
}

/*
 * Folds in one record of a type sideband__wants(), taken at @time (0 for
 * what was synthesized from /proc).  The record is copied.  Returns 0 (also
 * when the cap refused it, which is counted), -EINVAL for a record too
 * short for its type, -ENOMEM.
 */
int sideband__add(struct sideband *sb, const union perf_event *event, u64 time);

/*
 * No dump will hold anything older than @need_from: tasks that exited
 * before it are dropped (once no kept task names them as parent or leader),
 * and live tasks whose history grows are compacted up to it.
 */
void sideband__prune(struct sideband *sb, u64 need_from);

/*
 * Hands to @process, one by one, the records of every task alive at some
 * time in [@first, @last] (born at or before @last, not exited before
 * @first), and of the parents and leaders those tasks came from, and the
 * KSYMBOL records of the code that lived then.  They come in time order,
 * those of one time (the time-0 ones from /proc) a process before its
 * threads and a parent before its child.  Each task is emitted once per
 * call, and every one is chosen before the first record is handed over
 * (sideband__emitted() knows them all from then on).  *@nr_tasks: how many
 * tasks were emitted.  Returns 0, -ENOMEM or the first error of @process.
 */
int sideband__emit(struct sideband *sb, u64 first, u64 last, perf_event__handler_t process,
		   void *arg, u64 *nr_tasks);

/* True if the last sideband__emit() wrote process @pid (its leader). */
bool sideband__emitted(const struct sideband *sb, u32 pid);
/*
 * The name task @tid had at @time: its COMM latest in time at or before
 * @time, whatever order the COMMs were added in (or its parent's); false
 * if unknown.
 */
bool sideband__comm(const struct sideband *sb, u32 tid, u64 time, char *buf, size_t size);

const struct sideband_stats *sideband__stats(const struct sideband *sb);

#endif
