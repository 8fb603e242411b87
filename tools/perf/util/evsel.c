/* One event: its attr, config terms, and (once opened) fds and ids. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <traceevent/event-parse.h>
#include "evsel.h"
#include "cgroup.h"
#include "clockid.h"
#include "evlist.h"
#include "record-opts.h"
#include "cpumap.h"
#include "thread_map.h"

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->id_pos = -1;
	evsel->is_pos = -1;
	INIT_LIST_HEAD(&evsel->node);
	INIT_LIST_HEAD(&evsel->config_terms);
	return evsel;
}

void evsel__id_pos(const struct evsel *evsel, int *id_pos, int *is_pos)
{
	u64 t = evsel->attr.sample_type;

	*id_pos = -1;
	*is_pos = -1;
	/* IDENTIFIER is first in a sample and last in a trailer, whatever else is there. */
	if (t & PERF_SAMPLE_IDENTIFIER) {
		*id_pos = 0;
		*is_pos = 1;
	} else if (t & PERF_SAMPLE_ID) {
		*id_pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			  !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
		*is_pos = 1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
	}
}

static void evsel__free_config_terms(struct evsel *evsel)
{
	struct evsel_config_term *t, *n;

	list_for_each_entry_safe(t, n, &evsel->config_terms, list) {
		list_del_init(&t->list);
		if (t->type == EVSEL__CONFIG_TERM_CALLGRAPH || t->type == EVSEL__CONFIG_TERM_NAME)
			free(t->val.str);
		free(t);
	}
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	evsel__close(evsel);
	evsel__free_config_terms(evsel);
	free(evsel->name);
	free(evsel->group_name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->modifiers);
	free(evsel->filter);
	cgroup__put(evsel->cgrp);
	free(evsel);
}

char *evsel__group_desc(const struct evsel *leader, bool spaced)
{
	const struct evsel *e = leader;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	/* Events shown together though recorded apart are listed without braces. */
	if (leader->forced_leader)
		;
	else if (leader->group_name)
		fprintf(f, spaced ? "%s { " : "%s{", leader->group_name);
	else
		fputs(spaced ? "anon group { " : "{", f);
	/* The members follow their leader in the list. */
	for (int i = 0; i < leader->nr_members && e->leader == leader; i++) {
		fprintf(f, "%s%s", i ? (spaced ? ", " : ",") : "", evsel__name((struct evsel *)e));
		if (leader->evlist && e->node.next == &leader->evlist->entries)
			break;
		e = list_entry(e->node.next, const struct evsel, node);
	}
	if (!leader->forced_leader)
		fputs(spaced ? " }" : "}", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int evsel__append_filter(struct evsel *evsel, const char *expr)
{
	char *f;
	int n;

	if (evsel->filter)
		n = asprintf(&f, "(%s) && (%s)", evsel->filter, expr);
	else
		n = asprintf(&f, "%s", expr);
	if (n < 0)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = f;
	return 0;
}

/* @req on every fd of the event, even after one failed; the last error. */
static int evsel__ioctl_all(struct evsel *evsel, unsigned long req, unsigned long arg)
{
	int err = 0;

	if (!evsel->fds)
		return 0;
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fds[i] >= 0 && ioctl(evsel->fds[i], req, arg) < 0)
			err = -errno;
		if (evsel->twin_fds && evsel->twin_fds[i] >= 0 &&
		    ioctl(evsel->twin_fds[i], req, arg) < 0)
			err = -errno;
	}
	return err;
}

int evsel__apply_filter(struct evsel *evsel)
{
	if (!evsel->filter)
		return 0;
	return evsel__ioctl_all(evsel, PERF_EVENT_IOC_SET_FILTER, (unsigned long)evsel->filter);
}

