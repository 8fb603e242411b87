#ifndef PERF_UTIL_SRCLINE_H
#define PERF_UTIL_SRCLINE_H
/*
 * Inlined functions at an address, from the DWARF debug info of a DSO (its
 * own, or the separate debug file named by its build id), for callchains
 * shown the way upstream perf shows them: one line per inlined function,
 * marked "(inlined)", before the function they were inlined into.
 */
#include <stdbool.h>
#include <stddef.h>
#include "types.h"
#include "symbol.h"

struct dso;

/*
 * The functions at ELF address @addr of @dso, innermost first: those
 * inlined there and, last, the one they were inlined into.  Fills up to
 * @max names (valid until the DSO is freed); 0 when the DSO has no debug
 * info or nothing covers @addr.
 */
int dso__inline_names(struct dso *dso, u64 addr, const char **names, int max);
/*
 * The frames upstream perf shows for an unwound address @al: for each
 * function inlined there, innermost first, a symbol of that name over
 * @al->sym's range marked inlined (symbol__inlined()); last @al->sym itself,
 * or a marked symbol when the debug info calls that function otherwise.
 * The symbols are one object per base symbol and name, kept with the DSO,
 * and each address is looked up once.  Fills up to @max; 0 means: @al as
 * it is (no debug info, or nothing inlined there).
 */
struct addr_location;
int srcline__inline_frames(const struct addr_location *al, struct symbol **out, int max);

/* The module of the symbols above, by address: shown "(inlined)" where the DSO goes. */
extern const char symbol__inlined_module[];

static inline bool symbol__inlined(const struct symbol *sym)
{
	return sym && sym->module == symbol__inlined_module;
}

/*
 * "file.c:123" (the file's base name) for ELF address @addr of @dso, from
 * its line table (":0" when a unit covers @addr but has no line for it);
 * -ENOENT when the DSO has no debug info covering @addr.
 */
int dso__srcline(struct dso *dso, u64 addr, char *buf, size_t len);
/* Frees what dso__inline_names() opened for @dso. */
void dso__srcline_exit(struct dso *dso);

#endif
