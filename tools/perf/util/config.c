/*
 * perf config files, read one line at a time: a line is blank, a comment,
 * a "[section]" header or a "key = value" item.  Anything else is reported
 * with its line number and what would have been understood there.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"

static int config_fail(struct config_error *err, int line, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.';
}

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

/* "[name]" or "[name "sub"]" into @out (lower case name, "name.sub"). */
static int parse_header(const char *s, const char *end, char *out, size_t size,
			int line, struct config_error *err)
{
	size_t n = 0;

	s = skip_blanks(s + 1, end);
	while (s < end && is_name_char((unsigned char)*s) && n + 1 < size)
		out[n++] = tolower((unsigned char)*s++);
	if (!n)
		return config_fail(err, line, "expected a section name after '['");
	s = skip_blanks(s, end);
	if (s < end && *s == '"') {
		if (n + 1 < size)
			out[n++] = '.';
		for (s++; s < end && *s != '"' && n + 1 < size; s++) {
			if (*s == '\\' && s + 1 < end)
				s++;
			out[n++] = *s;
		}
		if (s >= end || *s != '"')
			return config_fail(err, line, "expected '\"' to close the subsection name");
		s = skip_blanks(s + 1, end);
	}
	out[n] = '\0';
	if (s >= end || *s != ']')
		return config_fail(err, line, "expected ']' to close the section name '%s'", out);
	s = skip_blanks(s + 1, end);
	if (s < end && *s != '#' && *s != ';')
		return config_fail(err, line, "expected nothing after the section header '[%s]'",
				   out);
	return 0;
}

/*
 * The value after '=': blanks around it and a trailing comment go, quoted
 * parts are kept as they are (without the quotes).  Returns a new string.
 */
static char *parse_value(const char *s, const char *end, int line, struct config_error *err)
{
	char *out = malloc(end - s + 1);
	size_t n = 0, keep = 0;
	bool quoted = false;

	if (!out) {
		config_fail(err, line, "a value that fits in memory");
		return NULL;
	}
	s = skip_blanks(s, end);
	for (; s < end; s++) {
		if (*s == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (!quoted && (*s == '#' || *s == ';'))
			break;
		if (*s == '\\' && s + 1 < end) {
			s++;
			out[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
			keep = n;
			continue;
		}
		out[n++] = *s;
		if (quoted || (*s != ' ' && *s != '\t' && *s != '\r'))
			keep = n;
	}
	if (quoted) {
		free(out);
		config_fail(err, line, "expected '\"' to close the quoted value");
		return NULL;
	}
	out[keep] = '\0';
	return out;
}

static int parse_item(const char *s, const char *end, const char *section, config_fn_t fn,
		      void *data, int line, struct config_error *err)
{
	const char *start = s;
	char key[128], *value = NULL;
	size_t n = 0;
	int ret;

	while (s < end && is_name_char((unsigned char)*s) && n + 1 < sizeof(key))
		key[n++] = tolower((unsigned char)*s++);
	key[n] = '\0';
	s = skip_blanks(s, end);
	if (!n || (s < end && *s != '=' && *s != '#' && *s != ';')) {
		while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		return config_fail(err, line, "expected '[section]' or 'key = value', not '%.*s'",
				   (int)(end - start > 60 ? 60 : end - start), start);
	}
	if (!section[0])
		return config_fail(err, line, "expected a '[section]' header before '%s'", key);
	if (s < end && *s == '=') {
		value = parse_value(s + 1, end, line, err);
		if (!value)
			return -EINVAL;
	}
	ret = fn(section, key, value, line, data);
	free(value);
	return ret;
}

int config__parse(const char *buf, size_t len, config_fn_t fn, void *data,
		  struct config_error *err)
{
	const char *s = buf, *end = buf + len;
	char section[256] = "";
	int line = 0, ret = 0;

	/* A UTF-8 byte order mark, as some editors write. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		s += 3;
	while (s < end && !ret) {
		const char *eol = memchr(s, '\n', end - s);
		const char *next;

		if (!eol)
			eol = end;
		next = eol < end ? eol + 1 : end;
		line++;
		s = skip_blanks(s, eol);
		if (s == eol || *s == '#' || *s == ';')
			;
		else if (*s == '[')
			ret = parse_header(s, eol, section, sizeof(section), line, err);
		else
			ret = parse_item(s, eol, section, fn, data, line, err);
		s = next;
	}
	return ret;
}

int config__parse_file(const char *path, config_fn_t fn, void *data, struct config_error *err)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	int ret;

	err->line = 0;
	if (!fp) {
		ret = -errno;
		snprintf(err->msg, sizeof(err->msg), "%s", strerror(errno));
		return ret;
	}
	do {
		if (len + 4096 > cap) {
			char *grown = realloc(buf, cap + 65536);

			if (!grown) {
				free(buf);
				fclose(fp);
				snprintf(err->msg, sizeof(err->msg), "%s", strerror(ENOMEM));
				return -ENOMEM;
			}
			buf = grown;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n);
	if (ferror(fp)) {
		snprintf(err->msg, sizeof(err->msg), "read error");
		ret = -EIO;
	} else {
		ret = config__parse(buf ? buf : "", len, fn, data, err);
	}
	free(buf);
	fclose(fp);
	return ret;
}

/* /etc/perfconfig when it is readable and not turned off, else NULL. */
static char *config__system_path(void)
{
	if (!getenv("PERF_CONFIG_NOSYSTEM") && access("/etc/perfconfig", R_OK) == 0)
		return strdup("/etc/perfconfig");
	return NULL;
}

/* $HOME/.perfconfig when it exists and is not turned off, else NULL. */
static char *config__user_path(void)
{
	const char *home = getenv("HOME");
	char *path;

	if (getenv("PERF_CONFIG_NOGLOBAL") || !home || !*home)
		return NULL;
	if (asprintf(&path, "%s/.perfconfig", home) < 0)
		return NULL;
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

char *config__default_path(void)
{
	char *path = config__system_path();

	return path ? path : config__user_path();
}

int config__default_paths(char *paths[2])
{
	int n = 0;

	paths[0] = paths[1] = NULL;
	paths[n] = config__system_path();
	if (paths[n])
		n++;
	paths[n] = config__user_path();
	if (paths[n])
		n++;
	return n;
}
