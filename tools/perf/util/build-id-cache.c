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
#include "config.h"
#include "debug.h"
#include "fd-io.h"
#include "tmp-file.h"
#include "units.h"

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
	struct tmp_file tmp;
	int in = -1, out, err;

	if (src) {
		in = open(src, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return -errno;
	}
	out = tmp_file__create(&tmp, dst, src ? 0755 : 0644);
	if (out < 0) {
		err = out;
		goto out_in;
	}
	err = src ? fd__copy(in, out) : fd__write_all(out, buf, size);
	if (err)
		tmp_file__abort(&tmp);
	else
		err = tmp_file__commit(&tmp, dst);
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

/*
 * Removes the entry <dir>/<name>/<hex>: its file, the debug file and
 * upstream's probes beside it, the directory, and its .build-id link if
 * that led here (it dangles now).  A link that another entry took, as a
 * copy of the same binary at another path does, is left to that entry.
 */
static int cache_remove_hex(const char *name, const char *hex)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], link[PATH_MAX];
	struct stat st;
	int n;

	n = snprintf(dir, sizeof(dir), "%s%s%s/%s", buildid_dir__get(),
		     name[0] == '/' ? "" : "/", name, hex);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", buildid_dir__get(), hex, hex + 2);
	snprintf(file, sizeof(file), "%s/%s", dir, entry_basename(name));
	if (unlink(file) < 0)
		return -errno;
	snprintf(file, sizeof(file), "%s/debug", dir);
	unlink(file);
	snprintf(file, sizeof(file), "%s/probes", dir);
	unlink(file);
	rmdir(dir);
	if (stat(link, &st) < 0 && errno == ENOENT)
		unlink(link);
	return 0;
}

int build_id_cache__remove(const char *name, const u8 *bid, int len)
{
	char hex[2 * BUILD_ID_SIZE + 1];

	if (len <= 1 || len > BUILD_ID_SIZE || (name[0] != '/' && name[0] != '['))
		return -EINVAL;
	build_id__sprintf(bid, len, hex);
	return cache_remove_hex(name, hex);
}

int build_id_cache__remove_hex(const char *name, const char *hex)
{
	size_t len = strlen(hex);

	if (len < 4 || len > 2 * BUILD_ID_SIZE || strspn(hex, "0123456789abcdef") != len ||
	    (name[0] != '/' && name[0] != '['))
		return -EINVAL;
	return cache_remove_hex(name, hex);
}

static int entry__cmp(const void *a, const void *b)
{
	const struct cached_dso *x = a, *y = b;

	return strcmp(x->hex, y->hex);
}

static u64 file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? 0 : (u64)st.st_size;
}

/*
 * The bytes of entry @e (its file and the debug file beside it) and when
 * it was last used: its directory's mtime, which it got when it was made
 * and build_id_cache__touch() moves.  Not the file's own times: the file
 * is often a hard link to the user's binary, whose times are not ours to
 * change, and atime is not kept on most mounts.  @st is of @link's target.
 */
static void entry__measure(struct cached_dso *e, const char *link, const struct stat *st)
{
	char path[PATH_MAX + 600];

	e->used_ns = (u64)st->st_mtim.tv_sec * 1000000000ULL + st->st_mtim.tv_nsec;
	if (!S_ISDIR(st->st_mode)) {
		e->size = st->st_size;	/* an older perf's link to the file itself */
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", link, entry_basename(e->name));
	e->size = file_size(path);
	snprintf(path, sizeof(path), "%s/debug", link);
	e->size += file_size(path);
}

/* Adds the entry that the link .build-id/@xx/@rest leads to, if it leads to one. */
static int entries__add_link(struct cached_dsos *v, const char *sub, const char *xx,
			     const char *rest)
{
	char link[PATH_MAX + 512], target[PATH_MAX], hex[2 * BUILD_ID_SIZE + 8], *name, *end;
	struct cached_dso *e;
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/%s", sub, rest);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0 || stat(link, &st) < 0)
		return 0;
	target[n] = '\0';
	snprintf(hex, sizeof(hex), "%s%s", xx, rest);
	/* "../../<name>/<hex>" (or ".../<hex>/elf" from older perfs). */
	name = target;
	while (!strncmp(name, "../", 3))
		name += 3;
	end = strstr(name, hex);
	if (!end || end == name || end[-1] != '/' || strlen(hex) > 2 * BUILD_ID_SIZE)
		return 0;
	end[-1] = '\0';
	if (v->nr == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;

		e = realloc(v->v, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		v->v = e;
		v->cap = cap;
	}
	e = &v->v[v->nr];
	if (asprintf(&e->name, "%s%s", name[0] == '[' ? "" : "/", name) < 0)
		return -ENOMEM;
	strcpy(e->hex, hex);
	entry__measure(e, link, &st);
	v->nr++;
	return 0;
}

int build_id_cache__entries(struct cached_dsos *v)
{
	char top[PATH_MAX], sub[PATH_MAX + 256];
	struct dirent *d1, *d2;
	DIR *dt, *ds;
	int err = 0;

	memset(v, 0, sizeof(*v));
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
		while (!err && (d2 = readdir(ds)))
			if (d2->d_name[0] != '.')
				err = entries__add_link(v, sub, d1->d_name, d2->d_name);
		closedir(ds);
	}
	closedir(dt);
	if (err)
		cached_dsos__exit(v);
	else if (v->nr)		/* an empty cache has no array: qsort() wants one */
		qsort(v->v, v->nr, sizeof(*v->v), entry__cmp);
	return err;
}

void cached_dsos__exit(struct cached_dsos *v)
{
	for (size_t i = 0; i < v->nr; i++)
		free(v->v[i].name);
	free(v->v);
	memset(v, 0, sizeof(*v));
}

int build_id_cache__for_each(int (*fn)(const char *name, const char *hex, void *arg), void *arg)
{
	struct cached_dsos v;
	int err = build_id_cache__entries(&v);

	for (size_t i = 0; !err && i < v.nr; i++)
		err = fn(v.v[i].name, v.v[i].hex, arg);
	cached_dsos__exit(&v);
	return err;
}

static int hex__cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

int build_id_cache__for_each_id_of(const char *name,
				   int (*fn)(const char *name, const char *hex, void *arg),
				   void *arg)
{
	char dir[PATH_MAX], **ids = NULL, **more;
	size_t nr = 0, cap = 0, i;
	struct dirent *d;
	DIR *dp;
	int err = 0;

	if (name[0] != '/' && name[0] != '[')
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%s%s%s", buildid_dir__get(), name[0] == '/' ? "" : "/", name);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (!err && (d = readdir(dp))) {
		size_t len = strlen(d->d_name);

		/* The directories named by an id; a directory of the path's own files is not one. */
		if (len < 4 || len > 2 * BUILD_ID_SIZE ||
		    strspn(d->d_name, "0123456789abcdef") != len)
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 8;
			more = realloc(ids, cap * sizeof(*ids));
			if (!more) {
				err = -ENOMEM;
				break;
			}
			ids = more;
		}
		ids[nr] = strdup(d->d_name);
		if (!ids[nr])
			err = -ENOMEM;
		else
			nr++;
	}
	closedir(dp);
	if (nr)			/* none: @ids is NULL, which qsort() must not get */
		qsort(ids, nr, sizeof(*ids), hex__cmp);
	for (i = 0; !err && i < nr; i++)
		err = fn(name, ids[i], arg);
	for (i = 0; i < nr; i++)
		free(ids[i]);
	free(ids);
	return err;
}

