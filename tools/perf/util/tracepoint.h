#ifndef PERF_UTIL_TRACEPOINT_H
#define PERF_UTIL_TRACEPOINT_H
#include <stddef.h>

struct tep_handle;
struct tep_event;

/*
 * The tracefs mount point, found in /proc/mounts; if it is not mounted and
 * we can, it is mounted at /sys/kernel/tracing.  NULL with errno set (and a
 * reason in tracepoint__error()) when there is none.
 */
const char *tracepoint__tracefs_dir(void);
const char *tracepoint__error(void);
/* The id of sys:name, or -ENOENT / -errno. */
int tracepoint__id(const char *sys, const char *name);
/* Calls @cb for every tracepoint matching both fnmatch(3) globs, sorted; stops on non-zero. */
int tracepoint__for_each(const char *sys_glob, const char *name_glob,
			 int (*cb)(const char *sys, const char *name, void *arg), void *arg);
/* A tracefs file's whole contents (e.g. "events/header_page"); free() it. */
char *tracepoint__read_file(const char *relpath, size_t *size);
/* One libtraceevent handle for the process; formats are parsed on demand. */
struct tep_handle *tracepoint__tep(void);
struct tep_event *tracepoint__format(const char *sys, const char *name);
/*
 * What is wrong with a parsed format, or NULL when nothing is: the fields
 * or the print format did not parse, or the print format uses a field the
 * event does not have (a kernel's formats only use their own).  Static
 * text, or @buf (of @len bytes) for a field's name.
 */
const char *tracepoint__format_problem(struct tep_event *event, char *buf, size_t len);

#endif
