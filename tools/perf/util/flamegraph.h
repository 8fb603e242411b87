#ifndef PERF_UTIL_FLAMEGRAPH_H
#define PERF_UTIL_FLAMEGRAPH_H
/*
 * The tree of a flame graph: every sample's stack folded into one node per
 * distinct path from the root, counted in samples, and written out as the
 * distro's flamegraph report writes it (JSON) or as one self-contained
 * HTML page that draws it (the page's script is util/flamegraph.js).
 *
 * The root is "all"; its children are the processes ("comm (pid)", or the
 * comm alone for pid 0), theirs the outermost frames, down to the leaf.
 */
#include <stdio.h>
#include "types.h"

enum flamegraph_type { FG_USER, FG_KERNEL, FG_ROOT };

struct flamegraph_node {
	char *name;
	enum flamegraph_type type;	/* written as "l": "", "kernel", "root" */
	u64 value;			/* samples whose stack ends here */
	struct flamegraph_node *child;	/* first child, in the order first seen */
	struct flamegraph_node *last;	/* last child, where the next one goes */
	struct flamegraph_node *next;	/* next sibling */
	/* The child found last: runs of samples go down the same path. */
	struct flamegraph_node *hint;
	u64 base;			/* of a diff: the baseline's samples through here */
	u32 id;				/* its place in the page's node table (the timeline's) */
};

struct flamegraph {
	struct flamegraph_node root;
	u64 nr_samples;
	bool diff;		/* each node's base is set: written as "b" */
};

/* One frame of a stack to add: outermost first. */
struct flamegraph_frame {
	const char *name;
	bool kernel;
};

void flamegraph__init(struct flamegraph *fg);
void flamegraph__exit(struct flamegraph *fg);
/* One sample: @nr frames, the process's node first.  0 or -ENOMEM. */
int flamegraph__add(struct flamegraph *fg, const struct flamegraph_frame *frames, size_t nr);
/* The same, giving the sample's leaf node (NULL when out of memory). */
struct flamegraph_node *flamegraph__add_leaf(struct flamegraph *fg,
					     const struct flamegraph_frame *frames, size_t nr);

/*
 * A differential flame graph, as flamegraph.pl's difffolded makes one: the
 * frames stay @fg's, and each gets the samples the same path (the same
 * names from the root) has in @base, 0 where @base lacks it.  A process
 * with no node of its "comm (pid)" in @base takes the first of its comm:
 * two runs of a program have different pids.
 */
void flamegraph__set_baseline(struct flamegraph *fg, const struct flamegraph *base);

/*
 * The distro's JSON layout: {"n": name, "l": type, "v": value, "c": [children]}. */
int flamegraph__write_json(const struct flamegraph *fg, FILE *fp);

struct flamegraph_page {
	const char *title;		/* the input file and its time range */
	const char *colorscheme;	/* "blue-green" or "orange" */
	/*
	 * A view built on the flame graph (the timeline) writes its own data
	 * in place of the tree's, and its script runs after flamegraph.js.
	 */
	int (*write_data)(FILE *fp, const void *ctx);
	const void *ctx;
	const unsigned char *script;
	size_t script_len;
};

/* @s as text or an attribute's value of HTML or XML: & < > " escaped. */
void html__text(FILE *fp, const char *s);
/* A JSON string; @in_html: inside a <script> element, '<' escaped. */
void json__string(FILE *fp, const char *s, bool in_html);
/* The nodes, each given its id in preorder from the root's 0; returns how many. */
u32 flamegraph__number(struct flamegraph *fg);

/* The whole page, its style, script and data inline.  0 or -EIO. */
int flamegraph__write_html(const struct flamegraph *fg, const struct flamegraph_page *page,
			   FILE *fp);

#endif
