/*
 * The flame graph's tree (util/flamegraph.c): stacks folded by name in the
 * order first seen, written in the distro's JSON layout, and a page that
 * holds everything it needs.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/debug.h"
#include "util/flamegraph.h"

#define F(n) { .name = (n) }
#define K(n) { .name = (n), .kernel = true }

/* Three samples through main -> f, one of them on into the kernel, one in g; an idle one. */
static int fold(struct flamegraph *fg)
{
	const struct flamegraph_frame s1[] = { F("w (7)"), F("main"), F("f") };
	const struct flamegraph_frame s2[] = { F("w (7)"), F("main"), F("f"), K("irq") };
	const struct flamegraph_frame s3[] = { F("w (7)"), F("main"), F("g\"<q>") };
	const struct flamegraph_frame s4[] = { K("swapper"), K("cpu_idle") };

	flamegraph__init(fg);
	if (flamegraph__add(fg, s1, 3) || flamegraph__add(fg, s2, 4) ||
	    flamegraph__add(fg, s1, 3) || flamegraph__add(fg, s3, 3) ||
	    flamegraph__add(fg, s4, 2))
		return -1;
	return 0;
}

static int write_json(FILE *fp, void *fg)
{
	return flamegraph__write_json(fg, fp);
}

static int write_html(FILE *fp, void *fg)
{
	const struct flamegraph_page page = {
		.title = "Flame graph of a<b>.data", .colorscheme = "orange",
	};

	return flamegraph__write_html(fg, &page, fp);
}

static char *to_text(const struct flamegraph *fg, bool html)
{
	return test__written(html ? write_html : write_json, (void *)fg);
}

static int test__flamegraph_fold(void)
{
	struct flamegraph fg;
	struct flamegraph_node *w, *main_, *f;

	TEST_ASSERT_VAL("fold", !fold(&fg));
	TEST_ASSERT_EQUAL("samples", fg.nr_samples, 5);
	w = fg.root.child;
	TEST_ASSERT_VAL("process first", w && !strcmp(w->name, "w (7)") && w->type == FG_USER);
	TEST_ASSERT_VAL("idle second", w->next && !strcmp(w->next->name, "swapper") &&
			w->next->type == FG_KERNEL && !w->next->next);
	main_ = w->child;
	TEST_ASSERT_VAL("one main", main_ && !main_->next && !strcmp(main_->name, "main"));
	f = main_->child;
	TEST_ASSERT_VAL("f, then g", f && !strcmp(f->name, "f") && f->next &&
			!strcmp(f->next->name, "g\"<q>"));
	TEST_ASSERT_EQUAL("f's own samples", f->value, 2);
	TEST_ASSERT_EQUAL("none end in main", main_->value, 0);
	TEST_ASSERT_VAL("irq under f", f->child && f->child->type == FG_KERNEL &&
			f->child->value == 1);
	flamegraph__exit(&fg);
	TEST_ASSERT_VAL("emptied", !fg.root.child && !fg.nr_samples);
	return TEST_OK;
}

/* The bytes json.dumps() makes of the same tree, as the distro's script writes it. */
static const char expected_json[] =
	"{\"n\": \"all\", \"l\": \"root\", \"v\": 0, \"c\": ["
	"{\"n\": \"w (7)\", \"l\": \"\", \"v\": 0, \"c\": ["
	"{\"n\": \"main\", \"l\": \"\", \"v\": 0, \"c\": ["
	"{\"n\": \"f\", \"l\": \"\", \"v\": 2, \"c\": ["
	"{\"n\": \"irq\", \"l\": \"kernel\", \"v\": 1, \"c\": []}]}, "
	"{\"n\": \"g\\\"<q>\", \"l\": \"\", \"v\": 1, \"c\": []}]}]}, "
	"{\"n\": \"swapper\", \"l\": \"kernel\", \"v\": 0, \"c\": ["
	"{\"n\": \"cpu_idle\", \"l\": \"kernel\", \"v\": 1, \"c\": []}]}]}";

static int test__flamegraph_json(void)
{
	struct flamegraph fg;
	char *json;

	TEST_ASSERT_VAL("fold", !fold(&fg));
	json = to_text(&fg, false);
	flamegraph__exit(&fg);
	TEST_ASSERT_VAL("written", json);
	if (strcmp(json, expected_json)) {
		pr_debug("got %s\n", json);
		free(json);
		return TEST_FAIL;
	}
	free(json);
	return TEST_OK;
}

