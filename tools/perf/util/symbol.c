/*
 * Symbols of DSOs: the kernel's from /proc/kallsyms, user files' from
 * their ELF .symtab (else .dynsym).  Each DSO keeps one sorted array and
 * is searched by bisection; nothing is loaded until an address in it is
 * looked up.
 */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbol.h"
#include "hash.h"
#include "build-id.h"
#include "demangle.h"
#include "srcline.h"
#include "debug.h"
#include "fd-io.h"

const char *symbol__kallsyms_path = "/proc/kallsyms";
struct symbol_conf symbol_conf;

int symbol_conf__opt_demangle(const struct perf_option *opt, const char *arg, int unset)
{
	symbol_conf.no_demangle = unset;
	return 0;
}

int symbol_conf__opt_inline(const struct perf_option *opt, const char *arg, int unset)
{
	symbol_conf.no_inline = unset;
	return 0;
}

int symbol_conf__opt_symfs(const struct perf_option *opt, const char *arg, int unset)
{
	/* "DIR/" and "DIR" mean the same root. */
	static char root[PATH_MAX];
	size_t n = strlen(arg);

	while (n > 1 && arg[n - 1] == '/')
		n--;
	snprintf(root, sizeof(root), "%.*s", (int)n, arg);
	symbol_conf.symfs = strcmp(root, "/") ? root : "";
	return 0;
}

/* The table holds pointers to its DSOs, so a DSO stays put as the table grows. */
static u64 dso__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return str__hash((*(struct dso * const *)entry)->name);
}

static bool dso__name_equal(const void *entry, const void *name, void *ctx)
{
	(void)ctx;
	return !strcmp((*(struct dso * const *)entry)->name, name);
}

void dso_table__init(struct dso_table *t)
{
	hashtab__init(&t->by_name, sizeof(struct dso *), 64, dso__hash, dso__name_equal, NULL);
}

static void dso__delete(struct dso *dso)
{
	dso__srcline_exit(dso);
	free(dso->name);
	free(dso->symsrc);
	free(dso->syms);
	free(dso->strpool);
	free(dso->segs);
	free(dso->lookups);
	free(dso);
}

void dso_table__exit(struct dso_table *t)
{
	struct dso **d;
	size_t i;

	dso_table__for_each(t, i, d)
		dso__delete(*d);
	hashtab__exit(&t->by_name);
}

struct dso *dso_table__findnew(struct dso_table *t, const char *name, bool kernel)
{
	u64 h = str__hash(name);
	struct dso **found = hashtab__find(&t->by_name, name, h), *d;

	if (found)
		return *found;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->name = strdup(name);
	if (!d->name || !hashtab__add(&t->by_name, &d, h)) {
		free(d->name);
		free(d);
		return NULL;
	}
	d->kernel = kernel;
	d->seq = t->by_name.nr - 1;
	return d;
}

/* Growable symbol array plus string pool, used while loading. */
struct sym_builder {
	struct symbol *syms;
	size_t nr, cap;
	char *pool;
	size_t pool_len, pool_cap;
	/* Parallel to syms while building: binding rank and whether size was known. */
	unsigned char *rank;
};

static int builder__add(struct sym_builder *b, u64 start, u64 end, const char *name,
			size_t len, unsigned char rank)
{
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct symbol *s = realloc(b->syms, cap * sizeof(*s));
		unsigned char *r;

		if (!s)
			return -ENOMEM;
		b->syms = s;
		r = realloc(b->rank, cap);
		if (!r)
			return -ENOMEM;
		b->rank = r;
		b->cap = cap;
	}
	if (b->pool_len + len + 1 > b->pool_cap) {
		size_t cap = b->pool_cap ? b->pool_cap * 2 : 65536;
		char *p;

		while (cap < b->pool_len + len + 1)
			cap *= 2;
		p = realloc(b->pool, cap);
		if (!p)
			return -ENOMEM;
		b->pool = p;
		b->pool_cap = cap;
	}
	memcpy(b->pool + b->pool_len, name, len);
	b->pool[b->pool_len + len] = '\0';
	/* Names are offsets until the pool stops moving. */
	b->syms[b->nr].name = (const char *)(uintptr_t)b->pool_len;
	b->syms[b->nr].module = NULL;
	b->syms[b->nr].object = false;
	b->syms[b->nr].start = start;
	b->syms[b->nr].end = end;
	b->rank[b->nr] = rank;
	b->pool_len += len + 1;
	b->nr++;
	return 0;
}

