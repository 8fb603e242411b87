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

static int config_item(const char *section, const char *key, const char *value, int line,
		       void *data)
{
	struct daemon_config *cfg = data;
	struct daemon_session *s;

	if (!strcmp(section, "daemon") && !strcmp(key, "base")) {
		if (!value || !*value) {
			fprintf(stderr, "%s:%d: expected 'base = <directory>'\n", cfg->path, line);
			return -EINVAL;
		}
		free(cfg->base);
		cfg->base = strdup(value);
		return cfg->base ? 0 : -ENOMEM;
	}
	if (!strcmp(section, "daemon") && !strcmp(key, "max-size")) {
		if (daemon_budget__parse(value, &cfg->max_size)) {
			fprintf(stderr, "%s:%d: expected 'max-size = <size>', a size above 0 in "
				"bytes or with K, M or G (e.g. 1G)\n", cfg->path, line);
			return -EINVAL;
		}
		return 0;
	}
	/* Other perf settings share the file: they are not ours to judge. */
	if (strncmp(section, "session-", 8) || strcmp(key, "run"))
		return 0;
	if (!section[8]) {
		fprintf(stderr, "%s:%d: expected a name after '[session-'\n", cfg->path, line);
		return -EINVAL;
	}
	if (!value || !*value) {
		fprintf(stderr, "%s:%d: expected 'run = <perf record arguments>'\n", cfg->path,
			line);
		return -EINVAL;
	}
	{
		char **argv;

		if (argv__split(value, &argv) < 0) {
			fprintf(stderr, "%s:%d: expected a closing quote in the run line\n",
				cfg->path, line);
			return -EINVAL;
		}
		free(argv);
	}
	/* A second run line for a session replaces the first, as perf config reads it. */
	s = daemon_sessions__find(&cfg->sessions, section + 8);
	if (s) {
		char *run = strdup(value);

		if (!run)
			return -ENOMEM;
		free(s->run);
		s->run = run;
		return 0;
	}
	/* The directory is filled in once the base is known. */
	s = daemon_session__new("", section + 8, value);
	if (!s)
		return -ENOMEM;
	list_add_tail(&s->node, &cfg->sessions);
	return 0;
}

/*
 * Reads @path into @cfg.  A malformed file is reported on stderr as
 * "file:line: expected ..." and leaves -EINVAL.
 */
int daemon_config__read(struct daemon_config *cfg, const char *path)
{
	struct config_error err;
	int ret;

	cfg->path = path;
	cfg->base = NULL;
	cfg->max_size = 0;
	INIT_LIST_HEAD(&cfg->sessions);
	ret = config__parse_file(path, config_item, cfg, &err);
	if (ret == -EINVAL && err.line)
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
	struct config_error err;
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
