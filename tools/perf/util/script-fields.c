/*
 * perf script -F: the field names, the event types a list may be for,
 * and what each field needs the samples to hold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "script-fields.h"
#include "session.h"
#include "parse-options.h"

static const struct { const char *name; unsigned bit; } field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "cpu", F_CPU },
	{ "time", F_TIME }, { "event", F_EVENT }, { "trace", F_TRACE }, { "ip", F_IP },
	{ "sym", F_SYM }, { "dso", F_DSO }, { "period", F_PERIOD }, { "symoff", F_SYMOFF },
	{ "addr", F_ADDR }, { "callindent", F_CALLINDENT }, { "srcline", F_SRCLINE },
	{ "tod", F_TOD }, { "weight", F_WEIGHT }, { "ins_lat", F_INS_LAT }, { "iregs", F_IREGS },
	{ "uregs", F_UREGS }, { "phys_addr", F_PHYS_ADDR }, { "data_page_size", F_DATA_PAGE_SIZE },
	{ "code_page_size", F_CODE_PAGE_SIZE }, { "bpf-output", F_BPF_OUTPUT },
};

/* The event types -F "type:fields" names, as the distro names them. */
static const struct { const char *name; u32 type; } field_types[] = {
	{ "hw", PERF_TYPE_HARDWARE }, { "sw", PERF_TYPE_SOFTWARE },
	{ "trace", PERF_TYPE_TRACEPOINT },
	{ "raw", PERF_TYPE_RAW }, { "break", PERF_TYPE_BREAKPOINT },
};

/*
 * What a field needs in sample_type, for the "cannot print" check.  The
 * period needs nothing: without PERIOD it is the attr's fixed sample_period,
 * which the distro prints too.
 */
