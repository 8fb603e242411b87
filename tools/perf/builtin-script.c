/*
 * perf script: one line per sample of a perf.data file, in the layout the
 * distro perf uses, with tracepoint fields formatted as libtraceevent does
 * and callchains as indented "addr sym+off (dso)" lines.
 *
 * Files have millions of samples, so the per-sample path avoids stdio and
 * repeated lookups: lines are formatted straight into one output buffer,
 * what depends only on the evsel is worked out once per evsel, the thread
 * of the previous sample is reused, and tracepoint fields go through
 * compiled formats (util/tp-print.c) unless libtraceevent is needed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "builtin.h"
#include "util/session.h"
#include "util/raw-dump.h"
#include "util/unwind.h"
#include "util/srcline.h"
#include "util/debug.h"
#include "util/outbuf.h"
#include "util/tp-print.h"
#include "util/sample-filter.h"
#include "util/script-fields.h"
#include "util/parse-options.h"
#include "util/script-report.h"

/* What perf script prints for one evsel, worked out on its first sample. */
struct script_evsel {
	struct evsel *evsel;
	unsigned int fields;
	bool chain;		/* callchains are printed, one address a line */
	char *name;		/* "%*s: " of its name, name_width wide */
	size_t name_len;
};

struct script {
	struct perf_tool tool;
	struct perf_session *session;
	struct script_fields fields;	/* -F, -G */
	bool list;		/* -l: the report scripts */
	bool show_task, show_mmap;	/* --show-task-events, --show-mmap-events */
	bool show_switch;		/* --show-switch-events */
	int name_width;
	struct trace_seq seq;
	struct outbuf ob;	/* stdout */
	struct tp_printer *tp;	/* tracepoint fields without libtraceevent, when it can */
	struct script_evsel *evsels;
	size_t nr_evsels;
	struct script_evsel *last_evsel;
	/* The thread of the last sample: runs of samples from one thread are the rule. */
	struct thread *last_thread;
	int last_pid, last_tid;
	bool comm_now;		/* side-band lines: the thread's comm as it is now */
	struct sample_filter filter;	/* --comm, --pid, --tid, --cpu, --time */
	bool ns;			/* --ns: nanoseconds */
	bool reltime, deltatime;	/* times since the first / the previous printed sample */
	u64 first_time, prev_time;
	const char *input;		/* -i */
	bool header, header_only;	/* --header, --header-only */
	struct raw_dump dump;		/* -D: into ob, between the lines it prints */
};

static struct script_evsel *script__evsel(struct script *sc, struct evsel *evsel)
{
	struct script_evsel *se;
	size_t len;

	if (sc->last_evsel && sc->last_evsel->evsel == evsel)
		return sc->last_evsel;
	for (size_t i = 0; i < sc->nr_evsels; i++) {
		if (sc->evsels[i].evsel == evsel)
			return sc->last_evsel = &sc->evsels[i];
	}
	se = realloc(sc->evsels, (sc->nr_evsels + 1) * sizeof(*se));
	if (!se)
		return NULL;
	sc->evsels = se;
	se = &se[sc->nr_evsels];
	se->evsel = evsel;
	se->fields = script_fields__get(&sc->fields, evsel, sc->session->pipe);
	se->chain = (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && (se->fields & F_IP) &&
		    !sc->fields.hide_chain;
	len = strlen(evsel__name(evsel));
	se->name_len = max_t(size_t, len, (size_t)sc->name_width) + 2;
	se->name = malloc(se->name_len + 1);
	if (!se->name)
		return NULL;
	snprintf(se->name, se->name_len + 1, "%*s: ", sc->name_width, evsel__name(evsel));
	sc->nr_evsels++;
	return sc->last_evsel = se;
}

static struct thread *script__thread(struct script *sc, struct machine *machine, int pid,
				     int tid)
{
	/* Threads live as long as the machine, so the pointer can be kept. */
	if (!sc->last_thread || sc->last_pid != pid || sc->last_tid != tid) {
		sc->last_thread = machine__findnew_thread(machine, pid, tid);
		sc->last_pid = pid;
		sc->last_tid = tid;
	}
	return sc->last_thread;
}

/* The printf conversions of the distro's layout. */
static const struct fmt_int fmt_5d = { .base = 10, .bits = 32, .is_signed = true, .width = 5 };
static const struct fmt_int fmt_m5d = { .base = 10, .bits = 32, .is_signed = true, .width = 5,
					.left = true };
static const struct fmt_int fmt_03d = { .base = 10, .bits = 32, .is_signed = true, .width = 3,
					.zero = true };
static const struct fmt_int fmt_16llx = { .base = 16, .bits = 64, .width = 16 };

/* Everything before the event name: comm, pid/tid, cpu, time, period (all bounded). */
static void script__print_head(struct script *sc, unsigned int f, bool chain,
			       struct thread *thread, struct perf_sample *sample)
{
	char *p = outbuf__room(&sc->ob, 192);

