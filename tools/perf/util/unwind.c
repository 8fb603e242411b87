/*
 * DWARF unwinding with libdwfl (see unwind.h).  One Dwfl per process,
 * kept in its struct maps: binaries are reported to it as the walk
 * reaches them, at the bias their map gives, and stay for the next
 * sample.  The thread callbacks read the sample being unwound, which is
 * set just before each walk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>
#include "unwind.h"
#include "machine.h"
#include "symbol.h"
#include "debug.h"

#define UNWIND_MAX_FRAMES	256

/* x86_64: perf_event register numbers in DWARF order (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, rip). */
static const int dwarf_to_perf_reg[] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
#define PERF_REG_X86_SP	7

struct unwind_state {
	struct maps *owner;		/* whose ->unwind this is */
	Dwfl *dwfl;
	bool attached;
	/* The walk in progress. */
	struct machine *m;
	const struct perf_sample *sample;
	u64 *ips;
	int nr;
};

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * The states alive.  Each Dwfl keeps the binaries it was shown open, so
 * a system-wide file with hundreds of processes would run out of file
 * descriptors: past UNWIND_MAX_LIVE the oldest ones are dropped (and made
 * again if their process comes back).
 */
#define UNWIND_MAX_LIVE	32
static struct unwind_state *live[UNWIND_MAX_LIVE];
static int nr_live;

void unwind__maps_exit(void *state)
{
	struct unwind_state *u = state;

	if (!u)
		return;
	for (int i = 0; i < nr_live; i++) {
		if (live[i] == u) {
			memmove(&live[i], &live[i + 1], (nr_live - i - 1) * sizeof(live[0]));
			nr_live--;
			break;
		}
	}
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}

/* Register @perf_reg of the sample, if it was recorded. */
static bool sample__user_reg(const struct perf_sample *s, int perf_reg, u64 *v)
{
	u64 mask = s->user_regs_mask;

	if (!s->user_regs || !(mask & (1ULL << perf_reg)))
		return false;
	*v = s->user_regs[__builtin_popcountll(mask & ((1ULL << perf_reg) - 1))];
	return true;
}

/* Makes sure the binary mapped at @addr is known to the Dwfl: true if it is. */
static bool unwind__report(struct unwind_state *u, u64 addr)
{
	struct map *map = machine__find_map(u->m, (int)u->sample->pid, addr);
	Dwfl_Module *mod;
	u64 bias, vaddr;

	if (dwfl_addrmodule(u->dwfl, addr))
		return true;
	if (!map || !map->dso || dso__load(map->dso) || !map->dso->symsrc || !map->dso->nr_segs)
		return false;
	/* The bias puts the ELF address of the file offset pgoff at map->start. */
	vaddr = ~0ULL;
	for (size_t i = 0; i < map->dso->nr_segs; i++) {
		const struct dso_segment *seg = &map->dso->segs[i];

		if (map->pgoff >= seg->offset && map->pgoff - seg->offset < seg->size) {
			vaddr = map->pgoff - seg->offset + seg->vaddr;
			break;
		}
	}
	if (vaddr == ~0ULL)
		return false;
	bias = map->start - vaddr;
	dwfl_report_begin_add(u->dwfl);
	mod = dwfl_report_elf(u->dwfl, map->dso->name, map->dso->symsrc, -1, bias, false);
	dwfl_report_end(u->dwfl, NULL, NULL);
	if (!mod)
		pr_debug("unwind: cannot use %s: %s\n", map->dso->symsrc, dwfl_errmsg(-1));
	return mod != NULL;
}

static pid_t unwind__next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwind_state *u = arg;

	/* One thread per walk: the sample's. */
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->sample->tid;
}

