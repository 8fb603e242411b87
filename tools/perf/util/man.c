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

int man__render(FILE *in, FILE *out)
{
	char *prev = NULL, *line = NULL;
	size_t cap = 0;
	bool verse = false, listing = false, item = false, nested = false;
	char terms[1024] = "";

	/* One line of look-ahead: a heading is known by the line under it. */
	while (getline(&line, &cap, in) >= 0) {
		chomp(line);
		if (prev && !listing && (line_of(line, '=') || line_of(line, '-')) &&
		    prev[0] && strlen(line) >= strlen(prev) - 1 && strlen(line) <= strlen(prev) + 1) {
			/* The previous line was a title or a section heading. */
			if (line[0] == '=')
				fprintf(out, "%s\n", prev);
			else {
				for (char *p = prev; *p; p++)
					fputc(toupper((unsigned char)*p), out);
				fputc('\n', out);
			}
			free(prev);
			prev = NULL;
			item = false;
			continue;
		}
		if (prev) {
			char *p = prev;

			if (listing) {
				if (line_of(p, '-') || line_of(p, '.'))
					listing = false;
				else
					fprintf(out, "%*s%s\n", item ? INDENT_ITEM : INDENT_SECTION, "", p);
			} else if (line_of(p, '-') || line_of(p, '.')) {
				listing = true;
			} else if (!strcmp(p, "[verse]")) {
				verse = true;
			} else if (!p[0]) {
				verse = false;
				nested = false;
				if (terms[0]) {
					fprintf(out, "%*s%s\n", INDENT_SECTION, "", terms);
					terms[0] = '\0';
				}
				fputc('\n', out);
			} else if (verse) {
				put_indented(out, INDENT_SECTION, p);
			} else if (!strcmp(p, "+")) {
				nested = false;
				fputc('\n', out);
			} else if (strlen(p) > 2 && !strcmp(p + strlen(p) - 2, "::") &&
				   !isspace((unsigned char)p[0])) {
				/* "-e::" then "--event=<event>::": one line "-e, --event=<event>". */
				p[strlen(p) - 2] = '\0';
				if (terms[0])
					strncat(terms, ", ", sizeof(terms) - strlen(terms) - 1);
				strncat(terms, p, sizeof(terms) - strlen(terms) - 1);
				item = true;
			} else {
				char *semi = strstr(p, ";;");

				if (terms[0]) {
					fprintf(out, "%*s", INDENT_SECTION, "");
					put_inline(out, terms);
					terms[0] = '\0';
				}
				if (semi) {
					/* "term;; text": a nested item on one line. */
					*semi = '\0';
					while (*p == ' ' || *p == '\t')
						p++;
					fprintf(out, "%*s%-14s ", INDENT_ITEM + 4, "", p);
					put_inline(out, semi + 2 + strspn(semi + 2, " \t"));
					nested = true;
				} else if (nested && isspace((unsigned char)p[0])) {
					/* The rest of a nested item's text, under its first line. */
					put_indented(out, INDENT_ITEM + 4 + 15, p);
				} else {
					put_indented(out, item ? INDENT_ITEM : INDENT_SECTION, p);
				}
			}
			free(prev);
		}
		prev = strdup(line);
		if (!prev) {
			free(line);
			return -1;
		}
	}
	if (prev && !listing && !line_of(prev, '-'))
		put_indented(out, item ? INDENT_ITEM : INDENT_SECTION, prev);
	free(prev);
	free(line);
	return 0;
}
