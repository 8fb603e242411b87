/* perf report's entries and sort keys (util/hist.c, util/sort.c) on synthetic samples. */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/hist.h"
#include "util/sort.h"
#include "util/machine.h"
#include "util/symbol.h"

static struct dso dso_a = { .name = "/usr/lib/liba.so" }, dso_b = { .name = "/bin/prog" };
static struct dso dso_b2 = { .name = "/other/prog" };
static struct symbol sym_f = { .start = 0x100, .end = 0x200, .name = "f" };
static struct symbol sym_g = { .start = 0x200, .end = 0x300, .name = "g" };
static struct thread thr = { .pid = 42, .tid = 42, .comm_set = true };

/* A sample's own entry, as report__sample adds it. */
static struct hist_entry *add_sample(struct hists *h, const struct hist_entry *key, u64 period)
{
	struct hist_entry *he;

	if (hists__reserve(h, 1))
		return NULL;
	he = hists__findnew(h, key, &thr);
	he->nr++;
	he->period += period;
	h->total_period += period;
	h->nr_samples++;
	return he;
}

static int test__hist_aggregate(void)
{
	struct strset strs;
	struct hists h;
	struct hist_entry k1 = { 0 }, k2, k3, *a, *b, **v;
	size_t n;

	strset__init(&strs, 16);
	hists__init(&h);
	k1.comm = strset__intern(&strs, "prog");
	TEST_ASSERT_VAL("interned once", k1.comm == strset__intern(&strs, "prog"));
	k1.dso = &dso_a;
	k1.sym = &sym_f;
	k2 = k1;
	k2.sym = &sym_g;
	k3 = k1;
	k3.sym = NULL;
	k3.addr = 0x1234;
	a = add_sample(&h, &k1, 100);
	TEST_ASSERT_VAL("entry made", a && a->thread == &thr && a->tid == 42);
	add_sample(&h, &k2, 50);
	add_sample(&h, &k3, 7);
	b = add_sample(&h, &k1, 300);
	TEST_ASSERT_VAL("same place, same entry", b == a);
	TEST_ASSERT_EQUAL("samples added up", a->nr, 2);
	TEST_ASSERT_EQUAL("periods added up", a->period, 400);
	TEST_ASSERT_EQUAL("three places", h.entries.nr, 3);
	TEST_ASSERT_EQUAL("total", h.total_period, 457);
	k3.addr = 0x1235;
	TEST_ASSERT_VAL("no symbol: the address is the key", !hists__find(&h, &k3));
	k3.addr = 0x1234;
	TEST_ASSERT_EQUAL("found by address", hists__find(&h, &k3)->period, 7);
	v = hists__entries(&h, &n);
	TEST_ASSERT_VAL("entries", v && n == 3);
	TEST_ASSERT_VAL("in the order made", v[0] == a && v[1]->sym == &sym_g && !v[2]->sym);
	hist_entry__merge(v[0], v[1]);
	TEST_ASSERT_EQUAL("merge adds periods", v[0]->period, 450);
	TEST_ASSERT_EQUAL("merge adds samples", v[0]->nr, 3);
	free(v);
	hists__exit(&h);
	strset__exit(&strs);
	return TEST_OK;
}

static int test__sort_keys(void)
{
	struct sort_keys s;

	sort_keys__init(&s);
	TEST_ASSERT_VAL("default comm,dso,sym", s.nr_keys == 3 && s.keys[0] == SORT_COMM &&
			s.keys[2] == SORT_SYM && sort_keys__has(&s, SORT_DSO));
	TEST_ASSERT_EQUAL("-s dso,sym,dso", sort_keys__parse(&s, "dso,sym,dso"), 0);
	TEST_ASSERT_VAL("each once, in order", s.nr_keys == 2 && s.keys[0] == SORT_DSO &&
			s.keys[1] == SORT_SYM && !sort_keys__has(&s, SORT_COMM));
	TEST_ASSERT_EQUAL("-F sample,comm with -s", sort_keys__parse_fields(&s, "sample,comm", true), 0);
	TEST_ASSERT_VAL("-F's columns, then -s keys it left out",
			s.nr_cols == 4 && s.cols[0] == COL_SAMPLES && s.cols[1] == SORT_COMM &&
			s.cols[2] == SORT_DSO && s.cols[3] == SORT_SYM && s.sort_set);
	TEST_ASSERT_VAL("-F's key joins -s's", s.nr_keys == 3 && s.keys[2] == SORT_COMM);
	sort_keys__remove(&s, SORT_COMM);
	TEST_ASSERT_EQUAL("removed", s.nr_keys, 2);
	return TEST_OK;
}