int build_id_cache__touch(const char *hex)
{
	char link[PATH_MAX];
	struct stat st;

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", buildid_dir__get(), hex, hex + 2);
	if (stat(link, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return 0;
	return utimensat(AT_FDCWD, link, NULL, 0) < 0 ? -errno : 0;
}

static int entry__by_use(const void *a, const void *b)
{
	const struct cached_dso *x = a, *y = b;

	if (x->used_ns != y->used_ns)
		return x->used_ns < y->used_ns ? -1 : 1;
	return strcmp(x->hex, y->hex);
}

int build_id_cache__trim(u64 max, bool (*keep)(const char *hex, void *arg), void *arg)
{
	struct cached_dsos v;
	u64 total = 0;
	int err = build_id_cache__entries(&v), nr = 0;
	size_t i;

	if (err)
		return err;
	for (i = 0; i < v.nr; i++)
		total += v.v[i].size;
	if (v.nr)
		qsort(v.v, v.nr, sizeof(*v.v), entry__by_use);
	for (i = 0; total > max && i < v.nr; i++) {
		struct cached_dso *e = &v.v[i];

		if (keep && keep(e->hex, arg))
			continue;
		err = build_id_cache__remove_hex(e->name, e->hex);
		if (err) {
			pr_debug("build-id cache: cannot evict %s %s: %s\n", e->hex, e->name,
				 strerror(-err));
			continue;
		}
		total -= e->size;
		nr++;
		pr_debug("build-id cache: evicted %s %s (%llu bytes, the least recently used "
			 "that no kept dump names): the cache is over buildid-cache.max-size\n",
			 e->hex, e->name, (unsigned long long)e->size);
	}
	if (total > max)
		pr_debug("build-id cache: %llu bytes, over buildid-cache.max-size (%llu): what is "
			 "left is named by kept dumps\n", (unsigned long long)total,
			 (unsigned long long)max);
	cached_dsos__exit(&v);
	return nr;
}

/* The last buildid-cache.max-size of the files read, and where it was. */
struct max_size_arg {
	char value[64];
	const char *path, *file;
	int line;
};

static int max_size_item(const char *section, const char *key, const char *value, int line,
			 void *data)
{
	struct max_size_arg *a = data;

	if (strcmp(section, "buildid-cache") || strcmp(key, "max-size"))
		return 0;
	snprintf(a->value, sizeof(a->value), "%s", value ? value : "");
	a->file = a->path;
	a->line = line;
	return 0;
}

int build_id_cache__config_max_size(u64 *max)
{
	struct max_size_arg a = { .line = 0 };
	char *paths[2];
	int n = config__default_paths(paths), err = 0;
	bool unit;

	*max = 0;
	for (int i = 0; i < n && !err; i++) {
		struct config_error cerr = { 0 };

		a.path = paths[i];
		err = config__parse_file(paths[i], max_size_item, &a, &cerr);
		if (err == -EINVAL && cerr.line)
			fprintf(stderr, "%s:%d: %s\n", paths[i], cerr.line, cerr.msg);
		else if (err && !cerr.line)
			err = 0;	/* a file that cannot be read holds nothing */
	}
	if (!err && a.line && units__parse_size(a.value, max, &unit)) {
		fprintf(stderr, "%s:%d: buildid-cache.max-size: expected a size such as 256M, "
			"not '%s'\n", a.file, a.line, a.value);
		err = -EINVAL;
	}
	free(paths[0]);
	free(paths[1]);
	return err;
}