	if (f & F_COMM) {
		const char *comm = sc->comm_now ? thread__comm(thread) :
				   thread__comm_at(thread, sample->time);
		/* Comms are at most 15 characters (struct comm_entry). */
		size_t len = strnlen(comm, 16);

		if (!chain && len < 16) {
			memset(p, ' ', 16 - len);
			p += 16 - len;
		}
		memcpy(p, comm, len);
		p += len;
		*p++ = ' ';
	}
	if ((f & F_PID) && (f & F_TID)) {
		p = fmt__int(p, &fmt_5d, (u64)(int)sample->pid);
		*p++ = '/';
		p = fmt__int(p, &fmt_m5d, (u64)(int)sample->tid);
		*p++ = ' ';
	} else if (f & (F_PID | F_TID)) {
		int id = (int)((f & F_PID) ? sample->pid : sample->tid);

		/* "%5d"; negative ids (-1: none) the general way. */
		p = id >= 0 ? fmt__u64_width(p, id, 5, ' ') : fmt__int(p, &fmt_5d, (u64)id);
		*p++ = ' ';
	}
	if (f & F_CPU) {
		int cpu = (int)sample->cpu;

		*p++ = '[';
		p = cpu >= 0 ? fmt__u64_width(p, cpu, 3, '0') : fmt__int(p, &fmt_03d, (u64)cpu);
		*p++ = ']';
		*p++ = ' ';
	}
	if (f & F_TOD) {
		p += clock_ref__format_tod(clock_ref__tod_ns(&sc->session->clock, sample->time),
					   p, 64);
		*p++ = ' ';
	}
	if (f & F_TIME) {
		u64 t = sample->time;

		if (sc->reltime) {
			if (!sc->first_time)
				sc->first_time = t;
			t -= sc->first_time;
		} else if (sc->deltatime) {
			u64 prev = sc->prev_time;

			sc->prev_time = t;
			t = prev ? t - prev : 0;
		}
		/* "%5llu.%06llu: " of seconds and microseconds (nanoseconds with --ns). */
		p = fmt__u64_width(p, t / 1000000000, 5, ' ');
		*p++ = '.';
		if (sc->ns)
			p = fmt__u64_width(p, t % 1000000000, 9, '0');
		else
			p = fmt__u64_width(p, t % 1000000000 / 1000, 6, '0');
		*p++ = ':';
		*p++ = ' ';
	}
	if (f & F_PERIOD) {
		p = fmt__u64_width(p, sample->period, 10, ' ');
		*p++ = ' ';
	}
	outbuf__advance(&sc->ob, p);
}

/* printf onto the output; a line's pieces are short. */
static void __attribute__((format(printf, 2, 3))) script__printf(struct script *sc,
								 const char *fmt, ...)
{
	char *p = outbuf__room(&sc->ob, 256);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, 256, fmt, ap);
	va_end(ap);
	if (n > 0)
		outbuf__advance(&sc->ob, p + (n < 256 ? n : 255));
}

