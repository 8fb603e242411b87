/*
 * A perf daemon session's process or cgroup (see daemon-target.h): found
 * by looking at /proc and at the cgroup2 mount every DAEMON_TARGET_POLL_MS.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "daemon-target.h"
#include "daemon-session.h"

/* The kernel's comm holds TASK_COMM_LEN (16) bytes with its NUL. */
#define COMM_MAX	15

struct daemon_target *daemon_target__new(enum daemon_target_kind kind, const char *name, int line)
{
	struct daemon_target *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = kind;
	t->line = line;
	t->name = strdup(name);
	if (!t->name) {
		free(t);
		return NULL;
	}
	return t;
}

struct daemon_target *daemon_target__dup(const struct daemon_target *t)
{
	return t ? daemon_target__new(t->kind, t->name, t->line) : NULL;
}

void daemon_target__delete(struct daemon_target *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->pids);
	free(t);
}

bool daemon_target__same(const struct daemon_target *a, const struct daemon_target *b)
{
	if (!a || !b)
		return a == b;
	return a->kind == b->kind && !strcmp(a->name, b->name);
}

const char *daemon_target__key(const struct daemon_target *t)
{
	return t->kind == TARGET_PROCESS ? "process" : "cgroup";
}

const char *daemon_target__bad_name(enum daemon_target_kind kind, const char *name)
{
	if (!name || !*name)
		return kind == TARGET_PROCESS ? "expected 'process = <name>'" :
						"expected 'cgroup = <path>'";
	/* The recorder gets it as one word of its command line. */
	if (strpbrk(name, " \t'\""))
		return "a name with blanks or quotes cannot be followed";
	if (kind == TARGET_CGROUP)
		return strstr(name, "..") ? "a cgroup path may not go up with '..'" : NULL;
	if (strlen(name) > COMM_MAX)
		return "a process name is at most 15 characters (the kernel's comm, "
		       "/proc/PID/comm): give its first 15";
	return strchr(name, '/') ? "a process name is its comm, with no '/'" : NULL;
}

/*
 * Short options that take a value in the word after them or in the rest
 * of theirs, so that what follows one in a cluster (-ecycles) is its value.
 */
static bool short_takes_value(char c)
{
	return strchr("eomFcCptDkz", c) != NULL;
}

const char *daemon_target__conflict(const char *run, char *buf, size_t size)
{
	static const char * const longs[] = { "--pid", "--tid", "--all-cpus", "--cgroup" };
	const char *found = NULL;
	char **argv;

	if (argv__split(run, &argv) < 0)
		return NULL;
	for (char **w = argv; *w && !found; w++) {
		const char *word = *w;

		if (!strcmp(word, "--")) {
			found = "--";
			break;
		}
		if (!strncmp(word, "--", 2)) {
			for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
				size_t len = strlen(longs[i]);

				if (!strncmp(word, longs[i], len) && (!word[len] || word[len] == '='))
					found = longs[i];
			}
			continue;
		}
		if (word[0] != '-')
			continue;
		/* A cluster of flags (-qa), up to the first option that takes a value. */
		for (const char *c = word + 1; *c; c++) {
			if (strchr("aptG", *c)) {
				snprintf(buf, size, "-%c", *c);
				found = buf;
				break;
			}
			if (short_takes_value(*c)) {
				/* Its value is the next word: not an option to look at. */
				if (!c[1] && w[1])
					w++;
				break;
			}
		}
	}
	if (found && found != buf)
		snprintf(buf, size, "%s", found);
	free(argv);
	return found ? buf : NULL;
}

bool daemon_target__stat_exited(const char *line, bool exiting)
{
	const char *end = strrchr(line, ')');
	unsigned int flags;
	char state;

	/* "pid (comm) S ppid pgrp session tty_nr tpgid flags ...": after the comm's last ')'. */
	if (!end || sscanf(end + 1, " %c", &state) != 1)
		return false;
	if (state == 'Z' || state == 'X')
		return true;
	return exiting && sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) == 1 &&
	       (flags & DAEMON_PF_EXITING);
}