int evsel__enable(struct evsel *evsel, bool on)
{
	return evsel__ioctl_all(evsel, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = copy;
	return 0;
}

const char *evsel__name(struct evsel *evsel)
{
	return evsel->name ? evsel->name : "unknown";
}

int evsel__add_config_term(struct evsel *evsel, enum evsel_term_type type, u64 val,
			   const char *str)
{
	struct evsel_config_term *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->type = type;
	if (type == EVSEL__CONFIG_TERM_CALLGRAPH || type == EVSEL__CONFIG_TERM_NAME) {
		t->val.str = strdup(str ? str : "");
		if (!t->val.str) {
			free(t);
			return -ENOMEM;
		}
	} else {
		t->val.val = val;
	}
	list_add_tail(&t->list, &evsel->config_terms);
	return 0;
}

/* The last term of a type wins, as later terms override earlier ones. */
struct evsel_config_term *evsel__get_config_term(struct evsel *evsel,
						 enum evsel_term_type type)
{
	struct evsel_config_term *t, *found = NULL;

	list_for_each_entry(t, &evsel->config_terms, list)
		if (t->type == type)
			found = t;
	return found;
}

bool evsel__is_dummy(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE && evsel->attr.config == PERF_COUNT_SW_DUMMY;
}

bool evsel__is_tracepoint(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_TRACEPOINT;
}

void evsel__close(struct evsel *evsel)
{
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fds && evsel->fds[i] >= 0)
			close(evsel->fds[i]);
		if (evsel->twin_fds && evsel->twin_fds[i] >= 0)
			close(evsel->twin_fds[i]);
	}
	free(evsel->fds);
	evsel->fds = NULL;
	free(evsel->twin_fds);
	evsel->twin_fds = NULL;
	free(evsel->ids);
	evsel->ids = NULL;
	evsel->nr_ids = 0;
}

/*
 * The user-stack registers for DWARF unwinding on x86_64: every general
 * register except the segment registers DS, ES, FS and GS.
 */
#define DWARF_REGS_MASK_X86_64 0xff0fffULL

static void evsel__apply_callchain(struct evsel *evsel, enum callchain_mode mode,
				   u32 stack_size)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->sample_type &= ~(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER);
	attr->exclude_callchain_user = 0;
	attr->sample_regs_user = 0;
	attr->sample_stack_user = 0;
	attr->mmap_data = 0;
	switch (mode) {
	case CALLCHAIN_NONE:
		break;
	case CALLCHAIN_FP:
		attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case CALLCHAIN_DWARF:
		/* The kernel part comes from the kernel, the user part is unwound later. */
		attr->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				     PERF_SAMPLE_STACK_USER;
		attr->exclude_callchain_user = 1;
		attr->sample_regs_user = DWARF_REGS_MASK_X86_64;
		attr->sample_stack_user = stack_size ? stack_size : 8192;
		/*
		 * The distro also samples ADDR and DATA_SRC here.  Only memory
		 * access events fill them; for the events one unwinds they
		 * would be 16 bytes of zeros in every sample, and no reader
		 * (ours, the distro's) needs them to unwind.
		 */
		/*
		 * The maps of data segments too: a libunwind-based reader (the
		 * distro's) reads .eh_frame_hdr through them.
		 */
		attr->mmap_data = 1;
		break;
	}
}

/* "no", "fp", "dwarf" or "dwarf,SIZE"; returns -EINVAL for anything else. */
int callchain__parse(const char *s, enum callchain_mode *mode, u32 *stack_size)
{
	char *end;

	if (!strcmp(s, "no") || !strcmp(s, "none")) {
		*mode = CALLCHAIN_NONE;
		return 0;
	}
	if (!strcmp(s, "fp")) {
		*mode = CALLCHAIN_FP;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == '\0' || s[5] == ',')) {
		*mode = CALLCHAIN_DWARF;
		if (s[5] == ',') {
			unsigned long v = strtoul(s + 6, &end, 0);

			if (*end || !v || v > 65528)
				return -EINVAL;
			/* The kernel wants a multiple of 8. */
			*stack_size = (v + 7) & ~7UL;
		}
		return 0;
	}
	return -EINVAL;
}

/*
 * What every sample and read() carries.  CPU in every sample, where the
 * distro has it only with -a/-C and for tracepoints: 8 bytes that let
 * 'perf script --cpu', 'perf report --sort cpu' and a dump's per-CPU order
 * checks work on every file we write, whatever the target was.
 */
static void evsel__config_sample_type(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->size = sizeof(*attr);
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_CPU;
	if (evsel__is_tracepoint(evsel))
		attr->sample_type |= PERF_SAMPLE_RAW;
	/*
	 * The kernel's ID in read(), and the count of samples lost to a full
	 * buffer (Linux 6.0; evsel__fallback drops it on older kernels).
	 */
	attr->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr->sample_id_all = 1;
}

/* Sampling rate, unless the event string gave one: tracepoints every hit; others -c, -F, or 4000 Hz. */
static void evsel__config_rate(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (evsel__is_dummy(evsel)) {
		attr->freq = 0;
		attr->sample_period = 1;
	} else if (attr->sample_period || attr->freq) {
		return;
	} else if (opts->user_period) {
		attr->freq = 0;
		attr->sample_period = opts->period;
	} else if (evsel__is_tracepoint(evsel)) {
		attr->freq = 0;
		attr->sample_period = 1;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->user_freq ? opts->freq : 4000;
	}
}

