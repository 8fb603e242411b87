/*
 * --per-thread buffers: events opened on cpu -1 for each thread, one
 * forward buffer per thread in the evlist and one backward, read-only
 * buffer per thread in its aux evlist, and each thread's samples land in
 * its own buffers only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "tests.h"
#include "perf.h"
#include "util/clockid.h"
#include "util/cpumap.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/mmap.h"
#include "util/thread_map.h"

#define NR_SPINNERS	3
#define SPIN_NS		(10 * 1000000ULL)	/* of each thread's own CPU time */
#define PERIOD_NS	100000			/* a sample every 100 us of it */

static pthread_barrier_t ready;
static int go_pipe[2];
static pid_t tids[NR_SPINNERS];
static volatile unsigned long sink;

static u64 thread_ns(void)
{
	return clock__now_ns(CLOCK_THREAD_CPUTIME_ID);
}

static void *spinner(void *arg)
{
	pid_t *tid = arg;
	u64 start;
	char c;

	*tid = syscall(SYS_gettid);
	pthread_barrier_wait(&ready);
	if (read(go_pipe[0], &c, 1) != 1)
		return NULL;
	start = thread_ns();
	while (thread_ns() - start < SPIN_NS)
		for (int i = 0; i < 10000; i++)
			sink += i;
	return NULL;
}

/* "r--s" or "rw-s": how /proc/self/maps has the mapping at @addr. */
static bool mapped_writable(void *addr, bool *found)
{
	char line[512], want[32];
	bool writable = false;
	FILE *fp = fopen("/proc/self/maps", "r");

	*found = false;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (fp && fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, want, strlen(want))) {
			char *perms = strchr(line, ' ');

			*found = true;
			writable = perms && perms[2] == 'w';
			break;
		}
	}
	if (fp)
		fclose(fp);
	return writable;
}

/* Every sample in @len bytes of records at @buf is from @tid; returns how many, or -1. */
static int samples_of(struct evlist *evlist, const void *buf, size_t len, pid_t tid)
{
	int n = 0;

	for (size_t off = 0; off + sizeof(struct perf_event_header) <= len; ) {
		const union perf_event *e = (const void *)((const char *)buf + off);
		struct perf_sample sample;
		struct evsel *evsel;

		if (e->header.size < sizeof(e->header))
			return -1;
		off += e->header.size;
		if (e->header.type != PERF_RECORD_SAMPLE)
			continue;
		evsel = evlist__event2evsel(evlist, e);
		if (!evsel || evsel__parse_sample(&evsel->attr, e, &sample)) {
			fprintf(stderr, "a sample that does not parse\n");
			return -1;
		}
		if ((pid_t)sample.tid != tid) {
			fprintf(stderr, "a sample of thread %u in the buffer of thread %d\n",
				sample.tid, tid);
			return -1;
		}
		n++;
	}
	return n;
}

static struct evsel *add_event(struct evlist *evlist, u64 config, bool overwrite,
			       const struct record_opts *opts)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.sample_period = PERIOD_NS,
		.exclude_kernel = 1,	/* so any user may run this */
		.exclude_hv = 1,
	};
	struct evsel *evsel = evsel__new(&attr);

	if (!evsel)
		return NULL;
	evlist__add(evlist, evsel);
	evsel->overwrite = overwrite;
	return evsel;
}