/*
 * Whether process @pid has exited, though not reaped yet: a zombie keeps
 * its /proc entry and its comm until its parent waits for it, and a
 * recorder following it may end (its events hung up at the exit) before
 * that.  @exiting: one that is on its way out (daemon_target__stat_exited())
 * counts as well.
 */
static bool pid_exited(const char *pid, bool exiting)
{
	char path[64], line[512];
	FILE *f;
	bool exited = false;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (fgets(line, sizeof(line), f))
		exited = daemon_target__stat_exited(line, exiting);
	fclose(f);
	return exited;
}

/* Whether process @pid's comm is @name, and it has not exited (@exiting: nor begun to). */
static bool pid_has_comm(const char *pid, const char *name, bool exiting)
{
	char path[64], comm[32];
	FILE *f;
	bool same = false;

	if (pid_exited(pid, exiting))
		return false;
	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(comm, sizeof(comm), f)) {
		comm[strcspn(comm, "\n")] = '\0';
		same = !strcmp(comm, name);
	}
	fclose(f);
	return same;
}

/* The pids of the processes named @name, as a comma list (NULL: none, or no memory). */
static char *pids_named(const char *name)
{
	char *list = NULL;
	size_t len = 0;
	struct dirent *de;
	DIR *proc = opendir("/proc");

	if (!proc)
		return NULL;
	while ((de = readdir(proc)) != NULL) {
		char *more;

		if (!isdigit((unsigned char)de->d_name[0]) || !pid_has_comm(de->d_name, name, false))
			continue;
		more = realloc(list, len + strlen(de->d_name) + 2);
		if (!more) {
			free(list);
			list = NULL;
			break;
		}
		list = more;
		len += sprintf(list + len, "%s%s", len ? "," : "", de->d_name);
	}
	closedir(proc);
	return list;
}

int daemon_target__cgroup2_mount(char *buf, size_t size)
{
	struct mntent ent, *m;
	char strings[4096];
	FILE *mounts = setmntent("/proc/mounts", "re");
	int err = -ENOENT;

	if (!mounts)
		return -errno;
	while ((m = getmntent_r(mounts, &ent, strings, sizeof(strings))) != NULL) {
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(buf, size, "%s", m->mnt_dir);
			err = 0;
			break;
		}
	}
	endmntent(mounts);
	return err;
}

static bool cgroup_exists(const char *name)
{
	char mnt[PATH_MAX], path[PATH_MAX * 2];
	struct stat st;

	if (daemon_target__cgroup2_mount(mnt, sizeof(mnt)))
		return false;
	snprintf(path, sizeof(path), "%s/%s", mnt, name + strspn(name, "/"));
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool daemon_target__look(struct daemon_target *t)
{
	t->checks++;
	if (t->kind == TARGET_CGROUP) {
		t->present = cgroup_exists(t->name);
		return t->present;
	}
	free(t->pids);
	t->pids = pids_named(t->name);
	t->present = t->pids != NULL;
	return t->present;
}

bool daemon_target__gone(const struct daemon_target *t)
{
	char *pids, *pid, *save = NULL;
	bool gone = true;

	if (t->kind == TARGET_CGROUP)
		return !cgroup_exists(t->name);
	if (!t->pids)
		return true;
	pids = strdup(t->pids);
	if (!pids)
		return false;
	for (pid = strtok_r(pids, ",", &save); pid && gone; pid = strtok_r(NULL, ",", &save))
		gone = !pid_has_comm(pid, t->name, true);
	free(pids);
	return gone;
}

char *daemon_target__args(const struct daemon_target *t)
{
	char *args;
	int ret;

	if (t->kind == TARGET_CGROUP)
		ret = asprintf(&args, "-a -G %s", t->name);
	else
		ret = asprintf(&args, "-p %s", t->pids ? t->pids : "");
	return ret < 0 ? NULL : args;
}

void daemon_target__describe(const struct daemon_target *t, char *buf, size_t size)
{
	snprintf(buf, size, "%s '%s'", daemon_target__key(t), t->name);
}
