/*
 * perf record --off-cpu (see off-cpu.h).  The BPF object is built into
 * the binary (off-cpu-bpf.h, by clang and xxd) and loaded with libbpf;
 * its maps and their layouts are those of util/bpf_skel/off_cpu.bpf.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "debug.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "off-cpu.h"
#include "cgroup.h"
#include "cpumap.h"
#include "thread_map.h"
#include "off-cpu-bpf.h"

/* The BPF program's stack_trace map: frames per stack, zero after the last. */
#define OFF_CPU_MAX_STACK	32
/* The max_entries of its map of sums. */
#define OFF_CPU_MAX_SUMS	16384
/* What a sample of ours can hold; another sample_type is refused. */
#define OFF_CPU_SAMPLE_TYPES	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* The keys and values of the BPF maps, as off_cpu.bpf.c declares them. */
struct off_cpu_key {
	u32 pid, tgid, stack_id, state;
	u64 cgroup_id;
};

struct off_cpu_conf {
	u32 enabled;
	u32 by_tgid;
	u32 by_pid;
	u32 by_cpu;
	u32 by_cgroup;
};

/* The max_entries of its map of CPUs (-C). */
#define OFF_CPU_MAX_CPUS	8192

struct off_cpu {
	struct bpf_object *obj;
	struct bpf_link *link, *fork_link;
	const char *switch_prog;	/* the sched_switch program loaded */
	int conf_fd, tasks_fd, sums_fd, stacks_fd, cpus_fd, cgroups_fd;
};

/* libbpf's own messages are for -v: the user gets one line from us. */
static int off_cpu__libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (verbose < 1 || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int off_cpu__map_fd(struct off_cpu *oc, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(oc->obj, name);

	return map ? bpf_map__fd(map) : -1;
}

static struct bpf_link *off_cpu__attach(struct off_cpu *oc, const char *prog_name,
					const char *tp, char *why, size_t len)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(oc->obj, prog_name);
	struct bpf_link *link = prog ? bpf_program__attach(prog) : NULL;

	if (!link)
		snprintf(why, len, "it cannot attach its BPF program to %s: %s", tp,
			 strerror(prog ? errno : ENOENT));
	return link;
}

void off_cpu__delete(struct off_cpu *oc)
{
	if (!oc)
		return;
	bpf_link__destroy(oc->fork_link);
	bpf_link__destroy(oc->link);
	bpf_object__close(oc->obj);
	free(oc);
}

/*
 * The object opened with program @use to load and @skip left out, and
 * loaded: 0, -ENOENT/-ENOMEM (@why says it) when it cannot be opened, or
 * the load's -errno.
 */
static int off_cpu__open(struct off_cpu *oc, const char *use, const char *skip, char *why,
			 size_t len)
{
	struct bpf_program *prog;

	oc->obj = bpf_object__open_mem(off_cpu_bpf_o, off_cpu_bpf_o_len, NULL);
	if (!oc->obj) {
		snprintf(why, len, "it cannot open its BPF program: %s", strerror(errno));
		return -ENOMEM;
	}
	prog = bpf_object__find_program_by_name(oc->obj, skip);
	if (!prog || !bpf_object__find_program_by_name(oc->obj, use)) {
		snprintf(why, len, "its BPF program lacks %s", prog ? use : skip);
		return -ENOENT;
	}
	bpf_program__set_autoload(prog, false);
	oc->switch_prog = use;
	return bpf_object__load(oc->obj);
}

struct off_cpu *off_cpu__load(char *why, size_t len)
{
	struct off_cpu *oc = calloc(1, sizeof(*oc));
	int err;

