/*
 * parse_events(): one table of strings that must parse, with everything the
 * recorder relies on (type, config, exclude bits, precise_ip, terms in order,
 * name, groups), and one of strings that must fail at a given byte.
 */
#include <errno.h>
#include <fnmatch.h>
#include <string.h>
#include "tests.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/parse-events.h"
#include "util/event-symbols.h"
#include "util/tracepoint.h"

#define EU 1	/* exclude_user */
#define EK 2	/* exclude_kernel */
#define EH 4	/* exclude_hv */

#define T_PERIOD	EVSEL__CONFIG_TERM_PERIOD
#define T_FREQ		EVSEL__CONFIG_TERM_FREQ
#define T_CG		EVSEL__CONFIG_TERM_CALLGRAPH
#define T_STACK		EVSEL__CONFIG_TERM_STACK_USER
#define T_MAXSTACK	EVSEL__CONFIG_TERM_MAX_STACK
#define T_NAME		EVSEL__CONFIG_TERM_NAME
#define T_INHERIT	EVSEL__CONFIG_TERM_INHERIT
#define T_OVERWRITE	EVSEL__CONFIG_TERM_OVERWRITE
#define T_CONFIG	EVSEL__CONFIG_TERM_CONFIG
#define T_CONFIG1	EVSEL__CONFIG_TERM_CONFIG1
#define T_CONFIG2	EVSEL__CONFIG_TERM_CONFIG2

struct exp_term {
	int type;
	u64 val;
	const char *str;
};

/* What every evsel of a positive case (or of one of its events) must look like. */
struct exp_evsel {
	u32 type;
	u64 config;		/* ignored for tracepoints: checked against tracefs */
	const char *name;	/* for tracepoint globs: an fnmatch pattern of the name */
	int excl;
	int precise;
	u64 period;
	int nr_terms;
	struct exp_term terms[4];
};

struct pos_case {
	const char *str;
	int nr;			/* evsels; 0 = at least one (a tracepoint glob) */
	int group;		/* nr_members of the first evsel */
	int nr_exp;		/* how many entries of exp; the last one repeats */
	struct exp_evsel exp[3];
};

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define TP PERF_TYPE_TRACEPOINT
#define RAW PERF_TYPE_RAW

#define ONE(s, ...) { s, 1, 0, 1, { __VA_ARGS__ } }

