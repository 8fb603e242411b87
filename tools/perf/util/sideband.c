/*
 * The flight recorder's process table: see sideband.h for what it is for.
 *
 * One entry per task lifetime (a tid that is reused gets a new entry; the
 * old one stays until no dump can need it).  An entry keeps the task's own
 * records as the kernel wrote them: its FORK, its COMMs, its EXIT, and for
 * a process leader the MMAP2s of the whole process (maps belong to the
 * process; a thread's entry points at its leader's).  An entry also points
 * at the entry of the task it was forked from: a reader that sees a FORK
 * gives the child its parent's name and maps, so the parent's records must
 * be in any dump that has the child's.
 *
 * Entries are found by tid in a util/hashtab of the tids, each with its
 * entries newest first (a tid's lifetimes, linked by their older).  Exited
 * entries also sit on a list in the order their EXIT came, which is nearly
 * the order of exit times: pruning and eviction take from its front.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sideband.h"
#include "array.h"
#include "list.h"
#include "hash.h"
#include "hashtab.h"

struct sb_task {
	struct sb_task *older;		/* the previous entry of this tid */
	struct list_head exit_node;	/* on sb->exited while hashed and exited */
	struct sb_task *parent;		/* forked from (a reference), or NULL */
	struct sb_task *leader;		/* a thread's process leader (a reference), or NULL */
	u32 pid, tid;
	int refs;			/* the hash's, plus one per child or thread pointing here */
	bool hashed;
	bool exited;
	bool stub;			/* made for a record that came before its FORK */
	u64 start;			/* FORK time; 0: born before recording (or unknown) */
	u64 exit;			/* EXIT time, when exited */
	u64 first;			/* time of the first record kept */
	u32 gen;			/* the last emit that wrote this task */
	u8 *recs;			/* its records: each a u64 time, then the record */
	u32 len, cap;
	u32 compact_len;		/* len after the last compaction */
};

/*
 * One piece of JITed kernel code, its KSYMBOL records, register then
 * unregister; or one BPF program, its BPF_EVENT records, load then unload.
 */
struct sb_code {
	struct list_head node;		/* on sb->code, in registration order */
	u32 type;			/* PERF_RECORD_KSYMBOL or PERF_RECORD_BPF_EVENT */
	u64 key;			/* the code's address, the program's id */
	u64 start, end;			/* registration and unregistration times; end 0: live */
	union perf_event *reg, *unreg;	/* copies; unreg NULL while live */
};

/* A tid's entries in the table. */
struct sb_tid {
	u32 tid;
	struct sb_task *newest;
};

struct sideband {
	struct list_head code;		/* struct sb_code */
	struct hashtab tids;		/* of struct sb_tid */
	struct list_head exited;	/* hashed, exited entries, oldest EXIT first */
	u64 max_bytes;
	u32 gen;			/* of the current or last emit */
	u64 need_from;			/* as last told to sideband__prune() */
	struct sideband_stats stats;
};

/* Below this a live task's history is not worth compacting. */
#define SB_COMPACT_MIN		(16 * 1024)
/* Above this many old maps the coverage pass (quadratic) is skipped. */
#define SB_COMPACT_MAX_MAPS	4096

#define SB_MIN_TIDS 512

static u64 sb_tid__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash(((const struct sb_tid *)entry)->tid);
}

static bool sb_tid__equal(const void *entry, const void *tid, void *ctx)
{
	(void)ctx;
	return ((const struct sb_tid *)entry)->tid == *(const u32 *)tid;
}

static struct sb_tid *sb__find_tid(const struct sideband *sb, u32 tid)
{
	return hashtab__find(&sb->tids, &tid, u64__hash(tid));
}

/* What the table's slots take. */
static u64 sb__tids_bytes(const struct sideband *sb)
{
	return sb->tids.cap * (sizeof(struct sb_tid) + 1);
}

static void sb__charge(struct sideband *sb, s64 bytes)
{
	sb->stats.bytes += bytes;
	if (sb->stats.bytes > sb->stats.peak_bytes)
		sb->stats.peak_bytes = sb->stats.bytes;
}

struct sideband *sideband__new(u64 max_bytes)
{
	struct sideband *sb = calloc(1, sizeof(*sb));