/* Registers as the distro's script lists them: " ABI:2 " then "   AX:0x1 " each. */
static void script__print_regs(struct script *sc, u64 mask, u64 abi, const u64 *regs)
{
	unsigned int n = 0;

	if (!regs)
		return;
	script__printf(sc, " ABI:%llu ", (unsigned long long)abi);
	for (unsigned int bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			script__printf(sc, "%5s:0x%llx ", perf_reg_name(bit),
				       (unsigned long long)regs[n++]);
}

/* What the distro prints after the address (or the call chain), in its order. */
static void script__print_tail(struct script *sc, struct evsel *evsel, unsigned int f,
			       const struct perf_sample *sample)
{
	char size[32];

	if (f & F_IREGS)
		script__print_regs(sc, evsel->attr.sample_regs_intr, sample->intr_regs_abi,
				   sample->intr_regs);
	if (f & F_UREGS)
		script__print_regs(sc, sample->user_regs_mask, sample->user_regs_abi,
				   sample->user_regs);
	if (f & F_PHYS_ADDR)
		script__printf(sc, "%16llx", (unsigned long long)sample->phys_addr);
	if (f & F_DATA_PAGE_SIZE)
		script__printf(sc, " %s", page_size_name(sample->data_page_size, size, sizeof(size)));
	if (f & F_CODE_PAGE_SIZE)
		script__printf(sc, " %s", page_size_name(sample->code_page_size, size, sizeof(size)));
}

/* " ip sym+0xoff (dso)", or its chain form "ip sym+0xoff (dso)" (the caller adds "\n\t"). */
static void script__print_addr(struct script *sc, unsigned f, struct addr_location *al,
			       u64 ip, bool chain)
{
	const char *sym = al->sym ? al->sym->name : "[unknown]";
	const char *dso = al->dso ? al->dso->name : "[unknown]";
	size_t sym_len = (f & F_SYM) ? strlen(sym) : 0, dso_len;
	struct outbuf *ob = &sc->ob;
	char *p;

	if (al->sym && al->sym->module)
		dso = al->sym->module;
	/* An inlined function says so, whether objects are shown or not, as the distro's. */
	if (al->sym && symbol__inlined(al->sym) && (f & F_SYM))
		f |= F_DSO;
	dso_len = (f & F_DSO) ? strlen(dso) : 0;
	/* The fixed parts fit in 64 bytes; names longer than a room go in pieces. */
	if (sym_len + dso_len > OUTBUF_MAX_ITEM - 64) {
		if (f & F_IP) {
			p = outbuf__room(ob, 24);
			if (!chain)
				*p++ = ' ';
			outbuf__advance(ob, fmt__int(p, &fmt_16llx,
						     chain && al->map ? al->addr : ip));
		}
		if (f & F_SYM) {
			outbuf__putc(ob, ' ');
			outbuf__write(ob, sym, sym_len);
			if (al->sym && (f & F_SYMOFF)) {
				p = outbuf__room(ob, 24);
				memcpy(p, "+0x", 3);
				outbuf__advance(ob, fmt__x64(p + 3, al->sym_addr - al->sym->start));
			}
		}
		if (f & F_DSO) {
			outbuf__write(ob, " (", 2);
			outbuf__write(ob, dso, dso_len);
			outbuf__putc(ob, ')');
		}
		return;
	}
	p = outbuf__room(ob, 64 + sym_len + dso_len);
	if (f & F_IP) {
		if (!chain)
			*p++ = ' ';
		p = fmt__int(p, &fmt_16llx, chain && al->map ? al->addr : ip);
	}
	if (f & F_SYM) {
		*p++ = ' ';
		memcpy(p, sym, sym_len);
		p += sym_len;
		if (al->sym && (f & F_SYMOFF)) {
			memcpy(p, "+0x", 3);
			p = fmt__x64(p + 3, al->sym_addr - al->sym->start);
		}
	}
	if (f & F_DSO) {
		*p++ = ' ';
		*p++ = '(';
		memcpy(p, dso, dso_len);
		p += dso_len;
		*p++ = ')';
	}
	outbuf__advance(ob, p);
}

static void script__print_tp(struct script *sc, struct perf_sample *sample)
{
	struct tep_record rec = {
		.ts = sample->time, .cpu = (int)sample->cpu,
		.size = (int)sample->raw_size, .data = sample->raw_data,
	};

	if (!tp_printer__print(sc->tp, &sc->ob, sample->raw_data, sample->raw_size))
		return;
	/* Formats the fast path does not know, and damaged records. */
	trace_seq_reset(&sc->seq);
	perf_session__print_tp(sc->session->tep, &sc->seq, &rec);
	outbuf__puts(&sc->ob, sc->seq.buffer);
}

/*
 * The distro perf (6.1) knows the hypervisor, kernel and user context
 * markers only; at any other it drops the whole callchain and prints the
 * sample without one.  A frame-pointer walk of a user stack can hand on a
 * word that looks like a marker, so this does happen.
 */
static bool script__chain_valid(const struct perf_sample *sample)
{
	for (u64 i = 0; i < sample->nr_callchain; i++) {
		u64 ip = sample->callchain[i];

		if (ip >= (u64)PERF_CONTEXT_MAX && ip != (u64)PERF_CONTEXT_HV &&
		    ip != (u64)PERF_CONTEXT_KERNEL && ip != (u64)PERF_CONTEXT_USER)
			return false;
	}
	return true;
}

/*
 * -F srcline: "\n  file.c:123" from the DSO's debug info, else "\n  dso[addr]"
 * with the address as printed in the ip column; nothing outside any DSO.
 * (Without debug info upstream asks addr2line, whose answer sometimes names
 * a function after all, and then prints no line: we do not guess when.)
 */
static void script__print_srcline(struct script *sc, const struct addr_location *al, u64 ip)
{
	char line[PATH_MAX + 32];
	const char *name, *slash;
	int n;

	if (!al->dso)
		return;
	if (!dso__srcline(al->dso, al->sym_addr, line, sizeof(line))) {
		n = strlen(line);
	} else {
		name = al->dso->name;
		slash = al->dso->kernel ? NULL : strrchr(name, '/');
		n = snprintf(line, sizeof(line), "%s[%llx]", slash ? slash + 1 : name,
			     (unsigned long long)(al->map ? al->addr : ip));
	}
	outbuf__write(&sc->ob, "\n  ", 3);
	outbuf__write(&sc->ob, line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
}

/*
 * -F addr: the sample's address; a page fault's is named like an ip (sym,
 * dso), in the sample's space or else the other, as the distro names it.
 */
static void script__print_sample_addr(struct script *sc, struct evsel *evsel, unsigned int f,
				      struct perf_sample *sample, struct machine *machine,
				      bool kernel)
{
	struct addr_location al;
	char *p = outbuf__room(&sc->ob, 24);

	outbuf__advance(&sc->ob, fmt__int(p, &fmt_16llx, sample->addr));
	if (!evsel__addr_is_code_or_data(evsel) || !(f & (F_SYM | F_DSO)))
		return;
	machine__resolve(machine, (int)sample->pid, sample->addr, kernel, &al);
	if (!al.dso)
		machine__resolve(machine, (int)sample->pid, sample->addr, !kernel, &al);
	script__print_addr(sc, f & ~F_IP, &al, sample->addr, false);
}

/* One frame of a callchain: "\n\t" and its address, for each function inlined there. */
static void script__print_frame(struct script *sc, unsigned int f, struct addr_location *al,
				u64 ip, bool unwound)
{
	struct symbol *inl[16];
	/* Unwound frames show what was inlined there, as upstream's do. */
	int n_inl = unwound ? srcline__inline_frames(al, inl, ARRAY_SIZE(inl)) : 0;

	for (int k = 0; k < (n_inl ? n_inl : 1); k++) {
		struct addr_location a = *al;
		char *p;

		if (n_inl)
			a.sym = inl[k];
		p = outbuf__room(&sc->ob, 2);
		p[0] = '\n';
		p[1] = '\t';
		outbuf__advance(&sc->ob, p + 2);
		script__print_addr(sc, f, &a, ip, true);
		if (f & F_SRCLINE)
			script__print_srcline(sc, &a, ip);
	}
}

/* The callchain, a frame a line, context markers switching between kernel and user. */
static void script__print_chain(struct script *sc, unsigned int f, struct perf_sample *sample,
				struct machine *machine, bool kernel)
{
	u64 nr = 0;
	const u64 *chain = script__chain_valid(sample) ?
			   unwind__callchain(machine, sample, &nr) : NULL;
	struct addr_location al;
	bool kmode = kernel;

	for (u64 i = 0; i < nr; i++) {
		u64 ip = chain[i];

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			kmode = ip == (u64)PERF_CONTEXT_KERNEL;
			continue;
		}
		machine__resolve(machine, (int)sample->pid, ip, kmode, &al);
		script__print_frame(sc, f, &al, ip, chain != sample->callchain && !kmode);
	}
	outbuf__putc(&sc->ob, '\n');
}

static int script__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct script *sc = container_of(tool, struct script, tool);
	struct script_evsel *se = script__evsel(sc, evsel);
	struct thread *thread = script__thread(sc, machine, (int)sample->pid, (int)sample->tid);
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct addr_location al;
	unsigned int f;

	if (!thread || !se)
		return -ENOMEM;
	if (sc->filter.active &&
	    !sample_filter__match(&sc->filter,
				  sc->filter.nr_comms ? thread__comm_at(thread, sample->time) : "",
				  (int)sample->pid, (int)sample->tid, (int)sample->cpu, sample->time))
		return 0;
	/* Output that cannot be written ends the run (reported by cmd_script). */
	if (sc->ob.err)
		return sc->ob.err;
	f = se->fields;
	script__print_head(sc, f, se->chain, thread, sample);
	if (f & F_EVENT)
		outbuf__write(&sc->ob, se->name, se->name_len);
	if ((f & F_TRACE) && evsel->tp_format)
		script__print_tp(sc, sample);
	if (f & F_ADDR)
		script__print_sample_addr(sc, evsel, f, sample, machine, kernel);
	if (f & F_WEIGHT)
		script__printf(sc, "%16llu", (unsigned long long)sample->weight);
	if (f & F_INS_LAT)
		script__printf(sc, "%16u", sample->ins_lat);
	if (se->chain) {
		script__print_chain(sc, f, sample, machine, kernel);
	} else if (f & F_IP) {
		machine__resolve(machine, (int)sample->pid, sample->ip, kernel, &al);
		script__print_addr(sc, f, &al, sample->ip, false);
		if (f & F_SRCLINE)
			script__print_srcline(sc, &al, sample->ip);
	}
	script__print_tail(sc, evsel, f, sample);
	/*
	 * A bpf-output sample's data ends with a line break of its own, even
	 * when there is none (offcpu-time's), as the distro prints it.
	 */
	if ((f & F_BPF_OUTPUT) && evsel__is_bpf_output(evsel) && !sample->raw_size)
		outbuf__putc(&sc->ob, '\n');
	outbuf__putc(&sc->ob, '\n');
	return 0;
}

