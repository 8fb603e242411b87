/*
 * The option layer: one table per command (see parse-options.h).  Errors
 * and the usage are laid out as the distro's perf lays them out, so its
 * users (and scripts grepping stderr) see the same text.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

/* The help column: an option's words up to 24 columns, then 2 spaces. */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

struct parse_ctx {
	FILE *err;
	int argc;
	const char **argv;
	int i;				/* the word being parsed */
	const struct perf_option *opts;
	const char * const *usage;
	char as_switch;			/* the option at hand was given by this letter */
};

static bool opt__takes_arg(const struct perf_option *o)
{
	if (o->type == OPTION_CALLBACK)
		return !(o->flags & PARSE_OPT_NOARG);
	return o->type == OPTION_STRING || o->type == OPTION_INTEGER ||
	       o->type == OPTION_UINTEGER;
}

static bool opt__negatable(const struct perf_option *o)
{
	if (o->flags & PARSE_OPT_NONEG)
		return false;
	return o->type == OPTION_BOOLEAN || o->type == OPTION_INCR ||
	       o->type == OPTION_CALLBACK;
}

static void opt__fprintf(FILE *fp, const struct perf_option *o)
{
	int pos = fprintf(fp, "    ");

	if (o->short_name)
		pos += fprintf(fp, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		pos += fprintf(fp, "    ");
	if (o->long_name)
		pos += fprintf(fp, "--%s", o->long_name);
	if (opt__takes_arg(o)) {
		const char *argh = o->argh ? o->argh : "n";

		if (!(o->flags & PARSE_OPT_OPTARG) || (o->flags & PARSE_OPT_OPTARG_WORD))
			pos += fprintf(fp, " <%s>", argh);
		else if (o->long_name)
			pos += fprintf(fp, "[=<%s>]", argh);
		else
			pos += fprintf(fp, "[<%s>]", argh);
	}
	if (pos > USAGE_OPTS_WIDTH) {
		fputc('\n', fp);
		pos = 0;
	}
	fprintf(fp, "%*s%s\n", USAGE_OPTS_WIDTH - pos + USAGE_GAP, "", o->help ? o->help : "");
}

/*
 * -h's order: by short name, a and A together (ties by long name), then the
 * options that have only a long name, by name.
 */
static int opt__cmp(const void *pa, const void *pb)
{
	const struct perf_option *a = *(const struct perf_option * const *)pa;
	const struct perf_option *b = *(const struct perf_option * const *)pb;
	int sa = a->short_name ? tolower(a->short_name) : 256;
	int sb = b->short_name ? tolower(b->short_name) : 256;

	if (sa != sb)
		return sa - sb;
	return strcmp(a->long_name ? a->long_name : "", b->long_name ? b->long_name : "");
}

static void usage__header(FILE *fp, const char * const *usage)
{
	fprintf(fp, " Usage: %s\n", usage[0]);
	for (usage++; *usage; usage++)
		fprintf(fp, "    or: %s\n", *usage);
	fputc('\n', fp);
}

void parse_options__usage(FILE *fp, const char * const *usage, const struct perf_option *opts)
{
	const struct perf_option **sorted;
	size_t n = 0;

	fputc('\n', fp);
	usage__header(fp, usage);
	for (const struct perf_option *o = opts; o->type != OPTION_END; o++)
		n++;
	sorted = calloc(n ? n : 1, sizeof(*sorted));
	if (!sorted) {
		/* Unsorted, rather than no help at all. */
		for (const struct perf_option *o = opts; o->type != OPTION_END; o++)
			if (!(o->flags & PARSE_OPT_HIDDEN))
				opt__fprintf(fp, o);
	} else {
		for (size_t i = 0; i < n; i++)
			sorted[i] = &opts[i];
		qsort(sorted, n, sizeof(*sorted), opt__cmp);
		for (size_t i = 0; i < n; i++)
			if (!(sorted[i]->flags & PARSE_OPT_HIDDEN))
				opt__fprintf(fp, sorted[i]);
		free(sorted);
	}
	fputc('\n', fp);
}

static bool is_prefix(const char *part, size_t len, const char *whole)
{
	return whole && strlen(whole) >= len && !strncmp(part, whole, len);
}

static void usage__fprintf_prefixed(FILE *fp, const struct parse_ctx *ctx, const char *name,
				    size_t len)
{
	fputc('\n', fp);
	usage__header(fp, ctx->usage);
	for (const struct perf_option *o = ctx->opts; o->type != OPTION_END; o++)
		if (is_prefix(name, len, o->long_name))
			opt__fprintf(fp, o);
	fputc('\n', fp);
}

/* A number option's argument is not one: named as it was given, -x or --long. */
static void opt__bad_number(struct parse_ctx *ctx, const struct perf_option *o, const char *what)
{
	if (ctx->as_switch || !o->long_name)
		fprintf(ctx->err, " Error: switch `%c' expects %s\n", o->short_name, what);
	else
		fprintf(ctx->err, " Error: option `%s' expects %s\n", o->long_name, what);
}

static int opt__set(struct parse_ctx *ctx, const struct perf_option *o, const char *arg,
		    int unset)
{
	char *end;
	long v;

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < -2147483647L - 1 || v > 2147483647L) {
			opt__bad_number(ctx, o, "a numerical value");
			return -1;
		}
		if (o->type == OPTION_UINTEGER) {
			if (v < 0) {
				opt__bad_number(ctx, o, "an unsigned numerical value");
				return -1;
			}
			*(unsigned int *)o->value = (unsigned int)v;
			return 0;
		}
		*(int *)o->value = (int)v;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg, unset) < 0 ? -1 : 0;
	case OPTION_END:
	default:
		return -1;
	}
}