	if (!sb)
		return NULL;
	hashtab__init(&sb->tids, sizeof(struct sb_tid), 2 * SB_MIN_TIDS, sb_tid__hash,
		      sb_tid__equal, NULL);
	if (hashtab__reserve(&sb->tids, SB_MIN_TIDS)) {
		free(sb);
		return NULL;
	}
	sb->max_bytes = max_bytes;
	INIT_LIST_HEAD(&sb->exited);
	INIT_LIST_HEAD(&sb->code);
	sb__charge(sb, sb__tids_bytes(sb));
	return sb;
}

static void sb_task__put(struct sideband *sb, struct sb_task *t)
{
	/* Iterative: a chain of exited ancestors can be long. */
	while (t && --t->refs == 0) {
		struct sb_task *parent = t->parent, *leader = t->leader;

		sb__charge(sb, -(s64)(sizeof(*t) + t->cap));
		sb->stats.tasks--;
		free(t->recs);
		free(t);
		sb_task__put(sb, leader);
		t = parent;
	}
}

/* The table's reference to @t dropped (@t is off the table already). */
static void sb_task__unhashed(struct sideband *sb, struct sb_task *t)
{
	t->older = NULL;
	t->hashed = false;
	if (t->exited)
		list_del_init(&t->exit_node);
	sb_task__put(sb, t);
}

static void sb__unhash(struct sideband *sb, struct sb_task *t)
{
	struct sb_tid *slot = sb__find_tid(sb, t->tid);
	struct sb_task **pp = &slot->newest;

	while (*pp != t)
		pp = &(*pp)->older;
	*pp = t->older;
	if (!slot->newest)
		hashtab__remove(&sb->tids, slot);
	sb_task__unhashed(sb, t);
}

static void sb_code__delete(struct sideband *sb, struct sb_code *c)
{
	sb__charge(sb, -(s64)(sizeof(*c) + c->reg->header.size +
			      (c->unreg ? c->unreg->header.size : 0)));
	sb->stats.code--;
	list_del_init(&c->node);
	free(c->reg);
	free(c->unreg);
	free(c);
}

void sideband__delete(struct sideband *sb)
{
	struct sb_tid *slot;
	size_t i;

	if (!sb)
		return;
	while (!list_empty(&sb->code))
		sb_code__delete(sb, list_first_entry(&sb->code, struct sb_code, node));
	hashtab__for_each(&sb->tids, i, slot) {
		for (struct sb_task *t = slot->newest, *older; t; t = older) {
			older = t->older;
			sb_task__unhashed(sb, t);
		}
	}
	hashtab__exit(&sb->tids);
	free(sb);
}

static struct sb_task *sb__lookup(const struct sideband *sb, u32 tid)
{
	struct sb_tid *slot = sb__find_tid(sb, tid);

	return slot ? slot->newest : NULL;
}

/*
 * @t as the newest entry of its tid; -ENOMEM.  @seen: the tid may have
 * entries.  The callers have just looked it up, so a new tid, the common
 * case, is not looked for again (making room only takes entries out).
 */
static int sb__hash_task(struct sideband *sb, struct sb_task *t, bool seen)
{
	struct sb_tid *slot = seen ? sb__find_tid(sb, t->tid) : NULL;
	u64 bytes = sb__tids_bytes(sb);

	if (slot) {
		t->older = slot->newest;
		slot->newest = t;
		return 0;
	}
	if (!hashtab__add(&sb->tids, &(struct sb_tid){ t->tid, t }, u64__hash(t->tid)))
		return -ENOMEM;
	sb__charge(sb, (s64)(sb__tids_bytes(sb) - bytes));
	return 0;
}

static struct sb_task *sb__new_task(struct sideband *sb, u32 pid, u32 tid, u64 start,
				    bool seen)
{
	struct sb_task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (sb__hash_task(sb, t, seen)) {
		free(t);
		return NULL;
	}
	t->start = start;
	t->refs = 1;
	t->hashed = true;
	INIT_LIST_HEAD(&t->exit_node);
	sb->stats.tasks++;
	sb__charge(sb, sizeof(*t));
	return t;
}

