/*
 * Kernel symbols from a kallsyms file written here: read in pieces (lines
 * across piece boundaries, an over-long line, no newline at the end),
 * only text symbols kept, aliases at one address resolved to the last one
 * listed, and module symbols (listed out of address order) sorted in.
 * And the copy in the build-id cache, named by the kernel's build id in a
 * perf.data file's BUILD_ID feature, preferred to /proc/kallsyms.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests.h"
#include "util/session.h"
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

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *fp = fopen(path, "w");
	int err = 0;

	if (!fp)
		return -1;
	if (fwrite(buf, 1, len, fp) != len)
		err = -1;
	if (fclose(fp))
		err = -1;
	return err;
}

/* A perf.data with one kernel sample and a BUILD_ID feature naming the kernel's @bid. */
static int write_perf_data(const char *path, const u8 *bid)
{
	struct perf_event_attr attr = { 0 };
	struct {
		struct perf_event_header h;
		u64 ip;
		u32 pid, tid;
		u64 time;
	} sample = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, sizeof(sample) },
		     0xffffffff81000010ULL, 1, 1, 1000 };
	struct {
		struct perf_event_header h;
		s32 pid;
		u8 build_id[20];
		u8 size, reserved[3];
		char name[24];
	} bid_rec = { { 67, PERF_RECORD_MISC_KERNEL | (1 << 15), sizeof(bid_rec) }, -1,
		      { 0 }, 20, { 0 }, "[kernel.kallsyms]" };
	u64 hdr[13] = { 0 }, ids_sec[2] = { 0, 0 }, feat_sec[2];
	char buf[1024];
	size_t len = 0;

	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	memcpy(bid_rec.build_id, bid, 20);
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = sizeof(hdr);
	hdr[2] = sizeof(attr) + sizeof(ids_sec);
	hdr[3] = sizeof(hdr);				/* attrs */
	hdr[4] = hdr[2];
	hdr[5] = hdr[3] + hdr[4];			/* data */
	hdr[6] = sizeof(sample);
	hdr[9] = 1ULL << 2;				/* HEADER_BUILD_ID */
	feat_sec[0] = hdr[5] + hdr[6] + sizeof(feat_sec);
	feat_sec[1] = sizeof(bid_rec);
#define ADD(x) do { memcpy(buf + len, &(x), sizeof(x)); len += sizeof(x); } while (0)
	ADD(hdr);
	ADD(attr);
	ADD(ids_sec);
	ADD(sample);
	ADD(feat_sec);
	ADD(bid_rec);
#undef ADD
	return write_file(path, buf, len);
}

static int test__symbol_buildid_cache(void)
{
	static const u8 bid[20] = { 0xab, 0xcd, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
				    15, 16, 17, 0xef };
	static const char cached[] = "ffffffff81000000 T cached_sym\n";
	static const char zeros[] = "0000000000000000 T cached_sym\n";
	static const char proc[] = "ffffffff81000000 T proc_sym\n";
	char dir[] = "/tmp/perf-test-buildid.XXXXXX", path[PATH_MAX], data[PATH_MAX];
	char procfile[PATH_MAX], msg[256];
	struct perf_session *s = NULL;
	struct symbol *sym;
	int err, ret = TEST_FAIL;
	u64 addr;

	if (!mkdtemp(dir))
		return TEST_FAIL;
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/abcd0102030405060708090a0b0c0d0e0f1011ef",
		 dir);
	mkdir(path, 0755);
	strcat(path, "/kallsyms");
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(procfile, sizeof(procfile), "%s/proc-kallsyms", dir);
	if (write_file(path, cached, strlen(cached)) || write_perf_data(data, bid) ||
	    write_file(procfile, proc, strlen(proc)))
		goto out;
	setenv("PERF_BUILDID_DIR", dir, 1);
	symbol__kallsyms_path = procfile;

	s = perf_session__open(data, &err, msg, sizeof(msg));
	if (!s) {
		fprintf(stderr, "open: %s\n", msg);
		goto out;
	}
	TEST_ASSERT_EQUAL("kernel build id read", s->machine.kernel_dso->build_id_size, 20);
	TEST_ASSERT_VAL("kernel build id", !memcmp(s->machine.kernel_dso->build_id, bid, 20));
	sym = dso__find_symbol(s->machine.kernel_dso, 0xffffffff81000010ULL, &addr);
	TEST_ASSERT_VAL("symbol from the cached copy", sym && !strcmp(sym->name, "cached_sym"));
	perf_session__delete(s);

	/* A copy saved without privilege (zero addresses) is no use: /proc it is. */
	if (write_file(path, zeros, strlen(zeros)))
		goto out;
	s = perf_session__open(data, &err, msg, sizeof(msg));
	TEST_ASSERT_VAL("reopen", s);
	sym = dso__find_symbol(s->machine.kernel_dso, 0xffffffff81000010ULL, &addr);
	TEST_ASSERT_VAL("symbol from kallsyms", sym && !strcmp(sym->name, "proc_sym"));
	perf_session__delete(s);

	/* With the cache turned off. */
	if (write_file(path, cached, strlen(cached)))
		goto out;
	symbol__use_buildid_cache = false;
	s = perf_session__open(data, &err, msg, sizeof(msg));
	TEST_ASSERT_VAL("reopen", s);
	sym = dso__find_symbol(s->machine.kernel_dso, 0xffffffff81000010ULL, &addr);
	TEST_ASSERT_VAL("cache off", sym && !strcmp(sym->name, "proc_sym"));
	ret = TEST_OK;
out:
	perf_session__delete(s);
	symbol__use_buildid_cache = true;
	symbol__kallsyms_path = "/proc/kallsyms";
	unsetenv("PERF_BUILDID_DIR");
	unlink(path);
	unlink(data);
	unlink(procfile);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/abcd0102030405060708090a0b0c0d0e0f1011ef",
		 dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", dir);
	rmdir(path);
	rmdir(dir);
	return ret;
}

DEFINE_SUITE(symbol_buildid_cache, "Kernel symbols from the build-id cache copy the file names");
