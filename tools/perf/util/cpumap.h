#ifndef PERF_UTIL_CPUMAP_H
#define PERF_UTIL_CPUMAP_H

#include "refarray.h"

/* A sorted, duplicate-free list of CPU numbers; -1 alone means "any CPU". */
struct cpu_map {
	REFARRAY_FIELDS(int);
};

/* NULL @list: the online CPUs.  Bad syntax: NULL with errno = EINVAL. */
struct cpu_map *cpu_map__new(const char *list);
struct cpu_map *cpu_map__dummy_new(void);
struct cpu_map *cpu_map__get(struct cpu_map *map);
void cpu_map__put(struct cpu_map *map);
int cpu_map__idx(const struct cpu_map *map, int cpu);
/* Number of possible CPUs (highest possible + 1). */
int cpu__max_cpu(void);
/*
 * The first CPU of @map that is not online now, or -1 when all are (a
 * "-1 means any" map included).  @online, if not NULL, gets the online
 * map, for the message.
 */
int cpu_map__first_offline(const struct cpu_map *map, struct cpu_map **online);
int cpu_map__snprint(const struct cpu_map *map, char *buf, int size);

/* -C @list: 0, or -ENODEV with a message naming the first CPU of @cpus that is offline. */
int cpu_map__check_online(struct cpu_map *cpus, const char *list);

#endif
