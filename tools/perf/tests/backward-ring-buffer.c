/*
 * The flight recorder's plumbing against the real kernel: a tracepoint in a
 * backward buffer of an aux evlist, another in the forward buffer of the
 * main evlist, both fed by the same prctl() loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "tests.h"
#include "perf.h"
#include "util/cpumap.h"
#include "util/debug.h"
#include "util/evlist.h"
#include "util/mmap.h"
#include "util/thread_map.h"
#include "util/tracepoint.h"

#define NR_ITERS 111

struct counts {
	int enter, exit, comm, bad;
};

static void count_event(struct evlist *evlist, union perf_event *event, struct evsel *enter,
			struct evsel *exit_ev, struct counts *c)
{
	if (event->header.size < sizeof(event->header) || event->header.size % 8) {
		c->bad++;
		return;
	}
	if (event->header.type == PERF_RECORD_COMM) {
		c->comm++;
		if (strncmp(event->comm.comm, "bwd-", 4))
			c->bad++;
		return;
	}
	if (event->header.type == PERF_RECORD_SAMPLE) {
		struct evsel *evsel = evlist__event2evsel(evlist, event);

		if (evsel == enter)
			c->enter++;
		else if (evsel == exit_ev)
			c->exit++;
		else
			c->bad++;
		return;
	}
	if (event->header.type != PERF_RECORD_LOST)
		c->bad++;
}

static struct evsel *tp_evsel(const char *name, int id, bool overwrite)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.config = id,
	};
	struct evsel *evsel = evsel__new(&attr);

	if (evsel) {
		evsel__set_name(evsel, name);
		evsel->overwrite = overwrite;
	}
	return evsel;
}

static int run(size_t pages, int iters, struct counts *fwd, struct counts *bwd)
{
	/* The kernel refuses to mmap an inherited per-task event with cpu -1. */
	struct record_opts opts = { .freq = 4000, .stack_size = 8192, .no_inherit = true };
	struct evlist *evlist, *aux = NULL;
	struct evsel *enter, *exit_ev, *failed = NULL;
	int id_enter, id_exit, err = TEST_FAIL;
	void *snap = NULL;
	size_t cap = 0;

	if (!tracepoint__tracefs_dir())
		return test__skip("no tracefs: %s", tracepoint__error());
	id_enter = tracepoint__id("syscalls", "sys_enter_prctl");
	id_exit = tracepoint__id("syscalls", "sys_exit_prctl");
	if (id_enter < 0 || id_exit < 0)
		return test__skip("no syscalls:sys_{enter,exit}_prctl tracepoints");

	evlist = evlist__new();
	enter = tp_evsel("syscalls:sys_enter_prctl", id_enter, true);
	exit_ev = tp_evsel("syscalls:sys_exit_prctl", id_exit, false);
	if (!evlist || !enter || !exit_ev)
		goto out;
	evlist__add(evlist, enter);
	evlist__add(evlist, exit_ev);
	/* COMM records travel with the overwrite event, so they are overwritten too. */
	enter->tracking = true;
	evlist__config(evlist, &opts);
	TEST_ASSERT_VAL("backward event asks for write_backward", enter->attr.write_backward);
	TEST_ASSERT_VAL("forward event does not", !exit_ev->attr.write_backward);

	{
		struct cpu_map *cpus = cpu_map__dummy_new();
		struct thread_map *threads = thread_map__new_by_tid(getpid());

		evlist__set_maps(evlist, cpus, threads);
		cpu_map__put(cpus);
		thread_map__put(threads);
	}
	err = evlist__open(evlist, &failed);
	if (err == -EACCES || err == -EPERM) {
		err = test__skip("no permission to open tracepoints (need root)");
		goto out;
	}
	if (err == -EINVAL && failed == enter) {
		err = test__skip("kernel refuses write_backward");
		goto out;
	}
	if (err) {
		fprintf(stderr, "open failed: %s\n", strerror(-err));
		err = TEST_FAIL;
		goto out;
	}
	err = TEST_FAIL;
	if (perf_evlist__mmap(evlist, pages))
		goto out;
	aux = perf_evlist__new_aux(evlist);
	if (!aux || perf_evlist__mmap(aux, pages))
		goto out;
	TEST_ASSERT_VAL("one forward buffer", evlist->nr_mmaps == 1 && evlist->mmap[0].base &&
			!evlist->mmap[0].overwrite);
	TEST_ASSERT_VAL("one backward buffer", aux->nr_mmaps == 1 && aux->mmap[0].base &&
			aux->mmap[0].overwrite);
	TEST_ASSERT_EQUAL("both fds in the parent's pollfd", evlist->pollfd.nr, 2);
	TEST_ASSERT_EQUAL("aux has no pollfd of its own", aux->pollfd.nr, 0);

	evlist__enable(evlist);
	for (int i = 0; i < iters; i++) {
		char name[16];

		snprintf(name, sizeof(name), "bwd-%d", i);
		prctl(PR_SET_NAME, name, 0, 0, 0);
	}
	evlist__disable(evlist);

	/* Forward: read it all. */
	while (perf_mmap__read_init(&evlist->mmap[0]) == 0) {
		union perf_event *event;

		while ((event = perf_mmap__read_event(&evlist->mmap[0])))
			count_event(evlist, event, enter, exit_ev, fwd);
		perf_mmap__consume(&evlist->mmap[0]);
	}
	/* Backward: pause, copy, resume, then look at the copy. */
	TEST_ASSERT_EQUAL("pause", test__pause_mmaps(aux, true), 0);
	{
		ssize_t n = test__backward_snapshot(&aux->mmap[0], &snap, &cap);
		size_t off = 0;

		TEST_ASSERT_VAL("snapshot", n >= 0);
		while (off < (size_t)n) {
			union perf_event *event = (union perf_event *)((char *)snap + off);

			count_event(evlist, event, enter, exit_ev, bwd);
			if (event->header.size < 8)
				break;
			off += event->header.size;
		}
		TEST_ASSERT_EQUAL("snapshot holds whole records only", off, n);
	}
	TEST_ASSERT_EQUAL("resume", test__pause_mmaps(aux, false), 0);
	err = TEST_OK;
