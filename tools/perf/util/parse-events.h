#ifndef PERF_UTIL_PARSE_EVENTS_H
#define PERF_UTIL_PARSE_EVENTS_H
#include <stdbool.h>
#include "types.h"
#include "list.h"

struct evlist;
struct evsel;

/* Where and why an -e string failed. */
struct parse_events_error {
	int idx;		/* byte offset of the offending token in the string */
	char *str;		/* one-line reason */
	char *help;		/* optional advice (e.g. the valid terms) */
};

/*
 * Appends the events of @str to @evlist.  0 on success; on failure a
 * negative errno, nothing added, and @err filled when given.  @err must be
 * zeroed (or passed through parse_events_error__exit) before each call.
 *
 * Every evsel gets its name, attr.type/config/size, modifier bits and its
 * /.../ config terms in the order written.  An evsel in a {group} points at
 * the group's first evsel as leader, and that leader's nr_members is the
 * size of the group; an evsel outside any group is its own leader with
 * nr_members 0.
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);
/* "event syntax error: '<str>'" with a caret under err->idx, then the reason. */
void parse_events_error__print(const struct parse_events_error *err, const char *str);
void parse_events_error__exit(struct parse_events_error *err);

/* ---- Below: shared by parse-events.c and the generated lexer and parser only. ---- */

/* One name[=value] inside /.../, with where each half starts in the string. */
struct parse_events_term {
	struct list_head list;
	char *name;
	char *value;		/* NULL for a bare flag such as "inherit" */
	int name_idx, value_idx;
};

/* The evsels one event or group produced: consecutive on the state's list. */
struct parse_events_span {
	struct evsel *first;
	int nr;
};

struct parse_events_state {
	const char *str;		/* the whole -e string */
	int pos;			/* lexer: byte offset of the next token */
	bool cg_value;			/* lexer: the next value belongs to call-graph= */
	bool nomem;			/* lexer: a token could not be copied */
	struct list_head list;		/* evsels so far, linked by evsel->node */
	struct parse_events_error *err;
};

/* Does str[0..len) name an event that may carry a :modifier (not a tracepoint)? */
bool parse_events__is_event_name(const char *str, size_t len);

/*
 * Grammar actions.  Each consumes (frees) the strings and term list it is
 * given, whatever the outcome, so an aborted parse leaks nothing.
 */
int parse_events__add_event(struct parse_events_state *st, char *def, int def_idx, bool tracepoint,
			    struct list_head *terms, int cfg_end, char *mod, int mod_idx,
			    struct parse_events_span *span);
/* @name (owned; NULL for an anonymous group) is that of -e 'name{a,b}'. */
int parse_events__add_group(struct parse_events_state *st, char *name,
			    struct parse_events_span *span, char *mod, int mod_idx);
struct list_head *parse_events__terms_new(void);
int parse_events__terms_add(struct parse_events_state *st, struct list_head *terms, char *name,
			    int name_idx, char *value, int value_idx);
void parse_events__terms_delete(struct list_head *terms);
/* Records the first error only: the one nearest to what the user typed wrong. */
void parse_events__error(struct parse_events_state *st, int idx, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
