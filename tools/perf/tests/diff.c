/* perf diff's mechanism (util/diff.c): -c, the arithmetic, pairing and the rows' order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/diff.h"
#include "util/hist.h"
#include "util/sort.h"
#include "util/machine.h"
#include "util/symbol.h"

/* Two runs of one program: the same names in objects and symbols of their own. */
static struct dso prog_old = { .name = "/old/prog" }, prog_new = { .name = "/new/prog" };
static struct symbol f_old = { .start = 0x100, .end = 0x200, .name = "f" };
static struct symbol g_old = { .start = 0x200, .end = 0x300, .name = "g" };
static struct symbol h_old = { .start = 0x300, .end = 0x400, .name = "h" };
static struct symbol f_new = { .start = 0x1100, .end = 0x1200, .name = "f" };
static struct symbol g_new = { .start = 0x1200, .end = 0x1300, .name = "g" };
static struct symbol k_new = { .start = 0x1300, .end = 0x1400, .name = "k" };

static int test__diff_compute_opt(void)
{
	struct diff_opts o = { .compute = DIFF_DELTA_ABS };
	char err[128];

	TEST_ASSERT_VAL("delta", !diff_opts__parse_compute(&o, "delta", err, sizeof(err)) &&
		o.compute == DIFF_DELTA);
	TEST_ASSERT_VAL("delta-abs", !diff_opts__parse_compute(&o, "delta-abs", err, sizeof(err)) &&
		o.compute == DIFF_DELTA_ABS);
	TEST_ASSERT_VAL("ratio", !diff_opts__parse_compute(&o, "ratio", err, sizeof(err)) &&
		o.compute == DIFF_RATIO);
	TEST_ASSERT_VAL("wdiff:2,-3", !diff_opts__parse_compute(&o, "wdiff:2,-3", err, sizeof(err)) &&
		o.compute == DIFF_WDIFF && o.w1 == 2 && o.w2 == -3);
	TEST_ASSERT_VAL("wdiff without weights",
		diff_opts__parse_compute(&o, "wdiff", err, sizeof(err)) &&
		!strcmp(err, "Failed: wrong weight data, use 'wdiff:w1,w2'\n"));
	TEST_ASSERT_VAL("a zero weight", diff_opts__parse_compute(&o, "wdiff:0,1", err, sizeof(err)));
	TEST_ASSERT_VAL("one weight", diff_opts__parse_compute(&o, "wdiff:1,", err, sizeof(err)));
	TEST_ASSERT_VAL("ratio takes nothing",
		diff_opts__parse_compute(&o, "ratio:3", err, sizeof(err)) &&
		!strcmp(err, "Failed: extra option specified '3'"));
	TEST_ASSERT_VAL("a prefix is not a name", diff_opts__parse_compute(&o, "del", err, sizeof(err)));
	TEST_ASSERT_VAL("unknown", diff_opts__parse_compute(&o, "foo", err, sizeof(err)) &&
		strstr(err, "'foo' is not computation method"));
	return TEST_OK;
}

static int test__diff_arithmetic(void)
{
	TEST_ASSERT_VAL("delta", fabs(diff__delta(25, 100, 30, 60) - 25.0) < 1e-9);
	TEST_ASSERT_VAL("delta down", fabs(diff__delta(50, 100, 10, 100) + 40.0) < 1e-9);
	TEST_ASSERT_VAL("delta, nothing before", fabs(diff__delta(0, 100, 1, 4) - 25.0) < 1e-9);
	TEST_ASSERT_VAL("ratio", fabs(diff__ratio(4, 10) - 2.5) < 1e-9);
	TEST_ASSERT_VAL("ratio without a baseline divides by 1", diff__ratio(0, 7) == 7.0);
	TEST_ASSERT_EQUAL("wdiff", diff__wdiff(100, 30, 2, 3), 30 * 3 - 100 * 2);
	TEST_ASSERT_EQUAL("wdiff 1,1", diff__wdiff(250000, 250000, 1, 1), 0);
	return TEST_OK;
}

static struct hist_entry entry(struct dso *dso, struct symbol *sym, u64 period)
{
	return (struct hist_entry){ .dso = dso, .sym = sym, .period = period };
}

/* Base f 50 g 30 h 20; new f 10 g 60 k 30: totals 100 both. */
static int diff_rows(enum diff_compute c, bool baseline_only, struct hist_entry *eb,
		     struct hist_entry *en, struct diff_row **rows, size_t *n)
{
	struct hist_entry *vb[] = { &eb[0], &eb[1], &eb[2] }, *vn[] = { &en[0], &en[1], &en[2] };
	struct diff_opts o = { .compute = c, .w1 = 1, .w2 = 2, .by_compute = true };
	struct sort_keys keys;

	eb[0] = entry(&prog_old, &f_old, 50);
	eb[1] = entry(&prog_old, &g_old, 30);
	eb[2] = entry(&prog_old, &h_old, 20);
	en[0] = entry(&prog_new, &k_new, 30);
	en[1] = entry(&prog_new, &g_new, 60);
	en[2] = entry(&prog_new, &f_new, 10);
	sort_keys__init(&keys);
	sort_keys__parse(&keys, "dso,sym");
	*rows = diff__pair(vb, 3, vn, 3, &keys, &o, 100, 100, baseline_only, n);
	if (!*rows)
		return TEST_FAIL;
	diff__sort(*rows, *n, &keys, &o);
	return TEST_OK;
}

