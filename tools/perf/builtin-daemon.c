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
#include "util/parse-options.h"
#include "util/types.h"

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

/* The distro's synopsis, for -h of the command and of each subcommand. */
static const char * const daemon_usage[] = {
	"perf daemon start [<options>]",
	"perf daemon [<options>]",
	NULL
};

/*
 * Which -h lists an option.  Every option is taken before and after the
 * command word, as it always was; one given to a subcommand it does not
 * fit is refused after parsing, in one message that says where it goes.
 */
enum daemon_cmd {
	DAEMON_LIST,	/* no command word: the global options */
	DAEMON_START,
	DAEMON_STOP,
	DAEMON_SIGNAL,
	DAEMON_PING,
	DAEMON_OTHER,	/* a word we do not know: refused after parsing */
};

static enum daemon_cmd daemon_cmd__parse(const char *word)
{
	static const char * const names[] = {
		[DAEMON_START] = "start", [DAEMON_STOP] = "stop",
		[DAEMON_SIGNAL] = "signal", [DAEMON_PING] = "ping",
	};

	if (!word)
		return DAEMON_LIST;
	for (size_t i = DAEMON_START; i <= DAEMON_PING; i++)
		if (!strcmp(word, names[i]))
			return i;
	return DAEMON_OTHER;
}

/* ---- the clients ------------------------------------------------------------ */

/* Sends @request to the daemon on @base and relays its answer; the exit code. */
static int send_request(const char *base, const char *request)
{
	struct sockaddr_un addr;
	char *line = NULL;
	size_t cap = 0;
	int fd, ret = PERF_EXIT_FAILURE;
	ssize_t n;
	FILE *in;

	if (daemon_server__address(base, &addr))
		return PERF_EXIT_FAILURE;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "perf daemon: no daemon answers on %s (%s): start one with "
			"'perf daemon start'.\n", addr.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return PERF_EXIT_FAILURE;
	}
	if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
		fprintf(stderr, "perf daemon: cannot send to %s: %s\n", addr.sun_path,
			strerror(errno));
		close(fd);
		return PERF_EXIT_FAILURE;
	}
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		return PERF_EXIT_FAILURE;
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
	if (ret == PERF_EXIT_FAILURE)
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
		return PERF_EXIT_FAILURE;
	ret = send_request(base, request);
	free(base);
	return ret;
}

/* ---- the command line ------------------------------------------------------- */

static int daemon__opt_sep(const struct perf_option *opt, const char *arg, int unset)
{
	struct daemon_opts *opts = opt->value;

	opts->csv_sep = unset ? 0 : arg ? arg[0] : ',';
	return 0;
}

static int daemon__opt_wait(const struct perf_option *opt, const char *arg, int unset)
{
	struct daemon_opts *opts = opt->value;

	if (unset) {
		opts->wait_s = 0;
		return 0;
	}
	opts->wait_s = arg ? atoi(arg) : DUMP_TIMEOUT_S;
	if (opts->wait_s <= 0) {
		fprintf(stderr, "perf daemon: --wait takes a number of seconds > 0, not '%s'\n",
			arg);
		return -1;
	}
	return 0;
}

/* An option and the commands whose -h lists it (1 << enum daemon_cmd). */
struct daemon_row {
	unsigned shown_by;
	struct perf_option opt;
};

/* @rows as the table for @cmd: the rows of other commands hidden, not left out. */
static void daemon__table(struct perf_option *table, const struct daemon_row *rows, size_t n,
			  enum daemon_cmd cmd)
{
	for (size_t i = 0; i < n; i++) {
		table[i] = rows[i].opt;
		if (!(rows[i].shown_by & (1u << cmd)))
			table[i].flags |= PARSE_OPT_HIDDEN;
	}
	table[n] = (struct perf_option)OPT_END_WORDS("perf daemon: unexpected argument '%s'\n");
}

/* The options the command line gave that its command does not take, refused. */
static bool daemon_opts__fit(const struct daemon_opts *opts, enum daemon_cmd cmd)
{
	if ((opts->session && cmd != DAEMON_SIGNAL && cmd != DAEMON_PING) ||
	    (opts->wait_s && cmd != DAEMON_SIGNAL) ||
	    (opts->foreground && cmd != DAEMON_START)) {
		fprintf(stderr, "perf daemon: --session goes with signal and ping, --wait with "
			"signal, --foreground with start.\n");
		return false;
	}
	return true;
}

