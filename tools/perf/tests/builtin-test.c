/*
 * perf test: runs the numbered table of unit tests and shell tests.
 *
 * Each C test runs in a forked child with its output captured, so a crash or
 * a hang (killed after a timeout) fails that test alone.  Shell tests are the
 * scripts in tests/shell; their second line is "# description", exit 0 is
 * Ok, 2 is Skip (the last line printed is the reason), anything else fails.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/types.h"

#define SUITE(n) extern struct test_suite suite__##n;
#include <tests-list.h>
#undef SUITE

#define SUITE(n) &suite__##n,
static struct test_suite *c_tests[] = {
#include <tests-list.h>
	NULL
};
#undef SUITE

#define TEST_TIMEOUT_SECS 300
#define SKIP_REASON_LEN 256

/* Shared with the child so it can hand its skip reason back. */
static char *skip_reason;

int test__skip(const char *fmt, ...)
{
	va_list ap;

	if (skip_reason) {
		va_start(ap, fmt);
		vsnprintf(skip_reason, SKIP_REASON_LEN, fmt, ap);
		va_end(ap);
	}
	return TEST_SKIP;
}

struct test_entry {
	const char *desc;
	struct test_suite *suite;	/* C test, or ... */
	char *script;			/* ... a shell test */
	char *name;
};

static struct test_entry *entries;
static int nr_entries;

static void add_entry(const char *desc, const char *name, struct test_suite *s, char *script)
{
	entries = realloc(entries, (nr_entries + 1) * sizeof(*entries));
	if (!entries) {
		pr_err("perf test: out of memory\n");
		exit(1);
	}
	entries[nr_entries].desc = desc;
	entries[nr_entries].suite = s;
	entries[nr_entries].script = script;
	entries[nr_entries].name = strdup(name);
	nr_entries++;
}

static const char *shell_dir(void)
{
	const char *dir = getenv("PERF_TEST_SHELL_DIR");

	return dir ? dir : PERF_SRCDIR "/tests/shell";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The description is the first "# " comment after the #! line. */
static char *script_desc(const char *path)
{
	char line[512];
	FILE *fp = fopen(path, "r");
	char *desc = NULL;

	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "#!", 2))
			continue;
		if (!strncmp(line, "# ", 2)) {
			line[strcspn(line, "\n")] = '\0';
			desc = strdup(line + 2);
		}
		break;
	}
	fclose(fp);
	return desc;
}

static void load_shell_tests(void)
{
	DIR *dir = opendir(shell_dir());
	struct dirent *d;
	char **names = NULL;
	int n = 0;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (fnmatch("*.sh", d->d_name, 0))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = strdup(d->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(*names), cmp_str);
	for (int i = 0; i < n; i++) {
		char *path;
		char *desc;

		if (asprintf(&path, "%s/%s", shell_dir(), names[i]) < 0)
			continue;
		desc = script_desc(path);
		names[i][strlen(names[i]) - 3] = '\0';
		add_entry(desc ? desc : names[i], names[i], NULL, path);
		free(names[i]);
	}
	free(names);
}

/* Absolute path of this binary, for the shell tests' $PERF. */
static void export_perf_path(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		setenv("PERF", exe, 1);
	}
	setenv("PERF_SRCDIR", PERF_SRCDIR, 1);
}

/*
 * Every test runs with a HOME of its own for this run: perf record (ours
 * and the distro's) fills $HOME/.debug, the build-id cache, and a test
 * must never touch the user's.  It also keeps ~/.perfconfig out of the
 * distro perf's answers.  Removed when the run ends.
 */
static char test_home[] = "/tmp/perftest-home.XXXXXX";

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 ? -1 : 0;
}

static void private_home(void)
{
	if (!mkdtemp(test_home)) {
		pr_err("perf test: cannot create a private HOME in /tmp: %s\n", strerror(errno));
		test_home[0] = '\0';
		return;
	}
	setenv("HOME", test_home, 1);
	unsetenv("PERF_BUILDID_DIR");
}

