/*
 * perf daemon's pieces: the config file parser (util/config), the run line
 * splitter and a session's restart delays (util/daemon-session), the
 * daemon's reading of its config (util/daemon-config) and the reason start
 * gives for a session that cannot start (util/daemon-check).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/config.h"
#include "util/daemon-check.h"
#include "util/daemon-config.h"
#include "util/daemon-session.h"
#include "util/debug.h"

/* Every item as "section|key|value|line;" (value "(null)" for a bare key). */
static int collect(const char *section, const char *key, const char *value, int line, void *data)
{
	char *out = data;

	snprintf(out + strlen(out), 1024 - strlen(out), "%s|%s|%s|%d;", section, key,
		 value ? value : "(null)", line);
	return 0;
}

static int parse(const char *text, char *out, struct config_error *err)
{
	out[0] = '\0';
	return config__parse(text, strlen(text), collect, out, err);
}

static int test__config_parse(void)
{
	struct config_error err;
	char out[1024];

	TEST_ASSERT_EQUAL("a good file", parse(
		"# comment\n"
		"; another\n"
		"[Daemon]\n"
		"\tbase = /var/perf   # trailing comment\n"
		"\n"
		"[session-cycles]\r\n"
		"run = -m 10M -e cycles --overwrite -a\r\n"
		"[session \"Sub\"]\n"
		"  run=\"  keep # this  \"\n"
		"  flag\n", out, &err), 0);
	TEST_ASSERT_VAL(out, !strcmp(out,
		"daemon|base|/var/perf|4;"
		"session-cycles|run|-m 10M -e cycles --overwrite -a|7;"
		"session.Sub|run|  keep # this  |9;"
		"session.Sub|flag|(null)|10;"));
	TEST_ASSERT_EQUAL("escapes", parse("[a]\nk = x\\\"y\\\\z\\tw\n", out, &err), 0);
	TEST_ASSERT_VAL(out, !strcmp(out, "a|k|x\"y\\z\tw|2;"));
	TEST_ASSERT_EQUAL("no newline at the end", parse("[a]\nk=v", out, &err), 0);
	TEST_ASSERT_VAL(out, !strcmp(out, "a|k|v|2;"));

	TEST_ASSERT_EQUAL("unclosed header", parse("[a]\nk = v\n[session-x\n", out, &err), -EINVAL);
	TEST_ASSERT_EQUAL("its line", err.line, 3);
	TEST_ASSERT_VAL(err.msg, strstr(err.msg, "expected ']'"));
	TEST_ASSERT_EQUAL("junk", parse("[a]\n\njunk line\n", out, &err), -EINVAL);
	TEST_ASSERT_EQUAL("its line", err.line, 3);
	TEST_ASSERT_VAL(err.msg, strstr(err.msg, "not 'junk line'"));
	TEST_ASSERT_EQUAL("item before any section", parse("k = v\n", out, &err), -EINVAL);
	TEST_ASSERT_EQUAL("its line", err.line, 1);
	TEST_ASSERT_EQUAL("unclosed quote", parse("[a]\nk = \"v\n", out, &err), -EINVAL);
	TEST_ASSERT_VAL(err.msg, strstr(err.msg, "quoted value"));
	TEST_ASSERT_EQUAL("text after a header", parse("[a] b\n", out, &err), -EINVAL);
	TEST_ASSERT_EQUAL("empty section name", parse("[]\n", out, &err), -EINVAL);
	TEST_ASSERT_EQUAL("items before the error were seen", parse("[a]\nk=1\n=2\n", out, &err),
			  -EINVAL);
	TEST_ASSERT_VAL(out, !strcmp(out, "a|k|1|2;"));
	TEST_ASSERT_EQUAL("a missing file", config__parse_file("/nonexistent/perfconfig", collect,
							       out, &err), -ENOENT);
	TEST_ASSERT_EQUAL("no line for it", err.line, 0);
	return TEST_OK;
}
DEFINE_SUITE(config_parse, "perf config files: sections, values, quotes, errors with their line");

