/*
 * Inlined functions from DWARF (see srcline.h).  A DSO's debug info is
 * opened on first use: the file its symbols came from if that has
 * .debug_info, else the separate debug file of its build id.  C++ names
 * are the demangled linkage names, so they compare with the symbol names.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "srcline.h"
#include "machine.h"
#include "symbol.h"
#include "build-id.h"
#include "demangle.h"
#include "hash.h"
#include "hashtab.h"

/* A function inlined into @base: one object per base symbol and name. */
struct inline_sym {
	struct symbol sym;
	const struct symbol *base;
};

/* What an inline_sym is found by. */
struct inline_sym_key {
	const struct symbol *base;
	const char *name;
};

/* The frames found at one address: @nr symbols from @first in the cache's list. */
struct inline_addr {
	u64 addr;
	u32 first, nr;
};

/* What one DSO's inlined functions cost to find once, kept with the DSO. */
struct dso_inline_cache {
	char **names;			/* demangled names */
	size_t nr, cap;
	struct hashtab syms;		/* of struct inline_sym *, by base and name */
	struct hashtab addrs;		/* of struct inline_addr, by address */
	struct symbol **list;		/* the frames of every address, one run each */
	size_t nr_list, cap_list;
};

const char symbol__inlined_module[] = "inlined";

/* The DWARF of @path if it has any compile unit (a stripped file may keep a few sections). */
static Dwarf *dwarf_open(const char *path, int *fd)
{
	Dwarf_Off next;
	size_t hsize;
	Dwarf *dw;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	dw = dwarf_begin(*fd, DWARF_C_READ);
	if (dw && dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL) != 0) {
		dwarf_end(dw);
		dw = NULL;
	}
	if (!dw) {
		close(*fd);
		*fd = -1;
	}
	return dw;
}

static Dwarf *dso__dwarf(struct dso *dso)
{
	char path[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];

	if (dso->dwarf_tried)
		return dso->dwarf;
	dso->dwarf_tried = true;
	dso->dwarf_fd = -1;
	if (dso->symsrc)
		dso->dwarf = dwarf_open(dso->symsrc, &dso->dwarf_fd);
	if (!dso->dwarf) {
		u8 bid[BUILD_ID_SIZE];
		int len = dso->build_id_len;

		/* A DSO the file names no id for: the id of the file read for it. */
		if (len)
			memcpy(bid, dso->build_id, len);
		else if (dso->symsrc)
			len = filename__read_build_id(dso->symsrc, bid, sizeof(bid));
		if (len <= 0)
			return NULL;
		build_id__sprintf(bid, len, hex);
		if (!build_id__debug_file(hex, path, sizeof(path)))
			dso->dwarf = dwarf_open(path, &dso->dwarf_fd);
	}
	return dso->dwarf;
}

void dso__srcline_exit(struct dso *dso)
{
	if (dso->dwarf)
		dwarf_end(dso->dwarf);
	if (dso->dwarf_tried && dso->dwarf_fd >= 0)
		close(dso->dwarf_fd);
	if (dso->inlines) {
		struct dso_inline_cache *c = dso->inlines;
		struct inline_sym **is;
		size_t i;

		for (i = 0; i < c->nr; i++)
			free(c->names[i]);
		hashtab__for_each(&c->syms, i, is)
			free(*is);
		hashtab__exit(&c->syms);
		hashtab__exit(&c->addrs);
		free(c->names);
		free(c->list);
		free(c);
	}
	dso->dwarf = NULL;
	dso->inlines = NULL;
}

static u64 inline_sym__hash(const struct symbol *base, const char *name)
{
	return str__hash(name) ^ u64__hash((uintptr_t)base);
}

static u64 inline_sym__entry_hash(const void *entry, void *ctx)
{
	const struct inline_sym *is = *(struct inline_sym * const *)entry;

	(void)ctx;
	return inline_sym__hash(is->base, is->sym.name);
}

static bool inline_sym__equal(const void *entry, const void *key, void *ctx)
{
	const struct inline_sym *is = *(struct inline_sym * const *)entry;
	const struct inline_sym_key *k = key;

	(void)ctx;
	return is->base == k->base && !strcmp(is->sym.name, k->name);
}

/* The product's high half: its low bits are only the address's low bits again. */
static u64 inline_addr__hash(u64 addr)
{
	return u64__hash(addr) >> 32;
}

static u64 inline_addr__entry_hash(const void *entry, void *ctx)
{
	(void)ctx;
	return inline_addr__hash(((const struct inline_addr *)entry)->addr);
}

static bool inline_addr__equal(const void *entry, const void *addr, void *ctx)
{
	(void)ctx;
	return ((const struct inline_addr *)entry)->addr == *(const u64 *)addr;
}

static struct dso_inline_cache *dso__inline_cache(struct dso *dso)
{
	struct dso_inline_cache *c = dso->inlines;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	hashtab__init(&c->syms, sizeof(struct inline_sym *), 64, inline_sym__entry_hash,
		      inline_sym__equal, NULL);
	hashtab__init(&c->addrs, sizeof(struct inline_addr), 256, inline_addr__entry_hash,
		      inline_addr__equal, NULL);
	dso->inlines = c;
	return c;
}

/* Keeps @name (malloc()ed) for the DSO's lifetime; NULL when out of memory. */
static const char *dso__keep_name(struct dso *dso, char *name)
{
	struct dso_inline_cache *c = dso__inline_cache(dso);

	if (!c)
		goto out_free;
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		char **n = realloc(c->names, cap * sizeof(*n));

		if (!n)
			goto out_free;
		c->names = n;
		c->cap = cap;
	}
	c->names[c->nr++] = name;
	return name;
