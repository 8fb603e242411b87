/*
 * evlist__event2evsel(): the one way from a record to its evsel, for the
 * recorder and the reader alike.
 */
#include <string.h>
#include "tests.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"

/* A record of @type with @nr u64 words after its header. */
static union perf_event *rec(union perf_event *ev, u32 type, const u64 *words, int nr)
{
	ev->header.type = type;
	ev->header.misc = 0;
	ev->header.size = sizeof(ev->header) + nr * sizeof(u64);
	if (nr)
		memcpy((u64 *)ev + 1, words, nr * sizeof(u64));
	return ev;
}

static struct evlist *two_events(u64 sample_type, bool sample_id_all)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.sample_type = sample_type,
		.sample_id_all = sample_id_all,
	};
	struct evlist *evlist = evlist__new();

	for (int i = 0; evlist && i < 2; i++) {
		struct evsel *e = evsel__new(&attr);

		if (!e || evlist__id_add(evlist, e, 0, 0, 11 * (i + 1))) {
			evsel__delete(e);
			evlist__delete(evlist);
			return NULL;
		}
		evlist__add(evlist, e);
	}
	return evlist;
}

/* Whether, in two events of @sample_type, @ev is the first's; says @what when not. */
static int first_takes(u64 sample_type, bool sample_id_all, const union perf_event *ev,
		       const char *what)
{
	struct evlist *evlist = two_events(sample_type, sample_id_all);
	int ret = TEST_OK;

	TEST_ASSERT_VAL("evlist", evlist);
	if (evlist__event2evsel(evlist, ev) != evlist__first(evlist)) {
		fprintf(stderr, "%s\n", what);
		ret = TEST_FAIL;
	}
	evlist__delete(evlist);
	return ret;
}

static int test__event2evsel(void)
{
	union perf_event ev_buf, *buf = &ev_buf;
	struct evlist *evlist = two_events(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
					   PERF_SAMPLE_TID, true);
	struct evsel *first, *second;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("evlist", evlist);
	first = evlist__first(evlist);
	second = list_last_entry(&evlist->entries, struct evsel, node);
	/* IDENTIFIER: first word of a sample, last of a trailer. */
	if (evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE, (u64[]){ 22, 1, 2 }, 3)) != second ||
	    evlist__event2evsel(evlist, rec(buf, PERF_RECORD_COMM, (u64[]){ 0, 0, 22 }, 3)) != second ||
	    evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE, (u64[]){ 11, 1, 2 }, 3)) != first) {
		fprintf(stderr, "IDENTIFIER: the id names the event\n");
		goto out;
	}
	if (evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE, (u64[]){ 0, 1, 2 }, 3)) != first) {
		fprintf(stderr, "id 0 (synthesized) belongs to the first event\n");
		goto out;
	}
	if (evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE, (u64[]){ 33, 1, 2 }, 3)) ||
	    evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE, NULL, 0))) {
		fprintf(stderr, "an unknown id or a record too short names no event\n");
		goto out;
	}
	evlist__delete(evlist);

	/* ID without IDENTIFIER: after IP, TID, TIME in a sample; before CPU in a trailer. */
	evlist = two_events(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_ID | PERF_SAMPLE_CPU, true);
	TEST_ASSERT_VAL("evlist", evlist);
	second = list_last_entry(&evlist->entries, struct evsel, node);
	if (evlist__event2evsel(evlist, rec(buf, PERF_RECORD_SAMPLE,
					    (u64[]){ 1, 2, 3, 22, 0 }, 5)) != second ||
	    evlist__event2evsel(evlist, rec(buf, PERF_RECORD_EXIT,
					    (u64[]){ 0, 0, 0, 0, 22, 5 }, 6)) != second) {
		fprintf(stderr, "ID: read where the layout puts it\n");
		goto out;
	}

	/* Without sample_id_all other records carry no id: the first event's. */
	if (first_takes(PERF_SAMPLE_IDENTIFIER, false, rec(buf, PERF_RECORD_COMM, (u64[]){ 0, 22 }, 2),
			"no trailer: the first event"))
		goto out;
	/* No id at all: every record is the first event's. */
	if (first_takes(PERF_SAMPLE_IP, true, rec(buf, PERF_RECORD_SAMPLE, (u64[]){ 22 }, 1),
			"no id: the first event"))
		goto out;
	ret = TEST_OK;
out:
	evlist__delete(evlist);
	return ret;
}
DEFINE_SUITE(event2evsel, "A record's evsel: by its id where the layout puts it, id 0 and no id the first's");