static int test__daemon_run_line(void)
{
	char **argv;

	TEST_ASSERT_EQUAL("words", argv__split("  -m 10M\t-e 'sched:*' -e \"a b\"c  ", &argv), 6);
	TEST_ASSERT_VAL("-m", !strcmp(argv[0], "-m"));
	TEST_ASSERT_VAL("10M", !strcmp(argv[1], "10M"));
	TEST_ASSERT_VAL("-e", !strcmp(argv[2], "-e"));
	TEST_ASSERT_VAL("single quotes", !strcmp(argv[3], "sched:*"));
	TEST_ASSERT_VAL("double quotes joined", !strcmp(argv[5], "a bc"));
	TEST_ASSERT_VAL("NULL at the end", argv[6] == NULL);
	free(argv);
	TEST_ASSERT_EQUAL("empty quotes are a word", argv__split("'' x", &argv), 2);
	TEST_ASSERT_VAL("empty", !strcmp(argv[0], ""));
	free(argv);
	TEST_ASSERT_EQUAL("nothing", argv__split("   ", &argv), 0);
	free(argv);
	TEST_ASSERT_EQUAL("unclosed quote", argv__split("-e 'x", &argv), -EINVAL);
	return TEST_OK;
}
DEFINE_SUITE(daemon_run_line, "perf daemon: run lines split into words, with quotes");

/* Writes @text to a new temporary file whose name is left in @path. */
static int write_config(char *path, const char *text)
{
	int fd = mkstemp(path);
	ssize_t len = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Config files with a typo, and what perf daemon says of each. */
static const struct { const char *text, *msg; } typos[] = {
	{ "[daemon]\nbase = /b\n[session-a]\nrn = -a\n",
	  "4: unknown key 'rn' in [session-a]: did you mean 'run'?" },
	{ "[daemon]\nbse = /b\n", "2: unknown key 'bse' in [daemon]: did you mean 'base'?" },
	{ "[daemon]\nbase = /b\nmax-sise = 1G\n",
	  "3: unknown key 'max-sise' in [daemon]: did you mean 'max-size'?" },
	{ "[daemon]\nbase = /b\n[session-a]\nrun = -a\nlog = x\n",
	  "5: unknown key 'log' in [session-a]" },
	{ "[daemon]\nbase = /b\n[sesion-a]\nrun = -a\n",
	  "4: unknown section [sesion-a]: did you mean [session-a]?" },
	{ "[daemn]\nbase = /b\n", "2: unknown section [daemn]: did you mean [daemon]?" },
};

/* daemon_config__read(), what it prints to stderr into @msg. */
static int read_quietly(struct daemon_config *cfg, const char *path, char *msg, size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO), ret;
	size_t n = 0;

	fflush(stderr);
	if (tmp && saved >= 0)
		dup2(fileno(tmp), STDERR_FILENO);
	ret = daemon_config__read(cfg, path);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (tmp) {
		rewind(tmp);
		n = fread(msg, 1, size - 1, tmp);
		fclose(tmp);
	}
	msg[n] = '\0';
	return ret;
}

static int test__daemon_config(void)
{
	char path[] = "/tmp/perf-test-daemon-config-XXXXXX";
	struct daemon_config cfg;
	struct daemon_session *s;
	char *base;
	int ret;

	TEST_ASSERT_VAL("write", !write_config(path,
		"[daemon]\nbase = /var/perf\n[record]\nfoo = 1\n"
		"[session-a]\nrun = -e cycles\n[session-b]\nrun = -a\n"
		"[session-a]\nrun = -e instructions -a\n"));
	ret = daemon_config__read(&cfg, path);
	TEST_ASSERT_EQUAL("read", ret, 0);
	TEST_ASSERT_VAL("base", cfg.base && !strcmp(cfg.base, "/var/perf"));
	s = daemon_sessions__find(&cfg.sessions, "a");
	TEST_ASSERT_VAL("a second run line replaces the first",
			s && !strcmp(s->run, "-e instructions -a"));
	TEST_ASSERT_VAL("the other session", daemon_sessions__find(&cfg.sessions, "b"));
	TEST_ASSERT_VAL("no such session", !daemon_sessions__find(&cfg.sessions, "c"));
	base = daemon_config__base(&cfg, NULL);
	TEST_ASSERT_VAL("daemon.base", base && !strcmp(base, "/var/perf"));
	free(base);
	base = daemon_config__base(&cfg, "/other");
	TEST_ASSERT_VAL("--base wins", base && !strcmp(base, "/other"));
	free(base);
	daemon_config__exit(&cfg);
	unlink(path);

	/* Broken after its base: the daemon refuses it, a client still finds the base. */
	strcpy(path, "/tmp/perf-test-daemon-config-XXXXXX");
	TEST_ASSERT_VAL("write", !write_config(path,
		"[daemon]\nbase = /var/perf\n[session-x]\nrun = \"unclosed\n"));
	fprintf(stderr, "(an error on line 4 of %s is expected)\n", path);
	TEST_ASSERT_EQUAL("a broken file", daemon_config__read(&cfg, path), -EINVAL);
	TEST_ASSERT_VAL("left empty", !cfg.base && list_empty(&cfg.sessions));
	base = daemon_config__client_base(path, NULL);
	TEST_ASSERT_VAL("the client's base", base && !strcmp(base, "/var/perf"));
	free(base);
	unlink(path);

	strcpy(path, "/tmp/perf-test-daemon-config-XXXXXX");
	TEST_ASSERT_VAL("write", !write_config(path, "[session-]\nrun = -a\n"));
	TEST_ASSERT_EQUAL("a session without a name", daemon_config__read(&cfg, path), -EINVAL);
	unlink(path);

	/* Typos in our sections, or of them: the line, the word, the nearest known one. */
	for (size_t i = 0; i < ARRAY_SIZE(typos); i++) {
		char msg[256], want[256];

		strcpy(path, "/tmp/perf-test-daemon-config-XXXXXX");
		TEST_ASSERT_VAL("write", !write_config(path, typos[i].text));
		TEST_ASSERT_EQUAL(typos[i].text, read_quietly(&cfg, path, msg, sizeof(msg)),
				  -EINVAL);
		snprintf(want, sizeof(want), "%s:%s\n", path, typos[i].msg);
		if (strcmp(msg, want)) {
			pr_debug("said '%s', not '%s'\n", msg, want);
			unlink(path);
			return TEST_FAIL;
		}
		TEST_ASSERT_VAL("left empty", !cfg.base && list_empty(&cfg.sessions));
		unlink(path);
	}
	return TEST_OK;
}
DEFINE_SUITE(daemon_config, "perf daemon: its config read into a base and sessions");