struct ranked {
	struct symbol sym;
	unsigned char rank;
	size_t order;
};

static int ranked__cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->sym.start != y->sym.start)
		return x->sym.start < y->sym.start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Of two ELF symbols at one address, the one perf shows: one with a size,
 * then global over local over weak, then fewer leading underscores, then
 * the longer name, then the one listed first, as in the distro (glibc's
 * debug file lists clock_gettime@@GLIBC_2.17 before clock_gettime@GLIBC_2.2.5).
 * (Kernel aliases: the last one listed wins.)  @a is listed after @b.
 */
static bool symbol__better(const struct symbol *a, unsigned char arank, const struct symbol *b,
			   unsigned char brank, bool kernel)
{
	bool asz = a->end > a->start, bsz = b->end > b->start;
	size_t au, bu;

	if (kernel)
		return true;
	if (asz != bsz)
		return asz;
	if (arank != brank)
		return arank > brank;
	au = leading_underscores(a->name);
	bu = leading_underscores(b->name);
	if (au != bu)
		return au < bu;
	return strlen(a->name) > strlen(b->name);
}

/* Puts the symbols in address order, keeping the order they came in among equals. */
static int builder__sort(struct sym_builder *b)
{
	struct ranked *r = malloc(b->nr * sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < b->nr; i++) {
		r[i].sym = b->syms[i];
		r[i].rank = b->rank[i];
		r[i].order = i;
	}
	qsort(r, b->nr, sizeof(*r), ranked__cmp);
	for (size_t i = 0; i < b->nr; i++) {
		b->syms[i] = r[i].sym;
		b->rank[i] = r[i].rank;
	}
	free(r);
	return 0;
}

/* Sorts, drops duplicates at one address, and closes size-less symbols at the next start. */
static int builder__finish(struct sym_builder *b, struct dso *dso, u64 last_len)
{
	struct symbol *syms = b->syms;
	bool sorted = true;
	size_t n = 0;

	for (size_t i = 0; i < b->nr; i++) {
		syms[i].name = b->pool + (uintptr_t)syms[i].name;
		if (syms[i].module)
			syms[i].module = b->pool + (uintptr_t)syms[i].module - 1;
		if (i && syms[i].start < syms[i - 1].start)
			sorted = false;
	}
	/* kallsyms lists the kernel in address order: only modules would need sorting. */
	if (!sorted && builder__sort(b))
		return -ENOMEM;
	for (size_t i = 0; i < b->nr; i++) {
		if (n && syms[n - 1].start == syms[i].start) {
			if (symbol__better(&syms[i], b->rank[i], &syms[n - 1], b->rank[n - 1],
					   dso->kernel)) {
				syms[n - 1] = syms[i];
				b->rank[n - 1] = b->rank[i];
			}
			continue;
		}
		syms[n] = syms[i];
		b->rank[n] = b->rank[i];
		n++;
	}
	/*
	 * The last one, size-less too: @last_len long, or (0) to the end of
	 * the page after its own, as far as the distro lets it reach.
	 */
	for (size_t i = 0; i < n; i++) {
		if (syms[i].end > syms[i].start)
			continue;
		if (i + 1 < n)
			syms[i].end = syms[i + 1].start;
		else if (last_len)
			syms[i].end = syms[i].start + last_len;
		else
			syms[i].end = (syms[i].start + 4095) / 4096 * 4096 + 4096;
	}
	dso->syms = syms;
	dso->nr_syms = n;
	dso->strpool = b->pool;
	free(b->rank);
	return 0;
}

static void builder__free(struct sym_builder *b)
{
	free(b->syms);
	free(b->pool);
	free(b->rank);
}

