/*
 * tracefs: where it is, mounting it when we must, and reading its files.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <event-parse.h>
#include "tracepoint.h"
#include "debug.h"
#include "page-size.h"
#include "fd-io.h"

#define TRACEFS_MAGIC_NR 0x74726163

static char tracefs_path[4096];
static char tracefs_err[512];

const char *tracepoint__error(void)
{
	return tracefs_err;
}

/* 0: a tracefs we may read at @path; -EACCES: one we may not; -ENOENT: none. */
static int tracefs_at(const char *path)
{
	struct statfs st;
	char events[4200];

	if (statfs(path, &st) < 0 || (unsigned long)st.f_type != TRACEFS_MAGIC_NR)
		return errno == EACCES ? -EACCES : -ENOENT;
	snprintf(events, sizeof(events), "%s/events", path);
	if (access(events, R_OK | X_OK) == 0)
		return 0;
	return errno == EACCES ? -EACCES : -ENOENT;
}

/*
 * Whether a tracefs at @path can be used: into tracefs_path when it can;
 * the first one we may not read is remembered in @denied.
 */
static bool tracefs_try(const char *path, char *denied, size_t len)
{
	int err = tracefs_at(path);

	if (!err) {
		snprintf(tracefs_path, sizeof(tracefs_path), "%s", path);
		return true;
	}
	if (err == -EACCES && !denied[0])
		snprintf(denied, len, "%s", path);
	return false;
}

/*
 * First tracefs in /proc/mounts (a debugfs mount may hold one at tracing/):
 * 0, -EACCES when those mounted may not be read by us (their path in
 * @denied), -ENOENT when there is none.
 */
static int find_mounted(char *denied, size_t len)
{
	FILE *fp = setmntent("/proc/mounts", "r");
	struct mntent *m;
	bool found = false;

	denied[0] = '\0';
	if (!fp)
		return -ENOENT;
	while (!found && (m = getmntent(fp))) {
		if (!strcmp(m->mnt_type, "tracefs")) {
			found = tracefs_try(m->mnt_dir, denied, len);
		} else if (!strcmp(m->mnt_type, "debugfs")) {
			char sub[4200];

			snprintf(sub, sizeof(sub), "%s/tracing", m->mnt_dir);
			found = tracefs_try(sub, denied, len);
		}
	}
	endmntent(fp);
	if (found)
		return 0;
	return denied[0] ? -EACCES : -ENOENT;
}

const char *tracepoint__tracefs_dir(void)
{
	static const char *target = "/sys/kernel/tracing";

	char denied[4096];
	int err;

	if (tracefs_path[0])
		return tracefs_path;
	err = find_mounted(denied, sizeof(denied));
	if (!err)
		return tracefs_path;
	/* Mounted with a mode that shuts others out (700): a remount with 755 opens it. */
	if (err == -EACCES) {
		snprintf(tracefs_err, sizeof(tracefs_err),
			 "no permission to read tracefs at %s (mounted for root only): run as "
			 "root, or have root run 'mount -o remount,mode=755 %s'", denied, denied);
		errno = EACCES;
		return NULL;
	}
	if (geteuid() != 0) {
		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not mounted and only root can mount it: run as root, or "
			 "'mount -t tracefs nodev %s'", target);
		errno = EACCES;
		return NULL;
	}
	if (mount("nodev", target, "tracefs", 0, NULL) < 0 && errno != EBUSY) {
		int err = errno;

		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not mounted and mounting it at %s failed: %s", target,
			 strerror(err));
		errno = err;
		return NULL;
	}
	if (tracefs_at(target)) {
		snprintf(tracefs_err, sizeof(tracefs_err),
			 "tracefs is not available at %s (kernel built without tracing?)", target);
		errno = ENOENT;
		return NULL;
	}
	snprintf(tracefs_path, sizeof(tracefs_path), "%s", target);
	return tracefs_path;
}

char *tracepoint__read_file(const char *relpath, size_t *size)
{
	const char *dir = tracepoint__tracefs_dir();
	char path[8192], *buf;
	size_t len;
	int fd, err;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	err = fd__read_to_end(fd, &buf, &len);
	close(fd);
	if (err) {
		errno = -err;
		return NULL;
	}
	if (size)
		*size = len;
	return buf;
}

int tracepoint__id(const char *sys, const char *name)
{
	char rel[1024];
	char *s;
	long id;

	snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name);
	s = tracepoint__read_file(rel, NULL);
	if (!s)
		return errno ? -errno : -ENOENT;
	id = strtol(s, NULL, 10);
	free(s);
	return id > 0 ? (int)id : -EINVAL;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void free_names(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/*
 * The subdirectories of @dir whose names match @glob, sorted bytewise so the
 * order does not depend on the locale or on the order readdir happens to use.
 * Plain files (enable, filter, header_page, ...) are not tracepoints.
 */
static int list_subdirs(const char *dir, const char *glob, char ***namesp, size_t *nrp)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, cap = 0;
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0) < 0 || !S_ISDIR(st.st_mode))
				continue;
		}
		if (fnmatch(glob, de->d_name, 0))
			continue;
		if (nr == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **n = realloc(names, ncap * sizeof(*names));

			if (!n) {
				err = -ENOMEM;
				break;
			}
			names = n;
			cap = ncap;
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr]) {
			err = -ENOMEM;
			break;
		}
		nr++;
	}
	closedir(d);
	if (err) {
		free_names(names, nr);
		return err;
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_names);
	*namesp = names;
	*nrp = nr;
	return 0;
}