/* A session whose "recorder" is a child that exits at once with @code. */
static int die_once(struct daemon_session *s, int code)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(code);
	s->child.pid = pid;
	s->start = time(NULL);
	while (!daemon_session__collect(s))
		usleep(1000);
	daemon_session__schedule_restart(s);
	return 0;
}

static int test__daemon_backoff(void)
{
	struct daemon_session *s = daemon_session__new("/nonexistent", "x", "-a");
	int want[] = { 1, 2, 4, 8, 16, 32, 60, 60 };
	char how[64];

	TEST_ASSERT_VAL("new session", s);
	TEST_ASSERT_VAL("its directory", !strcmp(s->dir, "/nonexistent/session-x"));
	TEST_ASSERT_EQUAL("not running", s->child.pid, -1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		long long before = daemon_session__now(), delay;

		TEST_ASSERT_EQUAL("fork", die_once(s, 3), 0);
		delay = s->restart_at - before;
		/* The delay, give or take the time the reap itself took. */
		TEST_ASSERT_VAL("restart scheduled", delay >= want[i] * 1000LL - 50 &&
				delay <= want[i] * 1000LL + 1000);
	}
	TEST_ASSERT_EQUAL("reaped", s->child.pid, -1);
	daemon_session__describe_status(s->last_status, how, sizeof(how));
	TEST_ASSERT_VAL(how, !strcmp(how, "exited 3"));
	/* A recorder that ran long enough starts the delays over. */
	s->backoff = SESSION_BACKOFF_MAX;
	{
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		s->child.pid = pid;
		s->start = time(NULL) - SESSION_BACKOFF_RESET;
		while (!daemon_session__collect(s))
			usleep(1000);
		daemon_session__schedule_restart(s);
	}
	TEST_ASSERT_VAL("after a long run, 1 s", s->restart_at - daemon_session__now() <= 1000);
	daemon_session__describe_status(W_EXITCODE(0, SIGKILL), how, sizeof(how));
	TEST_ASSERT_VAL(how, !strcmp(how, "killed by signal 9 (Killed)"));
	daemon_session__describe_status(-1, how, sizeof(how));
	TEST_ASSERT_VAL(how, !strcmp(how, "none"));
	daemon_session__delete(s);
	return TEST_OK;
}
DEFINE_SUITE(daemon_backoff, "perf daemon: a dying recorder is restarted after 1, 2, 4 ... 60 s");

