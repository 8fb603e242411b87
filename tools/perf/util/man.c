/*
 * perf help CMD: our asciidoc pages (Documentation/perf-CMD.txt) shown on a
 * terminal the way man(1) lays a page out, without man or asciidoc.
 *
 * Only what our pages use is understood: the title and its "====" line,
 * section headings underlined with "----", [verse] blocks, labelled lists
 * ("term::" and "term;;"), "+" continuations, "----" listing blocks, and the
 * inline 'emphasis', `literal`, *strong* and linkperf:perf-x[1] forms.
 * Sections are indented 7 columns, option text 11, as man pages are.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "man.h"

#define INDENT_SECTION	7
#define INDENT_ITEM	11

/* A line of only @c, at least 4 long (a title underline or a block delimiter). */
static bool line_of(const char *s, char c)
{
	size_t n = 0;

	while (s[n] == c)
		n++;
	return n >= 4 && (s[n] == '\0' || s[n] == '\n');
}

/* Is the quote at @p an opening (or closing) emphasis mark, not an apostrophe? */
static bool quote_opens(const char *line, const char *p)
{
	return (p == line || strchr(" \t(/[,", p[-1])) && p[1] && !isspace((unsigned char)p[1]);
}

static bool quote_closes(const char *p)
{
	return !p[1] || strchr(" \t.,;:)]/!?\n's", p[1]);
}

/* The text of one line with the inline markup taken out. */
static void put_inline(FILE *out, const char *s)
{
	const char *line = s;

	while (*s && *s != '\n') {
		if (!strncmp(s, "linkperf:", 9)) {
			const char *br = strchr(s + 9, '[');

			if (br && br[1] && br[2] == ']') {
				fprintf(out, "%.*s(%c)", (int)(br - s - 9), s + 9, br[1]);
				s = br + 3;
				continue;
			}
		}
		if ((*s == '\'' || *s == '`' || *s == '*') && quote_opens(line, s)) {
			const char *end = strchr(s + 1, *s);

			while (end && !quote_closes(end))
				end = strchr(end + 1, *s);
			if (end && end > s + 1) {
				fprintf(out, "%.*s", (int)(end - s - 1), s + 1);
				s = end + 1;
				continue;
			}
		}
		fputc(*s++, out);
	}
	fputc('\n', out);
}

static void put_indented(FILE *out, int indent, const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\n' || !*s) {
		fputc('\n', out);
		return;
	}
	fprintf(out, "%*s", indent, "");
	put_inline(out, s);
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* Where the renderer is in the page, between one line and the next. */
struct man_state {
	FILE *out;
	bool verse;		/* in a [verse] block: lines kept as written */
	bool listing;		/* between ---- or .... fences */
	bool item;		/* under a "term::": text indented as an item's */
	bool nested;		/* under a "term;; text": its rest goes under the text */
	char terms[1024];	/* the "term::" lines waiting for their text */
};

/* Whether @line underlines @prev: a title (=) or a section heading (-) of about its length. */
static bool man__is_heading(const struct man_state *st, const char *prev, const char *line)
{
	size_t n = strlen(line);

	return prev && !st->listing && (line_of(line, '=') || line_of(line, '-')) &&
	       prev[0] && n >= strlen(prev) - 1 && n <= strlen(prev) + 1;
}

static void man__heading(struct man_state *st, const char *prev, const char *line)
{
	if (line[0] == '=') {
		fprintf(st->out, "%s\n", prev);
	} else {
		for (const char *p = prev; *p; p++)
			fputc(toupper((unsigned char)*p), st->out);
		fputc('\n', st->out);
	}
	st->item = false;
}

/* "-e::" then "--event=<event>::": one line "-e, --event=<event>". */
static void man__term(struct man_state *st, char *p)
{
	p[strlen(p) - 2] = '\0';
	if (st->terms[0])
		strncat(st->terms, ", ", sizeof(st->terms) - strlen(st->terms) - 1);
	strncat(st->terms, p, sizeof(st->terms) - strlen(st->terms) - 1);
	st->item = true;
}

/* A line of text: after any terms waiting for it, as a nested item, its rest, or plain. */
static void man__text(struct man_state *st, char *p)
{
	char *semi = strstr(p, ";;");

	if (st->terms[0]) {
		fprintf(st->out, "%*s", INDENT_SECTION, "");
		put_inline(st->out, st->terms);
		st->terms[0] = '\0';
	}
	if (semi) {
		/* "term;; text": a nested item on one line. */
		*semi = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		fprintf(st->out, "%*s%-14s ", INDENT_ITEM + 4, "", p);
		put_inline(st->out, semi + 2 + strspn(semi + 2, " \t"));
		st->nested = true;
	} else if (st->nested && isspace((unsigned char)p[0])) {
		/* The rest of a nested item's text, under its first line. */
		put_indented(st->out, INDENT_ITEM + 4 + 15, p);
	} else {
		put_indented(st->out, st->item ? INDENT_ITEM : INDENT_SECTION, p);
	}
}

static void man__blank(struct man_state *st)
{
	st->verse = false;
	st->nested = false;
	if (st->terms[0]) {
		fprintf(st->out, "%*s%s\n", INDENT_SECTION, "", st->terms);
		st->terms[0] = '\0';
	}
	fputc('\n', st->out);
}

/* One line that is not a heading's title, known now that the line after it was read. */
static void man__line(struct man_state *st, char *p)
{
	if (st->listing) {
		if (line_of(p, '-') || line_of(p, '.'))
			st->listing = false;
		else
			fprintf(st->out, "%*s%s\n", st->item ? INDENT_ITEM : INDENT_SECTION, "", p);
	} else if (line_of(p, '-') || line_of(p, '.')) {
		st->listing = true;
	} else if (!strcmp(p, "[verse]")) {
		st->verse = true;
	} else if (!p[0]) {
		man__blank(st);
	} else if (st->verse) {
		put_indented(st->out, INDENT_SECTION, p);
	} else if (!strcmp(p, "+")) {
		st->nested = false;
		fputc('\n', st->out);
	} else if (strlen(p) > 2 && !strcmp(p + strlen(p) - 2, "::") &&
		   !isspace((unsigned char)p[0])) {
		man__term(st, p);
	} else {
		man__text(st, p);
	}
}

int man__render(FILE *in, FILE *out)
{
	struct man_state st = { .out = out };
	char *prev = NULL, *line = NULL;
	size_t cap = 0;

	/* One line of look-ahead: a heading is known by the line under it. */
	while (getline(&line, &cap, in) >= 0) {
		chomp(line);
		if (man__is_heading(&st, prev, line)) {
			man__heading(&st, prev, line);
			free(prev);
			prev = NULL;
			continue;
		}
		if (prev) {
			man__line(&st, prev);
			free(prev);
		}
		prev = strdup(line);
		if (!prev) {
			free(line);
			return -1;
		}
	}
	if (prev && !st.listing && !line_of(prev, '-'))
		put_indented(out, st.item ? INDENT_ITEM : INDENT_SECTION, prev);
	free(prev);
	free(line);
	return 0;
}
