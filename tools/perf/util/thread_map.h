#ifndef PERF_UTIL_THREAD_MAP_H
#define PERF_UTIL_THREAD_MAP_H
#include <sys/types.h>

#include "refarray.h"

/* Threads to monitor; a single -1 means "every thread" (system-wide). */
struct thread_map {
	REFARRAY_FIELDS(pid_t);
};

struct thread_map *thread_map__new_dummy(void);
struct thread_map *thread_map__new_by_tid(pid_t tid);
/*
 * Comma lists as given to -p (every thread of each process, from
 * /proc/PID/task) / -t (one of them may be NULL).
 */
struct thread_map *thread_map__new_str(const char *pid, const char *tid);
struct thread_map *thread_map__get(struct thread_map *map);
void thread_map__put(struct thread_map *map);

#endif
