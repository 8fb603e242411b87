/* refarray: the refcounted, sorted array under cpu_map and thread_map. */
#include "tests.h"
#include "util/refarray.h"

static int test__refarray(void)
{
	int v[] = { 7, 3, 7, -1, 3, 12 };
	struct refarray *a = refarray__new_sorted(v, 6), *d;

	TEST_ASSERT_VAL("made", a);
	TEST_ASSERT_EQUAL("duplicates folded", a->nr, 4);
	TEST_ASSERT_VAL("sorted", a->map[0] == -1 && a->map[1] == 3 && a->map[2] == 7 &&
			a->map[3] == 12);
	TEST_ASSERT_EQUAL("one reference", a->refcnt, 1);
	TEST_ASSERT_VAL("get returns it", refarray__get(a) == a && a->refcnt == 2);
	refarray__put(a);
	TEST_ASSERT_EQUAL("put drops one", a->refcnt, 1);
	refarray__put(a);
	refarray__put(NULL);

	a = refarray__new_sorted(v, 0);
	TEST_ASSERT_VAL("empty", a && a->nr == 0);
	refarray__put(a);

	d = refarray__new_dummy();
	TEST_ASSERT_VAL("dummy is -1 alone", d && d->nr == 1 && d->map[0] == -1);
	refarray__put(d);
	return TEST_OK;
}
DEFINE_SUITE(refarray, "refarray: sorted without duplicates, refcounted (cpu and thread maps)");
