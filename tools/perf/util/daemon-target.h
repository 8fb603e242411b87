#ifndef PERF_UTIL_DAEMON_TARGET_H
#define PERF_UTIL_DAEMON_TARGET_H
/*
 * What a perf daemon session follows instead of a fixed -p or -a: the
 * processes of one name (config key 'process') or one cgroup ('cgroup').
 * The daemon looks for it every DAEMON_TARGET_POLL_MS; while it is absent
 * the session waits, once it is there the session's recorder runs with
 * the run line plus what daemon_target__args() gives, and a recorder that
 * ends because what it followed went away sends the session back to
 * waiting instead of into the restart delays.
 */
#include <stdbool.h>
#include <stddef.h>

/* How often the daemon looks for a session's process or cgroup (ms). */
#define DAEMON_TARGET_POLL_MS	500

enum daemon_target_kind {
	TARGET_PROCESS,		/* the processes whose comm is .name */
	TARGET_CGROUP,		/* the cgroup .name, under the cgroup2 mount */
};

struct daemon_target {
	enum daemon_target_kind kind;
	char *name;		/* a comm (at most 15 characters), or a cgroup path */
	int line;		/* the config line that set it, for its errors */
	char *pids;		/* TARGET_PROCESS: the comma list the recorder was given; NULL */
	bool present;		/* seen at the last look */
	unsigned long checks;	/* how many times the daemon looked */
	long long next_check;	/* daemon_session__now() time of the next look */
};

struct daemon_target *daemon_target__new(enum daemon_target_kind kind, const char *name, int line);
struct daemon_target *daemon_target__dup(const struct daemon_target *t);
void daemon_target__delete(struct daemon_target *t);
/* Whether @a and @b (either may be NULL) follow the same thing. */
bool daemon_target__same(const struct daemon_target *a, const struct daemon_target *b);
/* The config key: "process" or "cgroup". */
const char *daemon_target__key(const struct daemon_target *t);
/* Why @name cannot be followed as @kind ("..."), or NULL if it can. */
const char *daemon_target__bad_name(enum daemon_target_kind kind, const char *name);
/*
 * The option of the run line @run that the daemon adds itself for a
 * target (-p, -t, -a, -G, their long forms, or "--" before a workload),
 * or NULL when there is none.  Written into @buf.
 */
const char *daemon_target__conflict(const char *run, char *buf, size_t size);
/*
 * Looks for the target now: true if it exists.  For a process, the pids
 * found are kept in .pids for the recorder about to start.
 */
bool daemon_target__look(struct daemon_target *t);
/*
 * Whether what the running recorder follows is gone: none of its pids
 * is a process of that name any more (or each is exiting: its recorder
 * sees its events hang up in its exit, before it is a zombie), or the
 * cgroup directory is gone.
 */
bool daemon_target__gone(const struct daemon_target *t);
/* The kernel's PF_EXITING in /proc/PID/stat's flags: the task has begun its exit. */
#define DAEMON_PF_EXITING	0x00000004U
/*
 * Whether the /proc/PID/stat @line is a process that has exited (a
 * zombie, or dead), or with @exiting, also one that has begun its exit.
 */
bool daemon_target__stat_exited(const char *line, bool exiting);
/* What the recorder gets after the run line, "-p 12,34" or "-a -G PATH", allocated; NULL. */
char *daemon_target__args(const struct daemon_target *t);
/* "process 'nginx'", "cgroup 'system.slice/x.service'". */
void daemon_target__describe(const struct daemon_target *t, char *buf, size_t size);
/* The cgroup2 mount point, from /proc/mounts, into @buf: 0, or -ENOENT when none. */
int daemon_target__cgroup2_mount(char *buf, size_t size);

#endif
