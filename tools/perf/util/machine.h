#ifndef PERF_UTIL_MACHINE_H
#define PERF_UTIL_MACHINE_H
/*
 * What the records of one perf.data file say about the machine: threads
 * (COMM/FORK/EXIT), each process's memory maps (MMAP/MMAP2) and the DSOs
 * behind them.  Records must be fed in time order (the session does that),
 * so a thread's current comm is the one valid for the sample at hand.
 */
#include "types.h"
#include "event.h"
#include "symbol.h"
#include "hashtab.h"

struct map {
	u64 start, end;		/* [start, end) in the process */
	u64 pgoff;		/* file offset of start */
	struct dso *dso;
};

/* The maps of one process, sorted by start and non-overlapping. */
struct maps {
	int pid;
	struct map *map;
	size_t nr, cap;
	size_t last_hit;
	void *unwind;		/* the DWARF unwinder's state for this process (util/unwind.c) */
};

struct comm_entry {
	u64 time;
	char comm[16];
};

struct thread {
	int pid, tid;
	int ppid;		/* from its FORK record; -1 when not seen (perf report --task) */
	u32 gen;		/* FORK records for this tid after the first sight of it */
	/* Comm history, oldest first; comms[nr_comms - 1] is the current one. */
	struct comm_entry *comms;
	int nr_comms, cap_comms;
	bool comm_set;		/* from a COMM record or inherited, not made up */
	bool exited;
};

struct machine {
	struct hashtab threads;	/* of struct thread *, by tid */
	struct hashtab maps;	/* of struct maps *, by pid */
	/*
	 * The maps found last (maps never leave the table): a sample's
	 * callchain is one process, and samples come in runs of one.
	 */
	struct maps *last_maps;
	struct dso_table dsos;
	struct dso *kernel_dso;	/* "[kernel.kallsyms]" */
	/*
	 * The lowest start of the kernel's and modules' maps (their MMAP
	 * records, pid -1); 0 when the file has none.  Below it a "kernel"
	 * address (a user address after a stray context marker) is in no map.
	 */
	u64 kernel_start;
	/* JITed kernel code from KSYMBOL records, each its own DSO; unordered, newest last. */
	struct ksym_map {
		u64 start, end;
		struct dso *dso;
	} *ksyms;
	size_t nr_ksyms, cap_ksyms;
};

/* Where an address resolved to; sym/dso NULL when unknown. */
struct addr_location {
	struct map *map;	/* NULL for kernel addresses and unmapped ones */
	struct dso *dso;
	struct symbol *sym;
	u64 addr;		/* the address in the DSO: file offset (user) or as is (kernel) */
	u64 sym_addr;		/* addr in the symbols' own space */
};

int machine__init(struct machine *m);
void machine__exit(struct machine *m);

struct thread *machine__findnew_thread(struct machine *m, int pid, int tid);
/* The comm valid at @time ("" pattern ":tid" when none is known); never NULL. */
const char *thread__comm_at(const struct thread *t, u64 time);
const char *thread__comm(const struct thread *t);

int machine__process_comm(struct machine *m, const union perf_event *event, u64 time);
int machine__process_fork(struct machine *m, const union perf_event *event);
int machine__process_exit(struct machine *m, const union perf_event *event);
int machine__process_mmap(struct machine *m, const union perf_event *event);
int machine__process_mmap2(struct machine *m, const union perf_event *event);
/*
 * KSYMBOL: from its time on, kernel addresses in [addr, addr + len) are
 * the named code (a DSO of that name holding one symbol), until a KSYMBOL
 * unregisters it.
 */
int machine__process_ksymbol(struct machine *m, const union perf_event *event);

/*
 * Resolves @addr seen in process @pid; @kernel says which address space
 * (from the sample's cpumode or a callchain context marker).
 */
void machine__resolve(struct machine *m, int pid, u64 addr, bool kernel,
		      struct addr_location *al);
/* The maps of process @pid, created empty if new; NULL when out of memory. */
struct maps *machine__findnew_maps(struct machine *m, int pid);
/* The map of user address @addr in process @pid, or NULL. */
struct map *machine__find_map(struct machine *m, int pid, u64 addr);
/* Only the DSO of @addr (no symbols are loaded); NULL when unmapped. */
struct dso *machine__find_dso(struct machine *m, int pid, u64 addr, bool kernel);

#endif
