#ifndef PERF_UTIL_UNWIND_H
#define PERF_UTIL_UNWIND_H
/*
 * DWARF unwinding of the user stacks that --call-graph dwarf records
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), with libdw: the call
 * frame information of each binary -- the one with the recorded build id,
 * found as symbols are -- walks the copied stack from the sampled
 * registers.
 */
#include "types.h"
#include "event.h"

struct machine;

/*
 * The callchain to show for @sample: as recorded, unless the sample
 * carries user registers and stack, in which case the recorded (kernel)
 * part is followed by PERF_CONTEXT_USER and the unwound user frames.
 * Sets *@nr; the array is valid until the next call.  Never fails: what
 * cannot be unwound is left out.
 */
const u64 *unwind__callchain(struct machine *m, const struct perf_sample *sample, u64 *nr);
/* Frees one process's unwinder state (struct maps::unwind). */
void unwind__maps_exit(void *state);

#endif