static void private_home__remove(void)
{
	if (test_home[0])
		nftw(test_home, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	*len = 0;
	while (buf && (n = read(fd, buf + *len, cap - *len - 1)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		*len += n;
		if (cap - *len < 1024) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (buf)
		buf[*len] = '\0';
	return buf;
}

static volatile sig_atomic_t child_timed_out;
static pid_t running_child;

static void alarm_handler(int sig)
{
	child_timed_out = 1;
	if (running_child > 0)
		kill(-running_child, SIGKILL);
}

/* Runs one entry in a child; returns TEST_* and fills *output. */
static int run_entry(struct test_entry *e, char **output)
{
	int pfd[2];
	pid_t pid;
	int status = 0;
	size_t len;

	if (pipe(pfd) < 0)
		return TEST_FAIL;
	skip_reason[0] = '\0';
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0) {
		setpgid(0, 0);
		close(pfd[0]);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[1]);
		if (e->suite) {
			int ret = e->suite->func();
			fflush(stdout);
			fflush(stderr);
			exit(ret == TEST_OK ? 0 : ret == TEST_SKIP ? 2 : 1);
		}
		execl("/bin/bash", "bash", e->script, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	running_child = pid;
	child_timed_out = 0;
	signal(SIGALRM, alarm_handler);
	alarm(TEST_TIMEOUT_SECS);
	*output = read_all(pfd[0], &len);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	alarm(0);
	running_child = 0;
	/* A shell test may leave background jobs in its group. */
	kill(-pid, SIGKILL);

	if (child_timed_out) {
		snprintf(skip_reason, SKIP_REASON_LEN, "timed out after %d s", TEST_TIMEOUT_SECS);
		return TEST_FAIL;
	}
	if (WIFSIGNALED(status)) {
		snprintf(skip_reason, SKIP_REASON_LEN, "killed by signal %d", WTERMSIG(status));
		return TEST_FAIL;
	}
	if (!WIFEXITED(status))
		return TEST_FAIL;
	switch (WEXITSTATUS(status)) {
	case 0:
		return TEST_OK;
	case 2:
		if (!e->suite && !skip_reason[0] && *output) {
			/* The script's last line is its reason. */
			char *end = *output + strlen(*output);
			while (end > *output && end[-1] == '\n')
				*--end = '\0';
			char *last = strrchr(*output, '\n');
			snprintf(skip_reason, SKIP_REASON_LEN, "%s", last ? last + 1 : *output);
		}
		return TEST_SKIP;
	default:
		return TEST_FAIL;
	}
}

static bool selected(int idx, struct test_entry *e, int argc, char **argv)
{
	if (argc == 0)
		return true;
	for (int i = 0; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);

		if (*end == '\0' && n == idx + 1)
			return true;
		if (*end != '\0' && (strcasestr(e->desc, argv[i]) || strstr(e->name, argv[i])))
			return true;
	}
	return false;
}

static const char * const test_usage[] = {
	"perf test [<options>] [{list <test-name-fragment>|[<test-name-fragments>|<test-numbers>]}]",
	NULL
};

/* Test number @i + 1: runs it and prints its line (and its output when asked or failed). */
static int test__run_one(int i, struct test_entry *e)
{
	char *output = NULL;
	int ret;

	printf("%3d: %-60s:", i + 1, e->desc);
	fflush(stdout);
	ret = run_entry(e, &output);
	if (verbose && output && *output)
		printf("\n--- output ---\n%s--- end ---\n%3d: %-60s:", output, i + 1, e->desc);
	switch (ret) {
	case TEST_OK:
		printf(" Ok\n");
		break;
	case TEST_SKIP:
		printf(" Skip%s%s%s\n", skip_reason[0] ? " (" : "", skip_reason,
		       skip_reason[0] ? ")" : "");
		break;
	default:
		printf(" FAILED!%s%s%s\n", skip_reason[0] ? " (" : "", skip_reason,
		       skip_reason[0] ? ")" : "");
		if (!verbose && output && *output) {
			/* Show the tail of a failure's output, it usually says why. */
			size_t len = strlen(output);
			const char *tail = len > 2000 ? output + len - 2000 : output;
			printf("%s%s", tail, tail[strlen(tail) - 1] == '\n' ? "" : "\n");
		}
		break;
	}
	free(output);
	fflush(stdout);
	return ret;
}

/*
 * "-w NAME ARGS...": the workload's own arguments follow its name, so the
 * options stop at the first word that is not one.
 */
static int test__run_workload(const char *name, int argc, const char **argv)
{
	const char **wargv = calloc(argc + 2, sizeof(*wargv));
	int ret;

	if (!wargv) {
		pr_err("perf test: out of memory\n");
		return 1;
	}
	wargv[0] = name;
	memcpy(wargv + 1, argv, argc * sizeof(*argv));
	ret = test__workload(argc + 1, wargv);
	free(wargv);
	return ret;
}

int cmd_test(int argc, const char **argv)
{
	bool list = false;
	const char *workload = NULL;
	const struct perf_option options[] = {
		OPT_BOOLEAN('l', "list", &list, "list the tests instead of running them"),
		OPT_STRING('w', "workload", &workload, "work",
			   "run a built-in workload: prctl N, getppid N, burn SECS, threads N MS, ..."),
		OPT_INCR('v', "verbose", &verbose, "show each test's output"),
		OPT_END()
	};
	int passed = 0, failed = 0, skipped = 0;

	argc = parse_options(argc, argv, options, test_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (workload)
		return test__run_workload(workload, argc, argv);
	/* "perf test list [fragments]" lists, as the distro's does (like -l). */
	if (argc > 0 && !strcmp(argv[0], "list")) {
		list = true;
		argc--;
		argv++;
	}

	for (int i = 0; c_tests[i]; i++)
		add_entry(c_tests[i]->desc, c_tests[i]->name, c_tests[i], NULL);
	if (!getenv("PERF_TEST_NO_SHELL"))
		load_shell_tests();

	if (list) {
		for (int i = 0; i < nr_entries; i++)
			if (selected(i, &entries[i], argc, (char **)argv))
				printf("%3d: %s\n", i + 1, entries[i].desc);
		return 0;
	}

	skip_reason = mmap(NULL, SKIP_REASON_LEN, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (skip_reason == MAP_FAILED) {
		pr_err("perf test: cannot allocate shared memory: %s\n", strerror(errno));
		return 1;
	}
	export_perf_path();
	private_home();

	for (int i = 0; i < nr_entries; i++) {
		if (!selected(i, &entries[i], argc, (char **)argv))
			continue;
		switch (test__run_one(i, &entries[i])) {
		case TEST_OK:
			passed++;
			break;
		case TEST_SKIP:
			skipped++;
			break;
		default:
			failed++;
			break;
		}
	}
	private_home__remove();
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
