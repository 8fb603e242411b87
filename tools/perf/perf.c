/*
 * perf: the command table and main().  A command whose builtin-*.c is not
 * linked in yet (its cmd_* is a weak NULL) reports that it is not available.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/man.h"
#include "perf.h"
#include "util/debug.h"
#include "util/build-id.h"
#include "util/parse-options.h"
#include "util/record-signals.h"

#pragma weak cmd_record
#pragma weak cmd_evlist
#pragma weak cmd_script
#pragma weak cmd_report
#pragma weak cmd_list
#pragma weak cmd_buildid_list
#pragma weak cmd_buildid_cache
#pragma weak cmd_archive
#pragma weak cmd_inject
#pragma weak cmd_daemon
#pragma weak cmd_sched
#pragma weak cmd_bench
#pragma weak cmd_timechart

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static struct cmd_struct commands[] = {
	{ "record",  cmd_record,  "Run a command and record its profile into perf.data" },
	{ "evlist",  cmd_evlist,  "List the event names in a perf.data file" },
	{ "script",  cmd_script,  "Read perf.data and display the trace output" },
	{ "report",  cmd_report,  "Read perf.data and display the profile" },
	{ "diff",    cmd_diff,    "Read perf.data files and display the differential profile" },
	{ "list",    cmd_list,    "List all symbolic event types" },
	{ "buildid-list",  cmd_buildid_list,  "Print the build ids of the DSOs a perf.data file names" },
	{ "buildid-cache", cmd_buildid_cache, "Add, remove or list files in the build-id cache" },
	{ "archive", cmd_archive, "Pack the files a perf.data file needs, by build id, into a tarball" },
	{ "inject",  cmd_inject,  "Filter a perf.data file or stream: decompress it, add build ids" },
	{ "daemon",  cmd_daemon,  "Run record sessions on background" },
	{ "sched",   cmd_sched,   "Tool to trace/measure scheduler properties (latencies)" },
	{ "bench",   cmd_bench,   "General framework for benchmark suites" },
	{ "timechart", cmd_timechart, "Tool to visualize total system behavior during a workload" },
	{ "test",    cmd_test,    "Runs sanity tests" },
	{ "version", cmd_version, "display the version of perf binary" },
	{ "help",    cmd_help,    "Display help information about perf" },
};

static const char perf_usage[] = "usage: perf [--version] [--help] COMMAND [ARGS]";

static void print_commands(FILE *fp)
{
	fprintf(fp, "%s\n\n The commands are:\n", perf_usage);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'perf help COMMAND' for more information on a specific command.\n");
}

/*
 * The rows of upstream's "perf version --build-options", in its order and
 * with its names, each "on" when this build has what the row stands for:
 * DWARF unwinding goes through libdw, not libunwind; there is no perl,
 * python, slang, numa, aio, auxtrace or syscall table in this perf.
 */
static const struct {
	const char *name, *macro;
	int on;
} build_options[] = {
	{ "dwarf", "HAVE_DWARF_SUPPORT", 1 },
	{ "dwarf_getlocations", "HAVE_DWARF_GETLOCATIONS_SUPPORT", 0 },
	{ "glibc", "HAVE_GLIBC_SUPPORT", 1 },
	{ "syscall_table", "HAVE_SYSCALL_TABLE_SUPPORT", 0 },
	{ "libbfd", "HAVE_LIBBFD_SUPPORT", 0 },
	{ "debuginfod", "HAVE_DEBUGINFOD_SUPPORT", 0 },
	{ "libelf", "HAVE_LIBELF_SUPPORT", 1 },
	{ "libnuma", "HAVE_LIBNUMA_SUPPORT", 0 },
	{ "numa_num_possible_cpus", "HAVE_LIBNUMA_SUPPORT", 0 },
	{ "libperl", "HAVE_LIBPERL_SUPPORT", 0 },
	{ "libpython", "HAVE_LIBPYTHON_SUPPORT", 0 },
	{ "libslang", "HAVE_SLANG_SUPPORT", 0 },
	{ "libcrypto", "HAVE_LIBCRYPTO_SUPPORT", 0 },
	{ "libunwind", "HAVE_LIBUNWIND_SUPPORT", 0 },
	{ "libdw-dwarf-unwind", "HAVE_DWARF_SUPPORT", 1 },
	{ "zlib", "HAVE_ZLIB_SUPPORT", 0 },
	{ "lzma", "HAVE_LZMA_SUPPORT", 0 },
	{ "get_cpuid", "HAVE_AUXTRACE_SUPPORT", 0 },
	{ "bpf", "HAVE_LIBBPF_SUPPORT", 1 },
	{ "aio", "HAVE_AIO_SUPPORT", 0 },
	{ "zstd", "HAVE_ZSTD_SUPPORT", 1 },
	{ "libpfm4", "HAVE_LIBPFM", 0 },
};

