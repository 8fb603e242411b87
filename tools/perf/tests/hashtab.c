/* hashtab: entries by key through growth, slot order, the move to rebuild, removal, and the string hash. */
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

/* Each entry's home slot is its value: probe runs laid out by hand. */
static u64 pair__home(const void *entry, void *ctx)
{
	(void)ctx;
	return ((const struct pair *)entry)->value;
}

static u64 pair__key_at(const struct hashtab *t, size_t slot)
{
	const struct pair *p = hashtab__slot(t, slot);

	return p ? p->key : 0;
}

/* remove(): the run after the hole closes up across the wrap; an entry at home stays. */
static int test__hashtab_remove_run(void)
{
	static const struct pair at[] = { { 1, 14 }, { 2, 14 }, { 3, 15 }, { 4, 1 }, { 5, 0 } };
	struct hashtab t;
	int calls = 0;

	hashtab__init(&t, sizeof(struct pair), 16, pair__home, pair__equal, &calls);
	for (size_t i = 0; i < ARRAY_SIZE(at); i++)
		TEST_ASSERT_VAL("add", hashtab__add(&t, &at[i], at[i].value));
	/* Slots 14, 15, 0, 1, 2 hold keys 1 to 5. */
	TEST_ASSERT_EQUAL("laid out", pair__key_at(&t, 2), 5);
	hashtab__remove(&t, hashtab__find(&t, &(u64){ 1 }, 14));
	TEST_ASSERT_EQUAL("four left", t.nr, 4);
	TEST_ASSERT_EQUAL("2 back home", pair__key_at(&t, 14), 2);
	TEST_ASSERT_EQUAL("3 back home", pair__key_at(&t, 15), 3);
	TEST_ASSERT_EQUAL("4 stays at home", pair__key_at(&t, 1), 4);
	TEST_ASSERT_EQUAL("5 past the wrap", pair__key_at(&t, 0), 5);
	TEST_ASSERT_EQUAL("slot 2 free", pair__key_at(&t, 2), 0);
	TEST_ASSERT_VAL("1 gone", !hashtab__find(&t, &(u64){ 1 }, 14));
	for (u64 k = 2; k <= 5; k++)
		TEST_ASSERT_VAL("the rest found", hashtab__find(&t, &k, at[k - 1].value));
	hashtab__exit(&t);
	return TEST_OK;
}

/* remove() among adds: every key found exactly while it is in, through growth. */
static int test__hashtab_remove_churn(void)
{
	bool in[256] = { false };
	struct hashtab t;
	int calls = 0;
	u64 x = 1;

	hashtab__init(&t, sizeof(struct pair), 4, pair__hash, pair__equal, &calls);
	for (int step = 0; step < 20000; step++) {
		u64 k, n = 0;
		struct pair *p;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		k = (x >> 33) % ARRAY_SIZE(in);
		p = hashtab__find(&t, &k, u64__hash(k));
		TEST_ASSERT_VAL("found while in", !p == !in[k]);
		if (p)
			hashtab__remove(&t, p);
		else
			TEST_ASSERT_VAL("add", hashtab__add(&t, &(struct pair){ k, k }, u64__hash(k)));
		in[k] = !p;
		if (step % 1000)
			continue;
		for (k = 0; k < ARRAY_SIZE(in); k++) {
			TEST_ASSERT_VAL("each key", !hashtab__find(&t, &k, u64__hash(k)) == !in[k]);
			n += in[k];
		}
		TEST_ASSERT_EQUAL("count", t.nr, n);
	}
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
		err = test__hashtab_remove_run();
	if (!err)
		err = test__hashtab_remove_churn();
	if (!err)
		err = test__hashtab_str();
	return err;
}

DEFINE_SUITE(hashtab, "hashtab: open addressing through growth, slot order, move, remove, string hash");