static const struct pos_case pos_cases[] = {
	ONE("cycles", { HW, PERF_COUNT_HW_CPU_CYCLES, "cycles" }),
	ONE("cpu-cycles", { HW, PERF_COUNT_HW_CPU_CYCLES, "cpu-cycles" }),
	ONE("instructions", { HW, PERF_COUNT_HW_INSTRUCTIONS, "instructions" }),
	ONE("cache-references", { HW, PERF_COUNT_HW_CACHE_REFERENCES, "cache-references" }),
	ONE("cache-misses", { HW, PERF_COUNT_HW_CACHE_MISSES, "cache-misses" }),
	ONE("branches", { HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches" }),
	ONE("branch-instructions", { HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branch-instructions" }),
	ONE("branch-misses", { HW, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses" }),
	ONE("bus-cycles", { HW, PERF_COUNT_HW_BUS_CYCLES, "bus-cycles" }),
	ONE("stalled-cycles-frontend",
	    { HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend" }),
	ONE("stalled-cycles-backend",
	    { HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "stalled-cycles-backend" }),
	ONE("ref-cycles", { HW, PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles" }),
	ONE("cpu-clock", { SW, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" }),
	ONE("task-clock", { SW, PERF_COUNT_SW_TASK_CLOCK, "task-clock" }),
	ONE("page-faults", { SW, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" }),
	ONE("faults", { SW, PERF_COUNT_SW_PAGE_FAULTS, "faults" }),
	ONE("minor-faults", { SW, PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults" }),
	ONE("major-faults", { SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults" }),
	ONE("context-switches", { SW, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" }),
	ONE("cs", { SW, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs" }),
	ONE("cpu-migrations", { SW, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" }),
	ONE("migrations", { SW, PERF_COUNT_SW_CPU_MIGRATIONS, "migrations" }),
	ONE("alignment-faults", { SW, PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults" }),
	ONE("emulation-faults", { SW, PERF_COUNT_SW_EMULATION_FAULTS, "emulation-faults" }),
	ONE("dummy", { SW, PERF_COUNT_SW_DUMMY, "dummy" }),
	ONE("bpf-output", { SW, PERF_COUNT_SW_BPF_OUTPUT, "bpf-output" }),
	ONE("r1a", { RAW, 0x1a, "r1a" }),
	ONE("rABCD", { RAW, 0xabcd, "rABCD" }),
	ONE("r1a:u", { RAW, 0x1a, "r1a:u", EK | EH }),
	ONE("cycles:u", { HW, 0, "cycles:u", EK | EH }),
	ONE("cycles:k", { HW, 0, "cycles:k", EU | EH }),
	ONE("cycles:h", { HW, 0, "cycles:h", EU | EK }),
	ONE("cycles:uk", { HW, 0, "cycles:uk", EH }),
	ONE("cycles:ku", { HW, 0, "cycles:ku", EH }),
	ONE("cycles:p", { HW, 0, "cycles:p", 0, 1 }),
	ONE("cycles:pp", { HW, 0, "cycles:pp", 0, 2 }),
	ONE("cycles:ppp", { HW, 0, "cycles:ppp", 0, 3 }),
	ONE("cycles:upp", { HW, 0, "cycles:upp", EK | EH, 2 }),
	ONE("cpu-clock:kp", { SW, 0, "cpu-clock:kp", EU | EH, 1 }),
	ONE("cpu-clock/period=1000,name=tick/",
	    { SW, 0, "tick", 0, 0, 1000, 2, { { T_PERIOD, 1000 }, { T_NAME, 0, "tick" } } }),
	ONE("cpu-clock/period=0x10/",
	    { SW, 0, "cpu-clock/period=0x10/", 0, 0, 16, 1, { { T_PERIOD, 16 } } }),
	ONE("cpu-clock/period=1000/u",
	    { SW, 0, "cpu-clock/period=1000/u", EK | EH, 0, 1000, 1, { { T_PERIOD, 1000 } } }),
	ONE("cpu-clock/period=1000/:u",
	    { SW, 0, "cpu-clock/period=1000/u", EK | EH, 0, 1000, 1, { { T_PERIOD, 1000 } } }),
	ONE("cpu-clock//", { SW, 0, "cpu-clock//" }),
	ONE("task-clock/freq=99/", { SW, 1, "task-clock/freq=99/", 0, 0, 99, 1, { { T_FREQ, 99 } } }),
	ONE("instructions/no-overwrite/",
	    { HW, 1, "instructions/no-overwrite/", 0, 0, 0, 1, { { T_OVERWRITE, 0 } } }),
	ONE("cycles/overwrite,no-inherit,inherit/",
	    { HW, 0, "cycles/overwrite,no-inherit,inherit/", 0, 0, 0, 3,
	      { { T_OVERWRITE, 1 }, { T_INHERIT, 0 }, { T_INHERIT, 1 } } }),
	ONE("cycles/call-graph=dwarf,4096,stack-size=8192,max-stack=32/",
	    { HW, 0, NULL, 0, 0, 0, 3,
	      { { T_CG, 0, "dwarf,4096" }, { T_STACK, 8192 }, { T_MAXSTACK, 32 } } }),
	ONE("cycles/call-graph=fp/", { HW, 0, NULL, 0, 0, 0, 1, { { T_CG, 0, "fp" } } }),
	ONE("cycles/name=\"my cycles\"/k",
	    { HW, 0, "my cycles", EU | EH, 0, 0, 1, { { T_NAME, 0, "my cycles" } } }),
	ONE("r1a/config=0x2b,config1=7,config2=8/",
	    { RAW, 0x2b, NULL, 0, 0, 0, 3, { { T_CONFIG, 0x2b }, { T_CONFIG1, 7 }, { T_CONFIG2, 8 } } }),
	{ "cycles,instructions", 2, 0, 2, {
		{ HW, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
		{ HW, PERF_COUNT_HW_INSTRUCTIONS, "instructions" } } },
	{ "{cycles,instructions}:u", 2, 2, 2, {
		{ HW, PERF_COUNT_HW_CPU_CYCLES, "cycles", EK | EH },
		{ HW, PERF_COUNT_HW_INSTRUCTIONS, "instructions", EK | EH } } },
	{ "{cpu-clock:k,task-clock}:u", 2, 2, 2, {
		{ SW, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock:k", EH },
		{ SW, PERF_COUNT_SW_TASK_CLOCK, "task-clock", EK | EH } } },
	{ "{cpu-clock,faults},cs", 3, 2, 3, {
		{ SW, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
		{ SW, PERF_COUNT_SW_PAGE_FAULTS, "faults" },
		{ SW, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs" } } },
	{ "sched:sched_switch", 1, 0, 1, { { TP, 0, "sched:sched_switch", 0, 0, 1 } } },
	{ "sched:sched_switch/call-graph=no/", 1, 0, 1,
	  { { TP, 0, "sched:sched_switch", 0, 0, 1, 1, { { T_CG, 0, "no" } } } } },
	{ "sched:sched_switch:u", 1, 0, 1, { { TP, 0, "sched:sched_switch", EK | EH, 0, 1 } } },
	{ "syscalls:sys_enter_prctl/overwrite/", 1, 0, 1,
	  { { TP, 0, "syscalls:sys_enter_prctl", 0, 0, 1, 1, { { T_OVERWRITE, 1 } } } } },
	{ "raw_syscalls:*/call-graph=no/", 2, 0, 1,
	  { { TP, 0, "raw_syscalls:sys_e*", 0, 0, 1, 1, { { T_CG, 0, "no" } } } } },
	{ "syscalls:*enter_nanosleep*", 0, 0, 1,
	  { { TP, 0, "syscalls:*enter_nanosleep*", 0, 0, 1 } } },
	{ "sched:sched_switch/period=5,name=sw/", 1, 0, 1,
	  { { TP, 0, "sw", 0, 0, 5, 2, { { T_PERIOD, 5 }, { T_NAME, 0, "sw" } } } } },
	{ "{sched:sched_switch,cycles}:k", 2, 2, 2, {
		{ TP, 0, "sched:sched_switch", EU | EH, 0, 1 },
		{ HW, PERF_COUNT_HW_CPU_CYCLES, "cycles", EU | EH } } },
};

struct neg_case {
	const char *str;
	int idx;
	const char *msg;
	const char *help;	/* substring of err.help, or NULL */
};

static const struct neg_case neg_cases[] = {
	{ "cpu-clock/bogus/", 10, "unknown term 'bogus'", "valid terms: period,freq," },
	{ "nosuch:event", 0, "unknown tracepoint 'nosuch:event' (searched ", "perf list" },
	{ "sched:nosuch*", 0, "unknown tracepoint", NULL },
	{ "cycles,nosuch:event", 7, "unknown tracepoint", NULL },
	{ "nosuch", 0, "unknown event 'nosuch'", NULL },
	{ "cycles,bogus", 7, "unknown event 'bogus'", NULL },
	{ "cycles:x", 7, "unknown modifier 'x'", "valid modifiers" },
	{ "cycles:uz", 8, "unknown modifier 'z'", NULL },
	{ "cycles:pppp", 10, "at most 3", NULL },
	{ "cycles:", 6, "missing modifier", NULL },
	{ "cycles,", 7, "unexpected end of input", NULL },
	{ "", 0, "unexpected end of input", NULL },
	{ ",cycles", 0, "unexpected ','", NULL },
	{ "cycles instructions", 6, "unexpected character ' '", NULL },
	{ "{cycles,instructions", 20, "unexpected end of input", "'}'" },
	{ "{}", 1, "unexpected '}'", NULL },
	{ "cycles}", 6, "unexpected '}'", NULL },
	{ "{cycles,{instructions}}", 8, "unexpected '{'", NULL },
	{ "cpu-clock/period=1000", 21, "unexpected end of input", NULL },
	{ "cpu-clock/period=abc/", 17, "expected a number for 'period'", "0x hex" },
	{ "cpu-clock/period=/", 17, "unexpected '/'", NULL },
	{ "cpu-clock/period/", 10, "needs a value", NULL },
	{ "cpu-clock/freq=-1/", 15, "expected a number", NULL },
	{ "cpu-clock/period=99999999999999999999999/", 17, "expected a number", NULL },
	{ "cpu-clock/inherit=1/", 18, "takes no value", NULL },
	{ "cpu-clock/name=/", 15, "unexpected '/'", NULL },
	{ "cpu-clock/call-graph=lbrx/", 21, "unknown call-graph mode 'lbrx'", "dwarf" },
	{ "cpu-clock/call-graph=dwarf,x/", 27, "unknown term 'x'", NULL },
	{ "cycles/config=1/", 7, "unknown term 'config'", NULL },
	{ "sched:sched_switch/config=1/", 19, "unknown term 'config'", NULL },
	{ "cpu-clock/period=1,,/", 19, "unexpected ','", NULL },
	{ "cpu-clock/period=1/x", 19, "unknown modifier 'x'", NULL },
	{ "cycles:u:k", 9, "unexpected modifier", NULL },
};

static int count(struct evlist *evlist)
{
	struct evsel *evsel;
	int n = 0;

	evlist__for_each_entry(evlist, evsel)
		n++;
	return n;
}

static int check_evsel(const struct pos_case *c, struct evsel *evsel, const struct exp_evsel *e,
		       struct evsel *prev)
{
	struct perf_event_attr *attr = &evsel->attr;
	struct evsel_config_term *t;
	int i = 0;

	fprintf(stderr, "  %s -> %s\n", c->str, evsel__name(evsel));
	TEST_ASSERT_EQUAL("type", attr->type, e->type);
	TEST_ASSERT_EQUAL("attr.size", attr->size, sizeof(*attr));
	if (e->type == PERF_TYPE_TRACEPOINT) {
		TEST_ASSERT_VAL("tp_sys/tp_name", evsel->tp_sys && evsel->tp_name);
		TEST_ASSERT_EQUAL("tracepoint id", attr->config,
				  tracepoint__id(evsel->tp_sys, evsel->tp_name));
		TEST_ASSERT_VAL("format loaded", evsel->tp_format);
		if (prev) {
			char a[512], b[512];

			snprintf(a, sizeof(a), "%s:%s", prev->tp_sys, prev->tp_name);
			snprintf(b, sizeof(b), "%s:%s", evsel->tp_sys, evsel->tp_name);
			TEST_ASSERT_VAL("tracepoints sorted", strcmp(a, b) < 0);
		}
		if (e->name)
			TEST_ASSERT_VAL("name matches", !fnmatch(e->name, evsel__name(evsel), 0));
	} else {
		TEST_ASSERT_EQUAL("config", attr->config, e->config);
		TEST_ASSERT_VAL("no tp_sys", !evsel->tp_sys);
		if (e->name)
			TEST_ASSERT_VAL("name", !strcmp(evsel__name(evsel), e->name));
	}
	TEST_ASSERT_EQUAL("exclude_user", attr->exclude_user, !!(e->excl & EU));
	TEST_ASSERT_EQUAL("exclude_kernel", attr->exclude_kernel, !!(e->excl & EK));
	TEST_ASSERT_EQUAL("exclude_hv", attr->exclude_hv, !!(e->excl & EH));
	TEST_ASSERT_EQUAL("precise_ip", attr->precise_ip, e->precise);
	TEST_ASSERT_EQUAL("sample_period", attr->sample_period, e->period);

	list_for_each_entry(t, &evsel->config_terms, list) {
		TEST_ASSERT_VAL("more terms than expected", i < e->nr_terms);
		TEST_ASSERT_EQUAL("term type", t->type, e->terms[i].type);
		if (e->terms[i].str)
			TEST_ASSERT_VAL("term string", !strcmp(t->val.str, e->terms[i].str));
		else
			TEST_ASSERT_EQUAL("term value", t->val.val, e->terms[i].val);
		i++;
	}
	TEST_ASSERT_EQUAL("number of terms", i, e->nr_terms);
	if (evsel__get_config_term(evsel, EVSEL__CONFIG_TERM_FREQ))
		TEST_ASSERT_VAL("freq term sets attr.freq", attr->freq == 1);
	t = evsel__get_config_term(evsel, EVSEL__CONFIG_TERM_OVERWRITE);
	TEST_ASSERT_EQUAL("evsel->overwrite follows the term", evsel->overwrite, t && t->val.val);
	return TEST_OK;
}

static int check_pos(const struct pos_case *c)
{
	struct parse_events_error err = { 0 };
	struct evlist *evlist = evlist__new();
	struct evsel *evsel, *prev = NULL, *first;
	int ret = TEST_FAIL, i = 0, n;

	if (!evlist)
		return TEST_FAIL;
	if (parse_events(evlist, c->str, &err)) {
		fprintf(stderr, "FAILED to parse '%s'\n", c->str);
		parse_events_error__print(&err, c->str);
		goto out;
	}
	n = count(evlist);
	if (c->nr ? n != c->nr : n < 1) {
		fprintf(stderr, "FAILED '%s': %d evsels\n", c->str, n);
		goto out;
	}
	TEST_ASSERT_EQUAL("nr_entries", evlist->nr_entries, n);
	first = evlist__first(evlist);
	evlist__for_each_entry(evlist, evsel) {
		const struct exp_evsel *e = &c->exp[i < c->nr_exp ? i : c->nr_exp - 1];

		if (check_evsel(c, evsel, e, e->type == PERF_TYPE_TRACEPOINT &&
				prev && prev->tp_sys ? prev : NULL))
			goto out_fail;
		if (c->group && i < c->group) {
			if (evsel->leader != first)
				goto out_fail;
		} else if (evsel->leader != evsel || evsel->nr_members) {
			goto out_fail;
		}
		TEST_ASSERT_EQUAL("idx", evsel->idx, i);
		prev = evsel;
		i++;
	}
	if (c->group && first->nr_members != c->group)
		goto out_fail;
	ret = TEST_OK;
	goto out;
out_fail:
	fprintf(stderr, "FAILED '%s' at evsel %d\n", c->str, i);
out:
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return ret;
}

static int check_neg(const struct neg_case *c)
{
	struct parse_events_error err = { 0 };
	struct evlist *evlist = evlist__new();
	int ret = TEST_FAIL, r;

	if (!evlist)
		return TEST_FAIL;
	r = parse_events(evlist, c->str, &err);
	parse_events_error__print(&err, c->str);
	if (r >= 0 || !err.str) {
		fprintf(stderr, "FAILED '%s' parsed but must not\n", c->str);
		goto out;
	}
	if (err.idx != c->idx || !strstr(err.str, c->msg) ||
	    (c->help && (!err.help || !strstr(err.help, c->help)))) {
		fprintf(stderr, "FAILED '%s': got idx %d '%s' help '%s', want idx %d '%s' help '%s'\n",
			c->str, err.idx, err.str, err.help ?: "", c->idx, c->msg, c->help ?: "");
		goto out;
	}
	if (evlist->nr_entries || !list_empty(&evlist->entries)) {
		fprintf(stderr, "FAILED '%s': evsels left on the evlist after an error\n", c->str);
		goto out;
	}
	ret = TEST_OK;
out:
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return ret;
}

static int test__parse_events(void)
{
	bool have_tracefs = tracepoint__tracefs_dir() != NULL;
	int failed = 0, skipped = 0;

	for (size_t i = 0; i < ARRAY_SIZE(pos_cases); i++) {
		const struct pos_case *c = &pos_cases[i];

		if (strchr(c->str, ':') && c->exp[0].type == PERF_TYPE_TRACEPOINT && !have_tracefs) {
			skipped++;
			continue;
		}
		if (check_pos(c))
			failed++;
	}
	for (size_t i = 0; i < ARRAY_SIZE(neg_cases); i++) {
		if (!have_tracefs && strstr(neg_cases[i].msg, "tracepoint")) {
			skipped++;
			continue;
		}
		if (check_neg(&neg_cases[i]))
			failed++;
	}
	fprintf(stderr, "%zu positive, %zu negative cases, %d failed, %d skipped\n",
		ARRAY_SIZE(pos_cases), ARRAY_SIZE(neg_cases), failed, skipped);
	if (failed)
		return TEST_FAIL;
	if (skipped)
		return test__skip("tracefs unavailable (%s): %d tracepoint cases not run",
				  tracepoint__error(), skipped);
	return TEST_OK;
}
DEFINE_SUITE(parse_events, "Parse event definitions");

/* Appending to a non-empty evlist keeps what is there and numbers on from it. */
static int test__parse_events_append(void)
{
	struct parse_events_error err = { 0 };
	struct evlist *evlist = evlist__new();
	struct evsel *last;
	int ret = TEST_FAIL;

	if (!evlist)
		return TEST_FAIL;
	if (parse_events(evlist, "cycles", &err) || parse_events(evlist, "{cs,faults}:k", &err))
		goto out;
	if (!parse_events(evlist, "cpu-clock,bogus", &err) || err.idx != 10)
		goto out;
	parse_events_error__exit(&err);
	TEST_ASSERT_EQUAL("entries kept after a failed parse", evlist->nr_entries, 3);
	last = list_last_entry(&evlist->entries, struct evsel, node);
	TEST_ASSERT_EQUAL("idx continues", last->idx, 2);
	TEST_ASSERT_VAL("leader", last->leader->idx == 1);
	TEST_ASSERT_EQUAL("a NULL err is allowed", parse_events(evlist, "nosuch", NULL), -EINVAL);
	ret = TEST_OK;
out:
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return ret;
}
DEFINE_SUITE(parse_events_append, "Parse events onto a non-empty evlist");

/*
 * A file's event with no name of its own (no EVENT_DESC) takes the one -e
 * parses: every symbol's type/config gives back its name, and an event
 * that has none here gives NULL.
 */
static int test__event_symbol_names(void)
{
	for (size_t i = 0; i < event_symbols__nr; i++) {
		const struct event_symbol *sym = &event_symbols[i];

		TEST_ASSERT_VAL(sym->name, !strcmp(event_symbol__name(sym->type, sym->config),
						    sym->name));
		TEST_ASSERT_VAL(sym->name, event_symbol__find(sym->name, strlen(sym->name)) == sym);
	}
	TEST_ASSERT_VAL("cycles", !strcmp(event_symbol__name(PERF_TYPE_HARDWARE, 0), "cycles"));
	TEST_ASSERT_VAL("dummy", !strcmp(event_symbol__name(PERF_TYPE_SOFTWARE, 9), "dummy"));
	TEST_ASSERT_VAL("no hw 99", !event_symbol__name(PERF_TYPE_HARDWARE, 99));
	TEST_ASSERT_VAL("no tracepoint", !event_symbol__name(PERF_TYPE_TRACEPOINT, 0));
	return TEST_OK;
}
DEFINE_SUITE(event_symbol_names, "Event names by type and config, for files that give none");