/* The event's own terms beat the global options: rate, inherit, and the call graph's. */
static void evsel__config_terms(struct evsel *evsel, enum callchain_mode *cg, u32 *stack_size)
{
	struct perf_event_attr *attr = &evsel->attr;
	struct evsel_config_term *t;

	list_for_each_entry(t, &evsel->config_terms, list) {
		switch (t->type) {
		case EVSEL__CONFIG_TERM_PERIOD:
			attr->freq = 0;
			attr->sample_period = t->val.val;
			break;
		case EVSEL__CONFIG_TERM_FREQ:
			attr->freq = 1;
			attr->sample_freq = t->val.val;
			break;
		case EVSEL__CONFIG_TERM_CALLGRAPH:
			callchain__parse(t->val.str, cg, stack_size);
			break;
		case EVSEL__CONFIG_TERM_STACK_USER:
			*stack_size = t->val.val;
			break;
		case EVSEL__CONFIG_TERM_INHERIT:
			attr->inherit = !!t->val.val;
			break;
		default:
			break;
		}
	}
}

/*
 * :S: each sample reads the counts, of the whole group from its
 * leader (the kernel reads a group only without inherit).
 */
static void evsel__config_sample_read(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (!evsel->sample_read)
		return;
	attr->sample_type |= PERF_SAMPLE_READ;
	if (evsel->leader->nr_members > 1) {
		attr->read_format |= PERF_FORMAT_GROUP;
		attr->inherit = 0;
	}
}

/* The sample fields that depend on the rate and on -d. */
static void evsel__config_sample_fields(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;
	bool is_dummy = evsel__is_dummy(evsel);

	/* -d: the address each sample touched (and where, for memory events), as the distro samples it. */
	if (opts->sample_address && !is_dummy)
		attr->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	/*
	 * A sample's period is in the sample only where it varies: with -F, and
	 * for tracepoints, some of which count more than one per hit
	 * (sched_stat_runtime counts nanoseconds).  With a fixed -c
	 * every sample stands for attr.sample_period.
	 */
	if (!is_dummy && (attr->freq || evsel__is_tracepoint(evsel)))
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	else
		attr->sample_type &= ~PERF_SAMPLE_PERIOD;
}

/* The tracking event's side-band records: maps, comms, tasks, JITed kernel code. */
static void evsel__config_tracking(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (!evsel->tracking)
		return;
	attr->mmap = 1;
	attr->mmap2 = 1;
	/* -d: data maps too, to name those addresses. */
	if (opts->sample_address)
		attr->mmap_data = 1;
	attr->comm = 1;
	attr->comm_exec = 1;
	attr->task = 1;
	/* JITed kernel code (BPF programs, trampolines) as it comes and goes (Linux 5.1). */
	attr->ksymbol = 1;
	attr->bpf_event = 1;
}

/*
 * Counters start disabled.  A forked workload enables per-task events
 * at exec; otherwise the recorder enables them once everything is set up.
 * The tracking dummy runs from the start so no mmap is missed.
 */
static void evsel__config_enable(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->disabled = !evsel__is_dummy(evsel) || !evsel->tracking;
	attr->enable_on_exec = attr->disabled && record_opts__follows_workload(opts);
	/* -D: the recorder enables the recorded events itself, later. */
	if (opts->delay_ms && !evsel->tracking && !evsel->trigger)
		attr->enable_on_exec = 0;
	/* A group member counts whenever its leader does: only the leader is switched. */
	if (evsel->leader != evsel) {
		attr->disabled = 0;
		attr->enable_on_exec = 0;
	}
	/* A trigger is served as it happens: every sample wakes the recorder. */
	if (evsel->trigger) {
		attr->watermark = 0;
		attr->wakeup_events = 1;
	}
}

/*
 * The attr of one event of perf record.  Inherit is decided in steps, in
 * this order: the option, the event's term, :S of a group, --per-thread.
 */
