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

/* Demangled names, owned by their DSO. */
struct dso_inline_cache {
	char **names;
	size_t nr, cap;
};

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
		for (size_t i = 0; i < dso->inlines->nr; i++)
			free(dso->inlines->names[i]);
		free(dso->inlines->names);
		free(dso->inlines);
	}
	dso->dwarf = NULL;
	dso->inlines = NULL;
}

/* Keeps @name (malloc()ed) for the DSO's lifetime; NULL when out of memory. */
static const char *dso__keep_name(struct dso *dso, char *name)
{
	struct dso_inline_cache *c = dso->inlines;

	if (!c) {
		c = dso->inlines = calloc(1, sizeof(*c));
		if (!c)
			goto out_free;
	}
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

int srcline__inline_frames(const struct addr_location *al, struct symbol *out, int max)
{
	const char *names[32];
	int n;

	if (!al->dso || !al->sym || al->dso->kernel)
		return 0;
	n = dso__inline_names(al->dso, al->sym_addr, names, max < 32 ? max : 32);
	for (int i = 0; i < n; i++) {
		out[i] = *al->sym;
		if (strcmp(names[i], al->sym->name)) {
			out[i].name = names[i];
			out[i].module = "inlined";
		}
	}
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
