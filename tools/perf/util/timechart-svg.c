/*
 * perf timechart's picture: an SVG in the distro's kind of layout, a
 * legend, a row per CPU with what ran there, a row per task with its
 * running, waiting, sleeping and blocked spans, each with a <title> a
 * viewer shows on hover.  Ours also has a title line with the file's time
 * range, the spans where events were lost and a dump's trigger.  Each bar
 * carries its span in ns (data-start, data-end) for whoever reads the
 * file with a parser rather than with eyes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "timechart.h"
#include "flamegraph.h"

#define TITLE_Y		14
#define LEGEND_Y	22
#define ROWS_Y		50
#define CPU_ROW		60	/* a CPU's row, its bar 55 high */
#define TASK_ROW	30	/* a task's row, its bar 25 high */

/* What one picture is drawn over. */
struct tc_view {
	const struct timechart *tc;
	const struct timechart_opts *o;
	FILE *fp;
	u64 start, end;		/* the time shown */
	double scale;		/* px per ns */
	int cpu_y, task_y;	/* where the CPU rows and the task rows begin */
	int nr_rows;		/* tasks drawn */
	int height;
};

static double view__x(const struct tc_view *v, u64 t)
{
	return (double)(t - v->start) * v->scale;
}

/* @s cut to the time shown; false when none of it is. */
static bool view__clip(const struct tc_view *v, u64 *s, u64 *e)
{
	if (*e < v->start || *s > v->end)
		return false;
	if (*s < v->start)
		*s = v->start;
	if (*e > v->end)
		*e = v->end;
	return true;
}

/* "232.6 us" as the distro's titles say a span's length. */
static void tc__duration(char *buf, size_t len, u64 ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.1f s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
}

static const char * const state_class[] = {
	[TC_RUNNING] = "sample", [TC_WAITING] = "waiting", [TC_SLEEPING] = "process2",
	[TC_BLOCKED] = "blocked",
};

static const char * const state_word[] = {
	[TC_RUNNING] = "running", [TC_WAITING] = "waiting", [TC_SLEEPING] = "sleeping",
	[TC_BLOCKED] = "blocked",
};

static void svg__head(const struct tc_view *v)
{
	fprintf(v->fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg width=\"%d\" height=\"%d\" version=\"1.1\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n<defs>\n<style type=\"text/css\">\n"
		"<![CDATA[\n", v->o->width, v->height);
	fputs("rect.process { fill:rgb(235,235,235); fill-opacity:0.9; stroke-width:0.5; "
	      "stroke:rgb(0,0,0); }\n"
	      "rect.process2 { fill:rgb(180,180,180); fill-opacity:0.9; stroke-width:0; }\n"
	      "rect.sample { fill:rgb(0,0,255); fill-opacity:0.8; stroke-width:0; }\n"
	      "rect.waiting { fill:rgb(224,214,0); fill-opacity:0.8; stroke-width:0; }\n"
	      "rect.blocked { fill:rgb(255,0,0); fill-opacity:0.5; stroke-width:0; }\n"
	      "rect.cpu { fill:rgb(192,192,192); fill-opacity:0.2; stroke-width:0.5; "
	      "stroke:rgb(128,128,128); }\n"
	      "rect.c1 { fill:rgb(255,214,214); fill-opacity:0.5; stroke-width:0; }\n"
	      "rect.c3 { fill:rgb(255,130,130); fill-opacity:0.5; stroke-width:0; }\n"
	      "rect.lost { fill:rgb(96,96,96); fill-opacity:0.25; stroke-width:0; }\n"
	      "line.trigger { stroke:rgb(255,0,255); stroke-width:1.5; stroke-dasharray:4,2; }\n"
	      "text.trigger { fill:rgb(160,0,160); font-size:9pt; }\n"
	      "text.title { font-size:10pt; font-weight:bold; }\n"
	      "]]>\n</style>\n</defs>\n", v->fp);
}

/* "perf.data: 1234.567890 to 1236.567890 s (2.000000 s)", and what asked for a dump. */
static void svg__title(const struct tc_view *v)
{
	char req[256];

	fprintf(v->fp, "<text class=\"title\" x=\"5\" y=\"%d\">", TITLE_Y);
	html__text(v->fp, v->o->title);
	fprintf(v->fp, ": %llu.%06llu to %llu.%06llu s (%.6f s)",
		(unsigned long long)(v->start / 1000000000),
		(unsigned long long)(v->start % 1000000000 / 1000),
		(unsigned long long)(v->end / 1000000000),
		(unsigned long long)(v->end % 1000000000 / 1000), (v->end - v->start) / 1e9);
	if (v->tc->has_request) {
		fputs(", dumped on ", v->fp);
		html__text(v->fp, dump_request__format(&v->tc->request, req, sizeof(req)));
	}
	fputs("</text>\n", v->fp);
}

