#ifndef PERF_UTIL_CONFIG_H
#define PERF_UTIL_CONFIG_H
/*
 * perf config files (~/.perfconfig, /etc/perfconfig): git-style sections
 * holding "key = value" lines,
 *
 *	# a comment
 *	[daemon]
 *		base = /var/lib/perf
 *	[session-cycles]
 *		run = -e cycles --overwrite --switch-output -a
 *
 * Section and key names are case-insensitive (reported in lower case);
 * values keep their case, lose surrounding blanks and a trailing
 * "# comment", and may be double-quoted (with \" \\ \n \t escapes) to keep
 * blanks or '#'.  `[section "sub"]` is read as section "section.sub".
 */
#include <stddef.h>

/* Where a malformed file went wrong, for a "file:line: expected ..." message. */
struct config_error {
	int line;		/* 1-based; 0 when the file could not be read at all */
	char msg[160];		/* what was expected there */
};

/*
 * Called for each "key = value" with the section it is in ("" before the
 * first header); returning non-zero stops the parse with that value.
 * @value is NULL for a bare "key" line.
 */
typedef int (*config_fn_t)(const char *section, const char *key, const char *value,
			   int line, void *data);

/*
 * Parses the text @buf of @len bytes.  Returns 0, the callback's non-zero
 * value, or -EINVAL with @err filled in at the first malformed line.
 */
int config__parse(const char *buf, size_t len, config_fn_t fn, void *data,
		  struct config_error *err);
/* Reads @path and parses it; -errno (err->line 0) if it cannot be read. */
int config__parse_file(const char *path, config_fn_t fn, void *data, struct config_error *err);
/*
 * The config file perf reads when none is named: /etc/perfconfig when it is
 * readable (unless PERF_CONFIG_NOSYSTEM is set), else $HOME/.perfconfig when
 * it exists (unless PERF_CONFIG_NOGLOBAL is set).  A new string, or NULL.
 */
char *config__default_path(void);
/*
 * The files perf reads its settings from, as upstream reads them: the
 * system's (/etc/perfconfig), then the user's ($HOME/.perfconfig), whose
 * values, coming later, win; each when it is readable and not turned off
 * (the switches above).  Fills @paths (new strings) and returns how many.
 */
int config__default_paths(char *paths[2]);

#endif
