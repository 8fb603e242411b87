/*
 * perf record's checks of its whole option set (record_opts__check in
 * util/record-opts): the pairs that need each other are refused with the
 * distro's 255, and the defaults that depend on the rest are filled in.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/page-size.h"
#include "util/record-opts.h"

static int check_refused(void)
{
	struct record_opts opts = RECORD_OPTS_INIT;

	opts.output = "-";
	opts.switch_output = true;
	TEST_ASSERT_VAL("--switch-output to a pipe", record_opts__check(&opts) == 255);
	opts = (struct record_opts)RECORD_OPTS_INIT;
	opts.output = "x.data";
	opts.switch_max_files = 3;
	TEST_ASSERT_VAL("--switch-max-files alone", record_opts__check(&opts) == 255);
	opts = (struct record_opts)RECORD_OPTS_INIT;
	opts.output = "x.data";
	opts.switch_output_delay_ms = 10;
	TEST_ASSERT_VAL("--switch-output-delay alone", record_opts__check(&opts) == 255);
	opts.switch_output = true;
	TEST_ASSERT_VAL("--switch-output-delay with --switch-output", !record_opts__check(&opts));
	opts = (struct record_opts)RECORD_OPTS_INIT;
	opts.output = "x.data";
	opts.delay_ms = -1;
	TEST_ASSERT_VAL("-D -1 without --control", record_opts__check(&opts) == 255);
	opts.control = "fd:0";
	TEST_ASSERT_VAL("-D -1 with --control", !record_opts__check(&opts));
	return TEST_OK;
}

/* The output name without -o, with @fd as standard output. */
static const char *output_with_stdout(int fd)
{
	struct record_opts opts = RECORD_OPTS_INIT;
	int saved = dup(STDOUT_FILENO);

	dup2(fd, STDOUT_FILENO);
	record_opts__check(&opts);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return opts.output;
}

static int check_defaults(void)
{
	struct record_opts opts = RECORD_OPTS_INIT;
	int pfd[2], null = open("/dev/null", O_WRONLY);

	TEST_ASSERT_VAL("setup", null >= 0 && !pipe(pfd));
	TEST_ASSERT_VAL("a pipe on stdout takes the stream", !strcmp(output_with_stdout(pfd[1]), "-"));
	TEST_ASSERT_VAL("else perf.data", !strcmp(output_with_stdout(null), "perf.data"));
	close(pfd[0]);
	close(pfd[1]);
	close(null);

	opts.output = "x.data";
	TEST_ASSERT_VAL("good options", !record_opts__check(&opts));
	TEST_ASSERT_VAL("-m's default", opts.mmap_pages == RECORD_MMAP_BYTES / page_size());
	opts.mmap_pages = 4;
	record_opts__check(&opts);
	TEST_ASSERT_VAL("-m given stays", opts.mmap_pages == 4);
	return TEST_OK;
}

static int test__record_opts_check(void)
{
	TEST_ASSERT_VAL("refused", check_refused() == TEST_OK);
	TEST_ASSERT_VAL("defaults", check_defaults() == TEST_OK);
	return TEST_OK;
}

DEFINE_SUITE(record_opts_check, "perf record's option checks: pairs that need each other, defaults");