/* The distro's legend: the classes of the bars and what they mean. */
static void svg__legend(const struct tc_view *v)
{
	static const struct { int x; const char *cls, *text; } keys[] = {
		{ 0, "sample", "Running" }, { 100, "c1", "Idle" }, { 200, "c3", "Deeper Idle" },
		{ 350, "process2", "Sleeping" }, { 450, "waiting", "Waiting for cpu" },
		{ 600, "blocked", "Blocked on IO" }, { 750, "lost", "Events lost" },
	};

	fputs("<g class=\"legend\">\n", v->fp);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		fprintf(v->fp, "<rect x=\"%d\" width=\"12.5\" y=\"%d\" height=\"12.5\" "
			"class=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"10pt\">%s</text>\n",
			keys[i].x + 5, LEGEND_Y, keys[i].cls, keys[i].x + 22.5, LEGEND_Y + 11.0,
			keys[i].text);
	fputs("</g>\n", v->fp);
}

/*
 * Bars are drawn as they come, but spans that fall within a pixel of each
 * other and together are narrower than one are drawn as one bar, in the
 * colour of the state they spent most time in, its title saying how many
 * and how long in each state: a busy CPU switches thousands of times a
 * second, and a bar per switch would make a picture of megabytes that no
 * viewer shows better.
 */
struct tc_bar {
	const struct timechart_span *first;
	u64 start, end;		/* clipped, of all the spans */
	u64 ns[TC_GONE];	/* their time in each state, unclipped */
	u32 n;
	bool one_task, open;
};

static int bar__state(const struct tc_bar *b)
{
	int best = TC_RUNNING;

	for (int s = TC_RUNNING; s <= TC_BLOCKED; s++)
		if (b->ns[s] > b->ns[best])
			best = s;
	return best;
}

/* "N spans of 42 comm running 1.0 ms, waiting 2.0 us" */
static void bar__title(const struct tc_view *v, const struct tc_bar *b)
{
	const struct timechart_task *t = &v->tc->tasks[b->first->task];
	const char *sep = " ";
	char len[32];

	fputs("<title>", v->fp);
	if (b->n > 1)
		fprintf(v->fp, "%u spans of ", b->n);
	if (b->one_task) {
		fprintf(v->fp, "%d ", t->tid);
		html__text(v->fp, t->comm);
	} else {
		fputs("several tasks", v->fp);
	}
	for (int s = TC_RUNNING; s <= TC_BLOCKED; s++) {
		if (!b->ns[s] && (b->n > 1 || s != b->first->state))
			continue;
		tc__duration(len, sizeof(len), b->ns[s]);
		fprintf(v->fp, "%s%s %s", sep, state_word[s], len);
		sep = ", ";
	}
	fputs("</title>", v->fp);
}

static void bar__flush(const struct tc_view *v, struct tc_bar *b, int y, int h)
{
	int state = bar__state(b);

	if (!b->n)
		return;
	fputs("<g>", v->fp);
	bar__title(v, b);
	fprintf(v->fp, "<rect x=\"%.3f\" width=\"%.3f\" y=\"%d\" height=\"%d\" class=\"%s\" "
		"data-start=\"%llu\" data-end=\"%llu\" data-n=\"%u\"%s/></g>\n",
		view__x(v, b->start), view__x(v, b->end) - view__x(v, b->start), y, h,
		state_class[state], (unsigned long long)b->start, (unsigned long long)b->end, b->n,
		b->open ? " data-open=\"1\"" : "");
	b->n = 0;
}

