// SPDX-License-Identifier: GPL-2.0
/*
 * perf record --off-cpu: at each context switch, the task going to sleep
 * is stamped with the time and its user stack; when it runs again, the
 * time it spent off the CPU is added up by (pid, tgid, stack, state).
 * perf reads the sums at the end of recording and writes them as samples
 * of the offcpu-time event (util/off-cpu.c).
 *
 * Built with clang -target bpf; the few kernel fields read are declared
 * here and relocated by CO-RE against the running kernel's BTF, so no
 * vmlinux.h is needed.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* Frames per stack, as the reader's buffer expects (off-cpu.h: OFF_CPU_MAX_STACK). */
#define MAX_STACK		32
/* TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE: a task that waits, not one preempted. */
#define TASK_WAITING		0x3

struct task_struct {
	int pid;
	int tgid;
	unsigned int __state;
} __attribute__((preserve_access_index));

/* What a sleeping task was doing when it left the CPU. */
struct off_cpu_stamp {
	__u64 since;
	__u32 stack_id;
	__u32 state;
};

/* The sum's key; its layout is struct off_cpu_key in off-cpu.c. */
struct off_cpu_key {
	__u32 pid;
	__u32 tgid;
	__u32 stack_id;
	__u32 state;
	__u64 cgroup_id;
};

/*
 * Key 0: whether recording counts yet; whether only the processes (threads)
 * in 'tgids' do; whether only the waits that begin on a CPU of 'cpus' do;
 * whether only the tasks of the cgroups in 'cgroups' (-G) do.
 */
struct off_cpu_conf {
	__u32 enabled;
	__u32 by_tgid;
	__u32 by_pid;
	__u32 by_cpu;
	__u32 by_cgroup;
};

/* The highest CPU number -C can name, plus one. */
#define MAX_CPUS		8192

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK * sizeof(__u64));
	__uint(max_entries, 16384);
} stacks SEC(".maps");

/*
 * The stamps of the tasks asleep, by tid.  A hash, not task storage: a
 * task's first stamp there is an allocation behind a per-CPU trylock,
 * which can fail inside sched_switch and lose that sleep (a test run with
 * task storage counted 97 ms for 20 sleeps of 5 ms).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct off_cpu_stamp);
	__uint(max_entries, 32768);
} stamps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct off_cpu_key);
	__type(value, __u64);
	__uint(max_entries, 16384);
} off_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1024);
} tgids SEC(".maps");

/* -C: 1 at each CPU recorded. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, MAX_CPUS);
} cpus SEC(".maps");

/* -G: the ids of the cgroups recorded (their own tasks, not their children's). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u8);
	__uint(max_entries, 256);
} cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct off_cpu_conf);
	__uint(max_entries, 1);
} conf SEC(".maps");

/*
 * With -C, a wait is counted where it begins: on the CPU the task leaves.
 * With -G, if that task is in a cgroup recorded: sched_switch runs in the
 * task leaving, so its cgroup is the current one.
 */
static int counts_here(const struct off_cpu_conf *c)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 cgroup;
	__u8 *on;

	if (c->by_cpu) {
		on = bpf_map_lookup_elem(&cpus, &cpu);
		if (!on || !*on)
			return 0;
	}
	if (c->by_cgroup) {
		cgroup = bpf_get_current_cgroup_id();
		if (!bpf_map_lookup_elem(&cgroups, &cgroup))
			return 0;
	}
	return 1;
}

static int counts(const struct off_cpu_conf *c, struct task_struct *t)
{
	__u32 id;

	if (c->by_tgid)
		id = BPF_CORE_READ(t, tgid);
	else if (c->by_pid)
		id = BPF_CORE_READ(t, pid);
	else
		return 1;
	return bpf_map_lookup_elem(&tgids, &id) != NULL;
}

/*
 * The task leaving the CPU to wait: when, and where in its code.  @state is
 * the one the scheduler decided on; a task preempted is not waiting.
 */
static void stamp_prev(void *ctx, struct task_struct *prev, unsigned int state,
		       const struct off_cpu_conf *c)
{
	struct off_cpu_stamp st;
	__u32 tid;
	long id;

	if (!(state & TASK_WAITING) || !counts_here(c) || !counts(c, prev))
		return;
	id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP | BPF_F_USER_STACK);
	if (id < 0)
		return;
	tid = BPF_CORE_READ(prev, pid);
	st.since = bpf_ktime_get_ns();
	st.stack_id = id;
	st.state = state;
	bpf_map_update_elem(&stamps, &tid, &st, BPF_ANY);
}

/* The task coming back: its wait added to its stack's sum. */
static void account_next(struct task_struct *next)
{
	__u32 tid = BPF_CORE_READ(next, pid);
	struct off_cpu_stamp *s = bpf_map_lookup_elem(&stamps, &tid);
	struct off_cpu_key key = {};
	__u64 delta, *sum;

	if (!s)
		return;
	delta = bpf_ktime_get_ns() - s->since;
	key.pid = tid;
	key.tgid = BPF_CORE_READ(next, tgid);
	key.stack_id = s->stack_id;
	key.state = s->state;
	bpf_map_delete_elem(&stamps, &tid);
	sum = bpf_map_lookup_elem(&off_cpu, &key);
	if (sum)
		__sync_fetch_and_add(sum, delta);
	else
		bpf_map_update_elem(&off_cpu, &key, &delta, BPF_NOEXIST);
}

static void on_switch_state(__u64 *ctx, unsigned int state)
{
	struct task_struct *prev = (void *)ctx[1], *next = (void *)ctx[2];
	__u32 zero = 0;
	struct off_cpu_conf *c = bpf_map_lookup_elem(&conf, &zero);

	if (!c || !c->enabled)
		return;
	if (!ctx[0])
		stamp_prev(ctx, prev, state, c);
	account_next(next);
}

/*
 * sched_switch's BTF arguments: preempt, prev, next and, since 5.18,
 * prev_state, the state __schedule() acted on.  prev->__state, read here,
 * may already be a wakeup's TASK_WAKING or TASK_RUNNING: a sleep whose
 * wakeup came while its CPU was still switching away would be lost.
 */
SEC("tp_btf/sched_switch")
int on_switch(__u64 *ctx)
{
	on_switch_state(ctx, (unsigned int)ctx[3]);
	return 0;
}

/* Before 5.18, without prev_state: the task's state as it is now. */
SEC("tp_btf/sched_switch")
int on_switch_old(__u64 *ctx)
{
	struct task_struct *prev = (void *)ctx[1];

	on_switch_state(ctx, BPF_CORE_READ(prev, __state));
	return 0;
}

/*
 * A process forked by one that is counted is counted too, as the events
 * of a workload or -p are inherited by its children: its tgid joins the
 * filter when it is created (an exec keeps it).
 */
SEC("tp_btf/task_newtask")
int on_newtask(__u64 *ctx)
{
	struct task_struct *task = (void *)ctx[0];
	struct task_struct *parent = (void *)bpf_get_current_task_btf();
	__u32 zero = 0, tgid;
	struct off_cpu_conf *c = bpf_map_lookup_elem(&conf, &zero);
	__u8 one = 1;

	if (!c || !c->by_tgid || !counts(c, parent))
		return 0;
	tgid = BPF_CORE_READ(task, tgid);
	bpf_map_update_elem(&tgids, &tgid, &one, BPF_ANY);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
