/*
 * perf buildid-cache: add ELF files to the build-id cache (-a), take them
 * out (-r), list what it holds (-l).  -a and -r take a comma-separated
 * list of files, as the distro's does; each is filed under its build id.
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

/* Runs @fn on each name of a comma-separated list; the first error wins. */
static int for_each_file(const char *list, int (*fn)(const char *file))
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0, e;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		e = fn(tok);
		if (e && !err)
			err = e;
	}
	free(copy);
	return err;
}

static int list_one(const char *name, const char *hex, void *arg)
{
	printf("%s %s\n", hex, name);
	return 0;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	const char *add = NULL, *del = NULL;
	bool list = false;
	const struct perf_option options[] = {
		OPT_STRING('a', "add", &add, "file list", "file(s) to add"),
		OPT_STRING('r', "remove", &del, "file list", "file(s) to remove"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END_WORDS("perf buildid-cache: unexpected argument '%s'\n")
	};
	int err = 0;

	argc = parse_options(argc, argv, options, buildid_cache_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_NO_WORDS);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (add)
		err = for_each_file(add, add_one);
	if (del) {
		int e = for_each_file(del, remove_one);

		err = err ? err : e;
	}
	if (list) {
		int e = build_id_cache__for_each(list_one, NULL);

		if (e)
			fprintf(stderr, "perf buildid-cache: cannot list %s: %s\n",
				buildid_dir__get(), strerror(-e));
		err = err ? err : e;
	}
	return err ? 1 : 0;
}