static const char * const version_usage[] = { "perf version [<options>]", NULL };

int cmd_version(int argc, const char **argv)
{
	bool build = false;
	const struct perf_option options[] = {
		OPT_BOOLEAN(0, "build-options", &build, "display the build options"),
		OPT_END()
	};

	/* perf --version comes here with no command line. */
	if (argv) {
		argc = parse_options(argc, argv, options, version_usage,
				     PARSE_OPT_STOP_AT_NON_OPTION);
		if (argc < 0)
			return parse_options__exit_status(argc);
	}
	/* Words after the options are ignored, as the distro does. */
	printf("perf version %s\n", PERF_VERSION);
	for (size_t i = 0; build && i < ARRAY_SIZE(build_options); i++)
		printf("%22s: [ %s ]  # %s\n", build_options[i].name,
		       build_options[i].on ? "on " : "OFF", build_options[i].macro);
	return 0;
}

/* The directory of the running binary, in @buf; -1 if /proc cannot say. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/* Where Documentation/ lives: next to the binary, else the source tree. */
static int doc_path(char *buf, size_t len, const char *cmd)
{
	char exe[PATH_MAX];

	if (!exe_dir(exe, sizeof(exe))) {
		snprintf(buf, len, "%s/Documentation/perf-%s.txt", exe, cmd);
		if (access(buf, R_OK) == 0)
			return 0;
	}
	snprintf(buf, len, "%s/Documentation/perf-%s.txt", PERF_SRCDIR, cmd);
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}

/* perf-@cmd.1 (or .1.gz) in the man1 of the manual tree @dir, in @buf. */
static bool man_page_in(char *buf, size_t len, const char *dir, size_t dlen, const char *cmd)
{
	static const char * const suffixes[] = { "", ".gz" };

	for (size_t i = 0; dlen && i < ARRAY_SIZE(suffixes); i++) {
		snprintf(buf, len, "%.*s/man1/perf-%s.1%s", (int)dlen, dir, cmd, suffixes[i]);
		if (access(buf, R_OK) == 0)
			return true;
	}
	return false;
}

/*
 * The installed page of @cmd: the one make install put beside this binary
 * (<bindir>/../share/man), else one in a tree of $MANPATH.  man's default
 * trees are not searched: on Debian /usr/share/man has the distro perf's
 * pages, which describe another program.
 */
