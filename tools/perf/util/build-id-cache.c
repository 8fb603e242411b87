/*
 * The build-id cache (layout in build-id.h).  A perf.data file names its
 * DSOs by path and build id; the cache keeps the exact binary each id was
 * taken from, so a file is read correctly after the program was rebuilt,
 * upgraded or deleted, and perf archive can pack what a file needs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "build-id.h"
#include "debug.h"
#include "fd-io.h"

static const char *buildid_dir_opt;

void buildid_dir__set(const char *dir)
{
	buildid_dir_opt = dir;
}

const char *buildid_dir__get(void)
{
	static char home_dir[PATH_MAX];
	const char *env = getenv("PERF_BUILDID_DIR"), *home;

	if (buildid_dir_opt && *buildid_dir_opt)
		return buildid_dir_opt;
	if (env && *env)
		return env;
	home = getenv("HOME");
	if (!home || !*home) {
		/* Not "/.debug": a daemon without HOME still has a home directory. */
		struct passwd *pw = getpwuid(getuid());

		home = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : ".";
	}
	snprintf(home_dir, sizeof(home_dir), "%s/.debug", home);
	return home_dir;
}

/* The file name inside an entry's directory: what kind of thing it holds. */
static const char *entry_basename(const char *name)
{
	if (!strcmp(name, "[vdso]"))
		return "vdso";
	if (!strcmp(name, "[kernel.kallsyms]"))
		return "kallsyms";
	return "elf";
}

