/*
 * perf record's events (util/record-events): which buffer each event
 * gets, which event tracks the tasks, and where --switch-events puts the
 * context switches.  Nothing is opened: only the attributes are checked.
 */
#include <string.h>
#include "tests.h"
#include "perf.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/parse-events.h"
#include "util/record-events.h"

/* @events set up under @opts: the tracking event, or NULL on failure. */
static struct evsel *setup(struct evlist *evlist, struct record_opts *opts, const char *events)
{
	struct evsel *evsel;

	opts->freq = 4000;
	if (events && parse_events(evlist, events, NULL))
		return NULL;
	if (record_events__setup(evlist, opts))
		return NULL;
	evlist__for_each_entry(evlist, evsel)
		if (evsel->tracking)
			return evsel;
	return NULL;
}

static int test__record_events(void)
{
	struct record_opts opts = { 0 };
	struct evlist *evlist = evlist__new();
	struct evsel *tracking;

	TEST_ASSERT_VAL("evlist", evlist);
	tracking = setup(evlist, &opts, NULL);
	TEST_ASSERT_VAL("no event given: cycles, tracking itself",
			tracking && evlist->nr_entries == 1 && !strcmp(evsel__name(tracking), "cycles"));
	TEST_ASSERT_VAL("it tracks tasks", tracking->attr.comm && tracking->attr.mmap);
	TEST_ASSERT_VAL("forward", !tracking->overwrite);
	evlist__delete(evlist);

	/* --overwrite: a dummy in the forward stream tracks, user space only. */
	memset(&opts, 0, sizeof(opts));
	opts.overwrite = true;
	opts.switch_events = true;
	evlist = evlist__new();
	tracking = setup(evlist, &opts, "cpu-clock");
	TEST_ASSERT_VAL("a tracking dummy", tracking && evlist->nr_entries == 2 &&
			!strcmp(evsel__name(tracking), "dummy:u") && tracking->attr.exclude_kernel);
	TEST_ASSERT_VAL("the event overwrites", evlist__first(evlist)->overwrite);
	TEST_ASSERT_VAL("the tracking dummy does not", !tracking->overwrite);
	TEST_ASSERT_VAL("switches on the overwrite event",
			evlist__first(evlist)->attr.context_switch && !tracking->attr.context_switch);
	evlist__delete(evlist);

	/* System-wide: a dummy:HG tracks from the start, and takes the switches. */
	memset(&opts, 0, sizeof(opts));
	opts.system_wide = true;
	opts.switch_events = true;
	evlist = evlist__new();
	tracking = setup(evlist, &opts, "cpu-clock");
	TEST_ASSERT_VAL("dummy:HG", tracking && !strcmp(evsel__name(tracking), "dummy:HG"));
	TEST_ASSERT_VAL("switches on the tracking event", tracking->attr.context_switch &&
			!evlist__first(evlist)->attr.context_switch);
	evlist__delete(evlist);
	return TEST_OK;
}
DEFINE_SUITE(record_events, "perf record's events: buffers, the tracking event, --switch-events");
