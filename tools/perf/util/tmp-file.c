#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tmp-file.h"

int tmp_file__create(struct tmp_file *t, const char *path, mode_t mode)
{
	t->fd = -1;
	if (asprintf(&t->name, "%s.tmp.%d", path, (int)getpid()) < 0) {
		t->name = NULL;
		return -ENOMEM;
	}
	unlink(t->name);
	t->fd = open(t->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (t->fd < 0) {
		int err = -errno;

		free(t->name);
		t->name = NULL;
		return err;
	}
	return t->fd;
}

int tmp_file__commit(struct tmp_file *t, const char *path)
{
	int err = 0;

	if (t->fd >= 0 && close(t->fd) < 0)
		err = -errno;
	t->fd = -1;
	if (!err && rename(t->name, path) < 0)
		err = -errno;
	if (err)
		unlink(t->name);
	free(t->name);
	t->name = NULL;
	return err;
}

void tmp_file__abort(struct tmp_file *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->name)
		unlink(t->name);
	free(t->name);
	t->name = NULL;
}
