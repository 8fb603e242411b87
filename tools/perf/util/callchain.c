/*
 * Call-graph trees of perf report and their --stdio layouts.
 *
 * What the distro prints, and so what we print:
 *  - graph: each branch carries its share of all samples ("--12.34%--"),
 *    pipes link the branches of one level, a straight run of frames is
 *    printed one frame a line under its first; when every chain of a line
 *    starts with the same run, that run comes first after "---".
 *  - fractal: the same, each share relative to the parent's branches; what
 *    the shown branches leave over is one "[...]" line.
 *  - flat: every run where chains end, as the whole path from the root,
 *    behind the run's share; folded: the same paths on one line, ";"-joined.
 * Branches are ordered by share; equal shares by object, then by address,
 * highest first (the order the distro's tree keeps them in).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "callchain.h"
#include "srcline.h"
#include "symbol.h"
#include "machine.h"
#include "unwind.h"

void callchain_param__init(struct callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CHAIN_GRAPH_ABS;
	p->order = ORDER_CALLEE;
	p->value = CCVAL_PERCENT;
	p->min_percent = 0.5;
}

int callchain_param__parse(struct callchain_param *p, const char *arg, char *err, size_t len)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int nr_numbers = 0, ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(tok, "graph"))
			p->mode = CHAIN_GRAPH_ABS;
		else if (!strcmp(tok, "fractal"))
			p->mode = CHAIN_GRAPH_REL;
		else if (!strcmp(tok, "flat"))
			p->mode = CHAIN_FLAT;
		else if (!strcmp(tok, "folded"))
			p->mode = CHAIN_FOLDED;
		else if (!strcmp(tok, "none"))
			p->mode = CHAIN_NONE;
		else if (!strcmp(tok, "caller")) {
			p->order = ORDER_CALLER;
			p->order_set = true;
		} else if (!strcmp(tok, "callee")) {
			p->order = ORDER_CALLEE;
			p->order_set = true;
		} else if (!strcmp(tok, "function") || !strcmp(tok, "address") ||
			   !strcmp(tok, "branch")) {
			/* Frames are always keyed by function here. */
		} else if (!strcmp(tok, "percent"))
			p->value = CCVAL_PERCENT;
		else if (!strcmp(tok, "period"))
			p->value = CCVAL_PERIOD;
		else if (!strcmp(tok, "count"))
			p->value = CCVAL_COUNT;
		else if (v = strtod(tok, &end), end != tok && !*end && v >= 0 && nr_numbers < 2) {
			if (nr_numbers++ == 0)
				p->min_percent = v;
			else
				p->print_limit = (unsigned int)v;
		} else {
			snprintf(err, len, "unknown call-graph option '%s': use graph, flat, fractal, "
				 "folded or none, a threshold, caller or callee, and percent, period "
				 "or count", tok);
			ret = -EINVAL;
			break;
		}
	}
	free(copy);
	return ret;
}

static bool frame__same(const struct callchain_frame *a, const struct callchain_frame *b)
{
	if (a->sym || b->sym)
		return a->sym == b->sym;
	return a->dso == b->dso && a->ip == b->ip;
}

int callchain_root__append(struct callchain_root *root, const struct callchain_frame *frames,
			   size_t nr, u64 period)
{
	struct callchain_node *n = &root->node;

	/* A sample without a chain adds nothing to the tree (as the distro has it). */
	if (!nr)
		return 0;
	root->count++;
	n->cumul += period;
	n->nr_cumul++;
	for (size_t i = 0; i < nr; i++) {
		struct callchain_node *c, **link = &n->child;

		for (c = n->child; c; link = &c->next, c = c->next)
			if (frame__same(&c->f, &frames[i]))
				break;
		if (!c) {
			c = calloc(1, sizeof(*c));
			if (!c)
				return -ENOMEM;
			c->parent = n;
			c->f = frames[i];
			*link = c;
			n->nr_children++;
		}
		c->cumul += period;
		c->nr_cumul++;
		n = c;
	}
	n->self += period;
	n->nr_self++;
	return 0;
}

static void node__free_children(struct callchain_node *n)
{
	struct callchain_node *c = n->child, *next;

	while (c) {
		next = c->next;
		node__free_children(c);
		free(c);
		c = next;
	}
}