/*
 * Calls @fn for each line of @path (without its newline, NUL-terminated),
 * reading a piece at a time: /proc/kallsyms is megabytes, and holding it
 * whole only costs page faults.  A line longer than the buffer is skipped.
 */
static int for_each_line(const char *path, int (*fn)(char *line, size_t len, void *arg),
			 void *arg)
{
	size_t cap = 256 << 10, have = 0;
	bool skipping = false;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, cap - have);
		char *line = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0) {
			/* A last line without a newline. */
			if (have && !skipping) {
				buf[have] = '\0';
				err = fn(buf, have, arg);
			}
			break;
		}
		have += n;
		while ((nl = memchr(line, '\n', buf + have - line))) {
			*nl = '\0';
			if (!skipping)
				err = fn(line, nl - line, arg);
			skipping = false;
			if (err)
				goto out;
			line = nl + 1;
		}
		have -= line - buf;
		memmove(buf, line, have);
		if (have == cap) {
			skipping = true;
			have = 0;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

/* Hex digit values plus one; 0 for anything else. */
static const unsigned char hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * The hex number at @s (at most 16 digits, else NULL); returns where it
 * ends.  strtoull() would do, at several times the cost, and kallsyms has
 * over 100,000 lines.
 */
static char *parse_hex(char *s, u64 *v)
{
	u64 x = 0;
	char *p;

	for (p = s; p - s <= 16 && hex_digit[(unsigned char)*p]; p++)
		x = x << 4 | (hex_digit[(unsigned char)*p] - 1);
	*v = x;
	return p - s > 16 || p == s ? NULL : p;
}

/* One kallsyms line: "address type name [module]"; only text symbols matter for samples. */
static int kallsyms__line(char *line, size_t len, void *arg)
{
	struct sym_builder *b = arg;
	char *p, *name, *end, *mod = NULL;
	size_t name_len, off;
	u64 addr;
	char type;
	int err;

	p = parse_hex(line, &addr);
	if (!p || *p != ' ' || !p[1] || p[2] != ' ')
		return 0;
	type = p[1];
	if (toupper(type) != 'T' && toupper(type) != 'W')
		return 0;
	name = p + 3;
	name_len = line + len - name;
	/* The name ends at a tab (a module follows) or a space, if any. */
	end = memchr(name, '\t', name_len);
	if (end)
		name_len = end - name;
	end = memchr(name, ' ', name_len);
	if (end)
		name_len = end - name;
	if (name[name_len] == '\t' && name[name_len + 1] == '[')
		mod = name + name_len + 1;
	if (!addr || !name_len)
		return 0;
	err = builder__add(b, addr, 0, name, name_len,
			   toupper(type) == 'W' ? 0 : isupper(type) ? 2 : 1);
	if (err || !mod)
		return err;
	/* Keep "[module]" after the name in the pool; offset + 1 marks "present". */
	len = strcspn(mod, "]") + 1;
	off = b->pool_len;
	if (mod[len - 1] != ']')
		return 0;
	err = builder__add(b, 0, 0, mod, len, 0);
	if (err)
		return err;
	b->nr--;		/* only the string was wanted */
	b->syms[b->nr - 1].module = (const char *)(uintptr_t)(off + 1);
	return 0;
}

/* Test hook: where the running kernel's build id is read from. */
const char *symbol__kernel_notes_path = "/sys/kernel/notes";

/*
 * The kallsyms of the kernel the file was recorded on: under --symfs the
 * one there; the running one's when the ids agree (or the file gives
 * none), else the copy the build-id cache keeps for that id.  Another
 * kernel's symbols would be wrong names.
 */
static const char *dso__kallsyms_path(struct dso *dso, char *buf, size_t size)
{
	char want[2 * BUILD_ID_SIZE + 1], have[2 * BUILD_ID_SIZE + 1];
	u8 bid[BUILD_ID_SIZE];
	int len;

	/* Under --symfs, as the distro does: another machine's root. */
	if (symbol_conf.symfs && *symbol_conf.symfs) {
		snprintf(buf, size, "%s%s", symbol_conf.symfs, symbol__kallsyms_path);
		return buf;
	}
	if (!dso->build_id_len)
		return symbol__kallsyms_path;
	len = sysfs__read_build_id(symbol__kernel_notes_path, bid, sizeof(bid));
	if (build_id__same(bid, len, dso->build_id, dso->build_id_len))
		return symbol__kallsyms_path;
	if (!build_id_cache__find(dso->name, dso->build_id, dso->build_id_len, buf, size))
		return buf;
	build_id__sprintf(dso->build_id, dso->build_id_len, want);
	if (len > 0)
		build_id__sprintf(bid, len, have);
	pr_warning("Warning: the data was recorded on the kernel with build id %s, this is %s, "
		   "and the build-id cache has no kallsyms of it; kernel samples are shown as "
		   "[unknown].\n", want, len > 0 ? have : "unknown");
	return NULL;
}

static int dso__load_kallsyms(struct dso *dso)
{
	struct sym_builder b = { 0 };
	char buf[PATH_MAX];
	const char *path = dso__kallsyms_path(dso, buf, sizeof(buf));
	int err = path ? for_each_line(path, kallsyms__line, &b) : -ENOENT;

	if (!err)
		err = builder__finish(&b, dso, 4096);
	if (err)
		builder__free(&b);
	return err;
}

/* The GNU build id as hex ("" when there is none), for finding the separate debug file. */
static void elf__build_id(Elf *elf, char *hex, size_t len)
{
	u8 bid[64];
	int n = elf__read_build_id(elf, bid, len > 2 * sizeof(bid) ? sizeof(bid) : (len - 1) / 2);

	if (n > 0)
		build_id__sprintf(bid, n, hex);
	else
		hex[0] = '\0';
}

/*
 * PLT entries have no symbols of their own: name them "<target>@plt" from
 * .rela.plt, in order, as perf does.  With IBT (.plt.sec) the entries
 * have no header; a classic .plt starts with one header entry.
 */
static int elf__add_plt(Elf *elf, struct sym_builder *b)
{
	Elf_Scn *scn = NULL, *plt = NULL, *plt_sec = NULL, *rela = NULL;
	GElf_Shdr plt_sh, rela_sh, sym_sh, sh;
	Elf_Data *rdata, *sdata;
	size_t shstrndx, nr;
	u64 addr, entsize;
	int err = 0;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".plt"))
			plt = scn;
		else if (!strcmp(name, ".plt.sec"))
			plt_sec = scn;
		else if (!strcmp(name, ".rela.plt"))
			rela = scn;
	}
	if (plt_sec)
		plt = plt_sec;
	if (!plt || !rela || !gelf_getshdr(plt, &plt_sh) || !gelf_getshdr(rela, &rela_sh) ||
	    rela_sh.sh_type != SHT_RELA || !rela_sh.sh_entsize)
		return 0;
	scn = elf_getscn(elf, rela_sh.sh_link);
	if (!scn || !gelf_getshdr(scn, &sym_sh))
		return 0;
	rdata = elf_getdata(rela, NULL);
	sdata = elf_getdata(scn, NULL);
	if (!rdata || !sdata)
		return 0;
	entsize = plt_sh.sh_entsize ? plt_sh.sh_entsize : 16;
	addr = plt_sh.sh_addr + (plt_sec ? 0 : entsize);
	nr = rela_sh.sh_size / rela_sh.sh_entsize;
	for (size_t i = 0; i < nr && addr + entsize <= plt_sh.sh_addr + plt_sh.sh_size; i++) {
		char name[512], *demangled;
		const char *target = "";
		GElf_Rela r;
		GElf_Sym sym;

		if (!gelf_getrela(rdata, i, &r))
			break;
		if (GELF_R_SYM(r.r_info) && gelf_getsym(sdata, GELF_R_SYM(r.r_info), &sym))
			target = elf_strptr(elf, sym_sh.sh_link, sym.st_name);
		demangled = target && !symbol_conf.no_demangle ?
			symbol__demangle(target, symbol_conf.demangle_params) : NULL;
		snprintf(name, sizeof(name), "%s@plt", demangled ? demangled : target ? target : "");
		free(demangled);
		err = builder__add(b, addr, addr + entsize, name, strlen(name), 2);
		if (err)
			break;
		addr += entsize;
	}
	return err;
}

