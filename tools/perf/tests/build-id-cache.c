/*
 * The build-id cache and the reader's use of it, on this perf binary (an
 * ELF file with a build id and a symbol table) in a temporary cache:
 * upstream's layout (entry, relative .build-id link), a hard link rather
 * than a copy, listing and removal; a DSO recorded with an id is read from
 * the cache entry of that id, never from a file at its path with another
 * id; a corrupt cache entry is skipped; the recorder's hook adds each file
 * once per identity and survives a cache it cannot write.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests.h"
#include "util/build-id.h"
#include "util/header.h"
#include "util/symbol.h"
#include "util/demangle.h"
#include "util/dso-hits.h"
#include "util/evlist.h"
#include "util/evsel.h"

struct listed {
	const char *name, *hex;
	int seen;
};

static int list_cb(const char *name, const char *hex, void *arg)
{
	struct listed *l = arg;

	if (!strcmp(name, l->name) && !strcmp(hex, l->hex))
		l->seen++;
	return 0;
}

/* Symbols of DSO @name recorded with build id @bid, loaded afresh. */
static size_t load_syms(const char *name, const u8 *bid, int len, char *symsrc, size_t size)
{
	struct dso_table t;
	struct dso *d;
	size_t nr = 0;

	dso_table__init(&t);
	d = dso_table__findnew(&t, name, false);
	if (d) {
		memcpy(d->build_id, bid, len);
		d->build_id_len = len;
		dso__load(d);
		nr = d->nr_syms;
		snprintf(symsrc, size, "%s", d->symsrc ? d->symsrc : "");
	}
	dso_table__exit(&t);
	return nr;
}

static void note_file(struct perf_header_info *info, const char *path)
{
	union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.header.type = PERF_RECORD_MMAP2;
	ev.header.misc = PERF_RECORD_MISC_USER;
	ev.header.size = sizeof(ev.mmap2);
	ev.mmap2.prot = 4;	/* PROT_EXEC */
	snprintf(ev.mmap2.filename, sizeof(ev.mmap2.filename), "%s", path);
	perf_header_info__note_event(info, &ev);
}