/* @from's children into @to's, adding up where a frame is in both; @from is left empty. */
static void node__merge(struct callchain_node *to, struct callchain_node *from)
{
	struct callchain_node *c = from->child, *next;

	from->child = NULL;
	from->nr_children = 0;
	for (; c; c = next) {
		struct callchain_node *t, **link = &to->child;

		next = c->next;
		for (t = to->child; t; link = &t->next, t = t->next)
			if (frame__same(&t->f, &c->f))
				break;
		if (!t) {
			c->next = NULL;
			c->parent = to;
			*link = c;
			to->nr_children++;
			continue;
		}
		t->cumul += c->cumul;
		t->self += c->self;
		t->nr_cumul += c->nr_cumul;
		t->nr_self += c->nr_self;
		node__merge(t, c);
		free(c);
	}
}

void callchain_root__merge(struct callchain_root *to, struct callchain_root *from)
{
	if (!from)
		return;
	to->count += from->count;
	to->node.cumul += from->node.cumul;
	to->node.self += from->node.self;
	to->node.nr_cumul += from->node.nr_cumul;
	to->node.nr_self += from->node.nr_self;
	node__merge(&to->node, &from->node);
	free(from);
}

void callchain_root__delete(struct callchain_root *root)
{
	if (!root)
		return;
	node__free_children(&root->node);
	free(root);
}

void callchain_frame__fprint(FILE *fp, const struct callchain_frame *f)
{
	if (!f->sym) {
		fprintf(fp, "%#llx", (unsigned long long)f->ip);
		return;
	}
	fputs(f->sym->name, fp);
	if (symbol__inlined(f->sym))
		fputs(" (inlined)", fp);
}

/* The last node of the straight run that starts at @n. */
static struct callchain_node *run__end(struct callchain_node *n)
{
	while (!n->self && n->nr_children == 1)
		n = n->child;
	return n;
}

static u64 frame__key(const struct callchain_frame *f)
{
	return f->sym ? f->sym->start : f->ip;
}

/* The order the distro's tree keeps siblings in: object, then address, highest first. */
static int node__tree_cmp(const void *a, const void *b)
{
	const struct callchain_node *x = *(struct callchain_node * const *)a;
	const struct callchain_node *y = *(struct callchain_node * const *)b;
	/* The distro compares objects by where they are in memory; so do we. */
	uintptr_t dx = (uintptr_t)x->f.dso, dy = (uintptr_t)y->f.dso;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (frame__key(&x->f) != frame__key(&y->f))
		return frame__key(&x->f) > frame__key(&y->f) ? -1 : 1;
	return 0;
}

static int node__cumul_cmp(const void *a, const void *b)
{
	const struct callchain_node *x = *(struct callchain_node * const *)a;
	const struct callchain_node *y = *(struct callchain_node * const *)b;

	if (x->cumul != y->cumul)
		return x->cumul > y->cumul ? -1 : 1;
	return node__tree_cmp(a, b);
}

/* The children of @n with at least @min, by share; a malloc'ed array (NULL: none). */
static struct callchain_node **node__sorted_children(struct callchain_node *n, u64 min,
						       size_t *nr, int (*cmp)(const void *,
									      const void *))
{
	struct callchain_node **v, *c;
	size_t k = 0;

	*nr = 0;
	if (!n->nr_children)
		return NULL;
	v = malloc(n->nr_children * sizeof(*v));
	if (!v)
		return NULL;
	for (c = n->child; c; c = c->next)
		if (c->cumul >= min)
			v[k++] = c;
	qsort(v, k, sizeof(*v), cmp);
	*nr = k;
	return v;
}

struct graph_ctx {
	FILE *fp;
	const struct callchain_param *p;
	char *bits;		/* per depth: a pipe links this level further down */
	size_t nr_bits;
	u64 min_abs;		/* graph: the smallest branch shown */
	size_t frames;		/* graph: frame lines printed */
};

static void graph__value(struct graph_ctx *g, u64 period, u64 count, u64 total)
{
	if (g->p->value == CCVAL_PERIOD)
		fprintf(g->fp, "%llu", (unsigned long long)period);
	else if (g->p->value == CCVAL_COUNT)
		fprintf(g->fp, "%llu", (unsigned long long)count);
	else
		fprintf(g->fp, "%.2f%%", total ? period * 100.0 / total : 0.0);
}

