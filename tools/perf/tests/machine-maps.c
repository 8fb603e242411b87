/*
 * A process's maps as MMAP2 records build them, as the loader maps a
 * library: one read-only reservation of the whole file, then its
 * executable and data segments mapped over parts of it, with a map of a
 * third object above.  Every address must then fall in the map that last
 * covered it, data maps included (page-fault addresses are named from
 * them), with the file offset that map gives it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "tests.h"
#include "util/machine.h"
#include "util/debug.h"

static union perf_event *mmap2(union perf_event *ev, u64 start, u64 len, u64 pgoff, u32 prot,
			       const char *name)
{
	test__named_record(ev, PERF_RECORD_MMAP2, offsetof(struct perf_record_mmap2, filename),
			   name);
	ev->mmap2.pid = 7;
	ev->mmap2.tid = 7;
	ev->mmap2.start = start;
	ev->mmap2.len = len;
	ev->mmap2.pgoff = pgoff;
	ev->mmap2.prot = prot;
	return ev;
}

/* The name of the DSO at @addr and the offset it gives it; NULL in no map. */
static const char *dso_at(struct machine *m, u64 addr, u64 *off)
{
	struct addr_location al;

	machine__resolve(m, 7, addr, false, &al);
	*off = al.addr;
	return al.dso ? al.dso->name : NULL;
}

static int test__machine_maps(void)
{
	static const struct { u64 addr; const char *dso; u64 off; } want[] = {
		{ 0x10000, "/lib/a.so", 0 },		/* the reservation's head */
		{ 0x13000, "/lib/a.so", 0x3000 },	/* code, at its own offset */
		{ 0x18ff0, "/lib/a.so", 0x8ff0 },
		{ 0x19000, "/lib/a.so", 0x9000 },	/* the reservation between */
		{ 0x1c000, "/lib/a.so", 0xa000 },	/* data, mapped from 0xa000 */
		{ 0x1e000, "//anon", 0x1e000 },		/* the reservation's tail, now anon */
		{ 0x40000, "/bin/b", 0x1000 },		/* the next object, untouched */
	};
	union perf_event ev;
	struct machine m;
	u64 off;

	TEST_ASSERT_EQUAL("init", machine__init(&m), 0);
	TEST_ASSERT_EQUAL("b", machine__process_mmap2(&m, mmap2(&ev, 0x40000, 0x2000, 0x1000,
							      PROT_READ | PROT_EXEC, "/bin/b")), 0);
	TEST_ASSERT_EQUAL("reservation", machine__process_mmap2(&m, mmap2(&ev, 0x10000, 0x10000, 0,
							PROT_READ, "/lib/a.so")), 0);
	TEST_ASSERT_EQUAL("code", machine__process_mmap2(&m, mmap2(&ev, 0x13000, 0x6000, 0x3000,
							PROT_READ | PROT_EXEC, "/lib/a.so")), 0);
	TEST_ASSERT_EQUAL("data", machine__process_mmap2(&m, mmap2(&ev, 0x1c000, 0x2000, 0xa000,
							PROT_READ | PROT_WRITE, "/lib/a.so")), 0);
	TEST_ASSERT_EQUAL("anon", machine__process_mmap2(&m, mmap2(&ev, 0x1e000, 0x2000, 0x1e000,
							PROT_READ | PROT_WRITE, "//anon")), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *dso = dso_at(&m, want[i].addr, &off);

		if (!dso || strcmp(dso, want[i].dso) || off != want[i].off) {
			pr_debug("%#llx: %s at %#llx, want %s at %#llx\n",
				 (unsigned long long)want[i].addr, dso ? dso : "no map",
				 (unsigned long long)off, want[i].dso,
				 (unsigned long long)want[i].off);
			machine__exit(&m);
			return TEST_FAIL;
		}
	}
	TEST_ASSERT_VAL("below every map", !dso_at(&m, 0x1000, &off));
	TEST_ASSERT_VAL("between the objects", !dso_at(&m, 0x30000, &off));
	machine__exit(&m);
	return TEST_OK;
}

DEFINE_SUITE(machine_maps, "Maps mapped over a library's reservation: code, data and anon each found");