static int test__build_id_cache(void)
{
	char dir[] = "/tmp/perf-test-bidcache.XXXXXX", exe[PATH_MAX], path[PATH_MAX * 2];
	char hex[2 * BUILD_ID_SIZE + 1], target[PATH_MAX], expect[PATH_MAX * 2];
	u8 bid[BUILD_ID_SIZE], other[BUILD_ID_SIZE];
	struct perf_header_info info = { 0 };
	struct stat st_exe, st;
	struct listed l;
	ssize_t n;
	int len, fd, ret = TEST_FAIL;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return TEST_FAIL;
	exe[n] = '\0';
	len = filename__read_build_id(exe, bid, sizeof(bid));
	if (len <= 0)
		return test__skip("this perf binary has no build id (linked without --build-id)");
	/* An id recorded zero-padded to 20 bytes by an older perf is the same id. */
	memset(other, 0, sizeof(other));
	memcpy(other, bid, 16);
	TEST_ASSERT_VAL("padded id", build_id__same(bid, 16, other, 20));
	other[19] = 1;
	TEST_ASSERT_VAL("padding not zero", !build_id__same(bid, 16, other, 20));
	TEST_ASSERT_VAL("longer than recorded", !build_id__same(other, 20, bid, 16));
	if (!mkdtemp(dir))
		return TEST_FAIL;
	buildid_dir__set(dir);
	build_id__sprintf(bid, len, hex);

	/* Layout: <dir>/<path>/<id>/elf, a hard link, and .build-id/xx/rest -> ../../<path>/<id>. */
	TEST_ASSERT_VAL("add", build_id_cache__add_file("/opt/prog", bid, len, exe) == 0);
	snprintf(path, sizeof(path), "%s/opt/prog/%s/elf", dir, hex);
	TEST_ASSERT_VAL("entry file", stat(path, &st) == 0 && stat(exe, &st_exe) == 0);
	if (st.st_dev == st_exe.st_dev)
		TEST_ASSERT_VAL("hard link on one file system", st.st_ino == st_exe.st_ino);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	n = readlink(path, target, sizeof(target) - 1);
	TEST_ASSERT_VAL("link", n > 0);
	target[n] = '\0';
	snprintf(expect, sizeof(expect), "../../opt/prog/%s", hex);
	TEST_ASSERT_VAL("relative link to the entry directory", !strcmp(target, expect));
	TEST_ASSERT_VAL("add again", build_id_cache__add_file("/opt/prog", bid, len, exe) == 0);
	TEST_ASSERT_VAL("find", build_id_cache__find("/opt/prog", bid, len, path,
						     sizeof(path)) == 0);
	l = (struct listed){ "/opt/prog", hex, 0 };
	TEST_ASSERT_VAL("list", build_id_cache__for_each(list_cb, &l) == 0 && l.seen == 1);

	/* The reader: symbols of /opt/prog (no such file) come from the cache. */
	TEST_ASSERT_VAL("symbols through the cache", load_syms("/opt/prog", bid, len, target,
								  sizeof(target)) > 100);
	TEST_ASSERT_VAL("read from the cache", !strncmp(target, dir, strlen(dir)));
	/* The file at the path has another id than recorded: no symbols at all. */
	memset(other, 0x5a, sizeof(other));
	TEST_ASSERT_EQUAL("another id at the path", load_syms(exe, other, len, target,
							      sizeof(target)), 0);
	/* The same id recorded: the file at the path is fine. */
	TEST_ASSERT_VAL("same id at the path", load_syms(exe, bid, len, target,
							 sizeof(target)) > 100);

	/* A corrupt entry for @other: skipped (and said), the path is not used either. */
	snprintf(path, sizeof(path), "%s/corrupt", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	TEST_ASSERT_VAL("corrupt file", fd >= 0 && write(fd, "\177ELF\2\1\1garbage", 15) == 15);
	close(fd);
	TEST_ASSERT_VAL("add corrupt", build_id_cache__add_file(exe, other, len, path) == 0);
	TEST_ASSERT_EQUAL("corrupt entry skipped", load_syms(exe, other, len, target,
							     sizeof(target)), 0);

	/* A debug file kept beside the entry is found by its id. */
	snprintf(path, sizeof(path), "%s/opt/prog/%s/debug", dir, hex);
	TEST_ASSERT_VAL("debug beside", link(exe, path) == 0);
	TEST_ASSERT_VAL("debug found", build_id__debug_file(hex, target, sizeof(target)) == 0 &&
		       !strncmp(target, dir, strlen(dir)));
	/* Removal takes the entry, its companions and its link. */
	TEST_ASSERT_VAL("remove", build_id_cache__remove("/opt/prog", bid, len) == 0);
	TEST_ASSERT_VAL("gone", build_id_cache__find("/opt/prog", bid, len, path,
						     sizeof(path)) < 0);
	snprintf(path, sizeof(path), "%s/opt/prog/%s", dir, hex);
	TEST_ASSERT_VAL("entry directory gone", access(path, F_OK) < 0);

	/* The recorder's hook: added once per file identity. */
	note_file(&info, exe);
	perf_header_info__cache_build_ids(&info);
	TEST_ASSERT_VAL("hook added", build_id_cache__find(exe, bid, len, path,
							   sizeof(path)) == 0);
	TEST_ASSERT_VAL("unlink", unlink(path) == 0);
	perf_header_info__cache_build_ids(&info);
	TEST_ASSERT_VAL("known file not added again", access(path, F_OK) < 0);
	/* A cache under a regular file cannot be written: a warning, no error. */
	snprintf(path, sizeof(path), "%s/corrupt/cache", dir);
	buildid_dir__set(path);
	perf_header_info__exit(&info);
	info = (struct perf_header_info){ 0 };
	info.vdso = true;
	perf_header_info__cache_build_ids(&info);
	ret = TEST_OK;
	perf_header_info__exit(&info);
	buildid_dir__set(NULL);
	if (test__rm_rf(dir))
		ret = TEST_FAIL;
	return ret;
}

DEFINE_SUITE(build_id_cache, "Build-id cache: layout, lookup by id, corrupt entries, hook");

static int check_demangle(const char *mangled, bool params, const char *want)
{
	char *got = symbol__demangle(mangled, params);
	int ok = want ? got && !strcmp(got, want) : !got;

	if (!ok)
		fprintf(stderr, "%s: expected %s, got %s\n", mangled, want ? want : "(not mangled)",
			got ? got : "(not mangled)");
	free(got);
	return ok ? 0 : -1;
}

static int test__demangle(void)
{
	if (check_demangle("_ZN2ns3BoxIlE4spinEi", false, "ns::Box<long>::spin") ||
	    check_demangle("_ZN2ns3BoxIlE4spinEi", true, "ns::Box<long>::spin(int)") ||
	    check_demangle("_Znwm", false, "operator new") ||
	    /* Rust, legacy (the hash goes) and v0. */
	    check_demangle("_ZN4core3fmt5write17h0123456789abcdefE", false, "core::fmt::write") ||
	    check_demangle("_RNvNtCs1234_7mycrate3sub3foo", false, "mycrate::sub::foo") ||
	    check_demangle("main", false, NULL) || check_demangle("_Zbogus", false, NULL))
		return TEST_FAIL;
	return TEST_OK;
}

DEFINE_SUITE(demangle, "Demangling C++ and Rust symbol names");

static void hits_mmap(struct dso_hits *h, u32 pid, u64 start, u64 len, const char *name)
{
	union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.header.type = PERF_RECORD_MMAP2;
	ev.header.misc = PERF_RECORD_MISC_USER;
	ev.header.size = sizeof(ev.mmap2);
	ev.mmap2.pid = ev.mmap2.tid = pid;
	ev.mmap2.start = start;
	ev.mmap2.len = len;
	ev.mmap2.prot = 4;	/* PROT_EXEC */
	snprintf(ev.mmap2.filename, sizeof(ev.mmap2.filename), "%s", name);
	dso_hits__note(h, &ev);
}

/* A sample laid out as IDENTIFIER | IP | TID. */
static void hits_sample(struct dso_hits *h, u32 pid, u64 ip)
{
	struct {
		struct perf_event_header header;
		u64 id, ip;
		u32 pid, tid;
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 7, ip, pid, pid };

	dso_hits__note(h, (union perf_event *)&s);
}

static int test__dso_hits(void)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						       PERF_SAMPLE_TID | PERF_SAMPLE_TIME };
	struct evlist *evlist = evlist__new();
	union perf_event fork;
	struct dso_hits *h;
	int ret = TEST_FAIL;

	if (!evlist)
		return TEST_FAIL;
	evlist__add(evlist, evsel__new(&attr));
	h = dso_hits__new(evlist);
	if (!h)
		goto out;
	/* A sample before the maps that explain it: a dump writes them in that order. */
	hits_sample(h, 101, 0x1100);
	hits_mmap(h, 100, 0x1000, 0x2000, "/a");
	hits_mmap(h, 100, 0x5000, 0x1000, "/b");
	hits_mmap(h, 200, 0x1000, 0x1000, "/c");
	hits_mmap(h, 200, 0x9000, 0x1000, "[vdso]");
	memset(&fork, 0, sizeof(fork));
	fork.header.type = PERF_RECORD_FORK;
	fork.header.size = sizeof(fork.fork);
	fork.fork.pid = fork.fork.tid = 101;
	fork.fork.ppid = fork.fork.ptid = 100;
	dso_hits__note(h, &fork);
	hits_sample(h, 200, 0x9010);
	if (!dso_hits__hit(h, "/a") || dso_hits__hit(h, "/b") || dso_hits__hit(h, "/c") ||
	    !dso_hits__hit(h, "[vdso]") || dso_hits__hit(h, "/never")) {
		fprintf(stderr, "hits: a=%d b=%d c=%d vdso=%d\n", dso_hits__hit(h, "/a"),
			dso_hits__hit(h, "/b"), dso_hits__hit(h, "/c"), dso_hits__hit(h, "[vdso]"));
		goto out;
	}
	/* More pages than are kept unmatched: matched as they come, still told apart. */
	hits_mmap(h, 400, 0x10000000, 0x20000000, "/big");
	for (u64 i = 0; i < 100000; i++)
		hits_sample(h, 400, 0x10000000 + i * 4096);
	if (!dso_hits__hit(h, "/big") || !dso_hits__hit(h, "/a") || dso_hits__hit(h, "/b"))
		goto out;
	/* A sample nothing explains: every file counts. */
	hits_sample(h, 300, 0x1000);
	if (!dso_hits__hit(h, "/b") || !dso_hits__hit(h, "/c"))
		goto out;
	dso_hits__delete(h);
	/* Too many pages no map explains yet: it gives up telling files apart. */
	h = dso_hits__new(evlist);
	if (!h)
		goto out;
	hits_mmap(h, 500, 0x1000, 0x1000, "/small");
	for (u64 i = 0; i < 100000; i++)
		hits_sample(h, 501, 0x40000000 + i * 4096);
	TEST_ASSERT_VAL("gave up", dso_hits__hit(h, "/small") && dso_hits__hit(h, "/any"));
	dso_hits__delete(h);
	/* Events that put IP at different places: not worked out, everything listed. */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	evlist__add(evlist, evsel__new(&attr));
	h = dso_hits__new(evlist);
	TEST_ASSERT_VAL("mixed layouts", h == NULL && dso_hits__hit(NULL, "/b"));
	ret = TEST_OK;