static void graph__margin(struct graph_ctx *g, int margin)
{
	fprintf(g->fp, "%*s", 12 + margin, "");
}

static bool graph__bit(struct graph_ctx *g, int i)
{
	return (size_t)i < g->nr_bits && g->bits[i];
}

static void graph__set_bit(struct graph_ctx *g, int i, bool v)
{
	if ((size_t)i >= g->nr_bits) {
		size_t n = g->nr_bits ? g->nr_bits * 2 : 64;
		char *b;

		while (n <= (size_t)i)
			n *= 2;
		b = realloc(g->bits, n);
		if (!b)
			return;	/* deeper than memory allows: no pipe drawn */
		memset(b + g->nr_bits, 0, n - g->nr_bits);
		g->bits = b;
		g->nr_bits = n;
	}
	g->bits[i] = v;
}

/* The spacer line above a branch. */
static void graph__line(struct graph_ctx *g, int depth, int margin)
{
	graph__margin(g, margin);
	for (int i = 0; i < depth; i++)
		fputs(graph__bit(g, i) ? "|          " : "           ", g->fp);
	fputc('\n', g->fp);
}

/*
 * One frame of a branch (@f, or the text @name); the first of a run carries
 * the branch's share (@period, or @count samples).
 */
static void graph__frame(struct graph_ctx *g, const struct callchain_frame *f, const char *name,
			 bool first, u64 period, u64 count, u64 total, int depth, int margin)
{
	graph__margin(g, margin);
	for (int i = 0; i < depth; i++) {
		fputc(graph__bit(g, i) ? '|' : ' ', g->fp);
		if (first && i == depth - 1) {
			fputs("--", g->fp);
			graph__value(g, period, count, total);
			fputs("--", g->fp);
		} else {
			fputs("          ", g->fp);
		}
	}
	if (f)
		callchain_frame__fprint(g->fp, f);
	else
		fputs(name, g->fp);
	fputc('\n', g->fp);
	g->frames++;
}

static u64 graph__min(struct graph_ctx *g, struct callchain_node *end)
{
	if (g->p->mode == CHAIN_GRAPH_REL)
		return (u64)ceil((end->cumul - end->self) * g->p->min_percent / 100.0);
	return g->min_abs;
}

/* The branches below run end @n, at @depth (1: the first level). */
static void graph__branches(struct graph_ctx *g, struct callchain_node *n, u64 total, int depth,
			    int margin)
{
	bool rel = g->p->mode == CHAIN_GRAPH_REL;
	struct callchain_node **kids;
	u64 remaining = total;
	size_t nr, j;

	kids = node__sorted_children(n, graph__min(g, n), &nr, node__cumul_cmp);
	for (j = 0; j < nr; j++) {
		struct callchain_node *k = kids[j], *end = run__end(k), *c;

		remaining -= k->cumul;
		graph__line(g, depth, margin);
		if (j == nr - 1 && (!rel || !remaining))
			graph__set_bit(g, depth - 1, false);
		for (c = k;; c = c->child) {
			graph__frame(g, &c->f, NULL, c == k, k->cumul, k->nr_cumul, total, depth,
				     margin);
			if (c == end)
				break;
		}
		graph__set_bit(g, depth, true);
		graph__branches(g, end, rel ? end->cumul - end->self : total, depth + 1, margin);
		if (g->p->print_limit && j + 1 == g->p->print_limit)
			break;
	}
	free(kids);
	if (rel && remaining && remaining != total) {
		graph__set_bit(g, depth - 1, false);
		/* The rest is a period alone: as a count it is 0, as in the distro. */
		graph__frame(g, NULL, "[...]", true, remaining, 0, total, depth, margin);
	}
}