static void sb__mark_exited(struct sideband *sb, struct sb_task *t, u64 time)
{
	if (t->exited) {
		if (time > t->exit)
			t->exit = time;
		return;
	}
	t->exited = true;
	t->exit = time;
	if (t->hashed)
		list_add_tail(&t->exit_node, &sb->exited);
}

/* Makes room for @bytes under the cap, evicting the oldest exited tasks. */
static bool sb__make_room(struct sideband *sb, u64 bytes)
{
	while (sb->stats.bytes + bytes > sb->max_bytes && !list_empty(&sb->exited)) {
		struct sb_task *t = list_first_entry(&sb->exited, struct sb_task, exit_node);

		sb->stats.evicted++;
		sb__unhash(sb, t);
	}
	return sb->stats.bytes + bytes <= sb->max_bytes;
}

static bool sb__is_map(u32 type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2;
}

/* A kept record: the u64 time it was taken, then the record itself. */
static u64 sb_rec__time(const struct sb_task *t, u32 off)
{
	return *(const u64 *)(t->recs + off);
}

static union perf_event *sb_rec__event(const struct sb_task *t, u32 off)
{
	return (union perf_event *)(t->recs + off + sizeof(u64));
}

static u32 sb_rec__size(const struct sb_task *t, u32 off)
{
	return sizeof(u64) + sb_rec__event(t, off)->header.size;
}

/* A compaction's view of a task's records: where each starts, and what goes. */
struct sb_compact {
	u32 n;			/* records */
	u32 *offs;		/* of each record in recs */
	bool *drop;
	bool *old_map;		/* a map from before @need, not dropped (yet) */
};

static int sb_compact__init(struct sb_compact *c, const struct sb_task *t)
{
	u32 n = 0;

	for (u32 off = 0; off < t->len; n++)
		off += sb_rec__size(t, off);
	c->n = n;
	c->offs = malloc(n * sizeof(*c->offs));
	c->drop = calloc(n, sizeof(*c->drop));
	c->old_map = calloc(n, sizeof(*c->old_map));
	n = 0;
	if (c->offs)
		for (u32 off = 0; off < t->len; off += sb_rec__size(t, off))
			c->offs[n++] = off;
	return c->offs && c->drop && c->old_map ? 0 : -ENOMEM;
}

static void sb_compact__exit(struct sb_compact *c)
{
	free(c->offs);
	free(c->drop);
	free(c->old_map);
}

/*
 * Before @need: every COMM but the last goes, and every map from before
 * the last exec; the maps that stay are marked old.  Returns how many.
 */
static u32 sb_compact__mark_old(struct sb_compact *c, const struct sb_task *t, u64 need)
{
	u32 last_comm = ~0u, nmaps = 0;
	u64 exec_time = 0, comm_time = 0;

	for (u32 i = 0; i < c->n; i++) {
		const union perf_event *e = sb_rec__event(t, c->offs[i]);
		u64 time = sb_rec__time(t, c->offs[i]);

		/* By time: two CPUs' buffers may be read out of order. */
		if (time < need && e->header.type == PERF_RECORD_COMM) {
			if (last_comm == ~0u || time >= comm_time) {
				last_comm = i;
				comm_time = time;
			}
			if ((e->header.misc & PERF_RECORD_MISC_COMM_EXEC) && time > exec_time)
				exec_time = time;
		}
	}
	for (u32 i = 0; i < c->n; i++) {
		u32 type = sb_rec__event(t, c->offs[i])->header.type;
		u64 time = sb_rec__time(t, c->offs[i]);

		if (time >= need)
			continue;
		if (type == PERF_RECORD_COMM) {
			c->drop[i] = i != last_comm;
		} else if (sb__is_map(type)) {
			c->drop[i] = time < exec_time;
			c->old_map[i] = !c->drop[i];
			nmaps += c->old_map[i];
		}
	}
	return nmaps;
}

