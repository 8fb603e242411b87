/*
 * perf daemon: keeps named `perf record` sessions running in the background.
 *
 * The sessions come from a perf config file:
 *
 *	[daemon]
 *	base = /var/lib/perf-daemon
 *	[session-cycles]
 *	run = -m 10M -e cycles --overwrite --switch-output -a
 *
 * `perf daemon start` takes a lock on BASE, listens on the unix socket
 * BASE/control and runs each session in BASE/session-NAME (see
 * util/daemon-session.h).  The other commands (list, signal, ping, stop)
 * are clients: one request line on that socket, answered by tagged lines
 *
 *	o TEXT		print TEXT on stdout
 *	e TEXT		print TEXT on stderr
 *	x CODE		the command's exit code; the last line
 *
 * `signal --wait` asks each recorder for a dump with the control command
 * "snapshot", whose answer "ack FILE" comes once FILE is complete; the
 * daemon reads every session's ack fifo in its loop and answers the client
 * when all have come.
 *
 * The daemon reloads the config when its file is rewritten (inotify on its
 * directory) or on SIGHUP, and starts again, after a growing delay, any
 * recorder that dies.  The config is util/daemon-config, the daemon process
 * util/daemon-server; this file is the command line and the clients.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "builtin.h"
#include "util/daemon-config.h"
#include "util/daemon-server.h"
#include "util/debug.h"

/* How long `signal --wait` waits for a dump when not told. */
#define DUMP_TIMEOUT_S	60

/* What the command line asked for, shared by every subcommand. */
struct daemon_opts {
	const char *config;	/* --config */
	const char *base;	/* --base: wins over daemon.base */
	const char *session;	/* --session */
	char csv_sep;		/* -x; 0: the bracketed layout */
	bool foreground;
	int wait_s;		/* signal --wait[=SECS]; 0: do not wait */
};

static const char daemon_usage[] =
	"perf daemon [start|stop|signal|ping] [<options>]";
static const char * const daemon_options[] = {
	"-v, --verbose            list more about the daemon and each session",
	"-x, --field-separator[=SEP]  list one line per entry, fields split by SEP (',')",
	"    --config <file>      the config file (default /etc/perfconfig, ~/.perfconfig)",
	"    --base <dir>         the base directory, instead of daemon.base",
	"-f, --foreground         (start) do not go to the background",
	"    --session <name>     (signal, ping) only this session",
	"    --wait[=<secs>]      (signal) ask for a dump, wait for it, print its path (60 s)",
	NULL
};

/* ---- the clients ------------------------------------------------------------ */

/* Sends @request to the daemon on @base and relays its answer; the exit code. */
static int send_request(const char *base, const char *request)
{
	struct sockaddr_un addr;
	char *line = NULL;
	size_t cap = 0;
	int fd, ret = 255;
	ssize_t n;
	FILE *in;

	if (daemon_server__address(base, &addr))
		return 255;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "perf daemon: no daemon answers on %s (%s): start one with "
			"'perf daemon start'.\n", addr.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 255;
	}
	if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
		fprintf(stderr, "perf daemon: cannot send to %s: %s\n", addr.sun_path,
			strerror(errno));
		close(fd);
		return 255;
	}
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		return 255;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		char *text = line + 2;

		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (n < 2)
			continue;
		if (line[0] == 'o') {
			printf("%s\n", text);
		} else if (line[0] == 'e') {
			fprintf(stderr, "%s\n", text);
		} else if (line[0] == 'x') {
			ret = atoi(text);
		}
		fflush(stdout);
	}
	if (ret == 255)
		fprintf(stderr, "perf daemon: the daemon on %s hung up without an answer\n", base);
	free(line);
	fclose(in);
	return ret;
}

static int daemon_client(const struct daemon_opts *opts, const char *request)
{
	char *base = daemon_config__client_base(opts->config, opts->base);
	int ret;

	if (!base)
		return 255;
	ret = send_request(base, request);
	free(base);
	return ret;
}

