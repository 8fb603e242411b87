#ifndef PERF_UTIL_TASKS_H
#define PERF_UTIL_TASKS_H
#include <stdio.h>
#include "machine.h"

/*
 * The threads of @m as a process tree, each with its pid, tid and parent's
 * pid, children under their parent, as perf report --tasks shows them.
 * 0, or -ENOMEM.
 */
int machine__fprintf_tasks(struct machine *m, FILE *fp);

#endif