/* Whether a label in section @ndx is a place of code or data, as the distro takes labels. */
static bool elf__label_section_ok(Elf *elf, size_t ndx)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	const char *name;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	if (sh.sh_flags & SHF_EXECINSTR)
		return true;
	name = elf_strptr(elf, shstrndx, sh.sh_name);
	return name && strstr(name, "data");
}

/* The PT_LOAD segments, by which file offsets become addresses. */
static int elf__load_segs(struct dso *dso, Elf *elf, size_t nr_phdr)
{
	dso->segs = calloc(nr_phdr ? nr_phdr : 1, sizeof(*dso->segs));
	if (!dso->segs)
		return -ENOMEM;
	for (size_t i = 0; i < nr_phdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->segs[dso->nr_segs].offset = ph.p_offset;
		dso->segs[dso->nr_segs].vaddr = ph.p_vaddr;
		dso->segs[dso->nr_segs].size = ph.p_filesz;
		dso->segs[dso->nr_segs].memsz = ph.p_memsz;
		dso->nr_segs++;
	}
	return 0;
}

static void elf__find_symtabs(Elf *elf, Elf_Scn **symtab, Elf_Scn **dynsym)
{
	Elf_Scn *scn = NULL;

	*symtab = *dynsym = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			*symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			*dynsym = scn;
	}
}