static int test__diff_pairs(void)
{
	struct hist_entry eb[3], en[3];
	struct diff_row *r;
	size_t n;

	TEST_ASSERT_VAL("rows", diff_rows(DIFF_DELTA_ABS, false, eb, en, &r, &n) == TEST_OK);
	TEST_ASSERT_EQUAL("three of the baseline, one of the new file", n, 4);
	/* |delta|: f -40, g +30, k +30 (k after g by name), then h, which has no new entry. */
	TEST_ASSERT_VAL("f paired by names", r[0].base == &eb[0] && r[0].pair == &en[2]);
	TEST_ASSERT_VAL("f's delta", fabs(r[0].delta + 40.0) < 1e-9);
	TEST_ASSERT_VAL("g (base 30) before k (none)", r[1].base == &eb[1] && r[1].pair == &en[1]);
	TEST_ASSERT_VAL("k: the new file's own", !r[2].base && r[2].pair == &en[0]);
	TEST_ASSERT_VAL("h last, unpaired", r[3].base == &eb[2] && !r[3].pair);
	free(r);

	TEST_ASSERT_VAL("delta rows", diff_rows(DIFF_DELTA, false, eb, en, &r, &n) == TEST_OK);
	TEST_ASSERT_VAL("delta: +30 g, +30 k, -40 f, h",
		r[0].pair == &en[1] && r[1].pair == &en[0] && r[2].pair == &en[2] && !r[3].pair);
	free(r);

	/* Ratio g 2, f 0.2; k has no baseline: after them, for all its ratio of 30/1. */
	TEST_ASSERT_VAL("ratio rows", diff_rows(DIFF_RATIO, false, eb, en, &r, &n) == TEST_OK);
	TEST_ASSERT_VAL("g's ratio", r[0].pair == &en[1] && fabs(r[0].ratio - 2.0) < 1e-9);
	TEST_ASSERT_VAL("then f", r[1].pair == &en[2] && fabs(r[1].ratio - 0.2) < 1e-9);
	TEST_ASSERT_VAL("then k", !r[2].base && r[2].ratio == 30.0);
	TEST_ASSERT_VAL("then h", r[3].base == &eb[2]);
	free(r);

	/* wdiff:1,2: g 120-30, f 20-50. */
	TEST_ASSERT_VAL("wdiff rows", diff_rows(DIFF_WDIFF, false, eb, en, &r, &n) == TEST_OK);
	TEST_ASSERT_EQUAL("g's wdiff", r[0].wdiff, 90);
	TEST_ASSERT_EQUAL("f's wdiff", r[1].wdiff, -30);
	TEST_ASSERT_VAL("k, h", !r[2].base && !r[3].pair);
	free(r);

	TEST_ASSERT_VAL("-b rows", diff_rows(DIFF_DELTA_ABS, true, eb, en, &r, &n) == TEST_OK);
	TEST_ASSERT_EQUAL("-b: the pairs only", n, 2);
	TEST_ASSERT_VAL("f, g", r[0].base == &eb[0] && r[1].base == &eb[1]);
	free(r);
	return TEST_OK;
}

/* Two objects of one short name: their symbols of one name are one entry, as in the distro. */
static int test__diff_collapse(void)
{
	static struct dso prog_other = { .name = "/other/prog" };
	static struct symbol f_other = { .start = 0x50, .end = 0x60, .name = "f" };
	struct hist_entry e[4] = {
		entry(&prog_old, &f_old, 10), entry(&prog_old, &g_old, 5),
		entry(&prog_other, &f_other, 7), entry(&prog_old, NULL, 3),
	};
	struct hist_entry *v[] = { &e[0], &e[1], &e[2], &e[3] };
	struct sort_keys keys;
	size_t n;

	for (int i = 0; i < 4; i++)
		e[i].seq = (u64)i;
	e[3].addr = 0x1234;
	sort_keys__init(&keys);
	sort_keys__parse(&keys, "dso,sym");
	n = diff__collapse(v, 4, &keys);
	TEST_ASSERT_EQUAL("f, g and no symbol", n, 3);
	TEST_ASSERT_VAL("f's two entries in one", v[0]->sym && !strcmp(v[0]->sym->name, "f") &&
		v[0]->period == 17);
	TEST_ASSERT_VAL("the one whose symbol starts first stays", v[0] == &e[2]);
	TEST_ASSERT_VAL("then g", v[1] == &e[1] && v[1]->period == 5);
	TEST_ASSERT_VAL("no symbol last", v[2] == &e[3]);
	return TEST_OK;
}

static int test__diff(void)
{
	int err = test__diff_compute_opt();

	if (!err)
		err = test__diff_arithmetic();
	if (!err)
		err = test__diff_pairs();
	if (!err)
		err = test__diff_collapse();
	return err;
}

DEFINE_SUITE(diff, "perf diff: -c, delta/ratio/wdiff arithmetic, pairing by names, collapsing, the rows' order");
