/* One event: its attr, config terms, and (once opened) fds and ids. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "evsel.h"

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->id_pos = -1;
	evsel->is_pos = -1;
	INIT_LIST_HEAD(&evsel->node);
	INIT_LIST_HEAD(&evsel->config_terms);
	return evsel;
}

static void evsel__free_config_terms(struct evsel *evsel)
{
	struct evsel_config_term *t, *n;

	list_for_each_entry_safe(t, n, &evsel->config_terms, list) {
		list_del_init(&t->list);
		if (t->type == EVSEL__CONFIG_TERM_CALLGRAPH || t->type == EVSEL__CONFIG_TERM_NAME)
			free(t->val.str);
		free(t);
	}
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	evsel__close(evsel);
	evsel__free_config_terms(evsel);
	free(evsel->name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->modifiers);
	free(evsel);
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = copy;
	return 0;
}

const char *evsel__name(struct evsel *evsel)
{
	return evsel->name ? evsel->name : "unknown";
}

int evsel__add_config_term(struct evsel *evsel, enum evsel_term_type type, u64 val,
			   const char *str)
{
	struct evsel_config_term *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->type = type;
	if (type == EVSEL__CONFIG_TERM_CALLGRAPH || type == EVSEL__CONFIG_TERM_NAME) {
		t->val.str = strdup(str ? str : "");
		if (!t->val.str) {
			free(t);
			return -ENOMEM;
		}
	} else {
		t->val.val = val;
	}
	list_add_tail(&t->list, &evsel->config_terms);
	return 0;
}

/* The last term of a type wins, as later terms override earlier ones. */
struct evsel_config_term *evsel__get_config_term(struct evsel *evsel,
						 enum evsel_term_type type)
{
	struct evsel_config_term *t, *found = NULL;

	list_for_each_entry(t, &evsel->config_terms, list)
		if (t->type == type)
			found = t;
	return found;
}

bool evsel__is_tracepoint(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_TRACEPOINT;
}

void evsel__close(struct evsel *evsel)
{
	if (evsel->fds) {
		for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++)
			if (evsel->fds[i] >= 0)
				close(evsel->fds[i]);
	}
	free(evsel->fds);
	evsel->fds = NULL;
	free(evsel->ids);
	evsel->ids = NULL;
	evsel->nr_ids = 0;
}