/* Whether @sym, named @name, is one the distro would name samples by. */
static bool elf__sym_wanted(Elf *elf, const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE || !sym->st_value)
		return false;
	if (!name || !*name)
		return false;
	/*
	 * Labels (no type) count too, in code and in data, as the distro
	 * counts them: in a section that executes or whose name says data,
	 * not in .bss (the _end marker).
	 */
	if (type == STT_NOTYPE)
		return name[0] != '.' && name[0] != '$' && elf__label_section_ok(elf, sym->st_shndx);
	/* Objects too: data addresses (page faults) are named, as in the distro. */
	return type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
}

/* Adds the wanted symbols of the table in @scn to @b, demangled unless told not to. */
static int elf__add_symtab(Elf *elf, Elf_Scn *scn, struct sym_builder *b)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Shdr sh;
	size_t nr;
	int err = 0;

	if (!gelf_getshdr(scn, &sh) || !data || !sh.sh_entsize)
		return -EINVAL;
	nr = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < nr && !err; i++) {
		GElf_Sym sym;
		const char *name;
		char *demangled;
		int bind;

		if (!gelf_getsym(data, i, &sym))
			break;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!elf__sym_wanted(elf, &sym, name))
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		demangled = symbol_conf.no_demangle ? NULL :
			symbol__demangle(name, symbol_conf.demangle_params);
		if (demangled)
			name = demangled;
		err = builder__add(b, sym.st_value, sym.st_value + sym.st_size, name, strlen(name),
				   bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 0 : 1);
		if (!err)
			b->syms[b->nr - 1].object = GELF_ST_TYPE(sym.st_info) == STT_OBJECT;
		free(demangled);
	}
	return err;
}

/*
 * Adds the symbols of one ELF file to @b: .symtab, else .dynsym.  For the
 * DSO's own file also its segments, PLT names and build id (*@id, hex).
 */
static int elf__load_syms(struct dso *dso, const char *path, bool main_file,
			  struct sym_builder *b, bool *has_symtab, char *id, size_t id_len)
{
	Elf_Scn *scn, *symtab, *dynsym;
	GElf_Ehdr ehdr;
	size_t nr_phdr;
	Elf *elf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) ||
	    elf_getphdrnum(elf, &nr_phdr)) {
		err = -EINVAL;
		goto out;
	}
	if (main_file) {
		err = elf__load_segs(dso, elf, nr_phdr);
		if (err)
			goto out;
		elf__build_id(elf, id, id_len);
		err = elf__add_plt(elf, b);
		if (err)
			goto out;
	}
	elf__find_symtabs(elf, &symtab, &dynsym);
	*has_symtab = symtab != NULL;
	scn = symtab ? symtab : main_file ? dynsym : NULL;
	if (scn)
		err = elf__add_symtab(elf, scn, b);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

