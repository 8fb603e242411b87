/* Resolving perf record's target options that exclude each other. */
#include <stddef.h>
#include "target.h"
#include "../perf.h"

unsigned int target__resolve(struct record_opts *opts)
{
	unsigned int lost = 0;

	/* Tasks named by id are the most specific target. */
	if (opts->target_pid || opts->target_tid) {
		if (opts->cpu_list) {
			opts->cpu_list = NULL;
			lost |= TARGET_OVERRIDE_CPU;
		}
		if (opts->system_wide) {
			opts->system_wide = false;
			lost |= TARGET_OVERRIDE_SYSTEM;
		}
	}
	/* Buffers per CPU are what -a and -C are for. */
	if ((opts->system_wide || opts->cpu_list) && opts->per_thread) {
		opts->per_thread = false;
		lost |= TARGET_OVERRIDE_PER_THREAD;
	}
	return lost;
}

const char *target__override_str(enum target_override override)
{
	switch (override) {
	case TARGET_OVERRIDE_CPU:
		return "PID/TID switch overriding CPU";
	case TARGET_OVERRIDE_SYSTEM:
		return "PID/TID switch overriding SYSTEM";
	case TARGET_OVERRIDE_PER_THREAD:
		return "SYSTEM/CPU switch overriding PER-THREAD";
	}
	return "";
}