/*
 * A value the option refused.  A callback has said why in its own words, a
 * line a script can grep, so the usage does not bury it.
 */
static int parse_ctx__bad_value(struct parse_ctx *ctx, const struct perf_option *o,
				bool attached)
{
	/*
	 * The usage of that one option, as the distro's shows it after its
	 * own number errors: not for --name=value, whose whole word the
	 * distro looks up as a name and so finds no option to show.  A
	 * callback's error is in our words, and its usage always follows.
	 */
	if (o->type != OPTION_CALLBACK) {
		usage__header(ctx->err, ctx->usage);
		if (!attached)
			opt__fprintf(ctx->err, o);
	} else if (o->flags & PARSE_OPT_SHOW_USAGE) {
		fputc('\n', ctx->err);
		usage__header(ctx->err, ctx->usage);
		opt__fprintf(ctx->err, o);
		fputc('\n', ctx->err);
	}
	return PARSE_OPT_ERROR;
}

/* The next word as an option's argument, or NULL when there is none. */
static const char *ctx__next_word(struct parse_ctx *ctx)
{
	if (ctx->i + 1 >= ctx->argc)
		return NULL;
	return ctx->argv[++ctx->i];
}

/* An optional argument left out: the next word, if @o takes one that is not an option. */
static const char *ctx__optional_word(struct parse_ctx *ctx, const struct perf_option *o)
{
	if (!(o->flags & PARSE_OPT_OPTARG_WORD) || ctx->i + 1 >= ctx->argc ||
	    ctx->argv[ctx->i + 1][0] == '-')
		return NULL;
	return ctx->argv[++ctx->i];
}