void evsel__config(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;
	enum callchain_mode cg = opts->callgraph;
	u32 stack_size = opts->stack_size;
	bool is_dummy = evsel__is_dummy(evsel);

	evsel__config_sample_type(evsel);
	/*
	 * As the distro: a KVM host's guests are not sampled (there is no :G
	 * modifier yet); its dummy:HG tracks host and guest alike.
	 */
	attr->exclude_guest = !(is_dummy && evsel->tracking && !attr->exclude_kernel);
	attr->inherit = !opts->no_inherit;
	evsel__config_rate(evsel, opts);
	evsel__config_terms(evsel, &cg, &stack_size);
	evsel__config_sample_read(evsel);
	if (!is_dummy)
		evsel__apply_callchain(evsel, cg, stack_size);
	evsel__config_sample_fields(evsel, opts);
	/* The kernel will not mmap an inherited event that is not bound to a CPU. */
	if (opts->per_thread)
		attr->inherit = 0;
	evsel__config_tracking(evsel, opts);
	attr->write_backward = evsel->overwrite;
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	evsel__config_enable(evsel, opts);
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int evsel__open_one(struct evsel *evsel, pid_t pid, int cpu, int group_fd, u64 *id)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	int fd;

	/* A cgroup's fd stands for the task; the event is then one per CPU. */
	if (evsel->cgrp) {
		flags |= PERF_FLAG_PID_CGROUP;
		pid = evsel->cgrp->fd;
	}
	fd = sys_perf_event_open(&evsel->attr, pid, cpu, group_fd, flags);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_ID, id) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int evsel__open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	int ncpus = cpus->nr, nthreads = threads->nr;
	int err = 0;

	evsel__close(evsel);
	evsel->fds = malloc(sizeof(int) * ncpus * nthreads);
	evsel->ids = calloc(ncpus * nthreads, sizeof(u64));
	if (!evsel->fds || !evsel->ids) {
		evsel__close(evsel);
		return -ENOMEM;
	}
	evsel->nr_cpus = ncpus;
	evsel->nr_threads = nthreads;
	for (int i = 0; i < ncpus * nthreads; i++)
		evsel->fds[i] = -1;

	for (int c = 0; c < ncpus; c++) {
		for (int t = 0; t < nthreads; t++) {
			int group_fd = -1, fd;

			if (evsel->leader != evsel && evsel->leader->fds)
				group_fd = FD(evsel->leader, c, t);
			fd = evsel__open_one(evsel, threads->map[t], cpus->map[c], group_fd,
					     &evsel->ids[evsel->nr_ids]);
			if (fd < 0) {
				err = fd;
				/* A thread that exited meanwhile is not an error. */
				if (err == -ESRCH && nthreads > 1 && threads->map[t] > 0)
					continue;
				goto out_close;
			}
			FD(evsel, c, t) = fd;
			evsel->nr_ids++;
		}
	}
	return 0;

out_close:
	evsel__close(evsel);
	return err;
}

/* kernel.perf_event_paranoid, or 2 (the usual default) if it cannot be read. */
int perf_event_paranoid(void)
{
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int value = 2;

	if (fp) {
		if (fscanf(fp, "%d", &value) != 1)
			value = 2;
		fclose(fp);
	}
	return value;
}

/* "cpu-clock" -> "cpu-clock:u", "cycles:p" -> "cycles:pu", "pmu/x/" -> "pmu/x/u". */
static int evsel__append_modifier(struct evsel *evsel, char mod)
{
	const char *name = evsel__name(evsel);
	bool sep = !strchr(name, ':') && !strchr(name, '/');
	char *new_name;

	if (asprintf(&new_name, "%s%s%c", name, sep ? ":" : "", mod) < 0)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = new_name;
	return 0;
}

enum evsel_fallback evsel__fallback(struct evsel *evsel, int err, char *msg, size_t size)
{
	struct perf_event_attr *attr = &evsel->attr;
	int paranoid;