int tracepoint__for_each(const char *sys_glob, const char *name_glob,
			 int (*cb)(const char *sys, const char *name, void *arg), void *arg)
{
	const char *tracefs = tracepoint__tracefs_dir();
	char **systems = NULL;
	size_t nr_systems = 0;
	char *path = NULL;
	int ret;

	if (!tracefs)
		return errno ? -errno : -ENOENT;
	if (asprintf(&path, "%s/events", tracefs) < 0)
		return -ENOMEM;
	ret = list_subdirs(path, sys_glob ? sys_glob : "*", &systems, &nr_systems);
	free(path);
	if (ret)
		return ret;

	for (size_t i = 0; i < nr_systems && !ret; i++) {
		char **events = NULL;
		size_t nr_events = 0;

		if (asprintf(&path, "%s/events/%s", tracefs, systems[i]) < 0) {
			ret = -ENOMEM;
			break;
		}
		/* A system that vanished or that we may not read is not fatal. */
		if (list_subdirs(path, name_glob ? name_glob : "*", &events, &nr_events) < 0)
			pr_debug("tracepoint: cannot list %s\n", path);
		free(path);
		for (size_t j = 0; j < nr_events && !ret; j++)
			ret = cb(systems[i], events[j], arg);
		free_names(events, nr_events);
	}
	free_names(systems, nr_systems);
	return ret;
}

static struct tep_handle *tep;

/*
 * libtraceevent needs the ring-buffer page header to decode raw records and
 * the host's word size and byte order; event formats are added one by one as
 * they are asked for, so a session pays only for the events it uses.
 */
struct tep_handle *tracepoint__tep(void)
{
	char *header;
	size_t size;

	if (tep)
		return tep;
	tep = tep_alloc();
	if (!tep)
		return NULL;
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, page_size());
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	tep_set_file_bigendian(tep, TEP_BIG_ENDIAN);
	tep_set_local_bigendian(tep, TEP_BIG_ENDIAN);
#else
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
#endif
	header = tracepoint__read_file("events/header_page", &size);
	if (header) {
		if (tep_parse_header_page(tep, header, size, sizeof(long)))
			pr_debug("tracepoint: cannot parse events/header_page\n");
		free(header);
	} else {
		pr_debug("tracepoint: cannot read events/header_page: %s\n", strerror(errno));
	}
	return tep;
}

struct tep_event *tracepoint__format(const char *sys, const char *name)
{
	struct tep_handle *t = tracepoint__tep();
	struct tep_event *event;
	char *rel = NULL, *buf;
	size_t size;
	int ret;

	if (!t)
		return NULL;
	event = tep_find_event_by_name(t, sys, name);
	if (event)
		return event;
	if (asprintf(&rel, "events/%s/%s/format", sys, name) < 0)
		return NULL;
	buf = tracepoint__read_file(rel, &size);
	free(rel);
	if (!buf)
		return NULL;
	ret = tep_parse_event(t, buf, size, sys);
	free(buf);
	/*
	 * A print format libtraceevent cannot fully parse still yields an
	 * event whose fields decode, so look it up whatever the result.
	 */
	if (ret)
		pr_debug("tracepoint: %s:%s: format parsed with error %d\n", sys, name, ret);
	return tep_find_event_by_name(t, sys, name);
}

/* The name of a field @arg (and what it holds) uses that @event lacks, or NULL. */
static const char *tp_arg__missing_field(struct tep_event *event, struct tep_print_arg *arg)
{
	const char *name = NULL;

	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FIELD:
			if (!arg->field.field && !tep_find_any_field(event, arg->field.name))
				return arg->field.name;
			break;
		case TEP_PRINT_STRING:
			if (!arg->string.field && !tep_find_any_field(event, arg->string.string))
				return arg->string.string;
			break;
		case TEP_PRINT_BITMASK:
			if (!arg->bitmask.field && !tep_find_any_field(event, arg->bitmask.bitmask))
				return arg->bitmask.bitmask;
			break;
		case TEP_PRINT_FLAGS:
			name = tp_arg__missing_field(event, arg->flags.field);
			break;
		case TEP_PRINT_SYMBOL:
			name = tp_arg__missing_field(event, arg->symbol.field);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			name = tp_arg__missing_field(event, arg->hex.field);
			if (!name)
				name = tp_arg__missing_field(event, arg->hex.size);
			break;
		case TEP_PRINT_INT_ARRAY:
			name = tp_arg__missing_field(event, arg->int_array.field);
			if (!name)
				name = tp_arg__missing_field(event, arg->int_array.count);
			break;
		case TEP_PRINT_TYPE:
			name = tp_arg__missing_field(event, arg->typecast.item);
			break;
		case TEP_PRINT_OP:
			name = tp_arg__missing_field(event, arg->op.left);
			if (!name)
				name = tp_arg__missing_field(event, arg->op.right);
			break;
		case TEP_PRINT_FUNC:
			name = tp_arg__missing_field(event, arg->func.args);
			break;
		default:
			break;
		}
		if (name)
			return name;
	}
	return NULL;
}

const char *tracepoint__format_problem(struct tep_event *event, char *buf, size_t len)
{
	const char *name;

	if (!(event->flags & TEP_EVENT_FL_FAILED)) {
		name = tp_arg__missing_field(event, event->print_fmt.args);
		if (!name)
			return NULL;
		snprintf(buf, len, "its print format uses a field '%s' it does not have", name);
		return buf;
	}
	/* libtraceevent reads the print format only once the fields are read. */
	if (!event->print_fmt.format)
		return "its fields do not parse";
	return "its print format does not parse";
}