/* @s added to the bar @b of a row at @y, @h high, the bar drawn when @s cannot join it. */
static void bar__add(const struct tc_view *v, struct tc_bar *b, const struct timechart_span *s,
		     int y, int h)
{
	u64 start = s->start, end = s->end;

	if (!view__clip(v, &start, &end))
		return;
	if (b->n && (view__x(v, start) - view__x(v, b->end) > 0.5 ||
		     view__x(v, end) - view__x(v, b->start) >= 1 ||
		     (b->n == 1 && view__x(v, b->end) - view__x(v, b->start) >= 0.5)))
		bar__flush(v, b, y, h);
	if (!b->n)
		*b = (struct tc_bar){ .first = s, .start = start, .one_task = true };
	b->end = end;
	b->ns[s->state] += s->end - s->start;
	b->one_task = b->one_task && s->task == b->first->task;
	b->open = b->open || s->open;
	b->n++;
}

/* A row per CPU, with the spans of the tasks that ran on it. */
static void svg__cpus(const struct tc_view *v)
{
	const struct timechart *tc = v->tc;
	struct tc_bar b = { .n = 0 };

	for (int c = 0; c < tc->nr_cpus; c++) {
		int y = v->cpu_y + c * CPU_ROW;

		fprintf(v->fp, "<g class=\"cpu\" data-cpu=\"%d\">\n<rect x=\"0\" width=\"%d\" "
			"y=\"%d\" height=\"55\" class=\"cpu\"/>\n<text x=\"10\" y=\"%d\">CPU %d"
			"</text>\n", c, v->o->width, y, y + 12, c);
		for (size_t i = 0; i < tc->nr_spans; i++) {
			if (tc->spans[i].state == TC_RUNNING && tc->spans[i].cpu == c)
				bar__add(v, &b, &tc->spans[i], y, 55);
		}
		bar__flush(v, &b, y, 55);
		fputs("</g>\n", v->fp);
	}
	if (v->o->power_only && !tc->nr_power)
		fprintf(v->fp, "<text x=\"10\" y=\"%d\">No power events (power:cpu_idle, "
			"power:cpu_frequency) in the file: the CPU rows show what ran.</text>\n",
			v->cpu_y + tc->nr_cpus * CPU_ROW + 12);
}

/* Whether -p names @t, by pid, tid or name. */
static bool tc__wanted(const struct timechart_opts *o, const struct timechart_task *t)
{
	if (!o->nr_procs)
		return true;
	for (size_t i = 0; i < o->nr_procs; i++) {
		char *end;
		long n = strtol(o->procs[i], &end, 10);

		if (*end ? !strcmp(o->procs[i], t->comm) : (n == t->pid || n == t->tid))
			return true;
	}
	return false;
}

/* Rows given to the tasks drawn (that have a span in view and -p wants), in order seen. */
static int view__rows(struct tc_view *v, struct timechart *tc)
{
	char *has = calloc(tc->nr_tasks ? tc->nr_tasks : 1, 1);

	if (!has)
		return -ENOMEM;
	for (size_t i = 0; i < tc->nr_spans; i++) {
		u64 s = tc->spans[i].start, e = tc->spans[i].end;

		if (view__clip(v, &s, &e))
			has[tc->spans[i].task] = 1;
	}
	v->nr_rows = 0;
	for (size_t i = 0; i < tc->nr_tasks; i++)
		tc->tasks[i].row = has[i] && tc__wanted(v->o, &tc->tasks[i]) ? v->nr_rows++ : -1;
	free(has);
	return 0;
}

/*
 * The rest of a task row's head: the time in each state, of the spans
 * that ended, in ns as attributes and in words as its title.
 */
static void svg__totals(const struct tc_view *v, const struct timechart_task *t)
{
	char len[32];

	for (int s = TC_RUNNING; s <= TC_BLOCKED; s++)
		fprintf(v->fp, "\" data-%s=\"%llu", state_word[s], (unsigned long long)t->total[s]);
	fprintf(v->fp, "\">\n<title>%d ", t->tid);
	html__text(v->fp, t->comm);
	for (int s = TC_RUNNING; s <= TC_BLOCKED; s++) {
		tc__duration(len, sizeof(len), t->total[s]);
		fprintf(v->fp, "%s %s %s", s == TC_RUNNING ? ":" : ",", state_word[s], len);
	}
	fputs("</title>\n", v->fp);
}

