#ifndef PERF_UTIL_DSO_HITS_H
#define PERF_UTIL_DSO_HITS_H
/*
 * Which mapped files the samples of one output file fell into, for the
 * BUILD_ID feature and the build-id cache (upstream lists only DSOs with
 * samples unless --buildid-all).  The recorder notes records as it writes
 * them, in any order -- a dump meets its samples before the maps that the
 * process table emits -- and samples are matched to maps at the end (and
 * whenever 64K distinct pages wait, so memory stays bounded).
 *
 * Noting a sample costs a hash lookup of its (pid, page); samples cluster,
 * so most cost one comparison.  Whenever the answer is uncertain (a user
 * sample in a process with no known map, an unexpected sample layout) every
 * file counts as hit: listing too much is harmless, missing one is not.
 */
#include <stdbool.h>
#include "types.h"
#include "event.h"

struct evlist;
struct dso_hits;

/* NULL when the evlist's samples do not all carry IP and TID at one place. */
struct dso_hits *dso_hits__new(struct evlist *evlist);
void dso_hits__delete(struct dso_hits *h);
/* Takes MMAP, MMAP2 (executable), FORK and SAMPLE records; ignores the rest. */
void dso_hits__note(struct dso_hits *h, const union perf_event *event);
/* Whether a sample fell into a map of @name ("[vdso]" or a path). */
bool dso_hits__hit(struct dso_hits *h, const char *name);

#endif
