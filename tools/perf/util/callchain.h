#ifndef PERF_UTIL_CALLCHAIN_H
#define PERF_UTIL_CALLCHAIN_H
/*
 * Call graphs for perf report: the callchains of the samples that went to
 * one report line, merged into a tree, and printed the ways the distro's
 * perf report --stdio prints them (graph, fractal, flat, folded).
 *
 * The tree has one node per frame.  Where the distro keeps a straight run
 * of frames (no branch, no chain ending inside it) as one node, we print
 * such a run the same way, so the output matches while the tree stays
 * simple to build.
 */
#include <stdio.h>
#include "types.h"
#include "symbol.h"

/* One resolved frame of a callchain. */
struct callchain_frame {
	struct dso *dso;	/* NULL when the address is in no map */
	struct symbol *sym;	/* NULL when unresolved */
	u64 ip;			/* the address as recorded */
	bool kernel;		/* which address space the frame is in */
	bool mapped;		/* the address fell into a map */
	bool user_map;		/* ... of a process (not the kernel's) */
	u64 addr;		/* the address in the DSO (struct addr_location) */
	u64 sym_addr;		/* ... in the symbols' own space */
};

struct callchain_node {
	struct callchain_node *parent;
	struct callchain_node *child;	/* first child; siblings through next */
	struct callchain_node *next;
	struct callchain_frame f;
	u64 self;		/* period of the chains that end here */
	u64 cumul;		/* period of the chains through here (self included) */
	u64 nr_self, nr_cumul;	/* the same in samples (for the count value) */
	u32 nr_children;
};

enum callchain_print_mode {
	CHAIN_NONE, CHAIN_GRAPH_ABS, CHAIN_GRAPH_REL, CHAIN_FLAT, CHAIN_FOLDED,
};

enum callchain_order { ORDER_CALLEE, ORDER_CALLER };

enum callchain_value { CCVAL_PERCENT, CCVAL_PERIOD, CCVAL_COUNT };

struct callchain_param {
	enum callchain_print_mode mode;
	enum callchain_order order;
	enum callchain_value value;
	double min_percent;		/* threshold, in percent */
	unsigned int print_limit;	/* 0: no limit */
	bool order_set;			/* the user chose an order */
	bool skip_first;		/* the entry's own symbol heads every chain: --sort sym */
};

/* The root is an empty node whose children are the chains' first frames. */
struct callchain_root {
	struct callchain_node node;
	u64 count;	/* samples */
};

void callchain_param__init(struct callchain_param *p);
/*
 * Parses "graph|flat|fractal|folded|none,threshold[,print_limit],caller|callee,
 * function|address,percent|period|count" (any subset, in any order, as the
 * distro takes it).  0 or -EINVAL with the reason in @err.
 */
int callchain_param__parse(struct callchain_param *p, const char *arg, char *err, size_t len);

/* Adds @nr frames (in display order) with @period; 0 or -ENOMEM. */
int callchain_root__append(struct callchain_root *root, const struct callchain_frame *frames,
			   size_t nr, u64 period);
void callchain_root__delete(struct callchain_root *root);
/* Moves @from's chains into @to (as if appended there) and frees @from. */
void callchain_root__merge(struct callchain_root *to, struct callchain_root *from);

/*
 * Prints the tree of one report line.  @total is the period of all samples
 * of the event, @parent the period of the line (its Children column when
 * children are accumulated).
 */
void callchain_root__fprintf(FILE *fp, struct callchain_root *root,
			     const struct callchain_param *p, u64 total, u64 parent);

/*
 * The name a frame has in a call graph: its symbol (marked " (inlined)" for
 * a function inlined there) or its address.
 */
void callchain_frame__fprint(FILE *fp, const struct callchain_frame *f);

/*
 * The resolved chain of the sample at hand, and room beside it for the
 * entries the sample credits (its own and one per frame), reused from one
 * sample to the next.
 */
struct hist_entry;
struct machine;
struct perf_sample;
struct callchain_frames {
	struct callchain_frame *frames;
	size_t cap;
	struct hist_entry **seen;	/* cap + 1 slots */
};
int callchain_frames__room(struct callchain_frames *cf, size_t nr);
/*
 * @sample's chain resolved into @cf->frames in @cc's order, at most
 * @max_stack frames (-1: all): the number of frames, 0 for a chain to drop,
 * or -ENOMEM.
 */
ssize_t callchain_frames__resolve(struct callchain_frames *cf, struct machine *machine,
				  struct perf_sample *sample, bool kernel,
				  const struct callchain_param *cc, int max_stack);
void callchain_frames__exit(struct callchain_frames *cf);

#endif