/* A row per task drawn: its name, then its spans in time order. */
static void svg__tasks(const struct tc_view *v)
{
	const struct timechart *tc = v->tc;
	struct tc_bar b = { .n = 0 };

	for (size_t i = 0; i < tc->nr_tasks; i++) {
		const struct timechart_task *t = &tc->tasks[i];
		int y = v->task_y + t->row * TASK_ROW;

		if (t->row < 0)
			continue;
		fprintf(v->fp, "<g class=\"task\" data-tid=\"%d\" data-pid=\"%d\" data-comm=\"",
			t->tid, t->pid);
		html__text(v->fp, t->comm);
		svg__totals(v, t);
		fprintf(v->fp, "<rect x=\"0\" width=\"%d\" y=\"%d\" height=\"25\" "
			"class=\"process\"/>\n", v->o->width, y);
		for (size_t k = 0; k < tc->nr_spans; k++) {
			if (tc->spans[k].task == i)
				bar__add(v, &b, &tc->spans[k], y, 25);
		}
		bar__flush(v, &b, y, 25);
		fprintf(v->fp, "<text x=\"5\" y=\"%d\" font-size=\"8pt\">", y + 16);
		html__text(v->fp, t->comm);
		fprintf(v->fp, " %d</text>\n</g>\n", t->tid);
	}
}

/* The spans where events were lost, over every row, their counts in the title. */
static void svg__lost(const struct tc_view *v)
{
	for (size_t i = 0; i < v->tc->nr_lost; i++) {
		const struct timechart_lost *l = &v->tc->lost[i];
		u64 s = l->start, e = l->end;
		double w;

		if (!view__clip(v, &s, &e))
			continue;
		w = view__x(v, e) - view__x(v, s);
		fprintf(v->fp, "<g class=\"lost\"><title>%llu events lost", (unsigned long long)l->nr);
		if (l->cpu >= 0)
			fprintf(v->fp, " on CPU %d", l->cpu);
		fprintf(v->fp, "</title><rect x=\"%.3f\" width=\"%.3f\" y=\"%d\" height=\"%d\" "
			"class=\"lost\" data-start=\"%llu\" data-end=\"%llu\" data-lost=\"%llu\"/>"
			"</g>\n", view__x(v, s), w < 1 ? 1 : w, ROWS_Y, v->height - ROWS_Y,
			(unsigned long long)l->start, (unsigned long long)l->end,
			(unsigned long long)l->nr);
	}
}

/* The sample that asked for the dump, a marked line with what it was. */
static void svg__trigger(const struct tc_view *v)
{
	const struct dump_request *r = &v->tc->request;
	char text[256];
	double x;

	if (!v->tc->has_request || r->kind != DUMP_REQUEST_TRIGGER || r->time < v->start ||
	    r->time > v->end)
		return;
	x = view__x(v, r->time);
	fprintf(v->fp, "<g class=\"trigger\" data-time=\"%llu\"><title>", (unsigned long long)r->time);
	html__text(v->fp, dump_request__format(r, text, sizeof(text)));
	fprintf(v->fp, "</title><line class=\"trigger\" x1=\"%.3f\" y1=\"%d\" x2=\"%.3f\" "
		"y2=\"%d\"/><text class=\"trigger\" x=\"%.3f\" y=\"%d\"%s>", x, ROWS_Y - 12, x,
		v->height, x + 3 < v->o->width - 300 ? x + 3 : x - 3, ROWS_Y - 3,
		x + 3 < v->o->width - 300 ? "" : " text-anchor=\"end\"");
	html__text(v->fp, text);
	fputs("</text></g>\n", v->fp);
}

int timechart__write_svg(struct timechart *tc, const struct timechart_opts *o, FILE *fp)
{
	struct tc_view v = { .tc = tc, .o = o, .fp = fp, .start = tc->first, .end = tc->last };
	bool cpus = !o->tasks_only;
	int err;

	if (o->start && o->start > v.start)
		v.start = o->start;
	if (o->end && o->end < v.end)
		v.end = o->end;
	if (v.end <= v.start)
		v.end = v.start + 1;
	v.scale = (double)o->width / (double)(v.end - v.start);
	err = o->power_only ? 0 : view__rows(&v, tc);
	if (err)
		return err;
	v.cpu_y = ROWS_Y;
	v.task_y = ROWS_Y + (cpus ? tc->nr_cpus * CPU_ROW + (o->power_only ? 20 : 0) : 0);
	v.height = v.task_y + v.nr_rows * TASK_ROW + 10;
	svg__head(&v);
	svg__title(&v);
	svg__legend(&v);
	if (cpus)
		svg__cpus(&v);
	if (!o->power_only)
		svg__tasks(&v);
	svg__lost(&v);
	svg__trigger(&v);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -EIO : 0;
}