/* "r-xp": the protection and sharing of an MMAP2 record. */
static void mmap2__prot(const struct perf_record_mmap2 *m, char *buf)
{
	buf[0] = (m->prot & 1) ? 'r' : '-';	/* PROT_READ */
	buf[1] = (m->prot & 2) ? 'w' : '-';	/* PROT_WRITE */
	buf[2] = (m->prot & 4) ? 'x' : '-';	/* PROT_EXEC */
	buf[3] = (m->flags & 1) ? 's' : 'p';	/* MAP_SHARED */
	buf[4] = '\0';
}

/* COMM, FORK and EXIT as the distro's script shows them; *@pid, *@tid the task's. */
static int task_event__snprintf(const union perf_event *ev, char *text, size_t size, int *pid,
				int *tid)
{
	if (ev->header.type == PERF_RECORD_COMM) {
		*pid = (int)ev->comm.pid;
		*tid = (int)ev->comm.tid;
		return snprintf(text, size, "PERF_RECORD_COMM%s: %.16s:%d/%d",
				(ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
				ev->comm.comm, *pid, *tid);
	}
	*pid = (int)ev->fork.pid;
	*tid = (int)ev->fork.tid;
	return snprintf(text, size, "PERF_RECORD_%s(%d:%d):(%d:%d)",
			ev->header.type == PERF_RECORD_FORK ? "FORK" : "EXIT", *pid, *tid,
			(int)ev->fork.ppid, (int)ev->fork.ptid);
}

/* MMAP and MMAP2 as the distro's script shows them; *@pid, *@tid the task's. */
static int mmap_event__snprintf(const union perf_event *ev, char *text, size_t size, int *pid,
				int *tid)
{
	const struct perf_record_mmap2 *m2 = &ev->mmap2;
	char prot[5];

	if (ev->header.type == PERF_RECORD_MMAP) {
		*pid = (int)ev->mmap.pid;
		*tid = (int)ev->mmap.tid;
		return snprintf(text, size, "PERF_RECORD_MMAP %d/%d: [%#llx(%#llx) @ %#llx]: "
				"%c %.*s", *pid, *tid, (unsigned long long)ev->mmap.start,
				(unsigned long long)ev->mmap.len,
				(unsigned long long)ev->mmap.pgoff,
				(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
				(int)(ev->header.size - offsetof(struct perf_record_mmap, filename)),
				ev->mmap.filename);
	}
	*pid = (int)m2->pid;
	*tid = (int)m2->tid;
	mmap2__prot(m2, prot);
	return snprintf(text, size, "PERF_RECORD_MMAP2 %d/%d: [%#llx(%#llx) @ %#llx "
			"%02x:%02x %llu %llu]: %s %.*s", *pid, *tid,
			(unsigned long long)m2->start, (unsigned long long)m2->len,
			(unsigned long long)m2->pgoff, m2->maj, m2->min,
			(unsigned long long)m2->ino, (unsigned long long)m2->ino_generation, prot,
			(int)(ev->header.size - offsetof(struct perf_record_mmap2, filename)),
			m2->filename);
}

/* SWITCH and SWITCH_CPU_WIDE as the distro's script shows them; -1 for one cut short. */
static int switch_event__snprintf(const union perf_event *ev, char *text, size_t size)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *how = !out ? "IN" : (ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
			  "OUT preempt" : "OUT";
	const u32 *other = (const u32 *)(&ev->header + 1);

	if (ev->header.type == PERF_RECORD_SWITCH)
		return snprintf(text, size, "PERF_RECORD_SWITCH %-11s", how);
	if (ev->header.size < sizeof(ev->header) + 8)
		return -1;
	return snprintf(text, size, "PERF_RECORD_SWITCH_CPU_WIDE %-11s  %s pid/tid: %5d/%-5d",
			how, out ? "next" : "prev", (int)other[0], (int)other[1]);
}

/*
 * The line of a side-band record the options ask for, into @text, and the
 * task it is about: its length, or -1 for a record not shown.
 */
static int script__other_text(const struct script *sc, const union perf_event *ev,
			      const struct perf_sample *sample, char *text, size_t size,
			      int *pid, int *tid)
{
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sc->show_task ? task_event__snprintf(ev, text, size, pid, tid) : -1;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return sc->show_mmap ? mmap_event__snprintf(ev, text, size, pid, tid) : -1;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* The task switching: the one the record's sample id names. */
		*pid = (int)sample->pid;
		*tid = (int)sample->tid;
		return sc->show_switch ? switch_event__snprintf(ev, text, size) : -1;
	default:
		return -1;
	}
}

/*
 * --show-task-events, --show-mmap-events, --show-switch-events: the side-band records among the
 * samples, with the sample's leading fields, as the distro prints them.
 */
static int script__other(struct perf_tool *tool, union perf_event *ev,
			 struct perf_sample *sample, struct machine *machine)
{
	struct script *sc = container_of(tool, struct script, tool);
	struct script_evsel *se;
	struct thread *thread;
	char text[PATH_MAX + 256];
	int pid, tid, len = script__other_text(sc, ev, sample, text, sizeof(text), &pid, &tid);

	if (len < 0)
		return 0;
	se = script__evsel(sc, evlist__first(sc->session->evlist));
	thread = machine__findnew_thread(machine, pid, tid);
	if (!se || !thread)
		return -ENOMEM;
	/* The comm after the record took effect (a FORK's time may be past its sample's). */
	sc->comm_now = true;
	script__print_head(sc, se->fields & (F_COMM | F_TID | F_PID | F_CPU | F_TOD | F_TIME),
			   se->chain, thread, sample);
	sc->comm_now = false;
	outbuf__write(&sc->ob, text, len < (int)sizeof(text) ? (size_t)len : sizeof(text) - 1);
	outbuf__putc(&sc->ob, '\n');
	return 0;
}

static const char * const script_usage[] = { "perf script [<options>]", NULL };

/*
 * Words after the options name a script to run, as in the distro: "perf
 * script NAME [ARGS]", or "perf script report|record NAME [ARGS]".  The
 * reports are built in (util/script-report); other names are unknown, with
 * the distro's exit statuses for a name it lacks (129, and 255 for a
 * report or record script).
 */
static int script__run_script(struct script *sc, int argc, const char **argv)
{
	if (!strcmp(argv[0], "report")) {
		if (argc > 1)
			return script_report__run(argc - 1, argv + 1, sc->input, &sc->filter);
		fprintf(stderr, "perf script: report needs the name of a report script:\n");
		script_report__list(stderr);
		return PERF_EXIT_USAGE;
	}
	if (argc > 1 && !strcmp(argv[0], "record")) {
		fprintf(stderr, "perf script: unknown record script '%s': this perf runs no scripts; "
			"-F chooses the fields it prints.\n", argv[1]);
		return PERF_EXIT_FAILURE;
	}
	fprintf(stderr, "perf script: unknown script '%s': this perf runs no scripts; "
		"-F chooses the fields it prints.\n", argv[0]);
	return PERF_EXIT_USAGE;
}

/*
 * The option table: its values go into @sc.  Returns what parse_options()
 * does: the words left (a script's name), or a negative result.
 */
/* -D: the session's records into the dump, interleaved with script's lines. */
static void script__dump(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
			 const struct perf_sample *sample, u64 offset)
{
	raw_dump__record(&container_of(tool, struct script, tool)->dump, s, ev, sample, offset);
}

static int script__parse_options(struct script *sc, int argc, const char **argv)
{
	bool be_quiet = false, dump_raw = false;
	const struct perf_option options[] = {
		OPT_STRING('i', "input", &sc->input, "file", "input file name (default perf.data)"),
		OPT_CALLBACK('F', "fields", &sc->fields, "str",
			     "comma separated output fields: comm,tid,pid,cpu,time,event,"
			     HELP_MORE "trace,ip,sym,symoff,dso,period,addr,callindent,srcline,tod;"
			     HELP_MORE "\"type:fields\" for one event type (hw, sw, trace, raw,"
			     HELP_MORE "break); +field/-field edit the defaults",
			     script_fields__opt),
		OPT_BOOLEAN(0, "header", &sc->header, "show the data header"),
		OPT_BOOLEAN(0, "header-only", &sc->header_only, "show the data header only"),
		OPT_BOOLEAN('G', "hide-call-graph", &sc->fields.hide_chain, "do not show callchains"),
		OPT_BOOLEAN('l', "list", &sc->list, "list the report scripts (perf script report NAME)"),
		OPT_BOOLEAN(0, "show-task-events", &sc->show_task,
			    "show the COMM, FORK and EXIT records"),
		OPT_BOOLEAN(0, "show-mmap-events", &sc->show_mmap, "show the MMAP and MMAP2 records"),
		OPT_BOOLEAN(0, "show-switch-events", &sc->show_switch,
			    "show the context switch records (record --switch-events)"),
		OPT_BOOLEAN(0, "ns", &sc->ns, "show times in nanoseconds"),
		OPT_BOOLEAN(0, "reltime", &sc->reltime,
			    "show times relative to the first sample shown"),
		OPT_BOOLEAN(0, "deltatime", &sc->deltatime,
			    "show times relative to the previous sample shown"),
		OPT_SAMPLE_FILTERS(&sc->filter, "script", 0,
				   "only the samples in start,stop (seconds, either may be empty),"
				   HELP_MORE "or in slices of the run: 10%/2 (the second tenth), 0%-10%,"
				   HELP_MORE "several separated by commas"),
		OPT_BOOLEAN('q', "quiet", &be_quiet, "do not show warnings"),
		OPT_INCR('v', "verbose", &verbose,
			 "be more verbose (show why symbols were not found, ...)"),
		OPT_BOOLEAN('D', "dump-raw-trace", &dump_raw,
			    "dump every record (offset, bytes, fields) along with the output"),
		OPT_SYMBOL_CONF(),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, script_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (be_quiet)
		quiet = 1;
	if (dump_raw)
		sc->tool.dump = script__dump;
	return argc;
}

/*
 * The command line into @sc.  False when the command ends here, with
 * *@status its exit status: a bad or a help option, a script's name, or
 * options that exclude each other.
 */
static bool script__setup(struct script *sc, int argc, const char **argv, int *status)
{
	argc = script__parse_options(sc, argc, argv);
	if (argc < 0) {
		*status = parse_options__exit_status(argc);
		return false;
	}
	if (sc->list || argc > 0) {
		if (sc->list)
			script_report__list(stdout);
		*status = sc->list ? 0 : script__run_script(sc, argc, argv);
		return false;
	}
	if (sc->reltime && sc->deltatime) {
		fprintf(stderr, "perf script: --reltime and --deltatime exclude each other; "
			"use one.\n");
		*status = PERF_EXIT_USAGE;
		return false;
	}
	if (sc->show_task || sc->show_mmap || sc->show_switch)
		sc->tool.other = script__other;
	return true;
}

/* The input file, or false with *@status the exit status after saying why not. */
static bool script__open(struct script *sc, int *status)
{
	char msg[256];
	int err;

	sc->session = perf_session__open(sc->input, &err, msg, sizeof(msg));
	if (!sc->session) {
		perf_session__report_open_error("script", sc->input, err, msg);
		*status = cmd_exit_status(-1);
		return false;
	}
	return true;
}

/* --header-only */
static void script__print_header_only(struct script *sc)
{
	/* Of a stream, the distro's script prints the head only: the features come later. */
	if (sc->session->pipe)
		perf_session__print_file_header(sc->session, stdout);
	else
		perf_session__print_header(sc->session, stdout);
}

/*
 * What the options ask of the file, checked against what it holds; the
 * --time ranges read against its first and last sample; the width of the
 * event column.  0 or the error (-errno), said.
 */
static int script__prepare(struct script *sc)
{
	struct evsel *e;
	char msg[256];

	if (script_fields__check(&sc->fields, sc->session))
		return -1;	/* the distro's status for it: 255 */
	if (sc->filter.cpus &&
	    !(evlist__first(sc->session->evlist)->attr.sample_type & PERF_SAMPLE_CPU)) {
		fprintf(stderr, "perf script: %s has no CPU in its samples; remove -C/--cpu.\n",
			sc->input);
		return -EINVAL;
	}
	if (sc->filter.time_arg &&
	    sample_filter__set_time(&sc->filter, sc->filter.time_arg, sc->reltime,
				    sc->session->first_sample_time, sc->session->last_sample_time,
				    msg, sizeof(msg))) {
		fprintf(stderr, "perf script: %s\n", msg);
		return -EINVAL;
	}
	evlist__for_each_entry(sc->session->evlist, e) {
		int len = (int)strlen(evsel__name(e));

		if (len > sc->name_width)
			sc->name_width = len;
	}
	return 0;
}

/*
 * The header if asked for, then every record through the tool into
 * sc->ob.  0 or the error (-errno), said; *@truncated for a cut file.
 */
static int script__process(struct script *sc, bool *truncated)
{
	int err, out_err;

	if (sc->header)
		perf_session__print_header(sc->session, stdout);
	/* The header went through stdio; everything else goes through sc->ob. */
	fflush(stdout);
	err = outbuf__init(&sc->ob, STDOUT_FILENO);
	if (!err && sc->session->tep) {
		sc->tp = tp_printer__new(sc->session->tep);
		if (!sc->tp)
			err = -ENOMEM;
	}
	if (!err)
		err = perf_session__process_events(sc->session, &sc->tool);
	out_err = outbuf__flush(&sc->ob);
	if (out_err) {
		/* Processing stopped at the failed write: that is the error to report. */
		fprintf(stderr, "perf script: writing the output failed: %s\n", strerror(-out_err));
		err = out_err;
	} else if (err) {
		if (sc->session->errmsg[0])
			fprintf(stderr, "perf script: %s: %s\n", sc->input, sc->session->errmsg);
		else
			fprintf(stderr, "perf script: reading %s failed: %s\n", sc->input,
				strerror(-err));
	} else if (perf_session__warn_stats(sc->session)) {
		/* A cut file: what it holds is shown, and it exits 1, as gzip -d does. */
		*truncated = true;
	}
	return err;
}

static void script__exit(struct script *sc)
{
	for (size_t i = 0; i < sc->nr_evsels; i++)
		free(sc->evsels[i].name);
	free(sc->evsels);
	tp_printer__delete(sc->tp);
	outbuf__exit(&sc->ob);
	trace_seq_destroy(&sc->seq);
	perf_session__delete(sc->session);
	sample_filter__exit(&sc->filter);
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = {
		.tool = { .sample = script__sample },
		.input = perf_session__default_input(),
		.dump = { .ob = &sc.ob, .script = true },
	};
	bool truncated = false;
	int status, err;

	if (!script__setup(&sc, argc, argv, &status) || !script__open(&sc, &status)) {
		sample_filter__exit(&sc.filter);
		return status;
	}
	if (sc.header_only) {
		script__print_header_only(&sc);
		perf_session__delete(sc.session);
		sample_filter__exit(&sc.filter);
		return 0;
	}
	trace_seq_init(&sc.seq);
	err = script__prepare(&sc);
	if (!err)
		err = script__process(&sc, &truncated);
	script__exit(&sc);
	return err ? cmd_exit_status(err) : truncated;
}
