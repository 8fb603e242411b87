/*
 * Starting, holding and reaping one child process (run-command.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "run-command.h"
#include "fd-io.h"

int run_command__find(const char *cmd)
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

void child_process__init(struct child_process *cp)
{
	*cp = (struct child_process)CHILD_PROCESS_INIT;
}

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* In the child: puts @fd, or the file @path opened with @flags, in place of @target. */
static int child__redirect(int target, int fd, const char *path, int flags)
{
	int err = 0;

	if (path) {
		fd = open(path, flags, 0644);
		if (fd < 0)
			return -errno;
	}
	if (fd < 0 || fd == target)
		return 0;
	if (dup2(fd, target) < 0)
		err = -errno;
	if (path)
		close(fd);
	return err;
}

/* In the child: the directory and stdio it runs with.  0 or -errno. */
static int child__setup_stdio(struct child_process *cp)
{
	int out_flags = O_WRONLY | O_CREAT | (cp->out_append ? O_APPEND : O_TRUNC);
	int err;

	if (cp->dir && chdir(cp->dir) < 0)
		return -errno;
	err = child__redirect(STDOUT_FILENO, cp->out, cp->out_path, out_flags);
	if (!err && cp->err_to_out)
		err = dup2(STDOUT_FILENO, STDERR_FILENO) < 0 ? -errno : 0;
	else if (!err)
		err = child__redirect(STDERR_FILENO, cp->err, NULL, 0);
	if (!err)
		err = child__redirect(STDIN_FILENO, cp->in, cp->in_path, O_RDONLY);
	return err;
}

/* In the child: its signals as asked, before anything may arrive for it. */
static void child__setup_signals(struct child_process *cp)
{
	if (cp->dfl) {
		for (int sig = 1; sig < NSIG; sig++)
			if (sigismember(cp->dfl, sig) == 1)
				signal(sig, SIG_DFL);
	}
	if (cp->mask)
		sigprocmask(SIG_SETMASK, cp->mask, NULL);
}