static bool unwind__memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_state *u = arg;
	const struct perf_sample *s = u->sample;
	struct map *map;
	u64 sp;
	int fd;
	bool ok;

	if (sample__user_reg(s, PERF_REG_X86_SP, &sp) && addr >= sp &&
	    addr - sp + sizeof(*result) <= s->user_stack_size) {
		memcpy(result, (char *)s->user_stack + (addr - sp), sizeof(*result));
		return true;
	}
	/* Not on the copied stack: a constant in a binary, read from the file. */
	map = machine__find_map(u->m, (int)s->pid, addr);
	if (!map || !map->dso || !map->dso->symsrc)
		return false;
	fd = open(map->dso->symsrc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = pread(fd, result, sizeof(*result), addr - map->start + map->pgoff) ==
	     (ssize_t)sizeof(*result);
	close(fd);
	return ok;
}

static bool unwind__set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwind_state *u = arg;
	Dwarf_Word regs[sizeof(dwarf_to_perf_reg) / sizeof(dwarf_to_perf_reg[0])];

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		u64 v;

		if (!sample__user_reg(u->sample, dwarf_to_perf_reg[i], &v))
			return false;
		regs[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, sizeof(regs) / sizeof(regs[0]), regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = unwind__next_thread,
	.memory_read = unwind__memory_read,
	.set_initial_registers = unwind__set_initial_registers,
};

static int unwind__frame(Dwfl_Frame *frame, void *arg)
{
	struct unwind_state *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(frame, &pc, &activation) || u->nr >= UNWIND_MAX_FRAMES)
		return DWARF_CB_ABORT;
	/*
	 * A caller's pc is a return address, maybe past the end of the call's
	 * function (a noreturn call); perf shows the address inside the call.
	 */
	if (!activation)
		pc--;
	/* The next frame is found with the CFI of the binary this pc is in. */
	if (!unwind__report(u, pc) && u->nr)
		return DWARF_CB_ABORT;
	u->ips[u->nr++] = pc;
	return DWARF_CB_OK;
}

static struct unwind_state *unwind__state(struct machine *m, int pid)
{
	struct maps *p = machine__findnew_maps(m, pid);
	struct unwind_state *u;

	if (!p)
		return NULL;
	if (p->unwind)
		return p->unwind;
	if (nr_live == UNWIND_MAX_LIVE) {
		struct unwind_state *old = live[0];

		old->owner->unwind = NULL;
		unwind__maps_exit(old);
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!u->dwfl) {
		free(u);
		return NULL;
	}
	u->owner = p;
	p->unwind = u;
	live[nr_live++] = u;
	return u;
}

const u64 *unwind__callchain(struct machine *m, const struct perf_sample *sample, u64 *nr)
{
	static u64 chain[UNWIND_MAX_FRAMES + 256];
	struct unwind_state *u;
	u64 n = 0, ip;

	*nr = sample->nr_callchain;
	if (!sample->user_regs || !sample->user_stack_size ||
	    !sample__user_reg(sample, 8 /* IP */, &ip))
		return sample->callchain;
	u = unwind__state(m, (int)sample->pid);
	if (!u)
		return sample->callchain;
	/* The recorded part up to any user part, which the unwound one replaces. */
	for (; n < sample->nr_callchain && n < 256; n++) {
		if (sample->callchain[n] == (u64)PERF_CONTEXT_USER)
			break;
		chain[n] = sample->callchain[n];
	}
	chain[n++] = (u64)PERF_CONTEXT_USER;
	u->m = m;
	u->sample = sample;
	u->ips = chain + n;
	u->nr = 0;
	if (!unwind__report(u, ip))
		return sample->callchain;
	if (!u->attached) {
		if (!dwfl_attach_state(u->dwfl, NULL, (pid_t)sample->pid, &thread_callbacks, u))
			return sample->callchain;
		u->attached = true;
	}
	dwfl_getthread_frames(u->dwfl, (pid_t)sample->tid, unwind__frame, u);
	if (!u->nr)
		return sample->callchain;
	*nr = n + u->nr;
	return chain;
}
