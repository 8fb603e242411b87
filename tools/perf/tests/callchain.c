/*
 * Call-graph trees of perf report (util/callchain.c): the --stdio layouts on
 * a tree small enough to draw by hand, checked against what the distro's
 * perf report prints for the same shape, and the -g argument parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/callchain.h"

static struct symbol syms[] = {
	{ .start = 0x100, .end = 0x200, .name = "main" },
	{ .start = 0x400, .end = 0x500, .name = "f" },
	{ .start = 0x300, .end = 0x400, .name = "g" },
	{ .start = 0x200, .end = 0x300, .name = "h" },
};

/* main -> f -> g (period 2), main -> f -> h (1), main alone (1). */
static struct callchain_root *tree(void)
{
	struct callchain_root *root = calloc(1, sizeof(*root));
	struct callchain_frame fg[3] = { { .sym = &syms[0] }, { .sym = &syms[1] }, { .sym = &syms[2] } };
	struct callchain_frame fh[3] = { { .sym = &syms[0] }, { .sym = &syms[1] }, { .sym = &syms[3] } };

	if (!root || callchain_root__append(root, fg, 3, 2) ||
	    callchain_root__append(root, fh, 3, 1) || callchain_root__append(root, fg, 1, 1) ||
	    callchain_root__append(root, fg, 0, 5)) {
		callchain_root__delete(root);
		return NULL;
	}
	return root;
}

static char *print(struct callchain_root *root, const char *mode)
{
	struct callchain_param p;
	char err[128], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	callchain_param__init(&p);
	if (callchain_param__parse(&p, mode, err, sizeof(err)))
		return NULL;
	fp = open_memstream(&buf, &len);
	if (!fp)
		return NULL;
	callchain_root__fprintf(fp, root, &p, 4, 4);
	fclose(fp);
	return buf;
}

static int check(struct callchain_root *root, const char *mode, const char *want)
{
	char *got = print(root, mode);
	int ok = got && !strcmp(got, want);

	if (!ok)
		fprintf(stderr, "-g %s: got\n%s\nwanted\n%s\n", mode, got ? got : "(nothing)", want);
	free(got);
	return ok;
}

static int test__callchain_print(void)
{
	struct callchain_root *root = tree();
	int ok;

	TEST_ASSERT_VAL("tree built", root);
	/* A chain without frames adds nothing: every share below is of 4. */
	TEST_ASSERT_VAL("empty chain ignored", root->node.cumul == 4);
	ok = check(root, "graph",
		   "            |\n"
		   "            ---main\n"
		   "               |          \n"
		   "                --75.00%--f\n"
		   "                          |          \n"
		   "                          |--50.00%--g\n"
		   "                          |          \n"
		   "                           --25.00%--h\n"
		   "\n");
	/* Shares of the parent's branches; main's own quarter is the "[...]" line. */
	ok &= check(root, "fractal",
		    "            |\n"
		    "            ---main\n"
		    "               |          \n"
		    "               |--75.00%--f\n"
		    "               |          |          \n"
		    "               |          |--66.67%--g\n"
		    "               |          |          \n"
		    "               |           --33.33%--h\n"
		    "                --25.00%--[...]\n"
		    "\n");
	/* Where chains end, most first; equal ones in tree order. */
	ok &= check(root, "folded", "50.00% main;f;g\n25.00% main;f;h\n25.00% main\n");
	ok &= check(root, "flat",
		    "           50.00%\n"
		    "                main\n                f\n                g\n\n"
		    "           25.00%\n"
		    "                main\n                f\n                h\n\n"
		    "           100.00%\n"
		    "                main\n\n");
	/* Branches under the threshold are left out (h is 25%). */
	ok &= check(root, "graph,50",
		    "            |\n"
		    "            ---main\n"
		    "               |          \n"
		    "                --75.00%--f\n"
		    "                          |          \n"
		    "                           --50.00%--g\n"
		    "\n");
	/* Periods instead of shares; the pipes stay where they are. */
	ok &= check(root, "graph,0.5,period",
		    "            |\n"
		    "            ---main\n"
		    "               |          \n"
		    "                --3--f\n"
		    "                          |          \n"
		    "                          |--2--g\n"
		    "                          |          \n"
		    "                           --1--h\n"
		    "\n");
	callchain_root__delete(root);
	return ok ? TEST_OK : TEST_FAIL;
}
DEFINE_SUITE(callchain_print, "perf report call graphs: graph, fractal, flat, folded layouts");

static int test__callchain_parse(void)
{
	struct callchain_param p;
	char err[160];

	callchain_param__init(&p);
	TEST_ASSERT_VAL("defaults", p.mode == CHAIN_GRAPH_ABS && p.min_percent == 0.5 &&
				    p.order == ORDER_CALLEE && !p.order_set);
	TEST_ASSERT_VAL("parse", !callchain_param__parse(&p, "fractal,2,10,caller,period", err,
							  sizeof(err)));
	TEST_ASSERT_VAL("mode", p.mode == CHAIN_GRAPH_REL);
	TEST_ASSERT_VAL("threshold", p.min_percent == 2);
	TEST_ASSERT_VAL("print limit", p.print_limit == 10);
	TEST_ASSERT_VAL("order", p.order == ORDER_CALLER && p.order_set);
	TEST_ASSERT_VAL("value", p.value == CCVAL_PERIOD);
	TEST_ASSERT_VAL("bad word", callchain_param__parse(&p, "graph,sideways", err,
							   sizeof(err)) == -EINVAL);
	TEST_ASSERT_VAL("reason names it", strstr(err, "'sideways'"));
	return TEST_OK;
}
DEFINE_SUITE(callchain_parse, "perf report -g arguments");
