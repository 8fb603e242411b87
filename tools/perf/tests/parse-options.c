/* The option layer: forms, bundles, negation, optional arguments, errors, usage. */
#include <string.h>
#include "tests.h"
#include "util/parse-options.h"

struct opts_seen {
	bool force, group;
	int verbose, count;
	unsigned int loops;
	const char *input, *mode;
	int calls, unset;
};

static struct opts_seen seen;

static int take_mode(const struct perf_option *opt, const char *arg, int unset)
{
	struct opts_seen *s = opt->value;

	s->calls++;
	s->unset = unset;
	s->mode = arg ? arg : "default";
	return arg && !strcmp(arg, "bad") ? -1 : 0;
}

static const char * const usage[] = { "perf demo [<options>]", "perf demo other", NULL };

static const struct perf_option options[] = {
	OPT_STRING('i', "input", &seen.input, "file", "Input file name"),
	OPT_BOOLEAN('f', "force", &seen.force, "don't complain, do it"),
	OPT_INCR('v', "verbose", &seen.verbose, "be more verbose"),
	OPT_BOOLEAN('g', "group", &seen.group, "Show event group information"),
	OPT_INTEGER('c', "count", &seen.count, "n", "how many"),
	OPT_UINTEGER('l', "loops", &seen.loops, "n", "how many times"),
	OPT_CALLBACK_OPTARG('m', "mode", &seen, "how", "a mode, or the default one", take_mode),
	OPT_BOOLEAN(0, "trace-fields", &seen.force, "Show tracepoint fields"),
	OPT_BOOLEAN('F', "freq", &seen.group, "Show the sample frequency"),
	OPT_END()
};

