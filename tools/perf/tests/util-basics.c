/* Tests of the smallest helpers: the list and the skip plumbing itself. */
#include "tests.h"
#include "util/list.h"

struct item {
	struct list_head node;
	int v;
};

static int test__list(void)
{
	struct list_head head = LIST_HEAD_INIT(head);
	struct item items[5], *pos, *n;
	int sum = 0, count = 0;

	TEST_ASSERT_VAL("new list is empty", list_empty(&head));
	for (int i = 0; i < 5; i++) {
		items[i].v = i;
		list_add_tail(&items[i].node, &head);
	}
	list_for_each_entry(pos, &head, node) {
		TEST_ASSERT_EQUAL("in insertion order", pos->v, count);
		count++;
	}
	TEST_ASSERT_EQUAL("five entries", count, 5);
	list_for_each_entry_safe(pos, n, &head, node) {
		if (pos->v % 2)
			list_del_init(&pos->node);
	}
	list_for_each_entry(pos, &head, node)
		sum += pos->v;
	TEST_ASSERT_EQUAL("odd ones removed", sum, 0 + 2 + 4);
	return TEST_OK;
}
DEFINE_SUITE(list, "Linked list helpers");