static int test__per_thread_mmap(void)
{
	struct record_opts opts = { .per_thread = true };
	pthread_t th[NR_SPINNERS];
	struct evlist *evlist = NULL, *aux = NULL;
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct evsel *failed, *evsel;
	char list[128] = "";
	void *copy = NULL;
	size_t cap = 0;
	int ret = TEST_FAIL, err, started = 0;

	if (pipe(go_pipe))
		return TEST_FAIL;
	pthread_barrier_init(&ready, NULL, NR_SPINNERS + 1);
	for (; started < NR_SPINNERS; started++)
		if (pthread_create(&th[started], NULL, spinner, &tids[started]))
			goto out_threads;
	pthread_barrier_wait(&ready);
	for (int i = 0; i < NR_SPINNERS; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "",
			 tids[i]);

	evlist = evlist__new();
	threads = thread_map__new_str(NULL, list);
	cpus = cpu_map__dummy_new();
	if (!evlist || !threads || !cpus || threads->nr != NR_SPINNERS)
		goto out_threads;
	evlist__set_maps(evlist, cpus, threads);
	if (!add_event(evlist, PERF_COUNT_SW_CPU_CLOCK, false, &opts) ||
	    !add_event(evlist, PERF_COUNT_SW_TASK_CLOCK, true, &opts))
		goto out_threads;
	evlist__config(evlist, &opts);
	evlist__for_each_entry(evlist, evsel) {
		TEST_ASSERT_EQUAL("per-thread events do not inherit", evsel->attr.inherit, 0);
	}
	err = evlist__open(evlist, &failed);
	if (err) {
		ret = test__skip("cannot open per-thread events: %s", strerror(-err));
		goto out_threads;
	}
	TEST_ASSERT_VAL("buffers per thread", !evlist->per_cpu);
	TEST_ASSERT_EQUAL("forward mmap", perf_evlist__mmap(evlist, 8), 0);
	aux = perf_evlist__new_aux(evlist);
	TEST_ASSERT_VAL("aux", aux);
	TEST_ASSERT_EQUAL("backward mmap", perf_evlist__mmap(aux, 8), 0);
	TEST_ASSERT_EQUAL("a forward buffer per thread", evlist->nr_mmaps, NR_SPINNERS);
	TEST_ASSERT_EQUAL("a backward buffer per thread", aux->nr_mmaps, NR_SPINNERS);
	for (int i = 0; i < NR_SPINNERS; i++) {
		bool found;

		TEST_ASSERT_VAL("mapped", evlist->mmap[i].base && aux->mmap[i].base);
		TEST_ASSERT_EQUAL("forward on any cpu", evlist->mmap[i].cpu, -1);
		TEST_ASSERT_EQUAL("backward on any cpu", aux->mmap[i].cpu, -1);
		TEST_ASSERT_VAL("forward is writable",
				mapped_writable(evlist->mmap[i].base, &found) && found);
		TEST_ASSERT_VAL("backward is read-only",
				!mapped_writable(aux->mmap[i].base, &found) && found);
		TEST_ASSERT_VAL("backward", aux->mmap[i].overwrite && !evlist->mmap[i].overwrite);
	}

	/* Run the threads with the events on; then each buffer holds its thread's samples. */
	TEST_ASSERT_EQUAL("enable", evlist__enable(evlist), 0);
	for (int i = 0; i < NR_SPINNERS; i++)
		TEST_ASSERT_EQUAL("go", write(go_pipe[1], "g", 1), 1);
	for (; started > 0; started--)
		pthread_join(th[started - 1], NULL);
	evlist__disable(evlist);
	TEST_ASSERT_EQUAL("pause", test__pause_mmaps(aux, true), 0);
	for (int i = 0; i < NR_SPINNERS; i++) {
		struct perf_mmap *map = &evlist->mmap[i];
		size_t len = 0;
		ssize_t blen;
		int n;

		if (perf_mmap__read_init(map) == 0) {
			len = map->end - map->start;
			/* 100 samples of 56 bytes fit in 32K: no wrap to undo. */
			TEST_ASSERT_VAL("no wrap", (map->start & map->mask) + len <= map->mask + 1);
		}
		n = samples_of(evlist, (char *)perf_mmap__data(map) + (map->start & map->mask), len,
			       tids[i]);
		TEST_ASSERT_VAL("forward samples of this thread only", n > 0);
		perf_mmap__consume(map);

		blen = test__backward_snapshot(&aux->mmap[i], &copy, &cap);
		TEST_ASSERT_VAL("backward copy", blen > 0);
		n = samples_of(evlist, copy, blen, tids[i]);
		TEST_ASSERT_VAL("backward samples of this thread only", n > 0);
	}
	test__pause_mmaps(aux, false);
	ret = TEST_OK;

out_threads:
	close(go_pipe[1]);	/* threads still waiting give up */
	for (; started > 0; started--)
		pthread_join(th[started - 1], NULL);
	close(go_pipe[0]);
	free(copy);
	evlist__delete(aux);
	evlist__delete(evlist);
	cpu_map__put(cpus);
	thread_map__put(threads);
	pthread_barrier_destroy(&ready);
	return ret;
}
DEFINE_SUITE(per_thread_mmap, "Per-thread buffers: cpu -1, a forward and a read-only backward one per thread, each its thread's samples");