static const struct { unsigned bit; u64 sample; const char *attr; } field_needs[] = {
	{ F_TID, PERF_SAMPLE_TID, "TID" }, { F_PID, PERF_SAMPLE_TID, "TID" },
	{ F_CPU, PERF_SAMPLE_CPU, "CPU" }, { F_TIME, PERF_SAMPLE_TIME, "TIME" },
	{ F_TOD, PERF_SAMPLE_TIME, "TIME" }, { F_IP, PERF_SAMPLE_IP, "IP" },
	{ F_TRACE, PERF_SAMPLE_RAW, "RAW" }, { F_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
	{ F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	{ F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ F_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS" }, { F_UREGS, PERF_SAMPLE_REGS_USER, "UREGS" },
	{ F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
};

static unsigned script_fields__defaults(struct evsel *evsel)
{
	if (evsel__is_tracepoint(evsel))
		return F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE;
	return F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM | F_SYMOFF |
	       F_DSO | (evsel__is_bpf_output(evsel) ? F_BPF_OUTPUT : 0);
}

/* The fields of @evsel; fields it cannot have are dropped, *@missing says the first asked for. */
static unsigned script_fields__checked(const struct script_fields *sf, struct evsel *evsel,
				       bool pipe, unsigned *missing)
{
	u64 t = evsel->attr.sample_type;
	u32 type = evsel->attr.type;
	unsigned f, asked = 0;

	if (type <= PERF_TYPE_BREAKPOINT && sf->type_set[type]) {
		f = sf->type_fields[type];
	} else if (sf->all_set) {
		f = asked = sf->all_fields;
		/* For every event, 'trace' is only a tracepoint's (see script_fields__parse). */
		if (!evsel__is_tracepoint(evsel))
			f = asked = f & ~F_TRACE;
	} else {
		f = script_fields__defaults(evsel);
		/* Without -F a tracepoint with callchains shows its stack, as the distro does. */
		if ((t & PERF_SAMPLE_CALLCHAIN) && !sf->hide_chain && evsel__is_tracepoint(evsel) &&
		    !sf->add_fields && !sf->del_fields && !sf->type_add[PERF_TYPE_TRACEPOINT] &&
		    !sf->type_del[PERF_TYPE_TRACEPOINT])
			f |= F_IP | F_SYM | F_SYMOFF | F_DSO;
		f = (f | sf->add_fields) & ~sf->del_fields;
		asked = sf->add_fields;
	}
	/* A field added for a type is shown where that type's events have it, silently. */
	if (type <= PERF_TYPE_BREAKPOINT)
		f = (f | sf->type_add[type]) & ~sf->type_del[type];
	/*
	 * A stream: the distro sets an event's fields up as its attr arrives,
	 * and then gives an event with call graphs ip and sym, even on top of
	 * the fields -F named, unless -F took them away ("-ip").
	 */
	if (pipe && !sf->hide_chain &&
	    ((t & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK)) ||
	     ((t & PERF_SAMPLE_REGS_USER) && (t & PERF_SAMPLE_STACK_USER))))
		f |= (F_IP | F_SYM) & ~(sf->del_fields |
				       (type <= PERF_TYPE_BREAKPOINT ? sf->type_del[type] : 0));
	*missing = 0;
	for (size_t i = 0; i < ARRAY_SIZE(field_needs); i++) {
		if (!(f & field_needs[i].bit) || (t & field_needs[i].sample))
			continue;
		if ((asked & field_needs[i].bit) && !*missing)
			*missing = field_needs[i].bit;
		f &= ~field_needs[i].bit;
	}
	/* Symbols and objects are those of the ip, or of a page fault's address: without either, none. */
	if (!(f & F_IP) && !((f & F_ADDR) && evsel__addr_is_code_or_data(evsel)))
		f &= ~(F_SYM | F_SYMOFF | F_DSO);
	return f;
}

unsigned script_fields__get(const struct script_fields *sf, struct evsel *evsel, bool pipe)
{
	unsigned missing;

	return script_fields__checked(sf, evsel, pipe, &missing);
}

/* "Cannot print" errors before any output, as the distro gives them. */
int script_fields__check(const struct script_fields *sf, struct perf_session *s)
{
	struct evsel *e;

	evlist__for_each_entry(s->evlist, e) {
		unsigned missing, f = script_fields__checked(sf, e, s->pipe, &missing);

		if ((f & F_SYMOFF) && !(f & F_SYM) && (f & F_IP)) {
			fprintf(stderr, "perf script: -F asks for symoff without sym; add sym or "
				"drop symoff.\n");
			return -EINVAL;
		}
		if ((f & F_TOD) && !s->has_clock) {
			fprintf(stderr, "Can't provide 'tod' time, missing clock data. "
				"Please record with -k/--clockid option.\n");
			return -EINVAL;
		}
		if (!missing)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(field_needs); i++) {
			if (field_needs[i].bit != missing)
				continue;
			for (size_t j = 0; j < ARRAY_SIZE(field_names); j++)
				if (field_names[j].bit == missing)
					fprintf(stderr, "perf script: samples of '%s' have no %s; "
						"cannot print '%s' (drop it from -F).\n",
						evsel__name(e), field_needs[i].attr,
						field_names[j].name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * 'trace' in a list for every event is left out for the events of the
 * other types, which have no tracepoint fields; the distro says so, once
 * for each type it knows, as the list is read.
 */
static void script_fields__warn_trace_ignored(void)
{
	static const char *const types[] = {
		"hardware", "software", "hardware-cache", "unknown", "unknown", "unknown", "unknown",
	};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		fprintf(stderr, "'trace' not valid for %s events. Ignoring.\n", types[i]);
}

int script_fields__parse(struct script_fields *sf, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *copy, *tok, *save = NULL;
	unsigned *set = &sf->all_fields, *add = &sf->add_fields, *del = &sf->del_fields;
	int err = 0, sign = 0;
	bool *flag = &sf->all_set;

	if (colon) {
		size_t t, len = (size_t)(colon - arg);

		for (t = 0; t < ARRAY_SIZE(field_types); t++)
			if (strlen(field_types[t].name) == len && !strncmp(arg, field_types[t].name, len))
				break;
		if (t == ARRAY_SIZE(field_types)) {
			fprintf(stderr, "perf script: unknown event type '%.*s' in -F; use hw, sw, "
				"trace, raw or break.\n", (int)len, arg);
			return -EINVAL;
		}
		set = &sf->type_fields[field_types[t].type];
		flag = &sf->type_set[field_types[t].type];
		add = &sf->type_add[field_types[t].type];
		del = &sf->type_del[field_types[t].type];
		arg = colon + 1;
		/* A list replaces the type's fields; edits (+/-) change them. */
		if (arg[0] != '+' && arg[0] != '-')
			*set = 0;
	} else if (arg[0] != '+' && arg[0] != '-') {
		sf->all_fields = 0;
	}
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (*tok == '+' || *tok == '-') {
			if (!sign && tok != copy) {
				fprintf(stderr, "perf script: -F cannot mix +field/-field with a "
					"list of fields.\n");
				err = -EINVAL;
				break;
			}
			sign = *tok++;
		} else if (sign) {
			/* After "+a", a bare "b" keeps the sign, as the distro reads it. */
		}
		for (i = 0; i < ARRAY_SIZE(field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == ARRAY_SIZE(field_names)) {
			fprintf(stderr, "perf script: unknown field '%s' in -F.\n"
				"Known fields: comm,tid,pid,cpu,time,event,trace,ip,sym,symoff,dso,"
				"period,addr,callindent,srcline,tod,weight,ins_lat,iregs,uregs,"
				"phys_addr,data_page_size,code_page_size,bpf-output\n", tok);
			err = -EINVAL;
			break;
		}
		if (sign == '+') {
			*add |= field_names[i].bit;
			*del &= ~field_names[i].bit;
		} else if (sign == '-') {
			*del |= field_names[i].bit;
			*add &= ~field_names[i].bit;
		} else {
			*set |= field_names[i].bit;
			*flag = true;
			if (!colon && field_names[i].bit == F_TRACE)
				script_fields__warn_trace_ignored();
		}
	}
	free(copy);
	return err;
}

int script_fields__opt(const struct perf_option *opt, const char *arg, int unset)
{
	return script_fields__parse(opt->value, arg) ? -1 : 0;
}
