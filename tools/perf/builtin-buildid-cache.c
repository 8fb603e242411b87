/*
 * perf buildid-cache: add ELF files to the build-id cache (-a, -u to
 * replace), take them out (-r by current id, -p every id of a path, -P
 * everything), list what it holds (-l) or what a perf.data file needs and
 * it lacks (-M).  File lists are comma-separated, taken in sorted order
 * without repeats, as the distro's are; each file is filed under its build id.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/session.h"

static const char * const buildid_cache_usage[] = { "perf buildid-cache [<options>]", NULL };

/* The absolute path the cache files @file under (its entry is named by it). */
static int cache_name(const char *file, char *out, size_t size)
{
	if (!realpath(file, out))
		return -errno;
	return strlen(out) < size ? 0 : -ENAMETOOLONG;
}

static int add_one(const char *file)
{
	char name[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];
	u8 bid[BUILD_ID_SIZE];
	int len, err = cache_name(file, name, sizeof(name));

	if (!err) {
		len = filename__read_build_id(name, bid, sizeof(bid));
		err = len > 0 ? 0 : len == -EINVAL ? -ENOTTY : len ? len : -ENOENT;
	}
	if (!err)
		err = build_id_cache__add_file(name, bid, len, name);
	if (err) {
		fprintf(stderr, "Couldn't add %s: %s\n", file,
			err == -ENOTTY ? "not an ELF file" : err == -ENOENT && !access(file, F_OK) ?
			"it has no build id" : strerror(-err));
		return err;
	}
	build_id__sprintf(bid, len, hex);
	pr_debug("Adding %s %s: Ok\n", hex, file);
	return 0;
}

static int remove_one(const char *file)
{
	char name[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];
	u8 bid[BUILD_ID_SIZE];
	int len, err = cache_name(file, name, sizeof(name));

	if (!err) {
		len = filename__read_build_id(name, bid, sizeof(bid));
		err = len > 0 ? build_id_cache__remove(name, bid, len) : len ? len : -ENOENT;
	}
	if (err) {
		/* Not there is not an error: the result is what was asked for. */
		if (err == -ENOENT)
			return 0;
		fprintf(stderr, "Couldn't remove %s: %s\n", file, strerror(-err));
		return err;
	}
	build_id__sprintf(bid, len, hex);
	pr_debug("Removing %s %s: Ok\n", hex, file);
	return 0;
}

static int str__cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Runs @fn on each name of a comma-separated list, sorted and each once
 * (the distro keeps the list as a sorted set); the first error wins.
 */
static int for_each_file(const char *list, int (*fn)(const char *file))
{
	char *copy = strdup(list), *save = NULL, *tok, **v;
	size_t nr = 0, i;
	int err = 0, e;

	v = copy ? calloc(strlen(list) / 2 + 1, sizeof(*v)) : NULL;
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		v[nr++] = tok;
	qsort(v, nr, sizeof(*v), str__cmp);
	for (i = 0; i < nr; i++) {
		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		e = fn(v[i]);
		if (e && !err)
			err = e;
	}
	free(v);
	free(copy);
	return err;
}

/*
 * -u: the file's entry made afresh from the file as it is now.  As the
 * distro's, only a file that can be read for an id and cannot be cached
 * is reported, and the exit status stays 0.
 */
static int update_one(const char *file)
{
	char name[PATH_MAX], hex[2 * BUILD_ID_SIZE + 1];
	u8 bid[BUILD_ID_SIZE];
	int len, err;

	if (cache_name(file, name, sizeof(name)) ||
	    (len = filename__read_build_id(name, bid, sizeof(bid))) <= 0) {
		pr_debug("Couldn't read a build-id in %s\n", file);
		pr_debug("%s wasn't in the cache\n", file);
		return 0;
	}
	build_id_cache__remove(name, bid, len);
	err = build_id_cache__add_file(name, bid, len, name);
	build_id__sprintf(bid, len, hex);
	pr_debug("Updating %s %s: %s\n", hex, file, err ? "FAIL" : "Ok");
	if (err)
		fprintf(stderr, "Couldn't update %s: %s\n", file, strerror(-err));
	return 0;
}

struct purge_arg {
	const char *file;	/* as the user spelled it, for the messages */
	int err;
};

static int purge_id(const char *name, const char *hex, void *arg)
{
	struct purge_arg *p = arg;

	p->err = build_id_cache__remove_hex(name, hex);
	pr_debug("Removing %s %s: %s\n", hex, p->file, p->err ? "FAIL" : "Ok");
	return p->err;
}

/* -p: every id cached under the file's path, old builds too. */
static int purge_one(const char *file)
{
	char name[PATH_MAX];
	struct purge_arg p = { .file = file };
	int err = cache_name(file, name, sizeof(name));

	if (!err)
		err = build_id_cache__for_each_id_of(name, purge_id, &p);
	pr_debug("Purging %s: %s\n", file, err ? "FAIL" : "Ok");
	if (err == -ENOENT)
		pr_debug("%s wasn't in the cache\n", file);
	else if (err)
		fprintf(stderr, "Couldn't remove %s: %s\n", file, strerror(-err));
	return 0;
}

