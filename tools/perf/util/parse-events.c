/*
 * -e strings to evsels.  The flex lexer (parse-events.l) and the bison
 * grammar (parse-events.y) only recognise the shape of the string; the
 * actions below decide what the names, terms and modifiers mean, and say
 * precisely which byte is wrong when they mean nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "parse-events.h"
#include "event-symbols.h"
#include "evlist.h"
#include "evsel.h"
#include "tracepoint.h"
#include "debug.h"
#include "parse-events-bison.h"

#define YYSTYPE PARSE_EVENTS_STYPE
#define YYLTYPE PARSE_EVENTS_LTYPE
#include "parse-events-flex.h"

/* rNNN: a raw hardware event, NNN in hex. */
static bool is_raw(const char *str, size_t len)
{
	if (len < 2 || str[0] != 'r')
		return false;
	for (size_t i = 1; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", str[i]))
			return false;
	return true;
}

bool parse_events__is_event_name(const char *str, size_t len)
{
	return event_symbol__find(str, len) || is_raw(str, len);
}

void parse_events__error(struct parse_events_state *st, int idx, const char *help,
			 const char *fmt, ...)
{
	struct parse_events_error *err = st->err;
	va_list ap;

	if (err->str)
		return;
	va_start(ap, fmt);
	if (vasprintf(&err->str, fmt, ap) < 0)
		err->str = NULL;
	va_end(ap);
	err->idx = idx;
	err->help = help ? strdup(help) : NULL;
}

/* ---- config terms ---- */

struct list_head *parse_events__terms_new(void)
{
	struct list_head *terms = malloc(sizeof(*terms));

	if (terms)
		INIT_LIST_HEAD(terms);
	return terms;
}

void parse_events__terms_delete(struct list_head *terms)
{
	struct parse_events_term *t, *n;

	if (!terms)
		return;
	list_for_each_entry_safe(t, n, terms, list) {
		list_del_init(&t->list);
		free(t->name);
		free(t->value);
		free(t);
	}
	free(terms);
}

int parse_events__terms_add(struct parse_events_state *st, struct list_head *terms, char *name,
			    int name_idx, char *value, int value_idx)
{
	struct parse_events_term *t = calloc(1, sizeof(*t));

	if (!t) {
		free(name);
		free(value);
		parse_events__terms_delete(terms);
		parse_events__error(st, name_idx, NULL, "out of memory");
		return -ENOMEM;
	}
	t->name = name;
	t->value = value;
	t->name_idx = name_idx;
	t->value_idx = value_idx;
	list_add_tail(&t->list, terms);
	return 0;
}

enum term_kind {
	TERM_NUM,	/* needs a number */
	TERM_STR,	/* needs a string */
	TERM_FLAG,	/* takes no value */
};

static const struct term_def {
	const char *name;
	enum evsel_term_type type;
	enum term_kind kind;
	u64 flag_val;		/* TERM_FLAG: the value recorded */
	bool raw_only;
} term_defs[] = {
	{ "period",	  EVSEL__CONFIG_TERM_PERIOD,	TERM_NUM },
	{ "freq",	  EVSEL__CONFIG_TERM_FREQ,	TERM_NUM },
	{ "call-graph",	  EVSEL__CONFIG_TERM_CALLGRAPH,	TERM_STR },
	{ "stack-size",	  EVSEL__CONFIG_TERM_STACK_USER, TERM_NUM },
	{ "max-stack",	  EVSEL__CONFIG_TERM_MAX_STACK,	TERM_NUM },
	{ "name",	  EVSEL__CONFIG_TERM_NAME,	TERM_STR },
	{ "inherit",	  EVSEL__CONFIG_TERM_INHERIT,	TERM_FLAG, 1 },
	{ "no-inherit",	  EVSEL__CONFIG_TERM_INHERIT,	TERM_FLAG, 0 },
	{ "overwrite",	  EVSEL__CONFIG_TERM_OVERWRITE,	TERM_FLAG, 1 },
	{ "no-overwrite", EVSEL__CONFIG_TERM_OVERWRITE,	TERM_FLAG, 0 },
	{ "config",	  EVSEL__CONFIG_TERM_CONFIG,	TERM_NUM, 0, true },
	{ "config1",	  EVSEL__CONFIG_TERM_CONFIG1,	TERM_NUM, 0, true },
	{ "config2",	  EVSEL__CONFIG_TERM_CONFIG2,	TERM_NUM, 0, true },
};

/* "valid terms: a,b,c" for this kind of event. */
static char *valid_terms(bool raw)
{
	size_t len = sizeof("valid terms: ");
	char *help;

	for (size_t i = 0; i < ARRAY_SIZE(term_defs); i++)
		len += strlen(term_defs[i].name) + 1;
	help = malloc(len);
	if (!help)
		return NULL;
	strcpy(help, "valid terms: ");
	for (size_t i = 0; i < ARRAY_SIZE(term_defs); i++) {
		if (term_defs[i].raw_only && !raw)
			continue;
		if (help[strlen(help) - 1] != ' ')
			strcat(help, ",");
		strcat(help, term_defs[i].name);
	}
	return help;
}

/* Decimal or 0x hex, the whole string, no sign, no overflow. */
static int parse_number(const char *s, u64 *val)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s || !strchr("0123456789abcdefABCDEF", *s) || (base == 10 && !strchr("0123456789", *s)))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, base);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static bool valid_callgraph(const char *s)
{
	u64 size;

	if (!strcmp(s, "no") || !strcmp(s, "fp") || !strcmp(s, "dwarf"))
		return true;
	return !strncmp(s, "dwarf,", 6) && parse_number(s + 6, &size) == 0 && size > 0;
}