/* An old map that a later map (in time) covers wholly goes. */
static void sb_compact__drop_covered(struct sb_compact *c, const struct sb_task *t)
{
	for (u32 i = 0; i < c->n; i++) {
		const union perf_event *a = sb_rec__event(t, c->offs[i]);
		u64 ta = sb_rec__time(t, c->offs[i]);

		if (!c->old_map[i])
			continue;
		for (u32 j = i + 1; j < c->n; j++) {
			const union perf_event *b = sb_rec__event(t, c->offs[j]);

			/* Later in time, not just read later (buffers of two CPUs). */
			if (!c->old_map[j] || c->drop[j] || sb_rec__time(t, c->offs[j]) < ta)
				continue;
			/* MMAP and MMAP2 agree on where start and len are. */
			if (b->mmap.start <= a->mmap.start &&
			    b->mmap.start + b->mmap.len >= a->mmap.start + a->mmap.len) {
				c->drop[i] = true;
				break;
			}
		}
	}
}

/* The records that stay moved up over those that go. */
static void sb_compact__squeeze(struct sb_compact *c, struct sideband *sb, struct sb_task *t)
{
	u32 out = 0;

	for (u32 i = 0; i < c->n; i++) {
		u32 size = (i + 1 < c->n ? c->offs[i + 1] : t->len) - c->offs[i];

		if (c->drop[i]) {
			sb->stats.trimmed++;
			continue;
		}
		if (out != c->offs[i])
			memmove(t->recs + out, t->recs + c->offs[i], size);
		out += size;
	}
	t->len = out;
}

/* Gives back what a much shorter history no longer needs. */
static void sb_task__shrink(struct sideband *sb, struct sb_task *t)
{
	u32 cap = 256;
	u8 *recs;

	if (t->cap <= 256 || t->len >= t->cap / 4)
		return;
	while (cap < 2 * t->len)
		cap *= 2;
	recs = realloc(t->recs, cap);
	if (recs) {
		sb__charge(sb, -(s64)(t->cap - cap));
		t->recs = recs;
		t->cap = cap;
	}
}

/*
 * What a live task's records say about the time before @need, which no
 * dump will hold, can be said shorter: only its last COMM from then counts
 * (the name in force at @need), no map from before its last exec does, and
 * a map wholly covered by a later one is replaced by it.  Its FORK stays:
 * it ties the task to its parent.  Everything from @need on stays.  Maps
 * that are merely old stay too: without munmap records nobody can tell
 * whether they are still mapped.
 */
static void sb_task__compact(struct sideband *sb, struct sb_task *t, u64 need)
{
	struct sb_compact c;

	if (!sb_compact__init(&c, t)) {
		/* The coverage pass is quadratic: past so many old maps it is skipped. */
		if (sb_compact__mark_old(&c, t, need) <= SB_COMPACT_MAX_MAPS)
			sb_compact__drop_covered(&c, t);
		sb_compact__squeeze(&c, sb, t);
		sb_task__shrink(sb, t);
	}
	t->compact_len = t->len;
	sb_compact__exit(&c);
}

static int sb_task__append(struct sideband *sb, struct sb_task *t,
			   const union perf_event *event, u64 time)
{
	u32 size = sizeof(u64) + event->header.size;

	if (t->len + size > t->cap) {
		u32 cap = t->cap ? t->cap : 256;
		u8 *recs;

		/* A long-lived task: first forget what no dump can need. */
		if (!t->exited && sb->need_from && t->len >= SB_COMPACT_MIN &&
		    t->len >= 2 * t->compact_len) {
			sb_task__compact(sb, t, sb->need_from);
			if (t->len + size <= t->cap)
				goto copy;
		}
		while (cap < t->len + size)
			cap *= 2;
		if (!sb__make_room(sb, cap - t->cap)) {
			sb->stats.dropped++;
			return 0;
		}
		recs = realloc(t->recs, cap);
		if (!recs)
			return -ENOMEM;
		sb__charge(sb, cap - t->cap);
		t->recs = recs;
		t->cap = cap;
	}
copy:
	if (!t->len)
		t->first = time;
	memcpy(t->recs + t->len, &time, sizeof(u64));
	memcpy(t->recs + t->len + sizeof(u64), event, event->header.size);
	t->len += size;
	return 0;
}

/*
 * The newest entry of @tid, or a stub for a task first seen by a record
 * other than its FORK.  *@t is NULL (and 0 returned) when the cap refused
 * a new entry.
 */
