/* perf record's target options: which wins when they conflict, and -C checks. */
#include <string.h>
#include "tests.h"
#include "perf.h"
#include "util/cpumap.h"
#include "util/target.h"

static int check_resolve(struct record_opts opts, unsigned int want_lost, bool want_system,
			 bool want_cpus, bool want_per_thread)
{
	unsigned int lost = target__resolve(&opts);

	TEST_ASSERT_EQUAL("overrides", lost, want_lost);
	TEST_ASSERT_EQUAL("system_wide left", opts.system_wide, want_system);
	TEST_ASSERT_EQUAL("cpu_list left", opts.cpu_list != NULL, want_cpus);
	TEST_ASSERT_EQUAL("per_thread left", opts.per_thread, want_per_thread);
	return TEST_OK;
}

static int test__target_resolve(void)
{
	struct record_opts o;

#define RESOLVE(fields, lost, sys, cpus, pt) \
	do { memset(&o, 0, sizeof(o)); fields; \
	     if (check_resolve(o, lost, sys, cpus, pt)) return TEST_FAIL; } while (0)
	/* Nothing conflicts. */
	RESOLVE(o.system_wide = true, 0, true, false, false);
	RESOLVE(o.cpu_list = "0", 0, false, true, false);
	RESOLVE(o.target_pid = "1"; o.per_thread = true, 0, false, false, true);
	RESOLVE(o.per_thread = true, 0, false, false, true);
	/* -p and -t beat -a and -C, each told once. */
	RESOLVE(o.target_pid = "1"; o.system_wide = true, TARGET_OVERRIDE_SYSTEM, false, false,
		false);
	RESOLVE(o.target_tid = "1"; o.cpu_list = "0", TARGET_OVERRIDE_CPU, false, false, false);
	RESOLVE(o.target_pid = "1"; o.system_wide = true; o.cpu_list = "0",
		TARGET_OVERRIDE_CPU | TARGET_OVERRIDE_SYSTEM, false, false, false);
	/* -a and -C beat --per-thread, unless -p already beat them. */
	RESOLVE(o.system_wide = true; o.per_thread = true, TARGET_OVERRIDE_PER_THREAD, true, false,
		false);
	RESOLVE(o.cpu_list = "0"; o.per_thread = true, TARGET_OVERRIDE_PER_THREAD, false, true,
		false);
	RESOLVE(o.target_pid = "1"; o.system_wide = true; o.per_thread = true,
		TARGET_OVERRIDE_SYSTEM, false, false, true);
#undef RESOLVE
	TEST_ASSERT_VAL("the distro's words",
			!strcmp(target__override_str(TARGET_OVERRIDE_SYSTEM),
				"PID/TID switch overriding SYSTEM") &&
			!strcmp(target__override_str(TARGET_OVERRIDE_CPU),
				"PID/TID switch overriding CPU") &&
			!strcmp(target__override_str(TARGET_OVERRIDE_PER_THREAD),
				"SYSTEM/CPU switch overriding PER-THREAD"));
	return TEST_OK;
}
DEFINE_SUITE(target_resolve, "Target options: -p/-t beat -a/-C, -a/-C beat --per-thread");

static int test__cpumap_offline(void)
{
	struct cpu_map *online = cpu_map__new(NULL), *map, *got = NULL;
	char list[64];
	int last, bad;

	TEST_ASSERT_VAL("online map", online && online->nr > 0);
	last = online->map[online->nr - 1];
	TEST_ASSERT_EQUAL("every online CPU is online", cpu_map__first_offline(online, NULL), -1);
	map = cpu_map__dummy_new();
	TEST_ASSERT_EQUAL("'any CPU' is not an offline CPU", cpu_map__first_offline(map, NULL), -1);
	cpu_map__put(map);

	/* One past the last online CPU, and far beyond any machine. */
	snprintf(list, sizeof(list), "%d,%d,%d", online->map[0], last + 1, 1 << 30);
	map = cpu_map__new(list);
	TEST_ASSERT_VAL("parse", map);
	bad = cpu_map__first_offline(map, &got);
	TEST_ASSERT_EQUAL("the first offline CPU is named", bad, last + 1);
	TEST_ASSERT_VAL("the online map is handed back", got && got->nr == online->nr);
	cpu_map__put(got);
	cpu_map__put(map);
	cpu_map__put(online);
	return TEST_OK;
}
DEFINE_SUITE(cpumap_offline, "CPU map: the first CPU of a -C list that is not online");