static int parse_short_bundle(struct parse_ctx *ctx, const char *word)
{
	for (const char *p = word + 1; *p; p++) {
		const struct perf_option *o = ctx->opts;
		const char *arg = NULL;

		while (o->type != OPTION_END && o->short_name != *p)
			o++;
		if (o->type == OPTION_END) {
			if (*p == 'h') {
				parse_options__usage(ctx->err, ctx->usage, ctx->opts);
				return PARSE_OPT_HELP;
			}
			fprintf(ctx->err, "  Error: unknown switch `%c'\n", *p);
			parse_options__usage(ctx->err, ctx->usage, ctx->opts);
			return PARSE_OPT_ERROR;
		}
		if (opt__takes_arg(o)) {
			/* The rest of the word is the argument: -ofile, -g1 */
			if (p[1])
				arg = p + 1;
			else if (!(o->flags & PARSE_OPT_OPTARG))
				arg = ctx__next_word(ctx);
			else
				arg = ctx__optional_word(ctx, o);
			if (!arg && !(o->flags & PARSE_OPT_OPTARG)) {
				fprintf(ctx->err, " Error: switch `%c' requires a value\n", *p);
				usage__header(ctx->err, ctx->usage);
				opt__fprintf(ctx->err, o);
				return PARSE_OPT_ERROR;
			}
		}
		ctx->as_switch = *p;
		if (opt__set(ctx, o, arg, 0) < 0)
			return parse_ctx__bad_value(ctx, o, false);
		ctx->as_switch = 0;
		if (arg)
			break;
	}
	return 0;
}

size_t str__edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t row[65], diag, up;

	if (la > 64 || lb > 64)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = diag + (a[i - 1] != b[j - 1]);

			up = row[j];
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/*
 * A misspelt long option: the names (or the starts of names, "--tarce" for
 * "--trace-fields") one or two edits away, the nearest ones.
 */
static void parse_ctx__hint(struct parse_ctx *ctx, const char *name, size_t len)
{
	size_t best = len <= 3 ? 1 : 2, d, dp;
	int n = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (const struct perf_option *o = ctx->opts; o->type != OPTION_END; o++) {
			size_t ll;

			if (!o->long_name || (o->flags & PARSE_OPT_HIDDEN))
				continue;
			ll = strlen(o->long_name);
			d = str__edit_distance(name, len, o->long_name, ll);
			dp = str__edit_distance(name, len, o->long_name, len < ll ? len : ll);
			if (dp < d)
				d = dp;
			if (pass == 0 && d < best)
				best = d;
			else if (pass == 1 && d == best)
				fprintf(ctx->err, "%s--%s", n++ ? ", " : "  Did you mean ",
					o->long_name);
		}
	}
	if (n)
		fprintf(ctx->err, "?\n");
}

