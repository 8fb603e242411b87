/*
 * perf timechart's accounting and picture (util/timechart.c,
 * timechart-svg.c): a task's running, blocked and waiting time from its
 * switches and wakeup, a loss spanning from its CPU's last event, a dump's
 * trigger drawn at its sample's time, -w and -p.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/debug.h"
#include "util/timechart.h"

#define MS 1000000ULL

/*
 * Task 7 runs on CPU 0 from 1 to 3 ms, blocks (D) until woken at 4 ms,
 * waits until CPU 1 takes it at 5 ms, runs until preempted at 8 ms; CPU 1
 * lost 5 events after its switch at 5 ms, said at 6 ms.  The dump was
 * asked for by a trigger at 3 ms.
 */
static int timechart__fill(struct timechart *tc)
{
	if (timechart__switch(tc, 1 * MS, 0, 0, -1, "swapper/0", 0, 7, "w") ||
	    timechart__switch(tc, 3 * MS, 0, 7, 7, "w", 0x2, 0, "swapper/0") ||
	    timechart__wakeup(tc, 4 * MS, 0, 7, "w") ||
	    timechart__switch(tc, 5 * MS, 1, 0, -1, "swapper/1", 0, 7, "w") ||
	    timechart__add_lost(tc, 6 * MS, 1, 5) ||
	    timechart__switch(tc, 8 * MS, 1, 7, 7, "w", 0, 0, "swapper/1") ||
	    timechart__finish(tc))
		return -1;
	tc->has_request = true;
	tc->request = (struct dump_request){
		.kind = DUMP_REQUEST_TRIGGER, .time = 3 * MS, .cpu = 0, .pid = 7, .tid = 7,
		.event = "syscalls:sys_exit_read", .comm = "w",
	};
	return 0;
}

struct svg_args {
	struct timechart *tc;
	const struct timechart_opts *o;
};

static int write_svg(FILE *fp, void *arg)
{
	struct svg_args *a = arg;

	return timechart__write_svg(a->tc, a->o, fp);
}

static const char *const expected[] = {
	"<svg width=\"500\" ",
	"<text class=\"title\" x=\"5\" y=\"14\">t.data: 0.001000 to 0.008000 s (0.007000 s), "
	"dumped on trigger syscalls:sys_exit_read at 0.003000 on CPU 0 by w 7/7</text>",
	"<g class=\"task\" data-tid=\"7\" data-pid=\"7\" data-comm=\"w\" data-running=\"5000000\" "
	"data-waiting=\"1000000\" data-sleeping=\"0\" data-blocked=\"1000000\">",
	"<title>7 w blocked 1.0 ms</title>",
	"<g class=\"cpu\" data-cpu=\"1\">",
	"<g class=\"lost\"><title>5 events lost on CPU 1</title>",
	"class=\"lost\" data-start=\"5000000\" data-end=\"6000000\" data-lost=\"5\"/>",
	"<g class=\"trigger\" data-time=\"3000000\"><title>trigger syscalls:sys_exit_read at "
	"0.003000 on CPU 0 by w 7/7</title><line class=\"trigger\" x1=\"142.857\"",
};

static int test__timechart(void)
{
	const char *const other[] = { "x" }, *const by_pid[] = { "7" };
	struct timechart_opts o = { .width = 500, .title = "t.data" };
	struct svg_args a = { .o = &o };
	struct timechart tc;
	char *svg = NULL;
	int err = TEST_FAIL;

	if (timechart__init(&tc, 2))
		return TEST_FAIL;
	a.tc = &tc;
	TEST_ASSERT_VAL("fill", !timechart__fill(&tc));
	svg = test__written(write_svg, &a);
	TEST_ASSERT_VAL("picture written", svg);
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		if (!strstr(svg, expected[i])) {
			pr_debug("the picture lacks %s\n", expected[i]);
			goto out;
		}
	}
	free(svg);
	/* -p by another name draws no task, by the pid the task. */
	o.procs = other;
	o.nr_procs = 1;
	svg = test__written(write_svg, &a);
	TEST_ASSERT_VAL("-p x: no task row", svg && !strstr(svg, "class=\"task\""));
	free(svg);
	o.procs = by_pid;
	svg = test__written(write_svg, &a);
	TEST_ASSERT_VAL("-p 7: its row", svg && strstr(svg, "data-tid=\"7\""));
	err = TEST_OK;
out:
	free(svg);
	timechart__exit(&tc);
	return err;
}

DEFINE_SUITE(timechart, "perf timechart: a task's states from switches, a loss span, the trigger line");