static int test__sort_cmp(void)
{
	struct hist_entry x = { .comm = "a", .dso = &dso_a, .sym = &sym_g };
	struct hist_entry y = { .comm = "b", .dso = &dso_b, .sym = &sym_f }, z = y;
	struct hist_entry *v[3] = { &x, &y, &z };
	struct sort_keys s;
	struct hist_sort hs = { .keys = &s };
	char buf[64];

	TEST_ASSERT_VAL("comm by name", hist_entry__key_cmp(&x, &y, SORT_COMM) < 0);
	TEST_ASSERT_VAL("dso by short name", hist_entry__key_cmp(&x, &y, SORT_DSO) < 0);
	TEST_ASSERT_VAL("sym by name", hist_entry__key_cmp(&x, &y, SORT_SYM) > 0);
	z.dso = NULL;
	z.sym = NULL;
	TEST_ASSERT_VAL("no object last", hist_entry__key_cmp(&y, &z, SORT_DSO) < 0);
	TEST_ASSERT_VAL("no symbol last", hist_entry__key_cmp(&y, &z, SORT_SYM) < 0);
	hist_entry__key_snprintf(&y, SORT_DSO, 0, buf, sizeof(buf));
	TEST_ASSERT_VAL("dso column", !strcmp(buf, "prog"));
	y.kernel = true;
	hist_entry__key_snprintf(&y, SORT_SYM, 0, buf, sizeof(buf));
	TEST_ASSERT_VAL("sym column", !strcmp(buf, "[k] f"));
	TEST_ASSERT_EQUAL("sym width", hist_entry__key_width(&y, SORT_SYM), 5);
	TEST_ASSERT_EQUAL("dso width", hist_entry__key_width(&y, SORT_DSO), 4);
	y.no_sym = true;
	TEST_ASSERT_EQUAL("dso width at no symbol: an address's", hist_entry__key_width(&y, SORT_DSO),
			  16);
	y.no_sym = false;
	TEST_ASSERT_EQUAL("cpu sets no width", hist_entry__key_width(&y, SORT_CPU), 0);

	/* By period, descending; equal ones by the keys in their order. */
	sort_keys__init(&s);
	TEST_ASSERT_EQUAL("-s sym", sort_keys__parse(&s, "sym"), 0);
	x.period = 10;
	y.period = 10;
	z.period = 20;
	hists__sort(&hs, v, 3);
	TEST_ASSERT_VAL("largest first", v[0] == &z);
	TEST_ASSERT_VAL("ties by sym", v[1] == &y && v[2] == &x);
	hs.children = true;
	x.period_acc = 30;
	hists__sort(&hs, v, 3);
	TEST_ASSERT_VAL("children first with --children", v[0] == &x);
	return TEST_OK;
}

static int test__dso_canon(void)
{
	struct dso_canon c;

	dso_canon__init(&c);
	TEST_ASSERT_VAL("first seen is itself", dso_canon__get(&c, &dso_b) == &dso_b);
	TEST_ASSERT_VAL("another name", dso_canon__get(&c, &dso_a) == &dso_a);
	TEST_ASSERT_VAL("same short name: the first", dso_canon__get(&c, &dso_b2) == &dso_b);
	TEST_ASSERT_VAL("asked again", dso_canon__get(&c, &dso_b2) == &dso_b);
	TEST_ASSERT_VAL("none", !dso_canon__get(&c, NULL));
	dso_canon__exit(&c);
	return TEST_OK;
}

static int test__hist(void)
{
	int err = test__hist_aggregate();

	if (!err)
		err = test__sort_keys();
	if (!err)
		err = test__sort_cmp();
	if (!err)
		err = test__dso_canon();
	return err;
}

DEFINE_SUITE(hist, "perf report's entries: aggregation, sort keys, -s/-F, comparison, dso by name");