static int parse_long(struct parse_ctx *ctx, const char *word)
{
	const char *name = word + 2, *eq = strchr(name, '='), *arg = NULL;
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct perf_option *o, *found = NULL, *other = NULL;
	int unset = 0, found_unset = 0, other_unset = 0;

	for (o = ctx->opts; o->type != OPTION_END; o++) {
		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len && !strncmp(name, o->long_name, len)) {
			found = o, found_unset = 0, other = NULL;
			break;
		}
		if (opt__negatable(o) && len > 3 && !strncmp(name, "no-", 3) &&
		    strlen(o->long_name) == len - 3 && !strncmp(name + 3, o->long_name, len - 3)) {
			found = o, found_unset = 1, other = NULL;
			break;
		}
		/* A unique start of a name stands for it, as getopt_long takes it. */
		if (is_prefix(name, len, o->long_name) ||
		    (opt__negatable(o) && len > 3 && !strncmp(name, "no-", 3) &&
		     is_prefix(name + 3, len - 3, o->long_name))) {
			int u = strncmp(name, "no-", 3) == 0 && !is_prefix(name, len, o->long_name);

			if (found && !other)
				other = o, other_unset = u;
			else if (!found)
				found = o, found_unset = u;
		}
	}
	if (!found && len == 4 && !strncmp(name, "help", 4)) {
		parse_options__usage(ctx->err, ctx->usage, ctx->opts);
		return PARSE_OPT_HELP;
	}
	if (!found && len == 9 && !strncmp(name, "list-opts", 9)) {
		/* Hidden ones too: a shell completes what the command takes. */
		for (o = ctx->opts; o->type != OPTION_END; o++)
			if (o->long_name)
				printf("--%s ", o->long_name);
		putchar('\n');
		return PARSE_OPT_LIST;
	}
	if (!found) {
		fprintf(ctx->err, "  Error: unknown option `%.*s'\n", (int)len, name);
		parse_ctx__hint(ctx, name, len);
		parse_options__usage(ctx->err, ctx->usage, ctx->opts);
		return PARSE_OPT_ERROR;
	}
	if (other) {
		fprintf(ctx->err, " Error: Ambiguous option: %.*s (could be --%s%s or --%s%s)\n",
			(int)len, name, found_unset ? "no-" : "", found->long_name,
			other_unset ? "no-" : "", other->long_name);
		usage__fprintf_prefixed(ctx->err, ctx, name, len);
		return PARSE_OPT_ERROR;
	}
	o = found;
	unset = found_unset;
	if (eq && (unset || !opt__takes_arg(o))) {
		fprintf(ctx->err, " Error: option `%s%s' takes no value\n", unset ? "no-" : "",
			o->long_name);
		usage__header(ctx->err, ctx->usage);
		return PARSE_OPT_ERROR;
	}
	if (eq)
		arg = eq + 1;
	else if (!unset && opt__takes_arg(o) && (o->flags & PARSE_OPT_OPTARG))
		arg = ctx__optional_word(ctx, o);
	else if (!unset && opt__takes_arg(o)) {
		arg = ctx__next_word(ctx);
		if (!arg) {
			fprintf(ctx->err, " Error: option `%s' requires a value\n", o->long_name);
			usage__header(ctx->err, ctx->usage);
			opt__fprintf(ctx->err, o);
			return PARSE_OPT_ERROR;
		}
	}
	if (opt__set(ctx, o, arg, unset) < 0)
		return parse_ctx__bad_value(ctx, o, eq != NULL);
	return 0;
}

/* More words left than the flags allow: said once, with the usage. */
static int parse_options__too_many_words(FILE *err, int left, const char **argv,
					 const struct perf_option *opts,
					 const char * const *usage, int flags)
{
	int allowed = (flags & PARSE_OPT_ONE_WORD) ? 1 : 0;
	const struct perf_option *end = opts;

	if (!(flags & (PARSE_OPT_NO_WORDS | PARSE_OPT_ONE_WORD)) || left <= allowed)
		return left;
	while (end->type != OPTION_END)
		end++;
	fprintf(err, end->help ? end->help : "unexpected argument '%s'\n", argv[allowed]);
	parse_options__usage(err, usage, opts);
	return PARSE_OPT_ERROR;
}

int parse_options_fp(FILE *err, int argc, const char **argv, const struct perf_option *opts,
		     const char * const *usage, int flags)
{
	struct parse_ctx ctx = {
		.err = err, .argc = argc, .argv = argv, .opts = opts, .usage = usage,
	};
	int left = 0, ret;

	for (ctx.i = 1; ctx.i < argc; ctx.i++) {
		const char *word = argv[ctx.i];

		if (!strcmp(word, "--")) {
			ctx.i++;
			break;
		}
		/* "-" alone is a word (stdin, for some), not an option. */
		if (word[0] != '-' || !word[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[left++] = word;
			continue;
		}
		ret = word[1] == '-' ? parse_long(&ctx, word) : parse_short_bundle(&ctx, word);
		if (ret < 0)
			return ret;
	}
	while (ctx.i < argc)
		argv[left++] = argv[ctx.i++];
	if (left < argc)
		argv[left] = NULL;
	return parse_options__too_many_words(err, left, argv, opts, usage, flags);
}

int parse_options(int argc, const char **argv, const struct perf_option *opts,
		  const char * const *usage, int flags)
{
	return parse_options_fp(stderr, argc, argv, opts, usage, flags);
}
