/* refarray: the refcounted, sorted array under cpu_map and thread_map, and its builder. */
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

	/* Gathered past the first allocation, backwards, each value twice. */
	{
		struct refarray_build b = { NULL, 0, 0 };

		for (int i = 39; i >= 0; i--)
			TEST_ASSERT_EQUAL("add", refarray_build__add(&b, i / 2), 0);
		TEST_ASSERT_EQUAL("all kept", b.nr, 40);
		a = refarray_build__finish(&b);
		TEST_ASSERT_VAL("built", a && a->nr == 20);
		for (int i = 0; i < 20; i++)
			TEST_ASSERT_EQUAL("in order", a->map[i], i);
		TEST_ASSERT_VAL("builder emptied", !b.v && !b.nr && !b.alloc);
		refarray__put(a);
	}
	return TEST_OK;
}
DEFINE_SUITE(refarray, "refarray: sorted without duplicates, refcounted, built one value at a time (cpu and thread maps)");
