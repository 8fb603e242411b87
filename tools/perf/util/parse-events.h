#ifndef PERF_UTIL_PARSE_EVENTS_H
#define PERF_UTIL_PARSE_EVENTS_H
struct evlist;

/* Where and why an -e string failed. */
struct parse_events_error {
	int idx;		/* byte offset of the offending token in the string */
	char *str;		/* one-line reason */
	char *help;		/* optional advice (e.g. the valid terms) */
};

/*
 * Appends the events of @str to @evlist.  0 on success; on failure a
 * negative errno, nothing added, and @err filled when given.
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);
/* "event syntax error: '<str>'" with a caret under err->idx, then the reason. */
void parse_events_error__print(const struct parse_events_error *err, const char *str);
void parse_events_error__exit(struct parse_events_error *err);

#endif
