#include <string.h>
#include <linux/perf_event.h>
#include "event-symbols.h"

const struct event_symbol event_symbols[] = {
	{ "cycles",			"cpu-cycles",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",		NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",		NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",		NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches",		"branch-instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",		NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",			NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend",	"idle-cycles-frontend",
					PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",	"idle-cycles-backend",
					PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles",			NULL,		PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },

	{ "alignment-faults",		NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "bpf-output",			NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches",		NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
	{ "context-switches",		"cs",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-clock",			NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "cpu-migrations",		"migrations",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "dummy",			NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "emulation-faults",		NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "major-faults",		NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults",		NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults",		"faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "task-clock",			NULL,		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
};
const size_t event_symbols__nr = ARRAY_SIZE(event_symbols);

static bool name_is(const char *name, const char *str, size_t len)
{
	return name && strlen(name) == len && !strncmp(name, str, len);
}

const struct event_symbol *event_symbol__find(const char *name, size_t len)
{
	for (size_t i = 0; i < event_symbols__nr; i++) {
		const struct event_symbol *sym = &event_symbols[i];

		if (name_is(sym->name, name, len) || name_is(sym->alias, name, len))
			return sym;
	}
	return NULL;
}

const char *event_symbol__name(u32 type, u64 config)
{
	const struct event_symbol *sym = event_symbols, *end = event_symbols + event_symbols__nr;

	while (sym < end && (sym->type != type || sym->config != config))
		sym++;
	return sym < end ? sym->name : NULL;
}