out_free:
	free(name);
	return NULL;
}

/* The name a function DIE goes by: its demangled linkage name, else its name. */
static const char *die__function_name(struct dso *dso, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name,
								    &attr));
	char *demangled;

	if (!linkage)
		linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name,
								&attr));
	if (linkage) {
		demangled = symbol_conf.no_demangle ? NULL : symbol__demangle(linkage, false);
		if (demangled)
			return dso__keep_name(dso, demangled);
		return linkage;
	}
	return dwarf_diename(die);
}

int dso__inline_names(struct dso *dso, u64 addr, const char **names, int max)
{
	Dwarf *dw = dso__dwarf(dso);
	Dwarf_Die cu, *scopes = NULL, *chain = NULL, inner;
	int nr_scopes, nr_chain, n = 0, i;

	if (!dw || !dwarf_addrdie(dw, addr, &cu))
		return 0;
	/*
	 * dwarf_getscopes() goes from an inlined instance to its abstract
	 * definition's outer scopes, not to its caller; the DIE tree above the
	 * innermost function has the callers, so walk that.
	 */
	nr_scopes = dwarf_getscopes(&cu, addr, &scopes);
	for (i = 0; i < nr_scopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			break;
	}
	if (i == nr_scopes) {
		free(scopes);
		return 0;
	}
	inner = scopes[i];
	free(scopes);
	nr_chain = dwarf_getscopes_die(&inner, &chain);
	for (i = 0; i < nr_chain && n < max; i++) {
		int tag = dwarf_tag(&chain[i]);
		const char *name;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = die__function_name(dso, &chain[i]);
		if (name)
			names[n++] = name;
		/* The function everything here was inlined into ends the list. */
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(chain);
	return n;
}

/*
 * The symbol for function @name inlined into @base: the same object for the
 * same pair, so that report keys and call-graph nodes match by pointer.
 */
static struct symbol *dso__inline_sym(struct dso *dso, const struct symbol *base,
				      const char *name)
{
	struct dso_inline_cache *c = dso__inline_cache(dso);
	struct inline_sym_key key = { base, name };
	u64 hash = inline_sym__hash(base, name);
	struct inline_sym **found, *is;

	if (!c)
		return NULL;
	found = hashtab__find(&c->syms, &key, hash);
	if (found)
		return &(*found)->sym;
	is = malloc(sizeof(*is));
	if (!is)
		return NULL;
	is->sym = *base;
	is->sym.name = name;
	is->sym.module = symbol__inlined_module;
	is->sym.object = false;
	is->base = base;
	if (!hashtab__add(&c->syms, &is, hash)) {
		free(is);
		return NULL;
	}
	return &is->sym;
}

/* The frames of @addr, found once per address: @syms and their count, or -ENOMEM. */
static int dso__inline_syms(struct dso *dso, const struct symbol *base, u64 addr,
			    struct symbol ***syms)
{
	struct dso_inline_cache *c = dso__inline_cache(dso);
	u64 hash = inline_addr__hash(addr);
	const char *names[32];
	struct inline_addr *a, new;
	int n;

	if (!c)
		return -ENOMEM;
	a = hashtab__find(&c->addrs, &addr, hash);
	if (a) {
		*syms = c->list + a->first;
		return (int)a->nr;
	}
	n = dso__inline_names(dso, addr, names, ARRAY_SIZE(names));
	/* An address whose only function is its symbol prints as it is. */
	if (n == 1 && !strcmp(names[0], base->name))
		n = 0;
	if (c->nr_list + (size_t)n > c->cap_list) {
		size_t cap = c->cap_list ? c->cap_list * 2 : 256;
		struct symbol **l;

		while (cap < c->nr_list + (size_t)n)
			cap *= 2;
		l = realloc(c->list, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		c->list = l;
		c->cap_list = cap;
	}
	new = (struct inline_addr){ .addr = addr, .first = (u32)c->nr_list };
	for (int k = 0; k < n; k++) {
		/* The function everything was inlined into is the symbol itself, by name. */
		struct symbol *s = strcmp(names[k], base->name) ?
				   dso__inline_sym(dso, base, names[k]) : (struct symbol *)base;

		if (!s)
			return -ENOMEM;
		c->list[c->nr_list++] = s;
		new.nr++;
	}
	if (!hashtab__add(&c->addrs, &new, hash))
		return -ENOMEM;
	*syms = c->list + new.first;
	return (int)new.nr;
}

int srcline__inline_frames(const struct addr_location *al, struct symbol **out, int max)
{
	struct symbol **syms;
	int n;

	if (!al->dso || !al->sym || al->dso->kernel || symbol_conf.no_inline)
		return 0;
	n = dso__inline_syms(al->dso, al->sym, al->sym_addr, &syms);
	if (n <= 0)
		return 0;
	if (n > max)
		n = max;
	memcpy(out, syms, (size_t)n * sizeof(*out));
	return n;
}

int dso__srcline(struct dso *dso, u64 addr, char *buf, size_t len)
{
	Dwarf *dw = dso->kernel ? NULL : dso__dwarf(dso);
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file, *base;
	int lineno;

	if (!dw || !dwarf_addrdie(dw, addr, &cu))
		return -ENOENT;
	line = dwarf_getsrc_die(&cu, addr);
	file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	/* A unit that covers the address with no line for it: upstream prints ":0". */
	if (!file || dwarf_lineno(line, &lineno) != 0) {
		snprintf(buf, len, ":0");
		return 0;
	}
	base = strrchr(file, '/');
	snprintf(buf, len, "%s:%d", base ? base + 1 : file, lineno);
	return 0;
}