/* <dir>/<name>/<hex>: a path name is used as it is, "[vdso]" as one component. */
static int entry_dir(const char *name, const u8 *bid, int len, char *out, size_t size)
{
	char hex[2 * BUILD_ID_SIZE + 1];
	int n;

	if (len <= 0 || len > BUILD_ID_SIZE || (name[0] != '/' && name[0] != '['))
		return -EINVAL;
	build_id__sprintf(bid, len, hex);
	n = snprintf(out, size, "%s%s%s/%s", buildid_dir__get(), name[0] == '/' ? "" : "/",
		     name, hex);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int link_path(const u8 *bid, int len, char *out, size_t size)
{
	char hex[2 * BUILD_ID_SIZE + 1];
	int n;

	if (len <= 1 || len > BUILD_ID_SIZE)
		return -EINVAL;
	build_id__sprintf(bid, len, hex);
	n = snprintf(out, size, "%s/.build-id/%.2s/%s", buildid_dir__get(), hex, hex + 2);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int build_id_cache__find(const char *name, const u8 *bid, int len, char *out, size_t size)
{
	char link[PATH_MAX];
	struct stat st;
	int err = link_path(bid, len, link, sizeof(link)), n;

	if (err)
		return err;
	if (stat(link, &st) < 0)
		return -errno;
	/* Today's links lead to the entry's directory; old ones to the file itself. */
	if (S_ISDIR(st.st_mode))
		n = snprintf(out, size, "%s/%s", link, entry_basename(name));
	else
		n = snprintf(out, size, "%s", link);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return access(out, R_OK) < 0 ? -errno : 0;
}

/*
 * mkdir -p, from the deepest directory that exists: in a used cache only
 * the last one or two levels are new.  @path is modified and restored.
 * 0 or -errno.
 */
static int mkdir_p(char *path)
{
	char *slash;
	int err;

	if (!mkdir(path, 0755) || errno == EEXIST)
		return 0;	/* a file in the way shows when it is used */
	if (errno != ENOENT)
		return -errno;
	slash = strrchr(path, '/');
	if (!slash || slash == path)
		return -ENOENT;
	*slash = '\0';
	err = mkdir_p(path);
	*slash = '/';
	if (err)
		return err;
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* Copies @src (or @buf) to @dst through a temporary name, so readers never see half a file. */
static int copy_to(const char *dst, const char *src, const void *buf, size_t size)
{
	char tmp[PATH_MAX + 16];
	char chunk[65536];
	int in = -1, out, err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp%d", dst, (int)getpid());
	if (src) {
		in = open(src, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return -errno;
	}
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, src ? 0755 : 0644);
	if (out < 0) {
		err = -errno;
		goto out_in;
	}
	if (!src) {
		err = fd__write_all(out, buf, size);
	} else {
		for (;;) {
			ssize_t n = read(in, chunk, sizeof(chunk));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				err = n < 0 ? -errno : 0;
				break;
			}
			err = fd__write_all(out, chunk, n);
			if (err)
				break;
		}
	}
	if (close(out) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, dst) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
out_in:
	if (in >= 0)
		close(in);
	return err;
}

/* The relative link .build-id/xx/yyyy -> ../../<name>/<hex>. */
static int add_link(const char *name, const u8 *bid, int len)
{
	char link[PATH_MAX], target[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1], *slash;
	int err = link_path(bid, len, link, sizeof(link));

	if (err)
		return err;
	build_id__sprintf(bid, len, hex);
	snprintf(target, sizeof(target), "../../%s/%s", name[0] == '/' ? name + 1 : name, hex);
	slash = strrchr(link, '/');
	*slash = '\0';
	err = mkdir_p(link);
	*slash = '/';
	if (err)
		return err;
	if (symlink(target, link) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The separate debug file of a new entry, as "debug" beside it (as
 * upstream keeps it): stripped system libraries have their full symbols
 * and inline information there, and perf archive packs the entry whole.
 * Only by hard link: a copy of a debug file can be many megabytes.
 */
static void cache_add_debug(const char *dir, const u8 *bid, int len)
{
	char hex[2 * BUILD_ID_SIZE + 1], src[PATH_MAX], dst[PATH_MAX + 16];

	build_id__sprintf(bid, len, hex);
	snprintf(src, sizeof(src), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	snprintf(dst, sizeof(dst), "%s/debug", dir);
	if (link(src, dst) < 0 && errno != ENOENT && errno != EEXIST)
		pr_debug("build-id cache: no debug file beside %s: %s\n", dir, strerror(errno));
}

static int cache_add(const char *name, const u8 *bid, int len, const char *src, const void *buf,
		     size_t size)
{
	char dir[PATH_MAX], file[PATH_MAX + 16];
	int err = entry_dir(name, bid, len, dir, sizeof(dir));

	if (err)
		return err;
	snprintf(file, sizeof(file), "%s/%s", dir, entry_basename(name));
	if (access(file, F_OK) < 0) {
		err = mkdir_p(dir);
		if (err)
			return err;
		/* A hard link costs nothing; across file systems (or where refused) copy. */
		if (!src || link(src, file) < 0) {
			if (src && errno == EEXIST)
				err = 0;
			else
				err = copy_to(file, src, buf, size);
		}
		if (err)
			return err;
		if (src && name[0] == '/')
			cache_add_debug(dir, bid, len);
	}
	return add_link(name, bid, len);
}

int build_id_cache__add_file(const char *name, const u8 *bid, int len, const char *path)
{
	return cache_add(name, bid, len, path, NULL, 0);
}

int build_id_cache__add_buf(const char *name, const u8 *bid, int len, const void *buf,
			    size_t size)
{
	return cache_add(name, bid, len, NULL, buf, size);
}

int build_id_cache__remove(const char *name, const u8 *bid, int len)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], link[PATH_MAX];
	int err = entry_dir(name, bid, len, dir, sizeof(dir));

	if (!err)
		err = link_path(bid, len, link, sizeof(link));
	if (err)
		return err;
	snprintf(file, sizeof(file), "%s/%s", dir, entry_basename(name));
	if (unlink(link) < 0 && errno != ENOENT)
		return -errno;
	if (unlink(file) < 0)
		return -errno;
	/* Its companions: the debug file, and upstream's probes. */
	snprintf(file, sizeof(file), "%s/debug", dir);
	unlink(file);
	snprintf(file, sizeof(file), "%s/probes", dir);
	unlink(file);
	rmdir(dir);
	return 0;
}

int build_id_cache__for_each(int (*fn)(const char *name, const char *hex, void *arg), void *arg)
{
	char top[PATH_MAX], sub[PATH_MAX + 256], link[PATH_MAX + 512], target[PATH_MAX];
	struct dirent *d1, *d2;
	DIR *dt, *ds;
	int err = 0;

	snprintf(top, sizeof(top), "%s/.build-id", buildid_dir__get());
	dt = opendir(top);
	if (!dt)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (d1 = readdir(dt))) {
		if (strlen(d1->d_name) != 2)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", top, d1->d_name);
		ds = opendir(sub);
		if (!ds)
			continue;
		while (!err && (d2 = readdir(ds))) {
			char hex[2 * BUILD_ID_SIZE + 8], *name, *end;
			ssize_t n;

			if (d2->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s/%s", sub, d2->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0 || access(link, F_OK) < 0)
				continue;
			target[n] = '\0';
			snprintf(hex, sizeof(hex), "%s%s", d1->d_name, d2->d_name);
			/* "../../<name>/<hex>" (or ".../<hex>/elf" from older perfs). */
			name = target;
			while (!strncmp(name, "../", 3))
				name += 3;
			end = strstr(name, hex);
			if (!end || end == name || end[-1] != '/')
				continue;
			end[-1] = '\0';
			if (name[0] == '[') {
				err = fn(name, hex, arg);
			} else {
				char path[PATH_MAX + 1];

				snprintf(path, sizeof(path), "/%s", name);
				err = fn(path, hex, arg);
			}
		}
		closedir(ds);
	}
	closedir(dt);
	return err;
}