static int purge_all(void)
{
	struct cached_dsos v;
	int err = build_id_cache__entries(&v);

	for (size_t i = 0; !err && i < v.nr; i++) {
		err = build_id_cache__remove_hex(v.v[i].name, v.v[i].hex);
		pr_debug("Removing %s (%s): %s\n", v.v[i].name, v.v[i].hex, err ? "FAIL" : "Ok");
	}
	cached_dsos__exit(&v);
	pr_debug("Purged all: %s\n", err ? "FAIL" : "Ok");
	if (err)
		fprintf(stderr, "Couldn't remove some caches. Error: %s.\n", strerror(-err));
	return err;
}

/*
 * Whether the cache holds DSO @e of a perf.data file.  An entry that is
 * there but does not give its id back (the kernel's symbol table is no
 * ELF file, or the file was replaced) is not missing: it is warned about.
 */
static bool build_id_cache__has(const struct build_id_entry *e)
{
	char path[PATH_MAX];
	u8 bid[BUILD_ID_SIZE];
	int len;

	if (build_id_cache__find(e->name, e->bid, e->len, path, sizeof(path)) == -ENOENT)
		return false;
	len = filename__read_build_id(path, bid, sizeof(bid));
	if (len == -ENOENT && access(path, F_OK) < 0)
		return false;
	if (len <= 0 || !build_id__same(bid, len, e->bid, e->len))
		fprintf(stderr, "Problems with %s file, consider removing it from the cache\n",
			path);
	return true;
}

/* -M: the DSOs @input names that the cache lacks, as buildid-list prints them. */
static int print_missing(const char *input)
{
	char msg[256], hex[2 * BUILD_ID_SIZE + 1];
	struct perf_session *s;
	int err;

	s = perf_session__open(input, &err, msg, sizeof(msg));
	if (!s) {
		/* A file that is not there: the distro's words; anything else: ours, which say more. */
		if (err == -ENOENT || err == -EACCES)
			fprintf(stderr, "failed to open %s: %s\n", input, strerror(-err));
		else
			perf_session__report_open_error("buildid-cache", input, err, msg);
		return err;
	}
	for (size_t i = 0; i < s->nr_build_ids; i++) {
		const struct build_id_entry *e = &s->build_ids[i];

		if (build_id_cache__has(e))
			continue;
		build_id__sprintf(e->bid, e->len, hex);
		printf("%s %s\n", hex, e->name);
	}
	perf_session__delete(s);
	return 0;
}

/*
 * -l lists, as the distro's does, the entries that are still what their
 * name says: the file at the path, or the running kernel, has that id.
 * The vdso and an entry of an older build are left out (-P still takes
 * them).
 */
static int list_one(const char *name, const char *hex, void *arg)
{
	char now[2 * BUILD_ID_SIZE + 1];
	u8 bid[BUILD_ID_SIZE];
	int len = -ENOENT;

	if (!strcmp(name, "[kernel.kallsyms]"))
		len = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));
	else if (name[0] == '/')
		len = filename__read_build_id(name, bid, sizeof(bid));
	if (len <= 0)
		return 0;
	build_id__sprintf(bid, len, now);
	if (!strcmp(now, hex))
		printf("%s %s\n", hex, name);
	return 0;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	const char *add = NULL, *del = NULL, *purge = NULL, *missing = NULL, *update = NULL;
	bool list = false, all = false;
	const struct perf_option options[] = {
		OPT_STRING('a', "add", &add, "file list", "file(s) to add"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_STRING('M', "missing", &missing, "file", "to find missing build ids in the cache"),
		OPT_STRING('p', "purge", &purge, "file list",
			   "file(s) to remove (remove old caches too)"),
		OPT_BOOLEAN('P', "purge-all", &all, "purge all cached files"),
		OPT_STRING('r', "remove", &del, "file list", "file(s) to remove"),
		OPT_STRING('u', "update", &update, "file list", "file(s) to update"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END_WORDS("perf buildid-cache: unexpected argument '%s'\n")
	};
	int err = 0;

	argc = parse_options(argc, argv, options, buildid_cache_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_NO_WORDS);
	if (argc < 0)
		return parse_options__exit_status(argc);
	/* As the distro's: a listing is all the command does. */
	if (list && (add || del || purge || all || missing || update)) {
		fprintf(stderr, "  Error: -l is exclusive.\n\n");
		parse_options__usage(stderr, buildid_cache_usage, options);
		return PERF_EXIT_USAGE;
	}
	if (list) {
		err = build_id_cache__for_each(list_one, NULL);
		if (err)
			fprintf(stderr, "perf buildid-cache: cannot list %s: %s\n",
				buildid_dir__get(), strerror(-err));
		return err ? 1 : 0;
	}
	/* In the distro's order, so that -P -M lists what the emptied cache lacks. */
	if (add)
		err = for_each_file(add, add_one);
	if (del) {
		int e = for_each_file(del, remove_one);

		err = err ? err : e;
	}
	if (purge)
		for_each_file(purge, purge_one);
	if (all)
		purge_all();
	if (missing && print_missing(missing))
		return PERF_EXIT_FAILURE;
	if (update)
		for_each_file(update, update_one);
	return err ? 1 : 0;
}