/* One term resolved against term_defs, ready to put on every evsel of the event. */
struct resolved_term {
	const struct term_def *def;
	u64 val;
	const char *str;
};

static int resolve_term(struct parse_events_state *st, const struct parse_events_term *t, bool raw,
			struct resolved_term *out)
{
	const struct term_def *def = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(term_defs); i++)
		if (!strcmp(term_defs[i].name, t->name) && (raw || !term_defs[i].raw_only))
			def = &term_defs[i];
	if (!def) {
		char *help = valid_terms(raw);

		parse_events__error(st, t->name_idx, help, "unknown term '%s'", t->name);
		free(help);
		return -EINVAL;
	}
	out->def = def;
	out->str = t->value;
	switch (def->kind) {
	case TERM_FLAG:
		out->val = def->flag_val;
		if (t->value) {
			parse_events__error(st, t->value_idx, NULL, "term '%s' takes no value",
					    t->name);
			return -EINVAL;
		}
		return 0;
	case TERM_NUM:
		if (!t->value) {
			parse_events__error(st, t->name_idx, NULL,
					    "term '%s' needs a value, e.g. %s=1000", t->name, t->name);
			return -EINVAL;
		}
		if (parse_number(t->value, &out->val)) {
			parse_events__error(st, t->value_idx, "values are decimal or 0x hex",
					    "expected a number for '%s', not '%s'", t->name, t->value);
			return -EINVAL;
		}
		return 0;
	case TERM_STR:
		if (!t->value || !*t->value) {
			parse_events__error(st, t->name_idx, NULL, "term '%s' needs a value",
					    t->name);
			return -EINVAL;
		}
		if (def->type == EVSEL__CONFIG_TERM_CALLGRAPH && !valid_callgraph(t->value)) {
			parse_events__error(st, t->value_idx,
					    "use call-graph=no, call-graph=fp or call-graph=dwarf[,size]",
					    "unknown call-graph mode '%s'", t->value);
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

/* Records the term and applies what must be visible in attr right away. */
static int evsel__apply_term(struct evsel *evsel, const struct resolved_term *rt)
{
	struct perf_event_attr *attr = &evsel->attr;
	enum evsel_term_type type = rt->def->type;

	switch (type) {
	case EVSEL__CONFIG_TERM_PERIOD:
		attr->sample_period = rt->val;
		attr->freq = 0;
		break;
	case EVSEL__CONFIG_TERM_FREQ:
		attr->sample_freq = rt->val;
		attr->freq = 1;
		break;
	case EVSEL__CONFIG_TERM_NAME:
		if (evsel__set_name(evsel, rt->str))
			return -ENOMEM;
		break;
	case EVSEL__CONFIG_TERM_OVERWRITE:
		evsel->overwrite = rt->val;
		break;
	case EVSEL__CONFIG_TERM_CONFIG:
		attr->config = rt->val;
		break;
	case EVSEL__CONFIG_TERM_CONFIG1:
		attr->config1 = rt->val;
		break;
	case EVSEL__CONFIG_TERM_CONFIG2:
		attr->config2 = rt->val;
		break;
	default:
		break;
	}
	return evsel__add_config_term(evsel, type, rt->val, rt->str);
}

/* ---- modifiers ---- */

struct modifier {
	bool user, kernel, hv;	/* the privilege levels asked for */
	int precise;
	bool sample_read;	/* S: samples read the counts (a group's, with its leader's) */
};

static int modifier__parse(struct parse_events_state *st, const char *str, int idx,
			   struct modifier *mod)
{
	static const char help[] = "valid modifiers: u (user), k (kernel), h (hypervisor), "
				   "p, pp, ppp (precise ip), S (read the group's counts)";

	memset(mod, 0, sizeof(*mod));
	if (!*str) {
		/* Point at the ':' itself: nothing follows it. */
		parse_events__error(st, idx - 1, help, "missing modifier after ':'");
		return -EINVAL;
	}
	for (const char *c = str; *c; c++) {
		switch (*c) {
		case 'u':
			mod->user = true;
			break;
		case 'k':
			mod->kernel = true;
			break;
		case 'h':
			mod->hv = true;
			break;
		case 'S':
			mod->sample_read = true;
			break;
		case 'p':
			if (++mod->precise > 3) {
				parse_events__error(st, idx + (c - str), help,
						    "too many 'p' modifiers: at most 3 (ppp)");
				return -EINVAL;
			}
			break;
		default:
			parse_events__error(st, idx + (c - str), help, "unknown modifier '%c'", *c);
			return -EINVAL;
		}
	}
	return 0;
}

/* The levels not asked for are excluded; no u/k/h at all leaves attr alone. */
static void modifier__apply(const struct modifier *mod, struct perf_event_attr *attr)
{
	if (mod->user || mod->kernel || mod->hv) {
		attr->exclude_user = !mod->user;
		attr->exclude_kernel = !mod->kernel;
		attr->exclude_hv = !mod->hv;
	}
	attr->precise_ip = mod->precise;
}

/* ---- events ---- */

enum event_kind {
	EVENT_SYMBOL,
	EVENT_RAW,
	EVENT_TRACEPOINT,
};

/* What one event of the string asks for, shared by all the evsels it yields. */
struct event_req {
	struct parse_events_state *st;
	enum event_kind kind;
	struct perf_event_attr attr;
	char *name;			/* NULL for tracepoints: each is named sys:name */
	const char *mod_str;
	bool sample_read;		/* the S modifier */
	struct resolved_term *terms;
	int nr_terms;
	struct parse_events_span span;
};

static int event_req__new_evsel(struct event_req *req, struct evsel **evselp)
{
	struct evsel *evsel = evsel__new(&req->attr);

	if (!evsel)
		return -ENOMEM;
	if ((req->name && evsel__set_name(evsel, req->name)) ||
	    (req->mod_str && !(evsel->modifiers = strdup(req->mod_str))))
		goto out_nomem;
	for (int i = 0; i < req->nr_terms; i++)
		if (evsel__apply_term(evsel, &req->terms[i]))
			goto out_nomem;
	evsel->sample_read = req->sample_read;
	list_add_tail(&evsel->node, &req->st->list);
	if (!req->span.nr++)
		req->span.first = evsel;
	*evselp = evsel;
	return 0;

out_nomem:
	evsel__delete(evsel);
	return -ENOMEM;
}

static int event_req__add_tracepoint(const char *sys, const char *name, void *arg)
{
	struct event_req *req = arg;
	struct evsel *evsel;
	char *full;
	int id = tracepoint__id(sys, name);

	if (id < 0) {
		parse_events__error(req->st, -1, NULL, "cannot read the id of tracepoint '%s:%s': %s",
				    sys, name, strerror(-id));
		return id;
	}
	req->attr.config = id;
	if (event_req__new_evsel(req, &evsel))
		return -ENOMEM;
	evsel->tp_sys = strdup(sys);
	evsel->tp_name = strdup(name);
	if (!evsel->tp_sys || !evsel->tp_name)
		return -ENOMEM;
	if (!evsel->name) {
		if (asprintf(&full, "%s:%s", sys, name) < 0)
			return -ENOMEM;
		evsel->name = full;
	}
	/* Formats are a convenience here; the recorder loads what it needs. */
	evsel->tp_format = tracepoint__format(sys, name);
	if (!evsel->tp_format)
		pr_debug("parse-events: no format for %s:%s\n", sys, name);
	return 0;
}

static int event_req__add_tracepoints(struct event_req *req, const char *def, int def_idx)
{
	struct parse_events_state *st = req->st;
	const char *colon = strchr(def, ':');
	const char *tracefs;
	char *sys = strndup(def, colon - def);
	int ret;

	if (!sys)
		return -ENOMEM;
	req->attr.type = PERF_TYPE_TRACEPOINT;
	req->attr.sample_period = 1;
	tracefs = tracepoint__tracefs_dir();
	if (!tracefs) {
		ret = errno ? -errno : -ENOENT;
		parse_events__error(st, def_idx, NULL, "cannot use tracepoint '%s': %s", def,
				    tracepoint__error());
		goto out;
	}
	ret = tracepoint__for_each(sys, colon + 1, event_req__add_tracepoint, req);
	if (ret == 0 && req->span.nr == 0) {
		parse_events__error(st, def_idx, "run 'perf list tracepoint' to see the ones this "
				    "kernel has", "unknown tracepoint '%s' (searched %s/events)",
				    def, tracefs);
		ret = -ENOENT;
	}
	if (ret) {
		/* An error raised inside the walk has no position yet. */
		if (st->err->idx < 0)
			st->err->idx = def_idx;
		parse_events__error(st, def_idx, NULL, "cannot list tracepoints for '%s': %s",
				    def, strerror(-ret));
	}
out:
	free(sys);
	return ret;
}

/*
 * The name users see is what they typed, as the distro perf shows it:
 * "cycles:u" keeps its modifier, and an event with terms keeps its
 * "/.../" text ("cpu-clock/period=1000/u").  Tracepoints are "sys:name".
 */
static char *event_name(struct parse_events_state *st, const char *def, int def_idx,
			bool have_terms, int cfg_end, const char *mod)
{
	char *name;
	int ret;

	if (have_terms)
		ret = asprintf(&name, "%.*s%s", cfg_end - def_idx, st->str + def_idx,
			       mod ? mod : "");
	else
		ret = asprintf(&name, "%s%s%s", def, mod ? ":" : "", mod ? mod : "");
	return ret < 0 ? NULL : name;
}

int parse_events__add_event(struct parse_events_state *st, char *def, int def_idx, bool tracepoint,
			    struct list_head *terms, int cfg_end, char *mod, int mod_idx,
			    struct parse_events_span *span)
{
	struct event_req req = { .st = st, .mod_str = mod };
	const struct event_symbol *sym = NULL;
	struct parse_events_term *t;
	struct modifier modifier;
	struct evsel *evsel;
	int nr_terms = 0;
	int ret = -EINVAL;

	if (tracepoint) {
		req.kind = EVENT_TRACEPOINT;
	} else if ((sym = event_symbol__find(def, strlen(def)))) {
		req.kind = EVENT_SYMBOL;
		req.attr.type = sym->type;
		req.attr.config = sym->config;
	} else if (is_raw(def, strlen(def))) {
		req.kind = EVENT_RAW;
		req.attr.type = PERF_TYPE_RAW;
		req.attr.config = strtoull(def + 1, NULL, 16);
	} else {
		/* The caller says where the list of events is. */
		parse_events__error(st, def_idx, NULL, "unknown event '%s'", def);
		goto out;
	}
	req.attr.size = sizeof(req.attr);

	if (mod) {
		if (modifier__parse(st, mod, mod_idx, &modifier))
			goto out;
		modifier__apply(&modifier, &req.attr);
		req.sample_read = modifier.sample_read;
	}

	if (terms) {
		list_for_each_entry(t, terms, list)
			nr_terms++;
		req.terms = calloc(nr_terms ? nr_terms : 1, sizeof(*req.terms));
		if (!req.terms)
			goto out_nomem;
		list_for_each_entry(t, terms, list) {
			if (resolve_term(st, t, req.kind == EVENT_RAW, &req.terms[req.nr_terms]))
				goto out;
			req.nr_terms++;
		}
	}

	if (req.kind == EVENT_TRACEPOINT) {
		ret = event_req__add_tracepoints(&req, def, def_idx);
		if (ret == -ENOMEM)
			goto out_nomem;
	} else {
		req.name = event_name(st, def, def_idx, terms != NULL, cfg_end, mod);
		ret = req.name ? event_req__new_evsel(&req, &evsel) : -ENOMEM;
		if (ret)
			goto out_nomem;
	}
	*span = req.span;
	goto out;

out_nomem:
	ret = -ENOMEM;
	parse_events__error(st, def_idx, NULL, "out of memory");
out:
	free(req.terms);
	free(req.name);
	parse_events__terms_delete(terms);
	free(def);
	free(mod);
	return ret;
}

int parse_events__add_group(struct parse_events_state *st, char *name,
			    struct parse_events_span *span, char *mod, int mod_idx)
{
	struct evsel *leader = span->first, *evsel = leader;
	struct modifier group_mod;
	int ret = 0;

	if (mod && modifier__parse(st, mod, mod_idx, &group_mod)) {
		ret = -EINVAL;
		goto out;
	}
	for (int i = 0; i < span->nr; i++) {
		evsel->leader = leader;
		if (mod) {
			/*
			 * The group's levels join the member's own: "{a:k,b}:u"
			 * counts a in user and kernel mode, b in user mode only.
			 */
			struct modifier own = { 0 };
			char *both = NULL;

			if (evsel->modifiers)
				modifier__parse(st, evsel->modifiers, 0, &own);
			own.user |= group_mod.user;
			own.kernel |= group_mod.kernel;
			own.hv |= group_mod.hv;
			own.precise = max_t(int, own.precise, group_mod.precise);
			own.sample_read |= group_mod.sample_read;
			modifier__apply(&own, &evsel->attr);
			evsel->sample_read = own.sample_read;
			if (asprintf(&both, "%s%s", evsel->modifiers ? evsel->modifiers : "",
				     mod) < 0) {
				parse_events__error(st, mod_idx, NULL, "out of memory");
				ret = -ENOMEM;
				goto out;
			}
			free(evsel->modifiers);
			evsel->modifiers = both;
		}
		evsel = list_entry(evsel->node.next, struct evsel, node);
	}
	leader->nr_members = span->nr;
	/* A group of one is no group, but its name still goes with the event. */
	leader->group_name = name;
	name = NULL;
out:
	free(name);
	free(mod);
	return ret;
}

static void free_list(struct list_head *list)
{
	struct evsel *evsel, *n;

	list_for_each_entry_safe(evsel, n, list, node) {
		list_del_init(&evsel->node);
		evsel__delete(evsel);
	}
}

int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err)
{
	struct parse_events_error local = { 0 };
	struct parse_events_state st = { .str = str, .err = err ? err : &local };
	YY_BUFFER_STATE buf;
	struct evsel *evsel, *n;
	void *scanner;
	int ret;

	INIT_LIST_HEAD(&st.list);
	st.err->idx = 0;
	st.err->str = NULL;
	st.err->help = NULL;
	if (parse_events_lex_init_extra(&st, &scanner)) {
		ret = -errno;
		parse_events__error(&st, 0, NULL, "cannot start the event parser: %s",
				    strerror(errno));
		goto out;
	}
	buf = parse_events__scan_string(str, scanner);
	ret = parse_events_parse(scanner, &st);
	parse_events__delete_buffer(buf, scanner);
	parse_events_lex_destroy(scanner);

	if (ret || st.err->str) {
		free_list(&st.list);
		if (!st.err->str)
			parse_events__error(&st, 0, NULL, "out of memory");
		ret = st.nomem || (st.err->str && !strcmp(st.err->str, "out of memory")) ?
			-ENOMEM : -EINVAL;
		goto out;
	}
	list_for_each_entry_safe(evsel, n, &st.list, node) {
		list_del_init(&evsel->node);
		evlist__add(evlist, evsel);
	}
out:
	parse_events_error__exit(&local);
	return ret;
}

/* Columns of the terminal stderr goes to, or a classic 80. */
static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 40)
		return ws.ws_col;
	return 80;
}

void parse_events_error__print(const struct parse_events_error *err, const char *str)
{
	static const char prefix[] = "event syntax error: '";
	int len = strlen(str), idx = err->idx, start = 0;
	int room = term_width() - (int)sizeof(prefix) - 1;

	if (!err->str)
		return;
	if (idx < 0)
		idx = 0;
	if (idx > len)
		idx = len;
	/*
	 * A string wider than the terminal is shown as a window that keeps the
	 * offending byte in view, with ".." marking what was cut.
	 */
	if (len > room && idx > room / 2) {
		start = idx - room / 2;
		fprintf(stderr, "%s..%.*s'\n", prefix, room - 2, str + start + 2);
	} else {
		fprintf(stderr, "%s%.*s'\n", prefix, len > room ? room : len, str);
	}
	fprintf(stderr, "%*s\\___ %s\n", (int)sizeof(prefix) - 1 + idx - start, "", err->str);
	if (err->help)
		fprintf(stderr, "\n%s\n", err->help);
}

void parse_events_error__exit(struct parse_events_error *err)
{
	free(err->str);
	free(err->help);
	err->str = NULL;
	err->help = NULL;
}