static int test__flamegraph_html(void)
{
	struct flamegraph fg;
	char *html, *data, *end;
	bool ok;

	TEST_ASSERT_VAL("fold", !fold(&fg));
	html = to_text(&fg, true);
	flamegraph__exit(&fg);
	TEST_ASSERT_VAL("written", html);
	data = strstr(html, "<script type=\"application/json\" id=\"stacks\">");
	end = data ? strstr(data, "</script>") : NULL;
	/* A name's '<' is escaped in the data, so no name can end its element early. */
	ok = data && end && memmem(data, end - data, "g\\\"\\u003cq>", 11) &&
	     /* The title, as text, in both places. */
	     strstr(html, "<title>Flame graph of a&lt;b&gt;.data</title>") &&
	     strstr(html, "<h1 id=\"title\">Flame graph of a&lt;b&gt;.data</h1>") &&
	     strstr(html, "data-colorscheme=\"orange\"") &&
	     /* Everything inline: it asks for nothing, and forbids itself to. */
	     strstr(html, "default-src 'none'") && !strstr(html, "://") &&
	     !strstr(html, " src=") && !strstr(html, " href=") &&
	     /* The script and style were built in. */
	     strstr(html, "function draw()") && strstr(html, ".frame {");
	free(html);
	TEST_ASSERT_VAL("a self-contained page", ok);
	return TEST_OK;
}

/*
 * A baseline of another run (pid 9 for 7): main -> f twice and main -> h;
 * the new tree's frames keep their samples and get the baseline's.
 */
static int test__flamegraph_diff(void)
{
	const struct flamegraph_frame b1[] = { F("w (9)"), F("main"), F("f") };
	const struct flamegraph_frame b2[] = { F("w (9)"), F("main"), F("h") };
	const struct flamegraph_frame b3[] = { F("w (70)"), F("main") };
	struct flamegraph fg, base;
	struct flamegraph_node *main_, *f, *g;
	const char *head = "{\"n\": \"all\", \"l\": \"root\", \"v\": 0, \"b\": 4, \"c\": ["
			   "{\"n\": \"w (7)\", \"l\": \"\", \"v\": 0, \"b\": 3, \"c\": [";
	char *json;
	bool ok;

	TEST_ASSERT_VAL("fold", !fold(&fg));
	flamegraph__init(&base);
	TEST_ASSERT_VAL("fold the baseline", !flamegraph__add(&base, b1, 3) &&
			!flamegraph__add(&base, b1, 3) && !flamegraph__add(&base, b2, 3) &&
			!flamegraph__add(&base, b3, 2));
	flamegraph__set_baseline(&fg, &base);
	flamegraph__exit(&base);
	TEST_ASSERT_EQUAL("the root: all the baseline's", fg.root.base, 4);
	TEST_ASSERT_EQUAL("w (7) is w (9), the first of its comm", fg.root.child->base, 3);
	TEST_ASSERT_EQUAL("swapper is not there", fg.root.child->next->base, 0);
	main_ = fg.root.child->child;
	f = main_->child;
	g = f->next;
	TEST_ASSERT_VAL("counts as they were", f->value == 2 && main_->base == 3);
	TEST_ASSERT_VAL("f's two, g's none", f->base == 2 && g->base == 0 && f->child->base == 0);
	json = to_text(&fg, false);
	flamegraph__exit(&fg);
	TEST_ASSERT_VAL("written", json);
	ok = !strncmp(json, head, strlen(head));
	free(json);
	TEST_ASSERT_VAL("\"b\" after \"v\"", ok);
	return TEST_OK;
}

static int test__flamegraph(void)
{
	int err = test__flamegraph_fold();

	if (err == TEST_OK)
		err = test__flamegraph_json();
	if (err == TEST_OK)
		err = test__flamegraph_html();
	if (err == TEST_OK)
		err = test__flamegraph_diff();
	return err;
}

DEFINE_SUITE(flamegraph, "flame graph tree: folding, the distro's JSON, a self-contained page, a diff");