/* Parses a space-separated command line; its result, the words left in @left. */
static int parse(const char *line, char *err, size_t size, char *left, size_t lsize)
{
	/* Kept until the next call: the options point into it. */
	static char copy[256];
	char *save = NULL;
	const char *argv[32] = { "demo" };
	int argc = 1, n;
	FILE *fp;

	/* What the last call said must not pass for this one's words. */
	err[0] = '\0';
	fp = fmemopen(err, size, "w");
	snprintf(copy, sizeof(copy), "%s", line);
	memset(&seen, 0, sizeof(seen));
	for (char *w = strtok_r(copy, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	n = parse_options_fp(fp, argc, argv, options, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	fclose(fp);
	left[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(left + strlen(left), lsize - strlen(left), "%s%s", i ? " " : "", argv[i]);
	return n;
}

static const struct perf_option word_options[] = {
	OPT_BOOLEAN('f', "force", &seen.force, "don't complain, do it"),
	OPT_END_WORDS("perf demo: unexpected argument '%s'; it takes one file.\n")
};

/* The words after the options that the flags allow; the rest said with the usage. */
static int parse_words(int flags, char *err, size_t size, int argc, const char **argv)
{
	FILE *fp = fmemopen(err, size, "w");
	int n = parse_options_fp(fp, argc, argv, word_options, usage, flags);

	fclose(fp);
	return n;
}

/* The words are moved to argv[0..]: each call gets a fresh command line. */
static int test__parse_words(void)
{
	const char *one[] = { "demo", "-f", "a.data" }, *one_again[] = { "demo", "-f", "a.data" };
	const char *two[] = { "demo", "a", "-f", "b" }, *none[] = { "demo", "-f" };
	const int stop = PARSE_OPT_STOP_AT_NON_OPTION;
	char err[4096];

	TEST_ASSERT_EQUAL("no words: none", parse_words(stop | PARSE_OPT_NO_WORDS, err,
							 sizeof(err), 2, none), 0);
	TEST_ASSERT_EQUAL("no words: one", parse_words(stop | PARSE_OPT_NO_WORDS, err,
							sizeof(err), 3, one), PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("the table's message, then the usage", !strcmp(err,
		"perf demo: unexpected argument 'a.data'; it takes one file.\n\n"
		" Usage: perf demo [<options>]\n    or: perf demo other\n\n"
		"    -f, --force           don't complain, do it\n\n"));
	TEST_ASSERT_EQUAL("one word", parse_words(stop | PARSE_OPT_ONE_WORD, err, sizeof(err), 3,
						  one_again), 1);
	/* Without STOP_AT_NON_OPTION the options after a word are still taken. */
	TEST_ASSERT_EQUAL("two words", parse_words(PARSE_OPT_ONE_WORD, err, sizeof(err), 4, two),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("the second named", seen.force && strstr(err, "argument 'b';"));
	return TEST_OK;
}

static int test__parse_options(void)
{
	char err[4096], left[256];

	TEST_ASSERT_EQUAL("long with space", parse("--input a.data x", err, sizeof(err), left, sizeof(left)), 1);
	TEST_ASSERT_VAL("input", seen.input && !strcmp(seen.input, "a.data") && !strcmp(left, "x"));
	parse("--input=b.data", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("--opt=value", !strcmp(seen.input, "b.data"));
	parse("-ic.data", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("-ovalue", !strcmp(seen.input, "c.data"));
	parse("-fvvi d.data", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("bundle", seen.force && seen.verbose == 2 && !strcmp(seen.input, "d.data"));
	parse("-v --verbose -fg", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("counting, -fg", seen.verbose == 2 && seen.force && seen.group);
	parse("-f --no-force", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("--no-force", !seen.force);
	parse("--fo --no-g", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("unique prefixes", seen.force && !seen.group);
	parse("-c 12", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_EQUAL("integer", seen.count, 12);
	/* A bad number is named as it was given, with that option's usage alone. */
	TEST_ASSERT_EQUAL("not a number", parse("-c x", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("-c named", strstr(err, " Error: switch `c' expects a numerical value\n"));
	TEST_ASSERT_VAL("its usage", strstr(err, " Usage: perf demo") && strstr(err, "--count") &&
			!strstr(err, "--input"));
	parse("--count=x", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("--count named", strstr(err, " Error: option `count' expects a numerical"));
	/* The distro shows the option's usage for --count x, not for --count=x. */
	TEST_ASSERT_VAL("no option usage after --count=x", !strstr(err, "--count <"));
	parse("--count x", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("option usage after --count x", strstr(err, "--count <"));
	parse("-l 3", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_EQUAL("unsigned", seen.loops, 3U);
	TEST_ASSERT_EQUAL("below 0", parse("-l -1", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("-l named", strstr(err, " Error: switch `l' expects an unsigned numerical value\n"));
	TEST_ASSERT_EQUAL("left as it was", seen.loops, 0U);

	/* An optional argument attaches only with '=' or glued to its switch. */
	TEST_ASSERT_EQUAL("optarg alone", parse("--mode x", err, sizeof(err), left, sizeof(left)), 1);
	TEST_ASSERT_VAL("default mode", seen.calls == 1 && !strcmp(seen.mode, "default") &&
			!strcmp(left, "x"));
	parse("--mode=fast -mslow", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("optarg given", seen.calls == 2 && !strcmp(seen.mode, "slow"));
	parse("--no-mode", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("callback unset", seen.calls == 1 && seen.unset == 1);
	TEST_ASSERT_EQUAL("callback refuses", parse("--mode=bad", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("its own words only", !strstr(err, "Usage:"));

	/* Stops at the first word, and after "--"; "-" is a word. */
	TEST_ASSERT_EQUAL("stop", parse("-f cmd -v --input x", err, sizeof(err), left, sizeof(left)), 4);
	TEST_ASSERT_VAL("left alone", !strcmp(left, "cmd -v --input x") && seen.verbose == 0);
	TEST_ASSERT_EQUAL("--", parse("-f -- -v", err, sizeof(err), left, sizeof(left)), 1);
	TEST_ASSERT_VAL("after --", !strcmp(left, "-v") && !seen.verbose);
	TEST_ASSERT_EQUAL("-", parse("- -v", err, sizeof(err), left, sizeof(left)), 2);

	/* Errors: the distro's words, and 129. */
	TEST_ASSERT_EQUAL("unknown", parse("--bogus", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_EQUAL("exit status", parse_options__exit_status(PARSE_OPT_ERROR), 129);
	TEST_ASSERT_VAL("unknown option", !strncmp(err, "  Error: unknown option `bogus'\n\n Usage: perf demo [<options>]\n", 60));
	parse("--grop", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("hint", strstr(err, "\n  Did you mean --group?\n"));
	parse("--tracee", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("hint on a start", strstr(err, "Did you mean --trace-fields?"));
	parse("-x", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("unknown switch", !strncmp(err, "  Error: unknown switch `x'\n", 28));
	TEST_ASSERT_EQUAL("missing", parse("-fi", err, sizeof(err), left, sizeof(left)), PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("requires a value", !strcmp(err,
		" Error: switch `i' requires a value\n Usage: perf demo [<options>]\n    or: perf demo other\n\n"
		"    -i, --input <file>    Input file name\n"));
	parse("--input", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("long requires a value", !strncmp(err, " Error: option `input' requires a value\n", 40));
	parse("--force=1", err, sizeof(err), left, sizeof(left));
	TEST_ASSERT_VAL("takes no value", !strncmp(err, " Error: option `force' takes no value\n", 38));
	TEST_ASSERT_EQUAL("ambiguous", parse("--f", err, sizeof(err), left, sizeof(left)), PARSE_OPT_ERROR);
	TEST_ASSERT_VAL("ambiguous text", !strncmp(err, " Error: Ambiguous option: f (could be --force or --freq)\n", 57));
	TEST_ASSERT_EQUAL("not negatable", parse("--no-input", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);
	TEST_ASSERT_EQUAL("not a number", parse("-c 1x", err, sizeof(err), left, sizeof(left)),
			  PARSE_OPT_ERROR);

	/* -h: sorted by short name (f before F), long-only last; the help column at 26. */
	TEST_ASSERT_EQUAL("help", parse("-v -h", err, sizeof(err), left, sizeof(left)), PARSE_OPT_HELP);
	TEST_ASSERT_VAL("usage", !strcmp(err,
		"\n Usage: perf demo [<options>]\n    or: perf demo other\n\n"
		"    -c, --count <n>       how many\n"
		"    -f, --force           don't complain, do it\n"
		"    -F, --freq            Show the sample frequency\n"
		"    -g, --group           Show event group information\n"
		"    -i, --input <file>    Input file name\n"
		"    -l, --loops <n>       how many times\n"
		"    -m, --mode[=<how>]    a mode, or the default one\n"
		"    -v, --verbose         be more verbose\n"
		"        --trace-fields    Show tracepoint fields\n\n"));
	TEST_ASSERT_EQUAL("--help", parse("--help", err, sizeof(err), left, sizeof(left)), PARSE_OPT_HELP);
	return test__parse_words();
}
DEFINE_SUITE(parse_options, "Option tables: parsing, errors and usage");
