/* perf.data naming: .old only after a successful create, timestamps, rotation. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "util/data.h"

static int test__data_timestamp(void)
{
	char prev[32] = "", ts[32];

	for (int i = 0; i < 1000; i++) {
		perf_data__timestamp(ts);
		TEST_ASSERT_EQUAL("16 characters", strlen(ts), 16);
		TEST_ASSERT_EQUAL("all digits", strspn(ts, "0123456789"), 16);
		TEST_ASSERT_VAL("increasing and unique", strcmp(ts, prev) > 0);
		strcpy(prev, ts);
	}
	return TEST_OK;
}
DEFINE_SUITE(data_timestamp, "perf.data switch timestamps are unique and increasing");

static int touch(const char *dir, const char *name, const char *content)
{
	char path[4200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(content, fp);
	fclose(fp);
	return 0;
}

static bool exists(const char *dir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* Whether each of the @nr @names in @dir exists just when @want; names the first that does not. */
static bool each_exists(const char *dir, const char *const *names, size_t nr, bool want,
			const char *what)
{
	for (size_t i = 0; i < nr; i++)
		if (exists(dir, names[i]) != want) {
			fprintf(stderr, "%s %s\n", names[i], what);
			return false;
		}
	return true;
}

static int read_back(const char *dir, const char *name, char *buf, size_t size)
{
	char path[4200];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	n = fread(buf, 1, size - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return 0;
}

static int test__data_rotate(void)
{
	char tmpl[] = "/tmp/perf-rotate-XXXXXX", path[4200];
	const char *dir = mkdtemp(tmpl);
	static const char *dumps[] = {
		"perf.data.2026010112000001", "perf.data.2026010112000002",
		"perf.data.2026010112000003", "perf.data.2026010112000004",
		"perf.data.2026010112000005",
	};
	static const char *decoys[] = {
		"perf.data", "perf.data.old", "perf.data.abc", "perf.data.123",
		"perf.data.20260101120000019", "other.data.2026010112000001",
	};
	int ret = TEST_FAIL, removed;

	if (!dir)
		return test__skip("mkdtemp failed: %s", strerror(errno));
	for (size_t i = 0; i < 5; i++)
		if (touch(dir, dumps[i], "x"))
			goto out;
	for (size_t i = 0; i < sizeof(decoys) / sizeof(decoys[0]); i++)
		if (touch(dir, decoys[i], "x"))
			goto out;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	removed = perf_data__rotate(path, 2);
	if (removed != 3) {
		fprintf(stderr, "removed %d, expected 3\n", removed);
		goto out;
	}
	if (!each_exists(dir, dumps, 3, false, "should be gone") ||
	    !each_exists(dir, dumps + 3, 2, true, "should be kept") ||
	    !each_exists(dir, decoys, sizeof(decoys) / sizeof(decoys[0]), true,
			 "(a decoy) was removed"))
		goto out;
	if (perf_data__rotate(path, 2) == 0)
		ret = TEST_OK;
out:
	test__rm_rf(dir);
	return ret;
}
DEFINE_SUITE(data_rotate, "perf.data rotation keeps the newest N dumps only");

/*
 * Another process sees @path held by us: perf_data__holder() names us, and
 * perf_data__create() is refused without renaming anything.
 */
static bool held_by_us(const char *path)
{
	pid_t parent = getpid(), child = fork();
	int status;

	if (child == 0) {
		struct perf_data other;
		int fd = open(path, O_RDONLY);
		bool ok = fd >= 0 && perf_data__holder(fd) == parent &&
			  perf_data__create(&other, path) == -EBUSY && other.holder == parent;

		_exit(ok ? 0 : 1);
	}
	return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static int test__data_create(void)
{
	char tmpl[] = "/tmp/perf-create-XXXXXX", path[4200], buf[64];
	const char *dir = mkdtemp(tmpl);
	struct perf_data data;
	struct stat st;
	int ret = TEST_FAIL, err;
	char *dump = NULL;

	if (!dir)
		return test__skip("mkdtemp failed: %s", strerror(errno));
	if (touch(dir, "perf.data", "first") || touch(dir, "perf.data.old", "older"))
		goto out;

	/* A create that fails must not rename anything. */
	snprintf(path, sizeof(path), "%s/missing/perf.data", dir);
	err = perf_data__create(&data, path);
	if (err != -ENOENT) {
		fprintf(stderr, "create in a missing dir: %d\n", err);
		goto out;
	}
	if (read_back(dir, "perf.data.old", buf, sizeof(buf)) || strcmp(buf, "older"))
		goto out;

	snprintf(path, sizeof(path), "%s/perf.data", dir);
	err = perf_data__create(&data, path);
	if (err) {
		fprintf(stderr, "create: %s\n", strerror(-err));
		goto out;
	}
	if (read_back(dir, "perf.data.old", buf, sizeof(buf)) || strcmp(buf, "first")) {
		fprintf(stderr, "perf.data.old should hold the previous perf.data\n");
		goto out_close;
	}
	if (stat(path, &st) || (st.st_mode & 0777) != 0600 || st.st_size != 0) {
		fprintf(stderr, "new file mode %o size %lld\n", st.st_mode & 0777,
			(long long)st.st_size);
		goto out_close;
	}
	if (perf_data__write(&data, "abcdef", 6) || data.data_size != 6)
		goto out_close;
	if (!held_by_us(path)) {
		fprintf(stderr, "another process should see %s held, and be refused it\n", path);
		goto out_close;
	}
	if (read_back(dir, "perf.data.old", buf, sizeof(buf)) || strcmp(buf, "first")) {
		fprintf(stderr, "a refused create renamed perf.data\n");
		goto out_close;
	}

	err = perf_data__switch(&data, true, &dump);
	if (err) {
		fprintf(stderr, "switch: %s\n", strerror(-err));
		goto out_close;
	}
	if (!dump || strncmp(dump, path, strlen(path)) || dump[strlen(path)] != '.' ||
	    strlen(dump + strlen(path) + 1) != 16 ||
	    strspn(dump + strlen(path) + 1, "0123456789") != 16) {
		fprintf(stderr, "the dump is named %s, not <path>.<16 digits>\n", dump ? dump : "(null)");
		goto out_close;
	}
	if (read_back(dir, strrchr(dump, '/') + 1, buf, sizeof(buf)) || strcmp(buf, "abcdef")) {
		fprintf(stderr, "the dump %s should hold what was written\n", dump);
		goto out_close;
	}
	if (stat(path, &st) || st.st_size != 0 || data.fd < 0 || perf_data__is_ours(&data)) {
		fprintf(stderr, "after switch the file at the path should be fresh, and ours\n");
		goto out_close;
	}
	/* The fresh file holds the name: no instant where another could take it. */
	if (!held_by_us(path)) {
		fprintf(stderr, "after switch %s should still be held\n", path);
		goto out_close;
	}
	/* Leftover temporaries would pile up in the user's directory. */
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q tmp", dir);
		if (system(cmd) == 0) {
			fprintf(stderr, "a temporary file was left behind\n");
			goto out_close;
		}
	}
	ret = TEST_OK;
out_close:
	free(dump);
	perf_data__close(&data);
out:
	test__rm_rf(dir);
	return ret;
}
DEFINE_SUITE(data_create, "perf.data creation keeps perf.data.old, switch renames, the name stays held");

static int test__data_write_full(void)
{
	struct perf_data data = { .fd = open("/dev/full", O_WRONLY) };
	char buf[4096] = { 0 };
	int err;

	if (data.fd < 0)
		return test__skip("no /dev/full: %s", strerror(errno));
	err = perf_data__write(&data, buf, sizeof(buf));
	close(data.fd);
	TEST_ASSERT_EQUAL("a full disk is -ENOSPC", err, -ENOSPC);
	TEST_ASSERT_EQUAL("nothing counted as written", data.data_size, 0);
	return TEST_OK;
}
DEFINE_SUITE(data_write_full, "perf.data writes report a full disk as -ENOSPC");
