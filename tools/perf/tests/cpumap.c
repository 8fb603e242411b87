/* cpu_map: the -C list syntax, printing it back, and this machine's CPUs. */
#include <errno.h>
#include <string.h>
#include "tests.h"
#include "util/cpumap.h"
#include "util/types.h"

/* Parses @list and checks it gives exactly @expect (nr entries). */
static int check_parse(const char *list, const int *expect, int nr, const char *printed)
{
	struct cpu_map *map = cpu_map__new(list);
	char buf[256];
	int len;

	if (!map) {
		fprintf(stderr, "'%s' did not parse: %s\n", list, strerror(errno));
		return TEST_FAIL;
	}
	TEST_ASSERT_EQUAL("number of cpus", map->nr, nr);
	for (int i = 0; i < nr; i++)
		TEST_ASSERT_EQUAL("cpu in order", map->map[i], expect[i]);
	len = cpu_map__snprint(map, buf, sizeof(buf));
	TEST_ASSERT_EQUAL("snprint length", len, strlen(printed));
	if (strcmp(buf, printed)) {
		fprintf(stderr, "'%s' printed as '%s', expected '%s'\n", list, buf, printed);
		return TEST_FAIL;
	}
	cpu_map__put(map);
	return TEST_OK;
}

static int check_bad(const char *list)
{
	struct cpu_map *map;

	errno = 0;
	map = cpu_map__new(list);
	if (map) {
		fprintf(stderr, "'%s' parsed but should not\n", list);
		cpu_map__put(map);
		return TEST_FAIL;
	}
	TEST_ASSERT_EQUAL("bad list sets EINVAL", errno, EINVAL);
	return TEST_OK;
}

static int test__cpumap_parse(void)
{
	static const int c0_3_7[] = { 0, 1, 2, 3, 7 };
	static const int c1_3_5[] = { 1, 3, 4, 5 };
	static const int c_dup[] = { 0, 1, 2, 3, 4, 5, 9 };
	static const int c_one[] = { 5 };
	static const int c_big[] = { 4094, 4095, 4096, 100000 };
	static const char * const bad[] = {
		"", ",", "0,", ",0", "0,,1", " 0", "0 ", "0, 1", "3-1", "a", "1-", "-1",
		"0-1-2", "1x", "+1", "0x1", "99999999999", "1-a", "\n",
	};

	if (check_parse("0-3,7", c0_3_7, ARRAY_SIZE(c0_3_7), "0-3,7") ||
	    check_parse("1,3-5", c1_3_5, ARRAY_SIZE(c1_3_5), "1,3-5") ||
	    check_parse("7,3,0-2", c0_3_7, ARRAY_SIZE(c0_3_7), "0-3,7") ||
	    check_parse("9,0-3,2-5,4,0", c_dup, ARRAY_SIZE(c_dup), "0-5,9") ||
	    check_parse("5", c_one, 1, "5") ||
	    check_parse("5-5", c_one, 1, "5") ||
	    check_parse("100000,4094-4096,4095", c_big, ARRAY_SIZE(c_big), "4094-4096,100000"))
		return TEST_FAIL;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (check_bad(bad[i]))
			return TEST_FAIL;
	}
	return TEST_OK;
}
DEFINE_SUITE(cpumap_parse, "CPU map: parse lists, reject bad ones, print back");

static int test__cpumap_misc(void)
{
	struct cpu_map *online = cpu_map__new(NULL), *dummy = cpu_map__dummy_new();
	struct cpu_map *map = cpu_map__new("0-9"), *evens = cpu_map__new("0,2,4,6,8"), *again;
	char buf[8], text[4096];
	int len;

	TEST_ASSERT_VAL("online cpus", online && online->nr > 0);
	TEST_ASSERT_VAL("max cpu covers online", cpu__max_cpu() > online->map[online->nr - 1]);
	for (int i = 1; i < online->nr; i++)
		TEST_ASSERT_VAL("online sorted", online->map[i] > online->map[i - 1]);
	/* Round trip through text. */
	cpu_map__snprint(online, text, sizeof(text));
	again = cpu_map__new(text);
	TEST_ASSERT_VAL("printed online list parses", again && again->nr == online->nr);
	TEST_ASSERT_VAL("same cpus", !memcmp(again->map, online->map, online->nr * sizeof(int)));
	cpu_map__put(again);

	TEST_ASSERT_VAL("dummy", dummy && dummy->nr == 1 && dummy->map[0] == -1);
	TEST_ASSERT_EQUAL("idx of cpu 4", cpu_map__idx(map, 4), 4);
	TEST_ASSERT_EQUAL("idx of absent cpu", cpu_map__idx(map, 10), -1);
	TEST_ASSERT_EQUAL("idx in dummy", cpu_map__idx(dummy, -1), 0);

	/* Truncation: NUL-terminated, full length returned. */
	TEST_ASSERT_VAL("evens", evens);
	len = cpu_map__snprint(evens, buf, sizeof(buf));
	cpu_map__put(evens);
	TEST_ASSERT_EQUAL("full length", len, strlen("0,2,4,6,8"));
	TEST_ASSERT_VAL("truncated text", !strcmp(buf, "0,2,4,6"));

	/* Reference counting. */
	TEST_ASSERT_VAL("get returns map", cpu_map__get(map) == map);
	TEST_ASSERT_EQUAL("two refs", map->refcnt, 2);
	cpu_map__put(map);
	TEST_ASSERT_EQUAL("one ref", map->refcnt, 1);
	cpu_map__put(map);
	cpu_map__put(NULL);
	cpu_map__put(online);
	cpu_map__put(dummy);
	return TEST_OK;
}
DEFINE_SUITE(cpumap_misc, "CPU map: online CPUs, dummy map, index, refcount");
