/*
 * perf daemon's config: daemon.base and the [session-NAME] run lines of a
 * perf config file (parsed by util/config), checked as they are read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "daemon-budget.h"
#include "daemon-config.h"
#include "daemon-session.h"
#include "daemon-target.h"
#include "parse-options.h"

struct daemon_session *daemon_sessions__find(struct list_head *list, const char *name)
{
	struct daemon_session *s;

	list_for_each_entry(s, list, node)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

void daemon_sessions__delete(struct list_head *list)
{
	struct daemon_session *s, *n;

	list_for_each_entry_safe(s, n, list, node) {
		list_del_init(&s->node);
		daemon_session__delete(s);
	}
}

/* The session of section @name, made (with no run line yet) if it is new. */
static struct daemon_session *config_session(struct daemon_config *cfg, const char *name)
{
	struct daemon_session *s = daemon_sessions__find(&cfg->sessions, name);

	if (s)
		return s;
	/* The directory is filled in once the base is known. */
	s = daemon_session__new("", name, "");
	if (s)
		list_add_tail(&s->node, &cfg->sessions);
	return s;
}

static int config_run(struct daemon_config *cfg, const char *section, const char *value,
		      int line)
{
	struct daemon_session *s;
	char **argv, *run;

	if (!value || !*value) {
		fprintf(stderr, "%s:%d: expected 'run = <perf record arguments>'\n", cfg->path,
			line);
		return -EINVAL;
	}
	if (argv__split(value, &argv) < 0) {
		fprintf(stderr, "%s:%d: expected a closing quote in the run line\n", cfg->path,
			line);
		return -EINVAL;
	}
	free(argv);
	/* A second run line for a session replaces the first, as perf config reads it. */
	s = config_session(cfg, section + 8);
	run = strdup(value);
	if (!s || !run) {
		free(run);
		return -ENOMEM;
	}
	free(s->run);
	s->run = run;
	return 0;
}

/* 'process = COMM' or 'cgroup = PATH': what the session follows. */
static int config_target(struct daemon_config *cfg, const char *section, const char *key,
			 const char *value, int line)
{
	enum daemon_target_kind kind = !strcmp(key, "process") ? TARGET_PROCESS : TARGET_CGROUP;
	const char *why = daemon_target__bad_name(kind, value);
	struct daemon_session *s;
	struct daemon_target *t;

	if (why) {
		fprintf(stderr, "%s:%d: session '%s': %s\n", cfg->path, line, section + 8, why);
		return -EINVAL;
	}
	s = config_session(cfg, section + 8);
	if (!s)
		return -ENOMEM;
	if (s->target && s->target->kind != kind) {
		fprintf(stderr, "%s:%d: session '%s': '%s' and '%s' exclude each other: keep "
			"one\n", cfg->path, line, s->name, key, daemon_target__key(s->target));
		return -EINVAL;
	}
	t = daemon_target__new(kind, value, line);
	if (!t)
		return -ENOMEM;
	daemon_target__delete(s->target);
	s->target = t;
	return 0;
}

/* The word of @words (NULL-ended) nearest @word, one or two edits away; NULL if none. */
static const char *config_near(const char *word, const char *const *words)
{
	size_t len = strlen(word), best = len <= 3 ? 2 : 3;
	const char *near = NULL;

	for (; *words; words++) {
		size_t d = str__edit_distance(word, len, *words, strlen(*words));

		if (d < best) {
			best = d;
			near = *words;
		}
	}
	return near;
}

/*
 * A key that [daemon] or a [session-NAME] does not have, or a section
 * misspelt from one of them (others belong to the rest of perf, whose
 * settings may share the file): the line, and the nearest known word.
 */
static int config_unknown(struct daemon_config *cfg, int line, const char *section,
			  const char *key)
{
	static const char *const daemon_keys[] = { "base", "max-size", NULL };
	static const char *const session_keys[] = { "run", "process", "cgroup", NULL };
	static const char *const sections[] = { "daemon", "session", NULL };
	const char *dash = strchr(section, '-'), *near;
	char head[64];

	if (!strcmp(section, "daemon") || !strncmp(section, "session-", 8)) {
		near = config_near(key, section[0] == 'd' ? daemon_keys : session_keys);
		fprintf(stderr, "%s:%d: unknown key '%s' in [%s]", cfg->path, line, key, section);
		if (near)
			fprintf(stderr, ": did you mean '%s'?", near);
		fputc('\n', stderr);
		return -EINVAL;
	}
	snprintf(head, sizeof(head), "%.*s", dash ? (int)(dash - section) : 63, section);
	near = config_near(head, sections);
	if (!near || (near[0] == 's') != (dash != NULL))
		return 0;
	fprintf(stderr, "%s:%d: unknown section [%s]: did you mean [%s%s]?\n", cfg->path, line,
		section, near, dash ? dash : "");
	return -EINVAL;
}

