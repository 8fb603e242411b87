/* thread_map: processes expand to their threads, bad lists are refused. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tests.h"
#include "util/thread_map.h"

static int has_tid(const struct thread_map *map, pid_t tid)
{
	for (int i = 0; i < map->nr; i++) {
		if (map->map[i] == tid)
			return 1;
	}
	return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pid_t worker_tid;
static int worker_exit;

/* Stays alive, and tells us its tid, until the test is done with it. */
static void *worker(void *arg)
{
	pthread_mutex_lock(&lock);
	worker_tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&cond);
	while (!worker_exit)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* A pid above the kernel's pid_max ceiling (2^22) cannot exist. */
static pid_t absent_pid(void)
{
	pid_t pid = (1 << 22) + 7;

	while (kill(pid, 0) == 0 || errno != ESRCH)
		pid++;
	return pid;
}

static int check_threads(pid_t me, pid_t tid)
{
	struct thread_map *map;
	char list[64];
	pid_t none = absent_pid();

	snprintf(list, sizeof(list), "%d", me);
	map = thread_map__new_str(list, NULL);
	TEST_ASSERT_VAL("map of our process", map);
	TEST_ASSERT_VAL("at least two threads", map->nr >= 2);
	TEST_ASSERT_VAL("has main thread", has_tid(map, me));
	TEST_ASSERT_VAL("has created thread", has_tid(map, tid));
	for (int i = 1; i < map->nr; i++)
		TEST_ASSERT_VAL("sorted, no duplicates", map->map[i] > map->map[i - 1]);
	thread_map__put(map);

	map = thread_map__new_by_tid(tid);
	TEST_ASSERT_VAL("single thread", map && map->nr == 1 && map->map[0] == tid);
	thread_map__put(map);

	snprintf(list, sizeof(list), "%d", none);
	errno = 0;
	TEST_ASSERT_VAL("absent pid", !thread_map__new_str(list, NULL));
	TEST_ASSERT_EQUAL("absent pid errno", errno, ESRCH);
	errno = 0;
	TEST_ASSERT_VAL("absent tid", !thread_map__new_by_tid(none));
	TEST_ASSERT_EQUAL("absent tid errno", errno, ESRCH);

	/* init's threads plus ours, our own pid twice folds into one. */
	snprintf(list, sizeof(list), "1,%d,%d", me, me);
	map = thread_map__new_str(list, NULL);
	TEST_ASSERT_VAL("pid list", map);
	TEST_ASSERT_VAL("has 1", has_tid(map, 1));
	TEST_ASSERT_VAL("has our created thread", has_tid(map, tid));
	for (int i = 1; i < map->nr; i++)
		TEST_ASSERT_VAL("no duplicates", map->map[i] > map->map[i - 1]);
	thread_map__put(map);

	snprintf(list, sizeof(list), "%d,%d", tid, me);
	map = thread_map__new_str(NULL, list);
	TEST_ASSERT_VAL("tid list", map && map->nr == 2 && has_tid(map, tid) && has_tid(map, me));
	thread_map__put(map);

	/* -p and -t together: the union. */
	snprintf(list, sizeof(list), "%d", tid);
	map = thread_map__new_str("1", list);
	TEST_ASSERT_VAL("pid + tid", map && has_tid(map, 1) && has_tid(map, tid));
	thread_map__put(map);

	snprintf(list, sizeof(list), "1,%d", none);
	errno = 0;
	TEST_ASSERT_VAL("list with absent pid", !thread_map__new_str(list, NULL));
	TEST_ASSERT_EQUAL("absent pid in list", errno, ESRCH);
	return TEST_OK;
}

static int test__thread_map(void)
{
	static const char * const bad[] = { "", ",", "1,", ",1", "1,,2", " 1", "1 ", "x", "-1",
					    "1-2", "+1", "1x" };
	struct thread_map *map;
	pthread_t thread;
	int ret;

	map = thread_map__new_dummy();
	TEST_ASSERT_VAL("dummy", map && map->nr == 1 && map->map[0] == -1);
	TEST_ASSERT_VAL("get", thread_map__get(map) == map && map->refcnt == 2);
	thread_map__put(map);
	TEST_ASSERT_EQUAL("put", map->refcnt, 1);
	thread_map__put(map);
	map = thread_map__new_str(NULL, NULL);
	TEST_ASSERT_VAL("no lists: dummy", map && map->nr == 1 && map->map[0] == -1);
	thread_map__put(map);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		map = thread_map__new_str(bad[i], NULL);
		if (map || errno != EINVAL) {
			fprintf(stderr, "pid list '%s' accepted (or errno %d)\n", bad[i], errno);
			return TEST_FAIL;
		}
		errno = 0;
		map = thread_map__new_str(NULL, bad[i]);
		if (map || errno != EINVAL) {
			fprintf(stderr, "tid list '%s' accepted (or errno %d)\n", bad[i], errno);
			return TEST_FAIL;
		}
	}

	TEST_ASSERT_VAL("pthread_create", !pthread_create(&thread, NULL, worker, NULL));
	pthread_mutex_lock(&lock);
	while (!worker_tid)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	ret = check_threads(getpid(), worker_tid);

	pthread_mutex_lock(&lock);
	worker_exit = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	return ret;
}
DEFINE_SUITE(thread_map, "Thread map: process threads, tid lists, bad lists");