static bool man_page(char *buf, size_t len, const char *cmd)
{
	const char *p = getenv("MANPATH");
	char dir[PATH_MAX + 16];

	if (!exe_dir(dir, PATH_MAX)) {
		strcat(dir, "/../share/man");
		if (man_page_in(buf, len, dir, strlen(dir), cmd))
			return true;
	}
	while (p && *p) {
		size_t n = strcspn(p, ":");

		if (man_page_in(buf, len, p, n, cmd))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

int cmd_help(int argc, const char **argv)
{
	char path[PATH_MAX + 64];
	char line[1024];
	FILE *fp;

	if (argc < 2) {
		print_commands(stdout);
		return 0;
	}
	/*
	 * An installed page is shown by man, as the distro shows its own;
	 * if man cannot be run, the asciidoc is rendered as without one.
	 * man itself pages only on a terminal.
	 */
	if (!getenv("PERF_HELP_RAW") && man_page(path, sizeof(path), argv[1])) {
		execlp("man", "man", "-l", path, (char *)NULL);
		pr_debug("perf help: cannot run man (%s), showing the page itself\n",
			 strerror(errno));
	}
	if (doc_path(path, sizeof(path), argv[1]) < 0) {
		fprintf(stderr, "No manual entry for perf-%s: no such command or no page for it.\n"
			"See 'perf help' for the list of commands.\n", argv[1]);
		return 1;
	}
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "Cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* PERF_HELP_RAW=1: the asciidoc source itself, for editing the pages. */
	if (getenv("PERF_HELP_RAW")) {
		while (fgets(line, sizeof(line), fp))
			fputs(line, stdout);
	} else if (man__render(fp, stdout)) {
		fprintf(stderr, "perf help: out of memory while formatting %s\n", path);
		fclose(fp);
		return 1;
	}
	fclose(fp);
	return 0;
}

static struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const char * const main_usage[] = { "perf [--version] [--help] COMMAND [ARGS]", NULL };

/*
 * Our first instruction, before main() and before any other constructor
 * of ours (101 is the first priority left to programs; there is no other
 * in perf): SIGUSR2 blocked.  Operators send it to perf record right
 * after they start it, from scripts and perf daemon signal; with its
 * default disposition it would kill the recorder until record installs
 * its handler.  Blocked, it waits for the handler (see main() for the
 * other commands).  Before this, only the dynamic loader and the
 * libraries' constructors have run: a starter that signals at once must
 * start perf with SIGUSR2 blocked, as perf daemon does.
 */
static void __attribute__((constructor(101))) perf_block_sigusr2(void)
{
	record_signals__block_early();
}

int main(int argc, const char **argv)
{
	bool version = false, help = false, list_cmds = false;
	const char *buildid_dir = NULL;
	const struct perf_option options[] = {
		OPT_BOOLEAN('v', "version", &version, "display the version of perf binary"),
		OPT_BOOLEAN('h', "help", &help, "list the commands"),
		OPT_STRING(0, "buildid-dir", &buildid_dir, "dir",
			   "where the build-id cache is, for this command only"),
		/* For the shell's completion, so not in the usage. */
		{ .type = OPTION_BOOLEAN, .long_name = "list-cmds", .value = &list_cmds,
		  .help = "list the commands, on one line", .flags = PARSE_OPT_HIDDEN },
		OPT_END()
	};
	struct cmd_struct *cmd;
	bool record;

	/* perf's own options end at the command's name. */
	argc = parse_options(argc, argv, options, main_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	/*
	 * Only perf record keeps SIGUSR2 blocked: every other command (and
	 * "perf record --help", which runs man) has it as perf was started,
	 * and so has what it runs.
	 */
	record = argc > 0 && !strcmp(argv[0], "record") &&
		 !(argc == 2 && !strcmp(argv[1], "--help"));
	if (!record)
		record_signals__unblock_early();
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (version)
		return cmd_version(0, NULL);
	if (list_cmds) {
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (commands[i].fn)
				printf("%s ", commands[i].name);
		putchar('\n');
		return 0;
	}
	if (help) {
		print_commands(stdout);
		return 0;
	}
	if (buildid_dir)
		buildid_dir__set(buildid_dir);
	if (argc == 0) {
		print_commands(stdout);
		return 1;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", argv[0]);
		return PERF_EXIT_USAGE;
	}
	if (!cmd->fn) {
		fprintf(stderr, "perf %s: this command is not available yet in this build.\n",
			argv[0]);
		return 1;
	}
	/* "perf CMD --help" shows the command's page, as the distro perf does. */
	if (argc == 2 && !strcmp(argv[1], "--help") && strcmp(argv[0], "help")) {
		const char *hargv[] = { "help", argv[0], NULL };
		return cmd_help(2, hargv);
	}
	return cmd->fn(argc, argv);
}
