/*
 * KSYMBOL records name JITed kernel code: from registration on, addresses
 * in the range resolve to a DSO of that name with one symbol; after the
 * code is unregistered they are the kernel's again; a range reused by a
 * later program gets the later name; bad records are refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/machine.h"
#include "util/symbol.h"

#define ADDR	0xffffffffc0001000ULL

static union perf_event *ksymbol(union perf_event *ev, u64 addr, u32 len, u16 flags,
				 const char *name)
{
	test__named_record(ev, PERF_RECORD_KSYMBOL, offsetof(struct perf_record_ksymbol, name),
			   name);
	ev->ksymbol.addr = addr;
	ev->ksymbol.len = len;
	ev->ksymbol.ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
	ev->ksymbol.flags = flags;
	return ev;
}

static const char *name_at(struct machine *m, u64 addr, u64 *off)
{
	struct addr_location al;

	machine__resolve(m, -1, addr, true, &al);
	*off = al.sym ? al.sym_addr - al.sym->start : 0;
	if (al.sym && al.dso != machine__find_dso(m, -1, addr, true))
		return "(a different dso)";
	if (al.sym && strcmp(al.dso->name, al.sym->name))
		return "(dso and symbol named apart)";
	return al.sym ? al.sym->name : NULL;
}

static int test__machine_ksymbol(void)
{
	union perf_event ev;
	u64 off;
	struct machine m;
	const char *name;

	TEST_ASSERT_EQUAL("init", machine__init(&m), 0);
	TEST_ASSERT_EQUAL("register", machine__process_ksymbol(&m, ksymbol(&ev, ADDR, 0x100, 0,
							       "bpf_prog_0123456789abcdef_one")), 0);
	name = name_at(&m, ADDR + 0x27, &off);
	TEST_ASSERT_VAL("named", name && !strcmp(name, "bpf_prog_0123456789abcdef_one"));
	TEST_ASSERT_EQUAL("offset in it", off, 0x27);
	name = name_at(&m, ADDR + 0x100, &off);
	TEST_ASSERT_VAL("past its end", !name || strcmp(name, "bpf_prog_0123456789abcdef_one"));

	TEST_ASSERT_EQUAL("unregister", machine__process_ksymbol(&m, ksymbol(&ev, ADDR, 0x100,
				PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "bpf_prog_0123456789abcdef_one")), 0);
	name = name_at(&m, ADDR + 0x27, &off);
	TEST_ASSERT_VAL("gone", !name || strcmp(name, "bpf_prog_0123456789abcdef_one"));

	TEST_ASSERT_EQUAL("the range reused", machine__process_ksymbol(&m, ksymbol(&ev, ADDR, 0x80, 0,
							       "bpf_prog_fedcba9876543210_two")), 0);
	name = name_at(&m, ADDR + 0x10, &off);
	TEST_ASSERT_VAL("the later name", name && !strcmp(name, "bpf_prog_fedcba9876543210_two"));

	/* A name without its NUL, and an empty range, are refused. */
	ksymbol(&ev, ADDR, 0x10, 0, "bpf_prog_x");
	memset(ev.ksymbol.name, 'x', 16);
	TEST_ASSERT_EQUAL("no NUL", machine__process_ksymbol(&m, &ev), -EINVAL);
	TEST_ASSERT_EQUAL("empty", machine__process_ksymbol(&m, ksymbol(&ev, ADDR, 0, 0, "z")),
			  -EINVAL);
	machine__exit(&m);
	return TEST_OK;
}
DEFINE_SUITE(machine_ksymbol, "KSYMBOL records name JITed kernel code while it is registered");