static int sb__task_of(struct sideband *sb, u32 pid, u32 tid, u64 time, struct sb_task **t)
{
	*t = sb__lookup(sb, tid);
	if (*t)
		return 0;
	if (!sb__make_room(sb, sizeof(**t))) {
		sb->stats.dropped++;
		return 0;
	}
	*t = sb__new_task(sb, pid, tid, 0, false);
	if (!*t)
		return -ENOMEM;
	(*t)->stub = time != 0;
	(*t)->first = time;
	return 0;
}

/* A thread's records go to its own entry; it points at its leader for the maps. */
static int sb__link_leader(struct sideband *sb, struct sb_task *t, u64 time)
{
	struct sb_task *leader;
	int err;

	if (t->pid == t->tid || t->leader)
		return 0;
	err = sb__task_of(sb, t->pid, t->pid, time, &leader);
	if (err || !leader)
		return err;
	leader->refs++;
	t->leader = leader;
	return 0;
}

/* Files @event under @t (held by the caller), then its leader link. */
static int sb__file(struct sideband *sb, struct sb_task *t, const union perf_event *event, u64 time)
{
	int err;

	t->refs++;	/* making room may evict @t itself */
	err = sb__link_leader(sb, t, time);
	if (!err)
		err = sb_task__append(sb, t, event, time);
	if (!err && event->header.type == PERF_RECORD_EXIT)
		sb__mark_exited(sb, t, time);
	sb_task__put(sb, t);
	return err;
}

static int sb__fork(struct sideband *sb, const union perf_event *event, u64 time)
{
	const struct perf_record_fork *f = &event->fork;
	struct sb_task *t = sb__lookup(sb, f->tid);

	if (t && (!time || (t->stub && t->first >= time))) {
		/*
		 * Synthesized twice, or its first records came before its FORK
		 * (they were in another CPU's buffer): the same task.
		 */
		t->stub = false;
	} else {
		/* A tid seen again: the old task's EXIT was lost, or the tid is reused. */
		if (t && !t->exited)
			sb__mark_exited(sb, t, time);
		if (!sb__make_room(sb, sizeof(*t))) {
			sb->stats.dropped++;
			return 0;
		}
		t = sb__new_task(sb, f->pid, f->tid, time, t != NULL);
		if (!t)
			return -ENOMEM;
	}
	t->start = time;
	/* Records synthesized at the start describe a state, not a fork to replay. */
	if (time && !t->parent && f->ptid != f->tid) {
		struct sb_task *parent = sb__lookup(sb, f->ptid);

		if (parent) {
			parent->refs++;
			t->parent = parent;
		}
	}
	return sb__file(sb, t, event, time);
}

static union perf_event *sb__copy(const union perf_event *event)
{
	union perf_event *e = malloc(event->header.size);

	if (e)
		memcpy(e, event, event->header.size);
	return e;
}

/*
 * Code registered or a program loaded (a new entry), or code unregistered
 * or a program unloaded (its live entry at that address, of that id,
 * ends).  An end whose start was never seen (the program was loaded
 * before recording) has nothing to end.
 */
static int sb__code(struct sideband *sb, const union perf_event *event, u64 time)
{
	u32 type = event->header.type;
	bool ksym = type == PERF_RECORD_KSYMBOL;
	u64 key = ksym ? event->ksymbol.addr : event->bpf.id;
	struct sb_code *c;

	if (ksym ? event->ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER :
		   event->bpf.type == PERF_BPF_EVENT_PROG_UNLOAD) {
		list_for_each_entry(c, &sb->code, node) {
			if (c->type != type || c->key != key || c->unreg)
				continue;
			c->unreg = sb__copy(event);
			if (!c->unreg)
				return -ENOMEM;
			c->end = time;
			sb__charge(sb, event->header.size);
			return 0;
		}
		return 0;
	}
	if (!sb__make_room(sb, sizeof(*c) + event->header.size)) {
		sb->stats.dropped++;
		return 0;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->reg = sb__copy(event))) {
		free(c);
		return -ENOMEM;
	}
	c->type = type;
	c->key = key;
	c->start = time;
	list_add_tail(&c->node, &sb->code);
	sb->stats.code++;
	sb__charge(sb, sizeof(*c) + event->header.size);
	return 0;
}