int build_id__debug_file(const char *hex, char *out, size_t size)
{
	const char *symfs = symbol_conf.symfs ? symbol_conf.symfs : "";
	char link[PATH_MAX];
	struct stat st;

	/* The cache keeps it next to the binary (as "debug"), so it travels with perf archive. */
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", buildid_dir__get(), hex, hex + 2);
	snprintf(out, size, "%s/debug", link);
	if (!stat(link, &st) && S_ISDIR(st.st_mode) && !access(out, R_OK))
		return 0;
	snprintf(out, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex, hex + 2);
	return access(out, R_OK) ? -ENOENT : 0;
}

/*
 * The file to read @dso's symbols from, into @out.  A DSO the recording
 * named with a build id is only ever read from a file with that id: the
 * build-id cache first, then the file at its path (under --symfs), then
 * the debug file installed for that id.  A path alone would give the
 * symbols of whatever was rebuilt there since: wrong names, silently.
 * Without a recorded id the path is all there is.  0 or -ENOENT.
 */
static int dso__find_symsrc(struct dso *dso, char *out, size_t size)
{
	const char *symfs = symbol_conf.symfs ? symbol_conf.symfs : "";
	char want[2 * BUILD_ID_SIZE + 1], have[2 * BUILD_ID_SIZE + 1] = "";
	u8 bid[BUILD_ID_SIZE];
	int len;

	if (!dso->build_id_len) {
		if (dso->name[0] != '/')
			return -ENOENT;
		snprintf(out, size, "%s%s", symfs, dso->name);
		return 0;
	}
	build_id__sprintf(dso->build_id, dso->build_id_len, want);
	if (!build_id_cache__find(dso->name, dso->build_id, dso->build_id_len, out, size)) {
		len = filename__read_build_id(out, bid, sizeof(bid));
		if (build_id__same(bid, len, dso->build_id, dso->build_id_len))
			return 0;
		pr_warning("Warning: %s in the build-id cache is not the ELF file of %s with build "
			   "id %s (%s); skipping it.\n", out, dso->name, want,
			   len == -EINVAL ? "not an ELF file" : len < 0 ? strerror(-len) :
			   "it has another build id");
	}
	if (dso->name[0] == '/') {
		snprintf(out, size, "%s%s", symfs, dso->name);
		if (!access(out, R_OK)) {
			len = filename__read_build_id(out, bid, sizeof(bid));
			if (build_id__same(bid, len, dso->build_id, dso->build_id_len))
				return 0;
			if (len > 0)
				build_id__sprintf(bid, len, have);
			else
				snprintf(have, sizeof(have), "%s", len == -ENOENT ? "none" : "unreadable");
		}
	}
	if (!build_id__debug_file(want, out, size)) {
		len = filename__read_build_id(out, bid, sizeof(bid));
		if (build_id__same(bid, len, dso->build_id, dso->build_id_len))
			return 0;
	}
	if (have[0])
		pr_warning("Warning: %s%s has build id %s but was recorded with %s, and the build-id "
			   "cache has no usable copy of that; its samples are shown as [unknown].\n", symfs,
			   dso->name, have, want);
	return -ENOENT;
}

/*
 * A stripped file keeps only .dynsym; its full .symtab may be in the debug
 * file named by its build id (what a -dbg package installs).
 */
static int dso__load_elf(struct dso *dso)
{
	struct sym_builder b = { 0 };
	char id[128] = "", dbg[PATH_MAX], path[PATH_MAX];
	bool has_symtab = false, dbg_symtab = false;
	int err;

	err = dso__find_symsrc(dso, path, sizeof(path));
	if (err)
		return err;
	dso->symsrc = strdup(path);
	pr_debug("symbols of %s from %s\n", dso->name, path);
	err = elf__load_syms(dso, path, true, &b, &has_symtab, id, sizeof(id));
	if (!err && !has_symtab && strlen(id) > 2 && !build_id__debug_file(id, dbg, sizeof(dbg)) &&
	    strcmp(dbg, path))
		elf__load_syms(dso, dbg, false, &b, &dbg_symtab, NULL, 0);
	if (!err)
		err = builder__finish(&b, dso, 0);
	if (err)
		builder__free(&b);
	return err;
}

