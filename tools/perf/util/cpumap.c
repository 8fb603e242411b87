/*
 * CPU lists: parsing the "0-3,7" syntax used by -C and by sysfs, the online
 * and possible CPUs of this machine, and printing a list back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cpumap.h"
#include "debug.h"

#define SYSFS_CPU_ONLINE	"/sys/devices/system/cpu/online"
#define SYSFS_CPU_POSSIBLE	"/sys/devices/system/cpu/possible"

REFARRAY_LAYOUT_CHECK(cpu_map);

static struct cpu_map *cpu_map__from(struct refarray *a)
{
	return (struct cpu_map *)a;
}

struct cpu_map *cpu_map__dummy_new(void)
{
	return cpu_map__from(refarray__new_dummy());
}

struct cpu_map *cpu_map__get(struct cpu_map *map)
{
	return cpu_map__from(refarray__get((struct refarray *)map));
}

void cpu_map__put(struct cpu_map *map)
{
	refarray__put((struct refarray *)map);
}

int cpu_map__idx(const struct cpu_map *map, int cpu)
{
	for (int i = 0; i < map->nr; i++) {
		if (map->map[i] == cpu)
			return i;
	}
	return -1;
}

/* Digits only: strtol alone would accept leading blanks and signs. */
static const char *parse_cpu(const char *s, int *cpu)
{
	long v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > 0x7fffffff)
			return NULL;
	}
	*cpu = (int)v;
	return s;
}

/*
 * Strict parse of "N", "N-M" items separated by single commas; anything
 * else (blanks, empty items, M < N) is EINVAL so that a typo in -C is
 * reported instead of silently monitoring other CPUs.
 */
static struct cpu_map *cpu_map__parse(const char *list)
{
	struct cpu_map *map = NULL;
	struct refarray_build cpus = { NULL, 0, 0 };
	int err = -EINVAL;
	const char *p = list;

	if (!*p)
		goto out;
	for (;;) {
		int first, last;

		p = parse_cpu(p, &first);
		if (!p)
			goto out;
		last = first;
		if (*p == '-') {
			p = parse_cpu(p + 1, &last);
			if (!p || last < first)
				goto out;
		}
		for (long cpu = first; cpu <= last; cpu++) {
			err = refarray_build__add(&cpus, (int)cpu);
			if (err)
				goto out;
		}
		err = -EINVAL;
		if (*p == '\0')
			break;
		if (*p != ',' || p[1] == '\0')
			goto out;
		p++;
	}

	map = cpu_map__from(refarray_build__finish(&cpus));
	err = map ? 0 : -ENOMEM;
out:
	free(cpus.v);
	if (err)
		errno = -err;
	return map;
}

/* Reads a one-line sysfs CPU list such as "0-3,8-11\n" without the newline. */
static struct cpu_map *cpu_map__read_sysfs(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	struct cpu_map *map = NULL;
	FILE *fp = fopen(path, "r");
	ssize_t len;

	if (!fp)
		return NULL;
	len = getline(&line, &cap, fp);
	fclose(fp);
	if (len > 0) {
		line[strcspn(line, "\n")] = '\0';
		map = cpu_map__parse(line);
	}
	free(line);
	if (!map)
		pr_debug("cannot parse %s\n", path);
	return map;
}

/* No sysfs (odd containers): assume CPUs 0..n-1 are online. */
static struct cpu_map *cpu_map__from_sysconf(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	struct cpu_map *map;

	if (n < 1)
		n = 1;
	map = cpu_map__from(refarray__new((int)n));
	if (!map)
		return NULL;
	for (int i = 0; i < n; i++)
		map->map[i] = i;
	return map;
}

struct cpu_map *cpu_map__new(const char *list)
{
	struct cpu_map *map;

	if (list)
		return cpu_map__parse(list);
	map = cpu_map__read_sysfs(SYSFS_CPU_ONLINE);
	return map ? map : cpu_map__from_sysconf();
}

int cpu_map__first_offline(const struct cpu_map *map, struct cpu_map **online)
{
	struct cpu_map *on = cpu_map__new(NULL);
	int bad = -1;

	for (int i = 0; on && i < map->nr && bad < 0; i++) {
		if (map->map[i] >= 0 && cpu_map__idx(on, map->map[i]) < 0)
			bad = map->map[i];
	}
	if (online)
		*online = on;
	else
		cpu_map__put(on);
	return bad;
}

int cpu__max_cpu(void)
{
	static int max_cpu;
	struct cpu_map *map;

	if (max_cpu)
		return max_cpu;
	map = cpu_map__read_sysfs(SYSFS_CPU_POSSIBLE);
	if (map && map->nr) {
		max_cpu = map->map[map->nr - 1] + 1;
	} else {
		long n = sysconf(_SC_NPROCESSORS_CONF);

		max_cpu = n > 0 ? (int)n : 1;
	}
	cpu_map__put(map);
	return max_cpu;
}

/*
 * Prints runs of consecutive CPUs as "first-last" joined by commas, the form
 * cpu_map__new() parses.  Like snprintf(), returns the length of the whole
 * text even when @buf (always NUL-terminated if @size > 0) is too small.
 */
int cpu_map__snprint(const struct cpu_map *map, char *buf, int size)
{
	int len = 0;

	if (size > 0)
		buf[0] = '\0';
	for (int i = 0; i < map->nr; ) {
		int j = i;
		int room = size - len > 0 ? size - len : 0;
		char *at = room ? buf + len : NULL;

		while (j + 1 < map->nr && map->map[j + 1] == map->map[j] + 1)
			j++;
		if (j == i)
			len += snprintf(at, room, "%s%d", i ? "," : "", map->map[i]);
		else
			len += snprintf(at, room, "%s%d-%d", i ? "," : "", map->map[i], map->map[j]);
		i = j + 1;
	}
	return len;
}

int cpu_map__check_online(struct cpu_map *cpus, const char *list)
{
	struct cpu_map *online = NULL;
	int bad = cpu_map__first_offline(cpus, &online);

	if (bad >= 0) {
		char names[256] = "none";

		if (online && online->nr)
			cpu_map__snprint(online, names, sizeof(names));
		pr_err("-C %s: CPU %d is not online (online CPUs: %s): choose CPUs from "
		       "that list.\n", list, bad, names);
	}
	cpu_map__put(online);
	return bad >= 0 ? -ENODEV : 0;
}
