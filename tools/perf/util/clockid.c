/*
 * Clock names for -k/--clockid, and sample times as times of day.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "clockid.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

static const struct {
	const char *name;
	int id;
} clocks[] = {
	/* The names printed first. */
	{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME }, { "boot", CLOCK_BOOTTIME },
};

int clockid__parse(const char *s, int *clockid)
{
	char *end;
	long v;

	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(s, clocks[i].name)) {
			*clockid = clocks[i].id;
			return 0;
		}
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v > 0xffff)
		return -EINVAL;
	*clockid = (int)v;
	return 0;
}

const char *clockid__name(int clockid)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (clocks[i].id == clockid)
			return clocks[i].name;
	return NULL;
}

static int clock_ns(int clockid, u64 *ns)
{
	struct timespec ts;

	if (clock_gettime(clockid, &ts))
		return -errno;
	*ns = (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
	return 0;
}

u64 clock__now_ns(int clockid)
{
	u64 ns = 0;

	clock_ns(clockid, &ns);
	return ns;
}

u64 now_ns(void)
{
	return clock__now_ns(CLOCK_MONOTONIC);
}

int clock_ref__now(struct clock_ref *ref, int clockid)
{
	int err;

	ref->clockid = (u32)clockid;
	err = clock_ns(CLOCK_REALTIME, &ref->wall_ns);
	if (!err)
		err = clock_ns(clockid, &ref->clock_ns);
	return err;
}

u64 clock_ref__tod_ns(const struct clock_ref *ref, u64 time)
{
	/* Unsigned arithmetic: a time before the reference comes out right as well. */
	return ref->wall_ns + (time - ref->clock_ns);
}

size_t clock_ref__format_tod(u64 tod_ns, char *buf, size_t size)
{
	time_t secs = (time_t)(tod_ns / 1000000000ULL);
	struct tm tm;
	size_t n;

	if (!localtime_r(&secs, &tm) || !(n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm)))
		return 0;
	n += (size_t)snprintf(buf + n, size - n, ".%06llu",
			      (unsigned long long)(tod_ns % 1000000000ULL / 1000));
	return n < size ? n : size - 1;
}