/*
 * The options before the command word, then the word, then the options
 * after it, into @opts; *@cmd is the word (NULL: none, a list).  Returns
 * -1 to go on, or the exit status of a command line that ends here.
 */
static int daemon__parse(struct daemon_opts *opts, int argc, const char **argv, const char **cmd)
{
	const unsigned list = 1u << DAEMON_LIST, start = 1u << DAEMON_START;
	const unsigned signal = 1u << DAEMON_SIGNAL, ping = 1u << DAEMON_PING;
	const struct daemon_row rows[] = {
		{ list, OPT_INCR('v', "verbose", &verbose,
				 "list more about the daemon and each session") },
		{ list, OPT_CALLBACK_OPTARG('x', "field-separator", opts, "sep",
					    "list one line per entry, fields split by SEP (',')",
					    daemon__opt_sep) },
		{ list, OPT_STRING(0, "config", &opts->config, "file",
				   "the config file (default /etc/perfconfig, ~/.perfconfig)") },
		{ list, OPT_STRING(0, "base", &opts->base, "dir",
				   "the base directory, instead of daemon.base") },
		{ start, OPT_BOOLEAN('f', "foreground", &opts->foreground,
				     "do not go to the background") },
		{ signal | ping, OPT_STRING(0, "session", &opts->session, "name",
					    "only this session") },
		{ signal, OPT_CALLBACK_OPTARG(0, "wait", opts, "secs",
					      "ask for a dump, wait for it, print its path (60 s)",
					      daemon__opt_wait) },
	};
	struct perf_option table[ARRAY_SIZE(rows) + 1];

	*cmd = NULL;
	daemon__table(table, rows, ARRAY_SIZE(rows), DAEMON_LIST);
	argc = parse_options(argc, argv, table, daemon_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc > 0) {
		/* argv[0] is the command word: it stands where the program's name did. */
		*cmd = argv[0];
		daemon__table(table, rows, ARRAY_SIZE(rows), daemon_cmd__parse(*cmd));
		argc = parse_options(argc, argv, table, daemon_usage, PARSE_OPT_NO_WORDS);
	}
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (opts->session && (strchr(opts->session, ' ') || !opts->session[0])) {
		fprintf(stderr, "perf daemon: no session is named '%s'\n", opts->session);
		return PERF_EXIT_FAILURE;
	}
	if (!daemon_opts__fit(opts, daemon_cmd__parse(*cmd))) {
		parse_options__usage(stderr, daemon_usage, table);
		return PERF_EXIT_USAGE;
	}
	return -1;
}

int cmd_daemon(int argc, const char **argv)
{
	struct daemon_opts opts = { 0 };
	const char *word;
	enum daemon_cmd cmd;
	char request[256];
	int ret;

	ret = daemon__parse(&opts, argc, argv, &word);
	if (ret >= 0)
		return ret;
	cmd = daemon_cmd__parse(word);
	switch (cmd) {
	case DAEMON_LIST:
		snprintf(request, sizeof(request), "list %d %d\n", verbose,
			 (unsigned char)opts.csv_sep);
		break;
	case DAEMON_START:
		return daemon_server__run(opts.config, opts.base, opts.foreground);
	case DAEMON_STOP:
		snprintf(request, sizeof(request), "stop\n");
		break;
	case DAEMON_SIGNAL:
		snprintf(request, sizeof(request), "signal %d %s\n", opts.wait_s,
			 opts.session ? opts.session : "all");
		break;
	case DAEMON_PING:
		snprintf(request, sizeof(request), "ping %s\n", opts.session ? opts.session : "all");
		break;
	case DAEMON_OTHER:
	default:
		fprintf(stderr, "perf daemon: unknown command '%s': use start, stop, signal or "
			"ping, or nothing to list the sessions.\n", word);
		return PERF_EXIT_FAILURE;
	}
	ret = daemon_client(&opts, request);
	/*
	 * Scripts written for perf daemon take ping's FAIL lines and signal's
	 * missed sessions from the output: the status stays 0 for those, as
	 * it always was.  Only --wait, which has no such past, says it failed.
	 */
	if (ret == 1 && (cmd == DAEMON_PING || (cmd == DAEMON_SIGNAL && !opts.wait_s)))
		ret = 0;
	return ret;
}