int sideband__add(struct sideband *sb, const union perf_event *event, u64 time)
{
	u32 type = event->header.type, size = event->header.size, pid, tid;
	size_t need;
	struct sb_task *t;
	int err;

	switch (type) {
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		need = sizeof(struct perf_record_fork);
		break;
	case PERF_RECORD_COMM:
		need = offsetof(struct perf_record_comm, comm);
		break;
	case PERF_RECORD_MMAP:
		need = offsetof(struct perf_record_mmap, filename);
		break;
	case PERF_RECORD_MMAP2:
		need = offsetof(struct perf_record_mmap2, filename);
		break;
	case PERF_RECORD_KSYMBOL:
		need = sizeof(struct perf_record_ksymbol) + 1;
		break;
	case PERF_RECORD_BPF_EVENT:
		need = sizeof(struct perf_record_bpf_event);
		break;
	default:
		return -EINVAL;
	}
	if (size < need || size % sizeof(u64))
		return -EINVAL;
	sb->stats.records++;
	if (type == PERF_RECORD_FORK)
		return sb__fork(sb, event, time);
	if (type == PERF_RECORD_KSYMBOL || type == PERF_RECORD_BPF_EVENT)
		return sb__code(sb, event, time);

	pid = event->comm.pid;		/* pid, tid lead every one of these layouts */
	tid = event->comm.tid;
	if (type == PERF_RECORD_EXIT) {
		pid = event->fork.pid;
		tid = event->fork.tid;
	} else if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) {
		tid = pid;		/* maps belong to the process */
	}
	err = sb__task_of(sb, pid, tid, time, &t);
	if (err || !t)
		return err;
	return sb__file(sb, t, event, time);
}

bool sideband__comm(const struct sideband *sb, u32 tid, u64 time, char *buf, size_t size)
{
	const struct sb_task *t = sb__lookup(sb, tid);

	/* A task forked without an exec has its parent's name; a loop of parents ends here. */
	for (int depth = 0; t && depth < 64; t = t->parent, depth++) {
		const char *name = NULL;
		u64 name_time = 0;

		for (u32 off = 0; off + sizeof(u64) + sizeof(struct perf_event_header) <= t->len;) {
			const union perf_event *ev = (const void *)(t->recs + off + sizeof(u64));
			u64 when;

			memcpy(&when, t->recs + off, sizeof(when));
			if (!ev->header.size)
				break;
			/*
			 * The latest by time: CPUs' buffers are read one after
			 * another, so an older COMM may be filed after a newer
			 * one.  Of two at one time, the one filed later.
			 */
			if (ev->header.type == PERF_RECORD_COMM && when <= time &&
			    (!name || when >= name_time)) {
				name = ev->comm.comm;
				name_time = when;
			}
			off += sizeof(u64) + ev->header.size;
		}
		if (name) {
			snprintf(buf, size, "%.15s", name);
			return true;
		}
	}
	return false;
}

void sideband__prune(struct sideband *sb, u64 need_from)
{
	struct sb_code *c, *n;

	sb->need_from = need_from;
	list_for_each_entry_safe(c, n, &sb->code, node)
		if (c->unreg && c->end < need_from)
			sb_code__delete(sb, c);
	/* The list is in the order EXITs were read: stop at the first one still needed. */
	while (!list_empty(&sb->exited)) {
		struct sb_task *t = list_first_entry(&sb->exited, struct sb_task, exit_node);

		if (t->exit >= need_from)
			break;
		sb->stats.pruned++;
		sb__unhash(sb, t);
	}
}

/*
 * One emit's records, gathered so that they go out in time order: each
 * with its time and its place in the order gathered, which breaks ties.
 */
struct sb_out {
	u64 time;
	size_t seq;
	const union perf_event *event;
};

struct sb_outs {
	struct sb_out *v;
	size_t n, cap;
};

static int sb_outs__add(struct sb_outs *o, const union perf_event *event, u64 time)
{
	if (array__room((void **)&o->v, &o->cap, o->n, sizeof(*o->v), 256))
		return -ENOMEM;
	o->v[o->n] = (struct sb_out){ .time = time, .seq = o->n, .event = event };
	o->n++;
	return 0;
}