	/*
	 * Fields a kernel older than they are refuses with EINVAL, newest
	 * first: the lost count in read() (Linux 6.0), ksymbol and bpf_event
	 * (5.1); and exclude_guest, which some PMUs refuse.  The event is as
	 * useful without them.
	 */
	if (err == -EINVAL && ((attr->read_format & PERF_FORMAT_LOST) ||
			       attr->ksymbol || attr->bpf_event || attr->exclude_guest)) {
		const char *what;

		if (attr->read_format & PERF_FORMAT_LOST) {
			attr->read_format &= ~PERF_FORMAT_LOST;
			what = "read_format LOST (Linux 6.0)";
		} else if (attr->ksymbol || attr->bpf_event) {
			attr->ksymbol = 0;
			attr->bpf_event = 0;
			what = "ksymbol and bpf_event (Linux 5.1)";
		} else {
			attr->exclude_guest = 0;
			what = "exclude_guest (some PMUs refuse it)";
		}
		snprintf(msg, size, "Opening %s failed (Invalid argument): trying again without %s.",
			 evsel__name(evsel), what);
		return EVSEL_FALLBACK_ATTR;
	}
	/*
	 * Only cycles, the default event, may become cpu-clock: any other
	 * hardware or raw event the machine lacks is an error that names it,
	 * or the user would get a profile of something they did not ask for.
	 */
	if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL) &&
	    attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_CPU_CYCLES &&
	    !evsel->fallen_back) {
		char *old = strdup(evsel__name(evsel));
		const char *mod = old ? strchr(old, ':') : NULL;
		char name[256];

		/* Keep the modifiers: "cycles:u" becomes "cpu-clock:u". */
		snprintf(name, sizeof(name), "cpu-clock%s", mod ? mod : "");
		snprintf(msg, size, "The %s event is not supported here (no hardware PMU?), "
			 "falling back to cpu-clock.", old ? old : "cycles");
		free(old);
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = PERF_COUNT_SW_CPU_CLOCK;
		attr->precise_ip = 0;
		evsel__set_name(evsel, name);
		evsel->fallen_back = true;
		return EVSEL_FALLBACK_CPU_CLOCK;
	}
	/*
	 * Above 1, perf_event_paranoid keeps users without CAP_PERFMON out of
	 * the kernel; what they run in user space they may still sample.
	 */
	if ((err == -EACCES || err == -EPERM) && !attr->exclude_kernel && !attr->exclude_user &&
	    geteuid() != 0 && (paranoid = perf_event_paranoid()) > 1) {
		if (evsel__append_modifier(evsel, 'u'))
			return EVSEL_FALLBACK_NONE;
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		snprintf(msg, size, "kernel.perf_event_paranoid=%d, trying to fall back to "
			 "excluding kernel and hypervisor samples", paranoid);
		return EVSEL_FALLBACK_USER_ONLY;
	}
	if (err == -EOPNOTSUPP && attr->precise_ip) {
		attr->precise_ip--;
		snprintf(msg, size, "Lowering the precision of %s to :%.*s.", evsel__name(evsel),
			 attr->precise_ip, "ppp");
		return EVSEL_FALLBACK_PRECISE;
	}
	return EVSEL_FALLBACK_NONE;
}

void evsel__open_strerror(struct evsel *evsel, int err, char *msg, size_t size)
{
	const char *name = evsel__name(evsel);

	switch (-err) {
	case EACCES:
	case EPERM:
		snprintf(msg, size, "No permission to open event %s (%s): run as root, or lower "
			 "/proc/sys/kernel/perf_event_paranoid (now it forbids this).",
			 name, strerror(-err));
		break;
	case ENOENT:
		/* The first sentence is the distro's; then what to do. */
		snprintf(msg, size, "The %s event is not supported. This machine has no such "
			 "counter (a VM without a hardware PMU?): see 'perf list' for the events "
			 "it has.", name);
		break;
	case ESRCH:
		snprintf(msg, size, "Cannot open %s: the process to monitor does not exist "
			 "(it may have exited).", name);
		break;
	case EMFILE:
		snprintf(msg, size, "Too many open files while opening %s: raise the limit "
			 "with 'ulimit -n'.", name);
		break;
	case EINVAL:
		/* The kernel times perf events with a few clocks only. */
		if (evsel->attr.use_clockid && !clockid__name((int)evsel->attr.clockid)) {
			snprintf(msg, size, "The kernel refused clock %u for %s (%s): use -k "
				 "monotonic, monotonic_raw, realtime, boottime or tai.",
				 evsel->attr.clockid, name, strerror(-err));
			break;
		}
		if (evsel->attr.write_backward) {
			snprintf(msg, size, "Unable to read from overwrite ring buffer: the kernel "
				 "refused %s with write_backward (%s); it needs Linux 4.7 or later.",
				 name, strerror(-err));
			break;
		}
		/* fall through */
	default:
		snprintf(msg, size, "The sys_perf_event_open() syscall failed for event %s: %s.",
			 name, strerror(-err));
		break;
	}
}

struct tep_format_field *evsel__tp_field(struct evsel *e, const char *name)
{
	struct tep_format_field *f;
	unsigned int i;

	if (!e->tp_format)
		return NULL;
	for (i = 0; i < e->nr_tp_fields; i++)
		if (e->tp_fields[i].name == name)
			return e->tp_fields[i].field;
	f = tep_find_field(e->tp_format, name);
	if (i < ARRAY_SIZE(e->tp_fields)) {
		e->tp_fields[i].name = name;
		e->tp_fields[i].field = f;
		e->nr_tp_fields++;
	}
	return f;
}
