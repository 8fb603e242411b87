#ifndef PERF_UTIL_SCHED_TIMEHIST_PRINT_H
#define PERF_UTIL_SCHED_TIMEHIST_PRINT_H
/* What perf sched timehist prints: its header, switch and event lines, the summary. */
#include "sched-cmd.h"

void timehist__header(struct sched_cmd *sc);
/* The line of a switch of @t (NULL: the idle task) at @time, in @state, as @rt accounted it. */
void timehist__print_switch(struct sched_cmd *sc, struct perf_sample *sample,
			    struct machine *m, struct thread *t, struct sched_task *rt,
			    u64 time, int state);
/* A wakeup or migration line begun, without its end: who did it, and to whom. */
void timehist__print_event(struct sched_cmd *sc, struct perf_sample *sample,
			   struct thread *by, struct thread *to, char mark, const char *what);
/* -s/-S: the tasks, the idle CPUs and the totals; 0 or -ENOMEM. */
int timehist__summary(struct sched_cmd *sc);

#endif