/* In the child, from the fork on; never returns. */
static void __attribute__((noreturn))
child__run(struct child_process *cp, char **envp, pid_t parent, int hold_fd, int fail_fd)
{
	int err = 0;
	char c;

	if (cp->new_pgrp)
		setpgid(0, 0);
	if (cp->death_signal) {
		prctl(PR_SET_PDEATHSIG, cp->death_signal);
		/* Gone between the fork and the prctl: nobody is left to wait for us. */
		if (getppid() != parent)
			_exit(127);
	}
	/*
	 * Until its exec it is a copy of perf: a name of its own lets readers
	 * (and --exclude-perf) tell the two apart.
	 */
	if (cp->comm)
		prctl(PR_SET_NAME, cp->comm);
	child__setup_signals(cp);
	/* EOF instead of the byte: perf gave up on it before its start. */
	if (hold_fd >= 0 && read(hold_fd, &c, 1) != 1)
		_exit(127);
	err = child__setup_stdio(cp);
	if (!err) {
		const char *file = cp->file ? cp->file : cp->argv[0];

		if (envp)
			execvpe(file, (char * const *)cp->argv, envp);
		else
			execvp(file, (char * const *)cp->argv);
		err = -errno;
	}
	err = -err;
	if (write(fail_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* Waits for the child's exec: EOF on the pipe (close-on-exec), or its errno. */
static int child_process__exec_result(struct child_process *cp)
{
	int err, rc;

	rc = fd__read_all(cp->exec_fail_fd, &err, sizeof(err));
	close(cp->exec_fail_fd);
	cp->exec_fail_fd = -1;
	/* The pipe ended (or failed) before a whole errno: the exec went through. */
	if (rc)
		return 0;
	cp->exec_errno = err;
	return -err;
}

/* Whether "NAME=..." @entry names the variable one of @env sets. */
static bool env__replaced(const char *entry, const char * const *env)
{
	size_t len = strcspn(entry, "=");

	for (; *env; env++)
		if (!strncmp(*env, entry, len) && (*env)[len] == '=')
			return true;
	return false;
}

/*
 * perf's environment with @env's entries in it, built before the fork (the
 * child of a process with threads may not allocate); NULL for no memory.
 */
static char **env__build(const char * const *env)
{
	size_t n = 0, add = 0, i = 0;
	char **envp;

	while (environ && environ[n])
		n++;
	while (env[add])
		add++;
	envp = calloc(n + add + 1, sizeof(*envp));
	if (!envp)
		return NULL;
	for (size_t k = 0; k < n; k++)
		if (!env__replaced(environ[k], env))
			envp[i++] = environ[k];
	for (size_t k = 0; k < add; k++)
		envp[i++] = (char *)env[k];
	return envp;
}

int child_process__start(struct child_process *cp)
{
	int hold[2] = { -1, -1 }, fail[2], err;
	pid_t pid, parent = getpid();
	char **envp = NULL;
	sigset_t old;

	if (cp->env) {
		envp = env__build(cp->env);
		if (!envp)
			return -ENOMEM;
	}
	if (cp->hold && pipe2(hold, O_CLOEXEC) < 0) {
		err = -errno;
		goto out_env;
	}
	if (pipe2(fail, O_CLOEXEC) < 0) {
		err = -errno;
		if (cp->hold)
			close_pair(hold);
		goto out_env;
	}
	/* What perf buffered must not be written twice, once by the child too. */
	fflush(stdout);
	fflush(stderr);
	/*
	 * What the child is to block is blocked across the fork, so that none
	 * of it reaches the child before child__setup_signals(); perf gets
	 * any that came for it meanwhile once its mask is back.
	 */
	if (cp->mask)
		sigprocmask(SIG_BLOCK, cp->mask, &old);
	pid = fork();
	if (pid == 0) {
		if (cp->hold)
			close(hold[1]);
		close(fail[0]);
		child__run(cp, envp, parent, hold[0], fail[1]);
	}
	err = pid < 0 ? -errno : 0;
	if (cp->mask)
		sigprocmask(SIG_SETMASK, &old, NULL);
	free(envp);
	if (pid < 0) {
		if (cp->hold)
			close_pair(hold);
		close_pair(fail);
		return err;
	}
	/* Both sides set the group, so a signal sent to it right away reaches it. */
	if (cp->new_pgrp)
		setpgid(pid, pid);
	close(fail[1]);
	cp->pid = pid;
	cp->status = -1;
	cp->exec_errno = 0;
	cp->exec_fail_fd = fail[0];
	if (cp->hold) {
		close(hold[0]);
		cp->hold_fd = hold[1];
		return 0;
	}
	return child_process__exec_result(cp);

out_env:
	free(envp);
	return err;
}

bool child_process__held(const struct child_process *cp)
{
	return cp->hold_fd >= 0;
}

int child_process__release(struct child_process *cp)
{
	int err = 0;

	if (cp->hold_fd < 0)
		return -EINVAL;
	if (write(cp->hold_fd, "x", 1) != 1)
		err = -errno;
	close(cp->hold_fd);
	cp->hold_fd = -1;
	return err ? err : child_process__exec_result(cp);
}

int child_process__wait(struct child_process *cp, bool block)
{
	int status;
	pid_t pid;

	if (cp->pid <= 0)
		return 0;
	do {
		pid = waitpid(cp->pid, &status, block ? 0 : WNOHANG);
	} while (pid < 0 && errno == EINTR);
	if (pid < 0) {
		int err = -errno;

		/* Not ours (reaped by someone else): nothing will ever be collected. */
		if (err == -ECHILD)
			cp->pid = -1;
		return err;
	}
	if (pid == 0)
		return 0;
	cp->pid = -1;
	cp->status = status;
	/* Held, it exited without being released: the release has nothing to say. */
	if (cp->hold_fd >= 0) {
		close(cp->hold_fd);
		cp->hold_fd = -1;
	}
	if (cp->exec_fail_fd >= 0) {
		close(cp->exec_fail_fd);
		cp->exec_fail_fd = -1;
	}
	return 1;
}

int child_process__kill(struct child_process *cp, int sig)
{
	if (cp->pid <= 0)
		return -ESRCH;
	if (cp->hold_fd >= 0) {
		close(cp->hold_fd);
		cp->hold_fd = -1;
		return 0;
	}
	return kill(cp->pid, sig) < 0 ? -errno : 0;
}
