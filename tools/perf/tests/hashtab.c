/* hashtab: entries by key through growth, slot order, the move to rebuild, and the string hash. */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/hash.h"
#include "util/hashtab.h"

struct pair {
	u64 key, value;
};

static u64 pair__hash(const void *entry, void *ctx)
{
	const struct pair *p = entry;

	(void)ctx;
	return u64__hash(p->key);
}

/* Keys are u64s; ctx counts the calls, to see that the owner's function is used. */
static bool pair__equal(const void *entry, const void *key, void *ctx)
{
	(*(int *)ctx)++;
	return ((const struct pair *)entry)->key == *(const u64 *)key;
}

/* Every key with a constant hash: one long probe sequence, wrapping past the end. */
static u64 pair__collide(const void *entry, void *ctx)
{
	(void)entry;
	(void)ctx;
	return 7;
}

static int test__hashtab_grow(void)
{
	struct hashtab t;
	int calls = 0;
	struct pair *p;
	size_t i, seen = 0;
	u64 sum = 0;

	hashtab__init(&t, sizeof(struct pair), 4, pair__hash, pair__equal, &calls);
	TEST_ASSERT_VAL("empty find", !hashtab__find(&t, &(u64){ 1 }, u64__hash(1)));
	for (u64 k = 1; k <= 1000; k++) {
		struct pair e = { k, k * 3 };

		TEST_ASSERT_VAL("add", hashtab__add(&t, &e, u64__hash(k)));
		TEST_ASSERT_VAL("at most half full", t.nr * 2 <= t.cap);
	}
	TEST_ASSERT_EQUAL("1000 entries", t.nr, 1000);
	TEST_ASSERT_EQUAL("power of two", t.cap & (t.cap - 1), 0);
	for (u64 k = 1; k <= 1000; k++) {
		p = hashtab__find(&t, &k, u64__hash(k));
		TEST_ASSERT_VAL("found after growth", p && p->key == k && p->value == k * 3);
	}
	TEST_ASSERT_VAL("equal() asked", calls >= 1000);
	TEST_ASSERT_VAL("absent", !hashtab__find(&t, &(u64){ 1001 }, u64__hash(1001)));
	hashtab__for_each(&t, i, p) {
		seen++;
		sum += p->key;
	}
	TEST_ASSERT_EQUAL("walk sees each once", seen, 1000);
	TEST_ASSERT_EQUAL("walk sees all", sum, 500500);
	hashtab__exit(&t);
	return TEST_OK;
}

/* reserve() keeps pointers valid while entries are added; a full probe chain wraps. */
static int test__hashtab_reserve(void)
{
	struct hashtab t;
	int calls = 0;
	struct pair *first;
	size_t cap;

	hashtab__init(&t, sizeof(struct pair), 8, pair__collide, pair__equal, &calls);
	TEST_ASSERT_EQUAL("reserve", hashtab__reserve(&t, 4), 0);
	cap = t.cap;
	TEST_ASSERT_EQUAL("8 slots hold 4", cap, 8);
	first = hashtab__add(&t, &(struct pair){ 1, 10 }, 7);
	for (u64 k = 2; k <= 4; k++)
		TEST_ASSERT_VAL("add", hashtab__add(&t, &(struct pair){ k, k * 10 }, 7));
	TEST_ASSERT_EQUAL("no growth within the reserve", t.cap, cap);
	TEST_ASSERT_EQUAL("first entry still there", first->value, 10);
	/* Slots 7, 0, 1, 2: the chain wrapped. */
	TEST_ASSERT_VAL("slot 7", hashtab__slot(&t, 7) == first);
	TEST_ASSERT_EQUAL("slot 0", ((struct pair *)hashtab__slot(&t, 0))->key, 2);
	TEST_ASSERT_EQUAL("slot 2", ((struct pair *)hashtab__slot(&t, 2))->key, 4);
	TEST_ASSERT_VAL("slot 3 empty", !hashtab__slot(&t, 3));
	TEST_ASSERT_EQUAL("found across the wrap", ((struct pair *)hashtab__find(&t, &(u64){ 4 }, 7))->value, 40);
	TEST_ASSERT_VAL("fifth grows", hashtab__add(&t, &(struct pair){ 5, 50 }, 7));
	TEST_ASSERT_EQUAL("doubled", t.cap, 16);
	/* Rehashed walking the old slots from 0: 2, 3, 4 (slots 0-2), then 1 (slot 7). */
	TEST_ASSERT_EQUAL("old slot order", ((struct pair *)hashtab__slot(&t, 7))->key, 2);
	TEST_ASSERT_EQUAL("the last old slot after", ((struct pair *)hashtab__slot(&t, 10))->key, 1);
	TEST_ASSERT_EQUAL("new one last", ((struct pair *)hashtab__slot(&t, 11))->key, 5);
	hashtab__exit(&t);
	return TEST_OK;
}

/* move(): the table empty at the same size, the old entries to walk and put back. */
static int test__hashtab_move(void)
{
	struct hashtab t, old;
	int calls = 0;
	struct pair *p;
	size_t i, cap;

	hashtab__init(&t, sizeof(struct pair), 16, pair__hash, pair__equal, &calls);
	for (u64 k = 1; k <= 5; k++)
		hashtab__add(&t, &(struct pair){ k, k }, u64__hash(k));
	cap = t.cap;
	TEST_ASSERT_EQUAL("move", hashtab__move(&t, &old), 0);
	TEST_ASSERT_EQUAL("empty", t.nr, 0);
	TEST_ASSERT_EQUAL("same size", t.cap, cap);
	TEST_ASSERT_EQUAL("old has them", old.nr, 5);
	/* Merge keys pairwise: 1 and 2 become 1, 3 and 4 become 3. */
	hashtab__for_each(&old, i, p) {
		u64 k = p->key % 2 ? p->key : p->key - 1;
		struct pair *to = hashtab__find(&t, &k, u64__hash(k));

		if (to)
			to->value += p->value;
		else
			hashtab__add(&t, &(struct pair){ k, p->value }, u64__hash(k));
	}
	hashtab__exit(&old);
	TEST_ASSERT_EQUAL("three left", t.nr, 3);
	TEST_ASSERT_EQUAL("1+2", ((struct pair *)hashtab__find(&t, &(u64){ 1 }, u64__hash(1)))->value, 3);
	TEST_ASSERT_EQUAL("3+4", ((struct pair *)hashtab__find(&t, &(u64){ 3 }, u64__hash(3)))->value, 7);
	hashtab__exit(&t);
	return TEST_OK;
}

static int test__hashtab_str(void)
{
	/* The basis, then one FNV-1a round by hand: the files written depend on these. */
	TEST_ASSERT_EQUAL("empty string", str__hash(""), 1469598103934665603ULL);
	TEST_ASSERT_EQUAL("\"a\"", str__hash("a"), (1469598103934665603ULL ^ 'a') * 1099511628211ULL);
	TEST_ASSERT_VAL("high bytes", str__hash("\xff") != str__hash("\x7f"));
	return TEST_OK;
}

static int test__hashtab(void)
{
	int err = test__hashtab_grow();

	if (!err)
		err = test__hashtab_reserve();
	if (!err)
		err = test__hashtab_move();
	if (!err)
		err = test__hashtab_str();
	return err;
}

DEFINE_SUITE(hashtab, "hashtab: open addressing through growth, slot order, move, string hash");
