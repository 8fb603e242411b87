/* The aux evlist rules: parentage, shared maps and hash, refusal, deletion order. */
#include <stdlib.h>
#include "tests.h"
#include "util/cpumap.h"
#include "util/debug.h"
#include "util/evlist.h"
#include "util/thread_map.h"

static int test__evlist_aux(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct evlist *parent, *aux, *aux2, *bad;
	struct cpu_map *cpus;
	struct thread_map *threads;
	struct evsel *evsel;
	int children = 0;

	parent = evlist__new();
	TEST_ASSERT_VAL("new evlist", parent);
	TEST_ASSERT_VAL("a normal evlist is its own parent", parent->parent == parent);
	TEST_ASSERT_VAL("a normal evlist is not aux", !perf_evlist__is_aux(parent));

	cpus = cpu_map__dummy_new();
	threads = thread_map__new_dummy();
	TEST_ASSERT_VAL("maps", cpus && threads);
	evlist__set_maps(parent, cpus, threads);

	evsel = evsel__new(&attr);
	TEST_ASSERT_VAL("evsel", evsel);
	evlist__add(parent, evsel);

	aux = perf_evlist__new_aux(parent);
	TEST_ASSERT_VAL("aux evlist", aux);
	TEST_ASSERT_VAL("aux is aux", perf_evlist__is_aux(aux));
	TEST_ASSERT_VAL("aux points at its parent", aux->parent == parent);
	TEST_ASSERT_VAL("aux owns no evsels", aux->nr_entries == 0 && list_empty(&aux->entries));
	TEST_ASSERT_VAL("aux shares the cpus", aux->cpus == parent->cpus);
	TEST_ASSERT_VAL("aux shares the threads", aux->threads == parent->threads);
	TEST_ASSERT_VAL("aux maps overwrite events", aux->overwrite && !parent->overwrite);

	/* Nobody can make an aux evlist out of an aux evlist. */
	quiet = 1;
	bad = perf_evlist__new_aux(aux);
	quiet = 0;
	TEST_ASSERT_VAL("aux of aux refused", bad == NULL);

	aux2 = perf_evlist__new_aux(parent);
	TEST_ASSERT_VAL("second aux", aux2);
	{
		struct evlist *c;

		list_for_each_entry(c, &parent->children, child_node)
			children++;
	}
	TEST_ASSERT_EQUAL("parent lists both children", children, 2);

	/* Ids added through a child land in the parent's hash. */
	TEST_ASSERT_EQUAL("id add via aux", evlist__id_add(aux, evsel, 0, 0, 0x1234), 0);
	TEST_ASSERT_VAL("parent finds the id", evlist__id2evsel(parent, 0x1234) == evsel);
	TEST_ASSERT_VAL("aux finds it too", evlist__id2evsel(aux, 0x1234) == evsel);
	TEST_ASSERT_VAL("unknown id", evlist__id2evsel(parent, 0x4321) == NULL);

	/* Either deletion order, no leaks (run under ASan in make test). */
	evlist__delete(aux);
	children = 0;
	{
		struct evlist *c;

		list_for_each_entry(c, &parent->children, child_node)
			children++;
	}
	TEST_ASSERT_EQUAL("deleted child is unlinked", children, 1);
	evlist__delete(parent);		/* aux2 becomes an orphan */
	TEST_ASSERT_VAL("orphan stays aux", perf_evlist__is_aux(aux2));
	evlist__delete(aux2);
	cpu_map__put(cpus);
	thread_map__put(threads);
	return TEST_OK;
}
DEFINE_SUITE(evlist_aux, "Aux evlist: parent, shared maps and id hash, deletion");
