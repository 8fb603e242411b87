#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "workload.h"

int workload__check(const char *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0 ? 0 : -errno;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? path : ".", cmd);
		if (access(buf, X_OK) == 0)
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return -ENOENT;
}

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

int workload__prepare(struct workload *w, const char **argv, const sigset_t *mask)
{
	int cork[2], fail[2];
	pid_t pid;

	if (pipe2(cork, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(fail, O_CLOEXEC) < 0) {
		close_pair(cork);
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close_pair(cork);
		close_pair(fail);
		return err;
	}
	if (pid == 0) {
		char c;
		int err;

		close(cork[1]);
		close(fail[0]);
		/*
		 * Until its exec it is a copy of perf: named apart from it, as the
		 * distro names it, so that --exclude-perf and readers tell them apart.
		 */
		prctl(PR_SET_NAME, WORKLOAD_COMM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		if (read(cork[0], &c, 1) != 1)
			_exit(127);
		/* Text a workload prints would land inside perf's data stream. */
		if (w->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], (char * const *)argv);
		err = errno;
		if (write(fail[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(cork[0]);
	close(fail[1]);
	w->pid = pid;
	w->cork_fd = cork[1];
	w->exec_fail_fd = fail[0];
	return 0;
}

int workload__start(struct workload *w)
{
	int err = 0;
	ssize_t n;

	if (write(w->cork_fd, "x", 1) != 1)
		err = -errno;
	close(w->cork_fd);
	w->cork_fd = -1;
	if (err)
		return err;
	/* EOF: exec succeeded (the pipe is close-on-exec). */
	do {
		n = read(w->exec_fail_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(w->exec_fail_fd);
	w->exec_fail_fd = -1;
	return n == sizeof(err) ? -err : 0;
}

void workload__kill(struct workload *w)
{
	if (w->pid <= 0 || w->reaped)
		return;
	if (w->cork_fd >= 0) {
		/* Never started: closing the cork makes it exit. */
		close(w->cork_fd);
		w->cork_fd = -1;
	} else {
		kill(w->pid, SIGTERM);
	}
	waitpid(w->pid, NULL, 0);
	w->reaped = true;
}

void workload__reap(struct workload *w, bool block)
{
	int status;

	if (w->pid <= 0 || w->reaped)
		return;
	if (waitpid(w->pid, &status, block ? 0 : WNOHANG) == w->pid) {
		w->reaped = true;
		if (WIFEXITED(status))
			w->status = WEXITSTATUS(status);
	}
}
