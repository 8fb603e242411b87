#ifndef PERF_UTIL_SYMBOL_H
#define PERF_UTIL_SYMBOL_H
#include "types.h"
#include "hashtab.h"

/* One function of a DSO, at DSO-relative (ELF virtual) or kernel addresses. */
struct symbol {
	u64 start, end;		/* [start, end) */
	const char *name;	/* in the DSO's string pool */
	const char *module;	/* kernel modules: "[name]"; NULL otherwise */
	bool object;		/* data (STT_OBJECT), which report names with its offset */
};

/* A program segment: maps file offsets to the addresses symbols use. */
struct dso_segment {
	u64 offset, vaddr, size;
	u64 memsz;		/* with the zero-filled tail (.bss) the file does not hold */
};

/* A recent lookup of dso__find_symbol(). */
struct dso_lookup {
	u64 addr, sym_addr;
	struct symbol *sym;	/* NULL: no symbol there */
	bool used;
};

struct dso {
	char *name;			/* the path from the MMAP record, or "[kernel.kallsyms]" */
	bool kernel;
	bool loaded;			/* symbols were looked for (found or not) */
	bool hit;			/* a sample resolved into it (set by the commands) */
	unsigned int seq;		/* order of creation in its table */
	/* The build id the file recorded for it (BUILD_ID feature); 0 bytes: none. */
	u8 build_id[20];
	u8 build_id_len;
	char *symsrc;			/* the file its symbols were read from, if any */
	/* The DWARF of its debug info, for inlined functions (util/srcline.c). */
	void *dwarf;
	int dwarf_fd;
	bool dwarf_tried;
	struct dso_inline_cache *inlines;	/* names found, by address */
	struct symbol *syms;		/* sorted by start, non-overlapping */
	size_t nr_syms;
	char *strpool;			/* names of syms, one allocation */
	struct dso_segment *segs;	/* PT_LOAD of the ELF file */
	size_t nr_segs;
	size_t last_hit;		/* index of the last symbol found: samples cluster */
	/* Lookups by address, direct-mapped: callchains come back to the same places. */
	struct dso_lookup *lookups;
};

/* All DSOs one session knows, by name (entries: struct dso *). */
struct dso_table {
	struct hashtab by_name;
};

/* @d: each struct dso ** of table @t, in slot order (sort by seq for creation order). */
#define dso_table__for_each(t, i, d)	hashtab__for_each(&(t)->by_name, i, d)

void dso_table__init(struct dso_table *t);
void dso_table__exit(struct dso_table *t);
struct dso *dso_table__findnew(struct dso_table *t, const char *name, bool kernel);

/*
 * The symbol at @addr: a kernel address for a kernel DSO, else a file
 * offset in the DSO (map pgoff + distance from the map start), which is
 * turned into an ELF address via the program headers.  *@sym_addr gets
 * the address in the symbol's own space (for "+0x..." offsets).  Symbols
 * are loaded on the first call and cached.
 */
struct symbol *dso__find_symbol(struct dso *dso, u64 addr, u64 *sym_addr);
/*
 * The separate debug file of build id @hex: the one the build-id cache
 * keeps with the binary, else /usr/lib/debug/.build-id/xx/rest.debug
 * (under --symfs).  0 with the path in @out, or -ENOENT.
 */
int build_id__debug_file(const char *hex, char *out, size_t size);
/* Loads from /proc/kallsyms (kernel) or the ELF file; 0 or -errno. */
int dso__load(struct dso *dso);

/* Set by the commands' options before any symbol is loaded. */
struct symbol_conf {
	bool no_demangle;	/* --no-demangle: names as the ELF file has them */
	bool demangle_params;	/* -v: C++ names with their parameter lists */
	const char *symfs;	/* --symfs: a root that binaries are looked up under */
	bool no_inline;		/* --no-inline: unwound frames without their inlined functions */
};
extern struct symbol_conf symbol_conf;

/*
 * The options every reading command shares, for its option table:
 * --demangle / --no-demangle, --symfs=DIR and --inline / --no-inline, as
 * the distro spells them.  The callbacks set symbol_conf.
 */
struct perf_option;
int symbol_conf__opt_demangle(const struct perf_option *opt, const char *arg, int unset);
int symbol_conf__opt_inline(const struct perf_option *opt, const char *arg, int unset);
int symbol_conf__opt_symfs(const struct perf_option *opt, const char *arg, int unset);
#define OPT_SYMBOL_CONF()							\
	OPT_CALLBACK_NOOPT(0, "demangle", NULL,					\
			   "demangle C++/Rust symbol names (--no-demangle: do not)",	\
			   symbol_conf__opt_demangle),				\
	OPT_CALLBACK(0, "symfs", NULL, "dir",					\
		     "look for files with symbols relative to this directory",	\
		     symbol_conf__opt_symfs),					\
	OPT_CALLBACK_NOOPT(0, "inline", NULL,					\
			   "show the inlined functions of unwound frames (--no-inline: do not)", \
			   symbol_conf__opt_inline)

/* Test hook: where kernel symbols come from (default "/proc/kallsyms"). */
extern const char *symbol__kallsyms_path;
/* Test hook: the running kernel's notes (default "/sys/kernel/notes"). */
extern const char *symbol__kernel_notes_path;

#endif
