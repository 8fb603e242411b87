#ifndef PERF_UTIL_CLOCKID_H
#define PERF_UTIL_CLOCKID_H
/*
 * The clocks perf record -k/--clockid takes, by name or number, and the
 * reference pair (the clock's time and the wall-clock time read together)
 * that turns a sample time in that clock into a time of day.
 */
#include "types.h"

/*
 * "monotonic", "monotonic_raw", "realtime", "boottime", "tai" (or "mono",
 * "raw", "real", "boot"), with or without a "CLOCK_" prefix, in any case;
 * or a clock's number.  0 or -EINVAL.
 */
int clockid__parse(const char *s, int *clockid);
/* The name the distro prints for @clockid, or NULL for a clock it does not name. */
const char *clockid__name(int clockid);

/* CLOCK_DATA: what a sample time of @clockid was in wall-clock time. */
struct clock_ref {
	u32 clockid;
	u64 wall_ns;		/* CLOCK_REALTIME ... */
	u64 clock_ns;		/* ... and @clockid, read one after the other */
};
/* Reads the pair now; -errno if the clock cannot be read. */
int clock_ref__now(struct clock_ref *ref, int clockid);
/* Wall-clock ns of @time in the reference's clock. */
u64 clock_ref__tod_ns(const struct clock_ref *ref, u64 time);
/* "2026-12-03 13:22:35.516672" (local time, microseconds) into @buf. */
size_t clock_ref__format_tod(u64 tod_ns, char *buf, size_t size);

/*
 * The one reading of a clock as ns: @clockid's time now, or 0 when the
 * clock cannot be read (an id the kernel does not know).
 */
u64 clock__now_ns(int clockid);
/* CLOCK_MONOTONIC now in ns: for deadlines and for how long something took. */
u64 now_ns(void);

#endif