static void callchain__fprintf_graph(struct graph_ctx *g, struct callchain_root *root,
				     u64 total, u64 parent)
{
	struct callchain_node *top = &root->node, **kids;
	int margin = 0;
	size_t nr;
	bool printed = false;

	g->min_abs = (u64)(total * (g->p->min_percent / 100.0));
	kids = node__sorted_children(top, graph__min(g, top), &nr, node__cumul_cmp);
	/* Every chain under the threshold: no tree, and no blank line after it (as the distro). */
	if (!nr) {
		free(kids);
		return;
	}
	if (nr == 1 && kids[0]->cumul == parent) {
		/* Every chain starts with this run: it heads the tree, without a share. */
		struct callchain_node *k = kids[0], *end = run__end(k), *c;

		for (c = k;; c = c->child) {
			if (!(c == k && g->p->skip_first)) {
				if (!printed) {
					fprintf(g->fp, "%12s|\n%12s---", "", "");
					margin = 3;
					printed = true;
				} else {
					graph__margin(g, margin);
				}
				callchain_frame__fprint(g->fp, &c->f);
				fputc('\n', g->fp);
			}
			if (c == end)
				break;
		}
		top = end;
	}
	free(kids);
	/* The entry's own frame alone, not shown (skip_first): no tree, no blank line, as the distro. */
	if (!printed && !top->child)
		return;
	if (g->p->mode == CHAIN_GRAPH_REL)
		total = parent;
	graph__set_bit(g, 0, true);
	graph__branches(g, top, total, 1, margin);
	/* Branches all under the threshold, below a skipped first frame: nothing, no blank line. */
	if (printed || g->frames)
		fputc('\n', g->fp);
}

struct flat_list {
	struct callchain_node **v;
	size_t nr, cap;
};