static int config_item(const char *section, const char *key, const char *value, int line,
		       void *data)
{
	struct daemon_config *cfg = data;
	bool run;

	if (!strcmp(section, "daemon") && !strcmp(key, "base")) {
		if (!value || !*value) {
			fprintf(stderr, "%s:%d: expected 'base = <directory>'\n", cfg->path, line);
			return -EINVAL;
		}
		free(cfg->base);
		cfg->base = strdup(value);
		return cfg->base ? 0 : -ENOMEM;
	}
	run = !strcmp(key, "run");
	if (!strcmp(section, "daemon") && !strcmp(key, "max-size")) {
		if (daemon_budget__parse(value, &cfg->max_size)) {
			fprintf(stderr, "%s:%d: expected 'max-size = <size>', a size above 0 in "
				"bytes or with K, M or G (e.g. 1G)\n", cfg->path, line);
			return -EINVAL;
		}
		return 0;
	}
	/* Other perf settings share the file: only ours, and near misses of them, are judged. */
	if (strncmp(section, "session-", 8) || (!run && strcmp(key, "process") &&
						  strcmp(key, "cgroup")))
		return config_unknown(cfg, line, section, key);
	if (!section[8]) {
		fprintf(stderr, "%s:%d: expected a name after '[session-'\n", cfg->path, line);
		return -EINVAL;
	}
	if (run)
		return config_run(cfg, section, value, line);
	return config_target(cfg, section, key, value, line);
}

/*
 * What can only be judged once the whole file is read, as keys come in
 * any order: a followed session has a run line, and that line does not
 * choose what to record itself.
 */
static int config_check_targets(struct daemon_config *cfg)
{
	struct daemon_session *s;
	const char *opt;
	char buf[32];

	list_for_each_entry(s, &cfg->sessions, node) {
		if (!s->target)
			continue;
		if (!*s->run) {
			fprintf(stderr, "%s:%d: session '%s' has '%s' but no run line: add "
				"'run = <perf record arguments>'\n", cfg->path, s->target->line,
				s->name, daemon_target__key(s->target));
			return -EINVAL;
		}
		opt = daemon_target__conflict(s->run, buf, sizeof(buf));
		if (opt) {
			fprintf(stderr, "%s:%d: session '%s': '%s' cannot go with %s in its run "
				"line (the daemon adds %s): remove it\n", cfg->path,
				s->target->line, s->name, daemon_target__key(s->target), opt,
				s->target->kind == TARGET_PROCESS ? "-p" : "-a -G");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Reads @path into @cfg.  A malformed file is reported on stderr as
 * "file:line: expected ..." and leaves -EINVAL.
 */
int daemon_config__read(struct daemon_config *cfg, const char *path)
{
	struct config_error err = { 0 };
	int ret;

	cfg->path = path;
	cfg->base = NULL;
	cfg->max_size = 0;
	INIT_LIST_HEAD(&cfg->sessions);
	ret = config__parse_file(path, config_item, cfg, &err);
	if (!ret)
		ret = config_check_targets(cfg);
	else if (ret == -EINVAL && err.line)
		fprintf(stderr, "%s:%d: %s\n", path, err.line, err.msg);
	else if (ret && !err.line && err.msg[0])
		fprintf(stderr, "perf daemon: cannot read the config file %s: %s\n", path, err.msg);
	if (ret) {
		daemon_sessions__delete(&cfg->sessions);
		free(cfg->base);
		cfg->base = NULL;
	}
	return ret;
}

void daemon_config__exit(struct daemon_config *cfg)
{
	daemon_sessions__delete(&cfg->sessions);
	free(cfg->base);
}

/* The config file to use: --config, else the one perf reads by default. */
char *daemon_config__path(const char *config)
{
	char *path;

	if (config) {
		path = realpath(config, NULL);
		if (!path)
			fprintf(stderr, "perf daemon: cannot open the config file %s: %s\n",
				config, strerror(errno));
		return path;
	}
	path = config__default_path();
	if (!path)
		fprintf(stderr, "perf daemon: no config file: name one with --config FILE, or "
			"write /etc/perfconfig or ~/.perfconfig (see 'perf help daemon').\n");
	return path;
}

/* The base directory as an absolute path: --base, else daemon.base. */
char *daemon_config__base(const struct daemon_config *cfg, const char *base_opt)
{
	const char *base = base_opt ? base_opt : cfg->base;
	char cwd[PATH_MAX], *abs;

	if (!base) {
		fprintf(stderr, "perf daemon: no base directory: set 'base = <dir>' in the "
			"[daemon] section of %s, or pass --base DIR.\n", cfg->path);
		return NULL;
	}
	if (base[0] == '/')
		return strdup(base);
	if (!getcwd(cwd, sizeof(cwd)) || asprintf(&abs, "%s/%s", cwd, base) < 0)
		return NULL;
	return abs;
}

char *daemon_config__client_base(const char *config, const char *base_opt)
{
	struct daemon_config cfg = { .sessions = LIST_HEAD_INIT(cfg.sessions) };
	struct config_error err = { 0 };
	char *path, *base = NULL;
	int ret;

	if (base_opt)
		return daemon_config__base(NULL, base_opt);
	path = daemon_config__path(config);
	if (!path)
		return NULL;
	cfg.path = path;
	ret = config__parse_file(path, config_item, &cfg, &err);
	if (ret && err.line)
		fprintf(stderr, "%s:%d: %s%s\n", path, err.line, err.msg,
			cfg.base ? " (the daemon keeps the config it had)" : "");
	else if (ret && err.msg[0])
		fprintf(stderr, "perf daemon: cannot read the config file %s: %s\n", path,
			err.msg);
	if (!ret || (err.line && cfg.base))
		base = daemon_config__base(&cfg, base_opt);
	daemon_config__exit(&cfg);
	free(path);
	return base;
}
