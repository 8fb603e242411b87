/*
 * Kernel symbols from a kallsyms file written here: read in pieces (lines
 * across piece boundaries, an over-long line, no newline at the end),
 * only text symbols kept, aliases at one address resolved to the last one
 * listed, and module symbols (listed out of address order) sorted in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/symbol.h"

#define BASE	0xffffffff81000000ULL
#define NR_SYMS	20000		/* ~600 KB: several read pieces */

static int check_sym(struct dso *dso, u64 addr, const char *name, u64 off, const char *module)
{
	u64 sym_addr;
	struct symbol *s = dso__find_symbol(dso, addr, &sym_addr);

	if (!s || strcmp(s->name, name) || sym_addr - s->start != off ||
	    (module ? !s->module || strcmp(s->module, module) : s->module != NULL)) {
		fprintf(stderr, "%llx: expected %s+%#llx %s, got %s+%#llx %s\n",
			(unsigned long long)addr, name, (unsigned long long)off,
			module ? module : "", s ? s->name : "(none)",
			s ? (unsigned long long)(sym_addr - s->start) : 0ULL,
			s && s->module ? s->module : "");
		return -1;
	}
	return 0;
}

static int test__symbol_kallsyms(void)
{
	char path[] = "/tmp/perf-test-kallsyms.XXXXXX";
	struct dso_table table;
	struct dso *dso;
	int fd = mkstemp(path), ret = TEST_FAIL;
	FILE *fp;

	if (fd < 0)
		return TEST_FAIL;
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		goto out_unlink;
	}
	for (int i = 0; i < NR_SYMS; i++) {
		fprintf(fp, "%llx %c sym_%d\n", BASE + i * 0x40ULL, i % 3 ? 'T' : 't', i);
		if (i == 5)
			fprintf(fp, "%llx T alias_5\n", BASE + i * 0x40ULL);
		if (i % 100 == 7)
			fprintf(fp, "%llx D data_%d\n", BASE + i * 0x40ULL + 8, i);
	}
	/* Longer than a read piece: skipped, and the next line still counts. */
	fprintf(fp, "%llx T ", BASE + NR_SYMS * 0x40ULL);
	for (int i = 0; i < 300000; i++)
		fputc('x', fp);
	fprintf(fp, "\n%llx T after_long\n", BASE + NR_SYMS * 0x40ULL + 0x100);
	/* Modules come after the kernel and not in address order. */
	fprintf(fp, "ffffffffc0002000 t modfn_b\t[mymod]\n");
	fprintf(fp, "ffffffffc0001000 T modfn_a\t[mymod]\n");
	fprintf(fp, "ffffffffc0003000 b modvar\t[mymod]\n");
	fprintf(fp, "ffffffffd0000000 T last_sym");	/* no newline */
	if (fclose(fp))
		goto out_unlink;

	symbol__kallsyms_path = path;
	dso_table__init(&table);
	dso = dso_table__findnew(&table, "[kernel.kallsyms]", true);
	if (!dso)
		goto out;
	if (check_sym(dso, BASE, "sym_0", 0, NULL) ||
	    check_sym(dso, BASE + 10 * 0x40 + 5, "sym_10", 5, NULL) ||
	    check_sym(dso, BASE + 5 * 0x40 + 1, "alias_5", 1, NULL) ||
	    check_sym(dso, BASE + 107 * 0x40 + 8, "sym_107", 8, NULL) ||
	    check_sym(dso, BASE + (NR_SYMS - 1) * 0x40ULL + 0x3f, "sym_19999", 0x3f, NULL) ||
	    check_sym(dso, BASE + NR_SYMS * 0x40ULL + 0x100, "after_long", 0, NULL) ||
	    check_sym(dso, 0xffffffffc0001010ULL, "modfn_a", 0x10, "[mymod]") ||
	    check_sym(dso, 0xffffffffc0002004ULL, "modfn_b", 4, "[mymod]") ||
	    check_sym(dso, 0xffffffffd0000fffULL, "last_sym", 0xfff, NULL))
		goto out;
	TEST_ASSERT_EQUAL("text symbols only, one per address", dso->nr_syms, NR_SYMS + 4);
	/* Twice over: the second time mostly from the lookup cache, collisions included. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < NR_SYMS; i += 7) {
			char name[32];

			snprintf(name, sizeof(name), i == 5 ? "alias_%d" : "sym_%d", i);
			if (check_sym(dso, BASE + i * 0x40ULL + i % 0x40, name, i % 0x40, NULL))
				goto out;
		}
	}
	ret = TEST_OK;
out:
	dso_table__exit(&table);
	symbol__kallsyms_path = "/proc/kallsyms";
out_unlink:
	unlink(path);
	return ret;
}

DEFINE_SUITE(symbol_kallsyms, "Kernel symbols from kallsyms: pieces, aliases, unsorted modules");
