/* perf evlist: the events recorded in a perf.data file (-v: every attr field). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/session.h"
#include "util/debug.h"

static const char evlist_usage[] = "perf evlist [<options>]";
static const char * const evlist_options[] = {
	"-i, --input <file>    Input file name (default perf.data)",
	"-v, --verbose         Show all event attr details",
	NULL
};

/* Prints why a file could not be opened, with what to do about it. */
void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg);

void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg)
{
	if (err == -ENOENT)
		fprintf(stderr, "perf %s: failed to open %s: %s (try 'perf record' first)\n",
			cmd, path, strerror(-err));
	else if (err == -EISDIR)
		fprintf(stderr, "perf %s: %s is a directory, not a perf.data file.\n", cmd, path);
	else if (err == -EINVAL && msg && msg[0])
		fprintf(stderr, "perf %s: %s: %s\n", cmd, path, msg);
	else
		fprintf(stderr, "perf %s: cannot read %s: %s\n", cmd, path, strerror(-err));
}

int cmd_evlist(int argc, const char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *input = perf_session__default_input();
	struct perf_session *s;
	char msg[256];
	bool details = false;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+i:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'v':
			details = true;
			break;
		case 'h':
			usage_with_options(evlist_usage, evlist_options);
			return 0;
		default:
			usage_with_options(evlist_usage, evlist_options);
			return 129;
		}
	}
	s = perf_session__open(input, &err, msg, sizeof(msg));
	if (!s) {
		perf_session__report_open_error("evlist", input, err, msg);
		return 1;
	}
	evlist__fprintf_events(stdout, s->evlist, details);
	perf_session__delete(s);
	return 0;
}