out:
	free(snap);
	evlist__delete(aux);
	evlist__delete(evlist);
	return err;
}

static int test__backward_ring_buffer(void)
{
	struct counts fwd = { 0 }, bwd = { 0 };
	char saved[17] = { 0 };
	int err;

	prctl(PR_GET_NAME, saved, 0, 0, 0);
	err = run(64, NR_ITERS, &fwd, &bwd);
	prctl(PR_SET_NAME, saved, 0, 0, 0);
	if (err)
		return err;
	fprintf(stderr, "forward: %d exits; backward: %d enters, %d comms\n", fwd.exit,
		bwd.enter, bwd.comm);
	TEST_ASSERT_EQUAL("every sys_exit_prctl in the forward buffer", fwd.exit, NR_ITERS);
	TEST_ASSERT_EQUAL("no sys_enter_prctl in the forward buffer", fwd.enter, 0);
	TEST_ASSERT_EQUAL("every sys_enter_prctl in the backward buffer", bwd.enter, NR_ITERS);
	TEST_ASSERT_EQUAL("every COMM in the backward buffer", bwd.comm, NR_ITERS);
	TEST_ASSERT_EQUAL("no stray records", fwd.bad + bwd.bad, 0);
	return TEST_OK;
}
DEFINE_SUITE(backward_ring_buffer, "Backward ring buffer through an aux evlist");

static int test__backward_ring_buffer_small(void)
{
	struct counts fwd = { 0 }, bwd = { 0 };
	char saved[17] = { 0 };
	int iters = 5000, err;

	prctl(PR_GET_NAME, saved, 0, 0, 0);
	err = run(1, iters, &fwd, &bwd);
	prctl(PR_SET_NAME, saved, 0, 0, 0);
	if (err)
		return err;
	fprintf(stderr, "1 page: backward kept %d enters, %d comms of %d each\n", bwd.enter,
		bwd.comm, iters);
	TEST_ASSERT_VAL("the 1-page buffer overflowed", bwd.enter + bwd.comm < 2 * iters);
	TEST_ASSERT_VAL("the newest records survived", bwd.enter > 0 && bwd.comm > 0);
	TEST_ASSERT_EQUAL("no partial or stray record", bwd.bad, 0);
	return TEST_OK;
}
DEFINE_SUITE(backward_ring_buffer_small, "Backward ring buffer: 1 page overflows, no partial record");