/* Run ends where chains end, children before parents, siblings in tree order. */
static int flat__collect(struct flat_list *l, struct callchain_node *end, u64 min)
{
	struct callchain_node **kids;
	size_t nr;

	kids = node__sorted_children(end, 0, &nr, node__tree_cmp);
	for (size_t i = 0; i < nr; i++)
		if (flat__collect(l, run__end(kids[i]), min)) {
			free(kids);
			return -ENOMEM;
		}
	free(kids);
	if (end->self && end->self >= min && end->parent) {
		if (l->nr == l->cap) {
			size_t cap = l->cap ? l->cap * 2 : 16;
			struct callchain_node **v = realloc(l->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			l->v = v;
			l->cap = cap;
		}
		l->v[l->nr++] = end;
	}
	return 0;
}

/* By the period of the chains ending there; equal ones keep their order. */
static void flat__sort(struct flat_list *l)
{
	for (size_t i = 1; i < l->nr; i++) {
		struct callchain_node *x = l->v[i];
		size_t j = i;

		for (; j > 0 && l->v[j - 1]->self < x->self; j--)
			l->v[j] = l->v[j - 1];
		l->v[j] = x;
	}
}

/* The head of the run that ends at @end (for its share). */
static struct callchain_node *run__head(struct callchain_node *end)
{
	struct callchain_node *n = end;

	while (n->parent && n->parent->parent && !n->parent->self && n->parent->nr_children == 1)
		n = n->parent;
	return n;
}

static void flat__path(FILE *fp, struct callchain_node *n, bool folded, bool *first)
{

	if (!n->parent)
		return;
	flat__path(fp, n->parent, folded, first);
	if (folded) {
		if (!*first)
			fputc(';', fp);
		callchain_frame__fprint(fp, &n->f);
		*first = false;
	} else {
		fprintf(fp, "%16s", "");
		callchain_frame__fprint(fp, &n->f);
		fputc('\n', fp);
	}
}

static void callchain__fprintf_flat(FILE *fp, struct callchain_root *root,
				    const struct callchain_param *p, u64 total)
{
	struct flat_list l = { 0 };
	bool folded = p->mode == CHAIN_FOLDED;

	if (flat__collect(&l, &root->node, (u64)(total * (p->min_percent / 100.0))) == 0) {
		flat__sort(&l);
		for (size_t i = 0; i < l.nr; i++) {
			const struct callchain_node *head = run__head(l.v[i]);
			/* Folded: the chains ending there; flat: those through its run. */
			u64 v = folded ? l.v[i]->self : head->cumul;
			u64 nr = folded ? l.v[i]->nr_self : head->nr_cumul;
			bool first = true;

			if (p->print_limit && i == p->print_limit)
				break;
			if (!folded)
				fprintf(fp, "%11s", "");
			if (p->value == CCVAL_PERIOD)
				fprintf(fp, "%llu", (unsigned long long)v);
			else if (p->value == CCVAL_COUNT)
				fprintf(fp, "%llu", (unsigned long long)nr);
			else
				fprintf(fp, "%.2f%%", total ? v * 100.0 / total : 0.0);
			fputs(folded ? " " : "\n", fp);
			flat__path(fp, l.v[i], folded, &first);
			fputc('\n', fp);
		}
	}
	free(l.v);
}

void callchain_root__fprintf(FILE *fp, struct callchain_root *root,
			     const struct callchain_param *p, u64 total, u64 parent)
{
	struct graph_ctx g = { .fp = fp, .p = p };

	switch (p->mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		callchain__fprintf_graph(&g, root, total, parent);
		break;
	case CHAIN_FLAT:
	case CHAIN_FOLDED:
		callchain__fprintf_flat(fp, root, p, total);
		break;
	case CHAIN_NONE:
		break;
	}
	free(g.bits);
}

/*
 * Room for @nr frames of the sample at hand and for the nr + 1 entries it
 * credits (its own and one per frame).  A sample without a chain still
 * credits its own entry, so the first call allocates whatever @nr is.
 */
int callchain_frames__room(struct callchain_frames *cf, size_t nr)
{
	struct callchain_frame *f;
	struct hist_entry **s;
	size_t cap = cf->cap ? cf->cap : 64;

	if (cf->seen && nr <= cf->cap)
		return 0;
	while (cap < nr)
		cap *= 2;
	f = realloc(cf->frames, cap * sizeof(*f));
	if (f)
		cf->frames = f;
	s = realloc(cf->seen, (cap + 1) * sizeof(*s));
	if (s)
		cf->seen = s;
	if (!f || !s)
		return -ENOMEM;
	cf->cap = cap;
	return 0;
}

/*
 * The sample's callchain resolved, in the order the trees show it, at most
 * --max-stack frames: as recorded, or with the user part unwound from the
 * sampled registers and stack (--call-graph dwarf), as perf script shows
 * it.  An unwound frame where the debug info has inlined functions is
 * those functions, innermost first, then the one they are in, as in the
 * distro (unless --no-inline); recorded frames are not expanded, as the
 * distro's 6.1 does not.  A chain with a context the distro does not know
 * is dropped whole, as the distro drops it.
 */
ssize_t callchain_frames__resolve(struct callchain_frames *cf, struct machine *machine,
				  struct perf_sample *sample, bool kernel,
				  const struct callchain_param *cc, int max_stack)
{
	size_t nr = 0;
	bool kmode = kernel;
	u64 nr_chain;
	const u64 *chain = unwind__callchain(machine, sample, &nr_chain);
	bool unwound = chain != sample->callchain;

	if (callchain_frames__room(cf, nr_chain))
		return -ENOMEM;
	for (u64 i = 0; i < nr_chain; i++) {
		u64 ip = chain[i];
		struct addr_location al;
		struct symbol *inl[16];
		int n_inl = 0;

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			if (ip != (u64)PERF_CONTEXT_HV && ip != (u64)PERF_CONTEXT_KERNEL &&
			    ip != (u64)PERF_CONTEXT_USER)
				return 0;
			kmode = ip == (u64)PERF_CONTEXT_KERNEL;
			continue;
		}
		machine__resolve(machine, (int)sample->pid, ip, kmode, &al);
		if (unwound && !kmode)
			n_inl = srcline__inline_frames(&al, inl, ARRAY_SIZE(inl));
		if (n_inl > 1 && callchain_frames__room(cf, nr + (size_t)n_inl + (nr_chain - i)))
			return -ENOMEM;
		for (int k = 0; k < (n_inl ? n_inl : 1); k++)
			cf->frames[nr++] = (struct callchain_frame){
				.dso = al.dso, .sym = n_inl ? inl[k] : al.sym, .ip = ip,
				.kernel = kmode, .mapped = al.map || (kmode && al.dso),
				.user_map = al.map != NULL, .addr = al.addr,
				.sym_addr = al.sym_addr,
			};
	}
	if (cc->order == ORDER_CALLER) {
		for (size_t i = 0; i < nr / 2; i++) {
			struct callchain_frame t = cf->frames[i];

			cf->frames[i] = cf->frames[nr - 1 - i];
			cf->frames[nr - 1 - i] = t;
		}
	}
	if (max_stack >= 0 && nr > (size_t)max_stack)
		nr = (size_t)max_stack;
	return (ssize_t)nr;
}

void callchain_frames__exit(struct callchain_frames *cf)
{
	free(cf->frames);
	free(cf->seen);
}
