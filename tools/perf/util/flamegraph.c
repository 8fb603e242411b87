// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph's tree, and its two ways out: the distro's JSON and a
 * page that needs nothing but a browser (no template, no network).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "flamegraph-page.h"	/* generated: flamegraph_js[], flamegraph_css[] */

void flamegraph__init(struct flamegraph *fg)
{
	memset(fg, 0, sizeof(*fg));
	fg->root.name = (char *)"all";
	fg->root.type = FG_ROOT;
}

static void node__delete_children(struct flamegraph_node *n)
{
	struct flamegraph_node *c = n->child, *next;

	for (; c; c = next) {
		next = c->next;
		node__delete_children(c);
		free(c->name);
		free(c);
	}
}

void flamegraph__exit(struct flamegraph *fg)
{
	node__delete_children(&fg->root);
	flamegraph__init(fg);
}

/* @parent's child for @f, made if new; NULL when out of memory. */
static struct flamegraph_node *node__findnew(struct flamegraph_node *parent,
					      const struct flamegraph_frame *f)
{
	struct flamegraph_node *c = parent->hint;

	/* Frames are told apart by name alone, as the distro's are. */
	if (!c || strcmp(c->name, f->name)) {
		for (c = parent->child; c && strcmp(c->name, f->name); c = c->next)
			;
	}
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->name = strdup(f->name);
		if (!c->name) {
			free(c);
			return NULL;
		}
		c->type = f->kernel ? FG_KERNEL : FG_USER;
		if (parent->last)
			parent->last->next = c;
		else
			parent->child = c;
		parent->last = c;
	}
	parent->hint = c;
	return c;
}

struct flamegraph_node *flamegraph__add_leaf(struct flamegraph *fg,
					     const struct flamegraph_frame *frames, size_t nr)
{
	struct flamegraph_node *n = &fg->root;

	for (size_t i = 0; i < nr; i++) {
		n = node__findnew(n, &frames[i]);
		if (!n)
			return NULL;
	}
	n->value++;
	fg->nr_samples++;
	return n;
}

int flamegraph__add(struct flamegraph *fg, const struct flamegraph_frame *frames, size_t nr)
{
	return flamegraph__add_leaf(fg, frames, nr) ? 0 : -ENOMEM;
}

static u32 node__number(struct flamegraph_node *n, u32 id)
{
	n->id = id++;
	for (struct flamegraph_node *c = n->child; c; c = c->next)
		id = node__number(c, id);
	return id;
}

u32 flamegraph__number(struct flamegraph *fg)
{
	return node__number(&fg->root, 0);
}

/* Samples through @n: its own and its children's. */
static u64 node__total(const struct flamegraph_node *n)
{
	u64 sum = n->value;

	for (const struct flamegraph_node *c = n->child; c; c = c->next)
		sum += node__total(c);
	return sum;
}

/* The length of a process's name without its " (pid)": two runs of a program differ there. */
static size_t proc__comm_len(const char *name)
{
	size_t len = strlen(name), i = len;

	if (i < 4 || name[i - 1] != ')')
		return len;
	for (i -= 2; i > 0 && name[i] >= '0' && name[i] <= '9'; i--)
		;
	return i > 1 && name[i] == '(' && name[i - 1] == ' ' && i < len - 2 ? i - 1 : len;
}

/* @b's child that is @c's counterpart: the same name, or for a process, the same comm. */
static const struct flamegraph_node *node__counterpart(const struct flamegraph_node *b,
						      const struct flamegraph_node *c, bool proc)
{
	const struct flamegraph_node *bc, *same_comm = NULL;
	size_t len = proc ? proc__comm_len(c->name) : 0;

	for (bc = b ? b->child : NULL; bc; bc = bc->next) {
		if (!strcmp(bc->name, c->name))
			return bc;
		if (proc && !same_comm && proc__comm_len(bc->name) == len &&
		    !strncmp(bc->name, c->name, len))
			same_comm = bc;
	}
	return same_comm;
}

/* @n and its subtree get the totals of @b's (NULL: none there). */
static void node__set_base(struct flamegraph_node *n, const struct flamegraph_node *b)
{
	n->base = b ? node__total(b) : 0;
	for (struct flamegraph_node *c = n->child; c; c = c->next)
		node__set_base(c, node__counterpart(b, c, n->type == FG_ROOT));
}

void flamegraph__set_baseline(struct flamegraph *fg, const struct flamegraph *base)
{
	node__set_base(&fg->root, &base->root);
	fg->diff = true;
}

/*
 * A JSON string.  Inside the page's <script> element a "</script" in a
 * name would end the element, so there every '<' is written escaped.
 */
void json__string(FILE *fp, const char *s, bool in_html)
{
	putc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || (in_html && c == '<'))
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
	putc('"', fp);
}

static const char *const type_names[] = {
	[FG_USER] = "", [FG_KERNEL] = "kernel", [FG_ROOT] = "root",
};

/* json.dumps()'s separators, so that the bytes are the distro's for ASCII names. */
static void node__write_json(const struct flamegraph_node *n, FILE *fp, bool in_html,
			     bool diff)
{
	fputs("{\"n\": ", fp);
	json__string(fp, n->name, in_html);
	fprintf(fp, ", \"l\": \"%s\", \"v\": %llu, ", type_names[n->type],
		(unsigned long long)n->value);
	if (diff)
		fprintf(fp, "\"b\": %llu, ", (unsigned long long)n->base);
	fputs("\"c\": [", fp);
	for (const struct flamegraph_node *c = n->child; c; c = c->next) {
		node__write_json(c, fp, in_html, diff);
		if (c->next)
			fputs(", ", fp);
	}
	fputs("]}", fp);
}

int flamegraph__write_json(const struct flamegraph *fg, FILE *fp)
{
	node__write_json(&fg->root, fp, false, fg->diff);
	return ferror(fp) ? -EIO : 0;
}

void html__text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: putc(*s, fp);
		}
	}
}

/*
 * The page forbids itself every fetch (default-src 'none'): whatever it
 * needs is in it, and a request it tried anyway is refused and counted by
 * the script in <head> (page-report.js), for the page's test to see.
 */
int flamegraph__write_html(const struct flamegraph *fg, const struct flamegraph_page *page,
			   FILE *fp)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n<title>", fp);
	html__text(fp, page->title);
	fputs("</title>\n<style>\n", fp);
	fwrite(flamegraph_css, 1, flamegraph_css_len, fp);
	fputs("</style>\n<script>\n", fp);
	fwrite(page_report_js, 1, page_report_js_len, fp);
	fputs("</script>\n</head>\n<body data-colorscheme=\"", fp);
	html__text(fp, page->colorscheme);
	fputs("\">\n<h1 id=\"title\">", fp);
	html__text(fp, page->title);
	fputs("</h1>\n", fp);
	if (page->write_data) {
		if (page->write_data(fp, page->ctx))
			return -ENOMEM;
	} else {
		fputs("<script type=\"application/json\" id=\"stacks\">", fp);
		node__write_json(&fg->root, fp, true, fg->diff);
		fputs("</script>\n", fp);
	}
	fputs("<script>\n", fp);
	fwrite(flamegraph_js, 1, flamegraph_js_len, fp);
	if (page->script)
		fwrite(page->script, 1, page->script_len, fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	return ferror(fp) ? -EIO : 0;
}