	if (!oc) {
		snprintf(why, len, "perf is out of memory");
		return NULL;
	}
	libbpf_set_print(off_cpu__libbpf_print);
	/* sched_switch's prev_state argument where the kernel has it (5.18), else __state. */
	err = off_cpu__open(oc, "on_switch", "on_switch_old", why, len);
	if (err == -ENOMEM || err == -ENOENT)
		goto out_delete;
	if (err) {
		bpf_object__close(oc->obj);
		err = off_cpu__open(oc, "on_switch_old", "on_switch", why, len);
		if (err == -ENOMEM || err == -ENOENT)
			goto out_delete;
	}
	if (err) {
		snprintf(why, len, "it cannot load its BPF program: %s (it needs root or "
			 "CAP_BPF and CAP_PERFMON, and a kernel with BTF)", strerror(-err));
		goto out_delete;
	}
	oc->conf_fd = off_cpu__map_fd(oc, "conf");
	oc->tasks_fd = off_cpu__map_fd(oc, "tgids");
	oc->sums_fd = off_cpu__map_fd(oc, "off_cpu");
	oc->stacks_fd = off_cpu__map_fd(oc, "stacks");
	oc->cpus_fd = off_cpu__map_fd(oc, "cpus");
	oc->cgroups_fd = off_cpu__map_fd(oc, "cgroups");
	pr_debug("off-cpu: %s on sched_switch\n", oc->switch_prog);
	oc->link = off_cpu__attach(oc, oc->switch_prog, "sched_switch", why, len);
	if (oc->link)
		oc->fork_link = off_cpu__attach(oc, "on_newtask", "task_newtask", why, len);
	if (!oc->fork_link)
		goto out_delete;
	return oc;

out_delete:
	off_cpu__delete(oc);
	return NULL;
}

/*
 * As the distro's: a software event the kernel never samples by itself,
 * which asks for call chains so that every reader expects them.
 */
int off_cpu__add_event(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.size = sizeof(attr),
	};
	struct evsel *evsel = evsel__new(&attr);

	if (!evsel || evsel__set_name(evsel, OFF_CPU_EVENT) ||
	    evsel__add_config_term(evsel, EVSEL__CONFIG_TERM_CALLGRAPH, 0, "fp")) {
		evsel__delete(evsel);
		return -ENOMEM;
	}
	evlist__add(evlist, evsel);
	return 0;
}

/* -G: the cgroups of @evlist's events into the program's filter; whether there were any. */
static int off_cpu__filter_cgroups(struct off_cpu *oc, struct evlist *evlist, u32 *any)
{
	struct evsel *evsel;
	u8 one = 1;
	u64 id;
	int err;

	evlist__for_each_entry(evlist, evsel) {
		if (!evsel->cgrp || (evsel->name && !strcmp(evsel->name, OFF_CPU_EVENT)))
			continue;
		err = cgroup__id(evsel->cgrp, &id);
		if (err) {
			pr_err("Cannot find the id of cgroup %s for --off-cpu: %s\n",
			       evsel->cgrp->name, strerror(-err));
			return err;
		}
		if (bpf_map_update_elem(oc->cgroups_fd, &id, &one, BPF_ANY))
			return -errno;
		*any = 1;
	}
	return 0;
}

int off_cpu__start(struct off_cpu *oc, const struct thread_map *threads, bool by_tid,
		   const struct cpu_map *cpus, struct evlist *evlist)
{
	struct off_cpu_conf conf = { .enabled = 1 };
	u32 zero = 0;
	u8 one = 1;
	int err;

	if (evlist) {
		err = off_cpu__filter_cgroups(oc, evlist, &conf.by_cgroup);
		if (err)
			return err;
	}

	if (cpus && cpus->nr > 0 && cpus->map[0] != -1) {
		conf.by_cpu = 1;
		for (int i = 0; i < cpus->nr; i++) {
			u32 cpu = cpus->map[i];

			if (cpu >= OFF_CPU_MAX_CPUS)
				return -ERANGE;
			if (bpf_map_update_elem(oc->cpus_fd, &cpu, &one, BPF_ANY))
				return -errno;
		}
	}

	if (threads && threads->nr > 0 && threads->map[0] != -1) {
		conf.by_tgid = !by_tid;
		conf.by_pid = by_tid;
		for (int i = 0; i < threads->nr; i++) {
			u32 id = threads->map[i];

			if (bpf_map_update_elem(oc->tasks_fd, &id, &one, BPF_ANY))
				return -errno;
		}
	}
	return bpf_map_update_elem(oc->conf_fd, &zero, &conf, BPF_ANY) ? -errno : 0;
}