/*
 * A [vdso] the file gives no build id for (a stream, or a recorder that
 * wrote none): the symbols of this machine's own vdso, which a reader on
 * the recording kernel shares, as the distro's reader takes them.  The
 * image is read from an anonymous file, as libelf reads a path.
 */
static int dso__load_own_vdso(struct dso *dso)
{
	struct sym_builder b = { 0 };
	const void *img;
	char path[64], id[128];
	bool has_symtab = false;
	size_t size;
	int fd, err;

	err = vdso__image(&img, &size);
	if (err)
		return err;
	fd = memfd_create("perf-vdso.so", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fd__write_all(fd, img, size);
	if (err) {
		close(fd);
		return err;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	pr_debug("symbols of %s from this machine's vdso\n", dso->name);
	err = elf__load_syms(dso, path, true, &b, &has_symtab, id, sizeof(id));
	if (!err)
		err = builder__finish(&b, dso, 0);
	if (err)
		builder__free(&b);
	close(fd);
	return err;
}

int dso__load(struct dso *dso)
{
	int err;

	if (dso->loaded)
		return 0;
	dso->loaded = true;
	if (dso->kernel)
		err = dso__load_kallsyms(dso);
	else if (!dso->build_id_len && !strcmp(dso->name, "[vdso]"))
		err = dso__load_own_vdso(dso);
	else if (dso->name[0] != '/' && !(dso->name[0] == '[' && dso->build_id_len))
		err = -ENOENT;	/* [heap], anon, a [vdso] without id: no file to read */
	else
		err = dso__load_elf(dso);
	if (err)
		pr_debug("no symbols for %s: %s\n", dso->name, strerror(-err));
	return err;
}

/*
 * A file offset as a virtual address: in the segment whose bytes are there,
 * else in one whose zero-filled tail (.bss, mapped past the file's end) it
 * is, as a data address can be.
 */
static u64 dso__offset_to_vaddr(const struct dso *dso, u64 off)
{
	for (int tail = 0; tail < 2; tail++) {
		for (size_t i = 0; i < dso->nr_segs; i++) {
			const struct dso_segment *s = &dso->segs[i];

			if (off >= s->offset && off - s->offset < (tail ? s->memsz : s->size))
				return off - s->offset + s->vaddr;
		}
	}
	return off;
}

static struct symbol *dso__lookup(struct dso *dso, u64 addr, u64 *sym_addr)
{
	size_t lo = 0, hi;
	struct symbol *s;

	if (!dso->kernel)
		addr = dso__offset_to_vaddr(dso, addr);
	*sym_addr = addr;
	if (!dso->nr_syms)
		return NULL;
	s = &dso->syms[dso->last_hit];
	if (addr >= s->start && addr < s->end)
		return s;
	hi = dso->nr_syms;
	/* The last symbol starting at or before addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dso->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &dso->syms[lo - 1];
	if (addr >= s->end)
		return NULL;
	dso->last_hit = lo - 1;
	return s;
}

#define DSO_LOOKUPS	1024	/* a power of 2 */

struct symbol *dso__find_symbol(struct dso *dso, u64 addr, u64 *sym_addr)
{
	struct dso_lookup *l;

	if (!dso->loaded) {
		dso__load(dso);
		/* Not worth it for a DSO of a few symbols (or none). */
		if (dso->nr_syms > 64)
			dso->lookups = calloc(DSO_LOOKUPS, sizeof(*dso->lookups));
	}
	if (!dso->lookups)
		return dso__lookup(dso, addr, sym_addr);
	l = &dso->lookups[u64__hash(addr) >> 54];
	if (!l->used || l->addr != addr) {
		l->sym = dso__lookup(dso, addr, &l->sym_addr);
		l->addr = addr;
		l->used = true;
	}
	*sym_addr = l->sym_addr;
	return l->sym;
}
