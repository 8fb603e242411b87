/*
 * The view of a dump (util/timeline.c): samples kept as columns with their
 * stack's leaf numbered in the node table, a loss spanning from its CPU's
 * last event, the dump's trigger at its sample's time.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/debug.h"
#include "util/flamegraph.h"
#include "util/timeline.h"

#define F(n) { .name = (n) }

/* Two processes' samples (times in ns), two losses, a trigger at the second sample. */
static int timeline__fill(struct timeline *tl, struct flamegraph *fg)
{
	const struct flamegraph_frame w[] = { F("w (7)"), F("main"), F("f") };
	const struct flamegraph_frame x[] = { F("x (8)"), F("h") };
	struct flamegraph_node *leaf;

	leaf = flamegraph__add_leaf(fg, w, 3);
	if (!leaf || timeline__add_sample(tl, 1000000, 0, 7, 7, "w", leaf))
		return -1;
	leaf = flamegraph__add_leaf(fg, x, 2);
	if (!leaf || timeline__add_sample(tl, 3000000, 1, 8, 9, "x", leaf) ||
	    timeline__add_sample(tl, 4000000, 1, 8, 9, "x", leaf))
		return -1;
	/* CPU 1's loss starts at its last sample; CPU 3's, never seen, at the last of any. */
	if (timeline__add_lost(tl, 6000000, 1, 5, false) ||
	    timeline__add_lost(tl, 6500000, 3, 2, true))
		return -1;
	tl->has_request = true;
	tl->request = (struct dump_request){
		.kind = DUMP_REQUEST_TRIGGER, .time = 3000000, .cpu = 1, .pid = 8, .tid = 9,
		.event = "syscalls:sys_exit_read", .comm = "x",
	};
	return 0;
}

struct page_args {
	struct timeline *tl;
	struct flamegraph *fg;
};

static int write_page(FILE *fp, void *arg)
{
	struct page_args *a = arg;

	return timeline__write_html(a->tl, a->fg, "Timeline of t", "blue-green", fp);
}

static char *timeline__page(struct timeline *tl, struct flamegraph *fg)
{
	struct page_args a = { .tl = tl, .fg = fg };

	return test__written(write_page, &a);
}

static const char *const expected[] = {
	"id=\"timeline-data\">{\"start\": 0.001000, \"end\": 0.004000, ",
	"\"nodes\": {\"n\": [\"all\",\"w (7)\",\"main\",\"f\",\"x (8)\",\"h\"], "
	"\"l\": [2,0,0,0,0,0], \"p\": [0,0,1,2,0,4]}",
	"\"tasks\": {\"pid\": [7,8], \"tid\": [7,9], \"comm\": [\"w\",\"x\"]}",
	"\"samples\": {\"t\": [0,2000,3000], \"cpu\": [0,1,1], \"task\": [0,1,1], \"s\": [3,5,5]}",
	"\"switches\": {\"t\": [], \"cpu\": [], \"prev\": [], \"next\": [], \"state\": []}",
	"\"lost\": {\"t0\": [3000,3000], \"t1\": [5000,5500], \"cpu\": [1,3], \"n\": [5,2], "
	"\"samples\": [0,1]}",
	"\"request\": {\"text\": \"trigger syscalls:sys_exit_read at 0.003000 on CPU 1 by x 8/9\", "
	"\"t\": 2000, \"at\": \"0.003000\", \"cpu\": 1, \"pid\": 8, \"tid\": 9}}</script>",
};

static int test__timeline(void)
{
	struct flamegraph fg;
	const struct flamegraph_frame w[] = { F("w (7)") };
	struct timeline tl;
	char *page = NULL;
	int err = TEST_FAIL;

	flamegraph__init(&fg);
	if (timeline__init(&tl))
		goto out;
	TEST_ASSERT_VAL("fill", !timeline__fill(&tl, &fg));
	page = timeline__page(&tl, &fg);
	TEST_ASSERT_VAL("page written", page);
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		if (!strstr(page, expected[i])) {
			pr_debug("the page lacks %s\n", expected[i]);
			goto out;
		}
	}
	TEST_ASSERT_VAL("its script", strstr(page, "function tlMain()"));
	TEST_ASSERT_VAL("no tree of its own", !strstr(page, "id=\"stacks\""));
	free(page);
	/* The range in the title's digits, rounded as %.6f rounds: 1,999,999 ns is 0.002000. */
	timeline__exit(&tl);
	flamegraph__exit(&fg);
	flamegraph__init(&fg);
	if (timeline__init(&tl) ||
	    timeline__add_sample(&tl, 1999999, 0, 7, 7, "w", flamegraph__add_leaf(&fg, w, 1)))
		goto out;
	page = timeline__page(&tl, &fg);
	TEST_ASSERT_VAL("range rounded",
			page && strstr(page, "{\"start\": 0.002000, \"end\": 0.002000, "));
	err = TEST_OK;
out:
	free(page);
	timeline__exit(&tl);
	flamegraph__exit(&fg);
	return err;
}

DEFINE_SUITE(timeline, "the view of a dump: samples as columns of stack ids, losses, the trigger");