static struct evsel *off_cpu__find_event(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->name && !strcmp(evsel->name, OFF_CPU_EVENT))
			return evsel;
	}
	return NULL;
}

/*
 * One sum as a sample, its fields in sample_type's order: the user stack
 * after PERF_CONTEXT_USER, its first frame as the ip.  The u64 words
 * after the header, which @buf has room for.
 */
static int off_cpu__sample(struct off_cpu *oc, const struct evsel *evsel,
			   const struct off_cpu_key *key, u64 period, u64 time, u64 *buf)
{
	u64 type = evsel->attr.sample_type, id = evsel->nr_ids ? evsel->ids[0] : 0;
	u64 stack[OFF_CPU_MAX_STACK] = { 0 };
	int n = 0, depth = 0;

	bpf_map_lookup_elem(oc->stacks_fd, &key->stack_id, stack);
	while (depth < OFF_CPU_MAX_STACK && stack[depth])
		depth++;
	if (type & PERF_SAMPLE_IDENTIFIER)
		buf[n++] = id;
	if (type & PERF_SAMPLE_IP)
		buf[n++] = stack[0];
	if (type & PERF_SAMPLE_TID)
		buf[n++] = (u64)key->pid << 32 | key->tgid;
	if (type & PERF_SAMPLE_TIME)
		buf[n++] = time;
	if (type & PERF_SAMPLE_ID)
		buf[n++] = id;
	if (type & PERF_SAMPLE_CPU)
		buf[n++] = 0;
	if (type & PERF_SAMPLE_PERIOD)
		buf[n++] = period;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		buf[n++] = depth + 1;
		buf[n++] = PERF_CONTEXT_USER;
		memcpy(&buf[n], stack, depth * sizeof(u64));
		n += depth;
	}
	return n;
}

void off_cpu__stop(struct off_cpu *oc)
{
	struct off_cpu_conf off = { 0 };
	u32 zero = 0;

	bpf_map_update_elem(oc->conf_fd, &zero, &off, BPF_ANY);
}

/* The sum of one key taken out of the map, so that the next file starts from nothing. */
static int off_cpu__take(struct off_cpu *oc, struct off_cpu_key *key, u64 *period)
{
	if (bpf_map_get_next_key(oc->sums_fd, NULL, key))
		return -ENOENT;
	return bpf_map_lookup_and_delete_elem(oc->sums_fd, key, period) ? -errno : 0;
}

int off_cpu__write(struct off_cpu *oc, struct evlist *evlist, u64 time, off_cpu__write_fn write,
		   void *arg)
{
	struct evsel *evsel = off_cpu__find_event(evlist);
	struct off_cpu_key key;
	u64 buf[1 + OFF_CPU_MAX_STACK + 10];
	u64 period;
	int nr = 0;

	if (!evsel)
		return -ENOENT;
	if (evsel->attr.sample_type & ~OFF_CPU_SAMPLE_TYPES) {
		pr_err("Cannot write the %s samples: their sample_type %#llx has fields the sums "
		       "do not have; leave out the options that add them.\n", OFF_CPU_EVENT,
		       (unsigned long long)evsel->attr.sample_type);
		return -EINVAL;
	}
	/* Bounded: the program may add keys while they are taken. */
	for (int i = 0; i < OFF_CPU_MAX_SUMS && !off_cpu__take(oc, &key, &period); i++) {
		struct perf_event_header *hdr = (struct perf_event_header *)buf;
		int n, err;

		n = off_cpu__sample(oc, evsel, &key, period, time, buf + 1);
		hdr->type = PERF_RECORD_SAMPLE;
		hdr->misc = PERF_RECORD_MISC_USER;
		hdr->size = (n + 1) * sizeof(u64);
		err = write(arg, (const union perf_event *)buf);
		if (err)
			return err;
		nr++;
	}
	return nr;
}