int cmd_daemon(int argc, const char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "field-separator", optional_argument, NULL, 'x' },
		{ "config", required_argument, NULL, 'C' },
		{ "base", required_argument, NULL, 'B' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "session", required_argument, NULL, 'S' },
		{ "wait", optional_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct daemon_opts opts = { 0 };
	const char *cmd = NULL;
	char request[256];
	int c, ret;

	/* Options may come before and after the command word, as in "perf daemon -v ping". */
	optind = 1;
	for (;;) {
		c = getopt_long(argc, (char **)argv, "+vx::fh", longopts, NULL);
		if (c == -1) {
			if (optind < argc && !cmd) {
				cmd = argv[optind++];
				continue;
			}
			break;
		}
		switch (c) {
		case 'v':
			verbose++;
			break;
		case 'x':
			opts.csv_sep = optarg ? optarg[0] : ',';
			break;
		case 'C':
			opts.config = optarg;
			break;
		case 'B':
			opts.base = optarg;
			break;
		case 'f':
			opts.foreground = true;
			break;
		case 'S':
			opts.session = optarg;
			break;
		case 'W':
			opts.wait_s = optarg ? atoi(optarg) : DUMP_TIMEOUT_S;
			if (opts.wait_s <= 0) {
				fprintf(stderr, "perf daemon: --wait takes a number of seconds > 0, "
					"not '%s'\n", optarg);
				return 129;
			}
			break;
		case 'h':
			usage_with_options(daemon_usage, daemon_options);
			return 0;
		default:
			usage_with_options(daemon_usage, daemon_options);
			return 129;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perf daemon: unexpected argument '%s'\n", argv[optind]);
		usage_with_options(daemon_usage, daemon_options);
		return 129;
	}
	if (opts.session && (strchr(opts.session, ' ') || !opts.session[0])) {
		fprintf(stderr, "perf daemon: no session is named '%s'\n", opts.session);
		return 255;
	}
	if ((opts.session && (!cmd || (strcmp(cmd, "signal") && strcmp(cmd, "ping")))) ||
	    (opts.wait_s && (!cmd || strcmp(cmd, "signal"))) ||
	    (opts.foreground && (!cmd || strcmp(cmd, "start")))) {
		fprintf(stderr, "perf daemon: --session goes with signal and ping, --wait with "
			"signal, --foreground with start.\n");
		usage_with_options(daemon_usage, daemon_options);
		return 129;
	}
	if (!cmd) {
		snprintf(request, sizeof(request), "list %d %d\n", verbose,
			 (unsigned char)opts.csv_sep);
	} else if (!strcmp(cmd, "start")) {
		return daemon_server__run(opts.config, opts.base, opts.foreground);
	} else if (!strcmp(cmd, "stop")) {
		snprintf(request, sizeof(request), "stop\n");
	} else if (!strcmp(cmd, "signal")) {
		snprintf(request, sizeof(request), "signal %d %s\n", opts.wait_s,
			 opts.session ? opts.session : "all");
	} else if (!strcmp(cmd, "ping")) {
		snprintf(request, sizeof(request), "ping %s\n", opts.session ? opts.session : "all");
	} else {
		fprintf(stderr, "perf daemon: unknown command '%s': use start, stop, signal or "
			"ping, or nothing to list the sessions.\n", cmd);
		return 255;
	}
	ret = daemon_client(&opts, request);
	/*
	 * Scripts written for perf daemon take ping's FAIL lines and signal's
	 * missed sessions from the output: the status stays 0 for those, as
	 * it always was.  Only --wait, which has no such past, says it failed.
	 */
	if (ret == 1 && cmd && (!strcmp(cmd, "ping") || (!strcmp(cmd, "signal") && !opts.wait_s)))
		ret = 0;
	return ret;
}