static int test__daemon_answers(void)
{
	char dir[] = "/tmp/perf-daemon-test.XXXXXX", path[PATH_MAX], line[300];
	struct daemon_session *s;
	const char *arg;
	int wr = -1, ret = TEST_FAIL;

	TEST_ASSERT_EQUAL("ack", daemon_session__parse_answer("ack", &arg), ANSWER_ACK);
	TEST_ASSERT_EQUAL("ack FILE", daemon_session__parse_answer("ack /x/perf.data.1", &arg),
			  ANSWER_DUMP);
	TEST_ASSERT_VAL(arg, !strcmp(arg, "/x/perf.data.1"));
	TEST_ASSERT_EQUAL("ack and a blank", daemon_session__parse_answer("ack ", &arg), ANSWER_ACK);
	TEST_ASSERT_EQUAL("snapshot error", daemon_session__parse_answer(
		"error: snapshot needs --switch-output", &arg), ANSWER_ERROR);
	TEST_ASSERT_VAL(arg, !strcmp(arg, "snapshot needs --switch-output"));
	/* Any error ends the wait for a dump, whether or not it says "snapshot". */
	TEST_ASSERT_EQUAL("failed dump", daemon_session__parse_answer(
		"error: the dump failed (see the recorder's messages)", &arg), ANSWER_ERROR);
	TEST_ASSERT_VAL(arg, !strncmp(arg, "the dump failed", 15));
	TEST_ASSERT_EQUAL("other error", daemon_session__parse_answer(
		"error: unknown command 'x'", &arg), ANSWER_ERROR);
	TEST_ASSERT_EQUAL("error without a colon", daemon_session__parse_answer(
		"errors", &arg), ANSWER_OTHER);
	TEST_ASSERT_EQUAL("acknowledged is not ack", daemon_session__parse_answer("acked", &arg),
			  ANSWER_OTHER);

	/* Lines come whole from the fifo, however the writes split them. */
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	s = daemon_session__new(dir, "t", "-a");
	TEST_ASSERT_VAL("session", s);
	snprintf(path, sizeof(path), "%s/session-t/%s", dir, SESSION_ACK);
	if (mkdir(s->dir, 0700) < 0 || mkfifo(path, 0600) < 0)
		goto out;
	s->ack_fd = open(path, O_RDONLY | O_NONBLOCK);
	wr = open(path, O_WRONLY);
	if (s->ack_fd < 0 || wr < 0)
		goto out;
	if (daemon_session__read_ack(s, line, sizeof(line)) != 0)
		goto out_fail;
	if (write(wr, "ack\nack /a/perf.d", 17) != 17 ||
	    daemon_session__read_ack(s, line, sizeof(line)) != 1 || strcmp(line, "ack") ||
	    daemon_session__read_ack(s, line, sizeof(line)) != 0)
		goto out_fail;
	if (write(wr, "ata.1\nerror: x\n", 15) != 15 ||
	    daemon_session__read_ack(s, line, sizeof(line)) != 1 ||
	    strcmp(line, "ack /a/perf.data.1") ||
	    daemon_session__read_ack(s, line, sizeof(line)) != 1 || strcmp(line, "error: x") ||
	    daemon_session__read_ack(s, line, sizeof(line)) != 0)
		goto out_fail;
	ret = TEST_OK;
out_fail:
	if (ret)
		fprintf(stderr, "FAILED: the ack lines read back wrong (last: '%s')\n", line);
out:
	if (wr >= 0)
		close(wr);
	unlink(path);
	rmdir(s->dir);
	rmdir(dir);
	daemon_session__delete(s);
	return ret;
}
DEFINE_SUITE(daemon_answers, "perf daemon: the recorder's answers, read whole from the ack fifo");

/* The reason start gives for a session that cannot start, from @output. */
static int reason_of(const char *output, char *why, size_t size)
{
	char path[] = "/tmp/perf-test-daemon-reason-XXXXXX";

	if (write_config(path, output))
		return -1;
	daemon_check__reason(path, why, size);
	unlink(path);
	return 0;
}

static int test__daemon_check_reason(void)
{
	char why[256];

	/* An option perf record refused: its "Error:" line, after the usage's first lines. */
	TEST_ASSERT_VAL("refused option", !reason_of("\n Usage: perf record [<options>]\n\n"
		"  Error: unknown option `bogus'\n\n    -a, --all-cpus  ...\n", why, sizeof(why)));
	TEST_ASSERT_VAL("refused option's line", !strcmp(why, "unknown option `bogus'"));
	/* Otherwise its first words, without the blanks around them. */
	TEST_ASSERT_VAL("unknown event", !reason_of("\n  event syntax error: 'nosuch'  \n"
		"   \\___ unknown event\n", why, sizeof(why)));
	TEST_ASSERT_VAL("unknown event's line", !strcmp(why, "event syntax error: 'nosuch'"));
	TEST_ASSERT_VAL("silent recorder", !reason_of("\n \n", why, sizeof(why)));
	TEST_ASSERT_VAL("silent recorder's line", !strcmp(why, ""));
	daemon_check__reason("/nonexistent/output", why, sizeof(why));
	TEST_ASSERT_VAL("no output file", !strcmp(why, ""));
	return 0;
}
DEFINE_SUITE(daemon_check_reason, "perf daemon start: a recorder's error line, from its output");
