/*
 * One table per command: each row names an option (short and long form),
 * its help text and where its value goes.  Parsing, "-h" usage, "--no-"
 * negation, the errors and their hints all come from that one table, so the
 * help a command prints cannot drift from what it takes.
 */
#ifndef PERF_PARSE_OPTIONS_H
#define PERF_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum perf_option_type {
	OPTION_END,
	OPTION_BOOLEAN,		/* bool *: set, or cleared by --no-<name> */
	OPTION_INCR,		/* int *: one more each time (-vv), 0 by --no-<name> */
	OPTION_STRING,		/* const char **: the argument itself */
	OPTION_INTEGER,		/* int *: the argument as a decimal number */
	OPTION_UINTEGER,	/* unsigned int *: the same, not below 0 */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) does the work */
};

enum perf_option_flags {
	PARSE_OPT_OPTARG = 1 << 0,	/* the argument may be left out ("--opt" or "--opt=x") */
	PARSE_OPT_NONEG = 1 << 1,	/* no --no-<name> form */
	PARSE_OPT_NOARG = 1 << 2,	/* a callback that takes no argument */
	PARSE_OPT_HIDDEN = 1 << 3,	/* taken, but not listed by -h */
	/*
	 * A value the callback refused: after its message, the option's own
	 * usage, as the distro shows it for most of perf record's options.
	 */
	PARSE_OPT_SHOW_USAGE = 1 << 4,
	/*
	 * With PARSE_OPT_OPTARG: the argument may also be the next word, when
	 * that is not an option ("-g caller", as the distro takes it); -h
	 * shows it as the distro does, "<arg>".
	 */
	PARSE_OPT_OPTARG_WORD = 1 << 5,
};

struct perf_option;

/*
 * @arg is the option's argument (NULL when it takes none or it was left
 * out), @unset is 1 for the --no-<name> form.  A negative return is a bad
 * value: the callback has said why, and parsing stops there (exit 129).
 * OPT_CALLBACK takes no --no-<name> form; the NOOPT and OPTARG ones do.
 */
typedef int (*perf_option_cb)(const struct perf_option *opt, const char *arg, int unset);

struct perf_option {
	enum perf_option_type type;
	int short_name;			/* 0: long form only */
	const char *long_name;		/* NULL: short form only */
	void *value;			/* where the value goes (see the types) */
	const char *argh;		/* the argument's name in the usage: "file" */
	const char *help;
	int flags;			/* enum perf_option_flags */
	perf_option_cb callback;
	void *data;			/* for the callback's use */
};

#define OPT_END() { .type = OPTION_END }
/*
 * The end of a table parsed with PARSE_OPT_NO_WORDS or PARSE_OPT_ONE_WORD:
 * @msg says a word too many was given, "%s" standing for that word.
 */
#define OPT_END_WORDS(msg) { .type = OPTION_END, .help = (msg) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), \
	  .value = (bool *)(v), .help = (h) }
#define OPT_INCR(s, l, v, h) \
	{ .type = OPTION_INCR, .short_name = (s), .long_name = (l), \
	  .value = (int *)(v), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = (const char **)(v), .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_INTEGER(s, l, v, a, h) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), \
	  .value = (int *)(v), .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_UINTEGER(s, l, v, a, h) \
	{ .type = OPTION_UINTEGER, .short_name = (s), .long_name = (l), \
	  .value = (unsigned int *)(v), .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG, .callback = (cb) }
#define OPT_CALLBACK_NOOPT(s, l, v, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .flags = PARSE_OPT_NOARG, .callback = (cb) }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = PARSE_OPT_OPTARG, .callback = (cb) }

enum parse_options_flags {
	/*
	 * Stop at the first word that is not an option (a workload and its
	 * own options, a subcommand); without it such words are kept aside
	 * and parsing goes on after them.
	 */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
	/*
	 * No word after the options, or at most one (a file): one more is a
	 * bad command line, said with the table's OPT_END_WORDS() message and
	 * the usage (PARSE_OPT_ERROR), once the options are parsed.
	 */
	PARSE_OPT_NO_WORDS = 1 << 1,
	PARSE_OPT_ONE_WORD = 1 << 2,
};

/* What parse_options() returns when it has done all there is to do. */
enum parse_options_result {
	PARSE_OPT_HELP = -1,	/* -h, --help: the usage was printed */
	PARSE_OPT_ERROR = -2,	/* a bad command line: said why, and the usage */
	PARSE_OPT_LIST = -3,	/* --list-opts: the long options were listed */
};

/*
 * Parses argv[1..argc-1] against @opts.  Returns how many words are left
 * (options and "--" taken out), moved to argv[0..], or a negative
 * enum parse_options_result after printing what it has to say.  @usage is
 * a NULL-terminated list: the synopsis, then its other forms.
 */
int parse_options(int argc, const char **argv, const struct perf_option *opts,
		  const char * const *usage, int flags);
/* The same, messages and usage going to @err (the tests read them). */
int parse_options_fp(FILE *err, int argc, const char **argv, const struct perf_option *opts,
		     const char * const *usage, int flags);

/*
 * The edit distance of @a and @b (their first @la and @lb bytes), each at
 * most 64 bytes (longer: 64, far): for "did you mean" hints.
 */
size_t str__edit_distance(const char *a, size_t la, const char *b, size_t lb);

/* An option's help going on to a second line, in the help column. */
#define HELP_MORE "\n                          "

/* The exit statuses a command gives, as the distro's perf gives them. */
enum perf_exit_status {
	PERF_EXIT_USAGE = 129,		/* a command line refused: usage() */
	PERF_EXIT_EINVAL = 234,		/* -EINVAL's low byte */
	PERF_EXIT_FAILURE = 255,	/* a failure with no errno: the distro's -1 */
};

/* The exit status for a negative parse_options() result: the usage's, 0 for a list. */
static inline int parse_options__exit_status(int result)
{
	return result == PARSE_OPT_LIST ? 0 : PERF_EXIT_USAGE;
}

/*
 * A command's exit status for @err, as the distro's perf makes it: 0 for
 * success, a negative errno's low byte (-EINVAL exits 234) for a failure,
 * and 255 (its -1) when the cause has no errno.  An errno above 63 would
 * read as death by a signal (128 + n): 255 too, where the distro's would
 * mislead.
 */
static inline int cmd_exit_status(int err)
{
	if (!err)
		return 0;
	return err < 0 && err >= -63 ? err & 0xff : PERF_EXIT_FAILURE;
}

/* The usage as -h prints it: the synopsis, then every listed option, sorted. */
void parse_options__usage(FILE *fp, const char * const *usage, const struct perf_option *opts);

#endif