static int sb_out__cmp(const void *a, const void *b)
{
	const struct sb_out *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Gathers one task's records after what it came from, its parent and its
 * process leader, so a reader meets a process before its threads and a
 * parent before its child.  Records from /proc all carry time 0, so this
 * order is the order a reader applies them in: a thread met first gets its
 * process made up for it, whose maps the leader's own FORK then replaces,
 * and the thread's samples find no maps.  The ancestors go on an explicit
 * stack (a chain of forks can be deeper than we would like to recurse).  A
 * task is marked when pushed, so a loop of parents (tid reuse) ends, and
 * gathered when it is back on top with no unmarked ancestor.
 */
static int sb__emit_task(struct sideband *sb, struct sb_task *task, struct sb_outs *out,
			 u64 *nr_tasks, struct sb_task ***stack, size_t *stack_cap)
{
	size_t depth = 0;

	if (task->gen == sb->gen)
		return 0;
	task->gen = sb->gen;
	(*stack)[depth++] = task;
	while (depth) {
		struct sb_task *t = (*stack)[depth - 1];
		struct sb_task *up = NULL;

		if (t->parent && t->parent->gen != sb->gen)
			up = t->parent;
		else if (t->leader && t->leader->gen != sb->gen)
			up = t->leader;
		if (up) {
			if (depth + 1 > *stack_cap) {
				size_t cap = *stack_cap * 2;
				struct sb_task **s = realloc(*stack, cap * sizeof(*s));

				if (!s)
					return -ENOMEM;
				*stack = s;
				*stack_cap = cap;
			}
			up->gen = sb->gen;
			(*stack)[depth++] = up;
			continue;
		}
		depth--;
		for (u32 off = 0; off < t->len; off += sb_rec__size(t, off))
			if (sb_outs__add(out, sb_rec__event(t, off), sb_rec__time(t, off)))
				return -ENOMEM;
		(*nr_tasks)++;
	}
	return 0;
}

int sideband__emit(struct sideband *sb, u64 first, u64 last, perf_event__handler_t process,
		   void *arg, u64 *nr_tasks)
{
	size_t stack_cap = 64, i;
	struct sb_task **stack = malloc(stack_cap * sizeof(*stack));
	struct sb_outs out = { .v = NULL };
	struct sb_tid *slot;
	struct sb_code *c;
	int err = 0;

	*nr_tasks = 0;
	if (!stack)
		return -ENOMEM;
	/* Generation 0 is what a new entry has: never the current one. */
	if (++sb->gen == 0)
		sb->gen = 1;
	hashtab__for_each(&sb->tids, i, slot) {
		for (struct sb_task *t = slot->newest; t && !err; t = t->older) {
			if (t->start > last || (t->exited && t->exit < first))
				continue;
			err = sb__emit_task(sb, t, &out, nr_tasks, &stack, &stack_cap);
		}
	}
	free(stack);
	/* The kernel code that was there at some time the dump covers. */
	list_for_each_entry(c, &sb->code, node) {
		if (err)
			break;
		if (c->start > last || (c->unreg && c->end < first))
			continue;
		err = sb_outs__add(&out, c->reg, c->start);
		if (!err && c->unreg)
			err = sb_outs__add(&out, c->unreg, c->end);
	}
	/*
	 * By time, those of one time in the order gathered: a reader that has
	 * flushed what came before never meets an older record after it.
	 */
	if (!err && out.n)
		qsort(out.v, out.n, sizeof(*out.v), sb_out__cmp);
	for (i = 0; !err && i < out.n; i++)
		err = process(arg, (union perf_event *)out.v[i].event);
	free(out.v);
	return err;
}

bool sideband__emitted(const struct sideband *sb, u32 pid)
{
	const struct sb_tid *slot = sb__find_tid(sb, pid);

	for (const struct sb_task *t = slot ? slot->newest : NULL; t; t = t->older)
		if (t->gen == sb->gen)
			return true;
	return false;
}

const struct sideband_stats *sideband__stats(const struct sideband *sb)
{
	return &sb->stats;
}