out:
	dso_hits__delete(h);
	evlist__delete(evlist);
	return ret;
}

DEFINE_SUITE(dso_hits, "DSOs with samples: maps in any order, forks, many pages, unexplained samples");

/* A fresh table at @t whose kernel DSO has the build id @id, of @len bytes. */
static struct dso *kernel_with_id(struct dso_table *t, const u8 *id, size_t len)
{
	struct dso *d;

	dso_table__init(t);
	d = dso_table__findnew(t, "[kernel.kallsyms]", true);
	if (d) {
		memcpy(d->build_id, id, len);
		d->build_id_len = len;
	}
	return d;
}

/* Kernel symbols of a kernel that is not running come from the cache, or not at all. */
static int test__kallsyms_by_build_id(void)
{
	char dir[] = "/tmp/perf-test-kcache.XXXXXX", file[PATH_MAX + 32];
	u8 other[BUILD_ID_SIZE];
	struct dso_table t;
	struct dso *d;
	u64 sym_addr;
	struct symbol *s;
	FILE *fp;
	int ret = TEST_FAIL;

	if (!mkdtemp(dir))
		return TEST_FAIL;
	buildid_dir__set(dir);
	memset(other, 0x33, sizeof(other));
	d = kernel_with_id(&t, other, sizeof(other));
	if (!d)
		goto out;
	/* Not the running kernel, not cached: nothing (the running one's would be wrong). */
	if (dso__find_symbol(d, 0xffffffff81000010ULL, &sym_addr) || d->nr_syms)
		goto out;
	dso_table__exit(&t);

	snprintf(file, sizeof(file), "%s/ks", dir);
	fp = fopen(file, "w");
	if (!fp)
		goto out_rm;
	fprintf(fp, "ffffffff81000000 T other_kernel_fn\nffffffff81001000 T next_fn\n");
	fclose(fp);
	if (build_id_cache__add_file("[kernel.kallsyms]", other, sizeof(other), file))
		goto out_rm;
	d = kernel_with_id(&t, other, sizeof(other));
	if (!d)
		goto out;
	s = dso__find_symbol(d, 0xffffffff81000010ULL, &sym_addr);
	if (!s || strcmp(s->name, "other_kernel_fn")) {
		fprintf(stderr, "expected other_kernel_fn from the cache, got %s\n",
			s ? s->name : "(none)");
		goto out;
	}
	ret = TEST_OK;
out:
	dso_table__exit(&t);
out_rm:
	buildid_dir__set(NULL);
	if (test__rm_rf(dir))
		ret = TEST_FAIL;
	return ret;
}

DEFINE_SUITE(kallsyms_by_build_id, "Kernel symbols by build id: the cache's kallsyms of another kernel");
