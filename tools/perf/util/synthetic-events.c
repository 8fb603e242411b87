/*
 * Synthesized records: what the kernel would have reported had we been
 * recording when the kernel, its modules and the running processes were
 * loaded.  A reader needs them to name the code that samples hit.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "synthetic-events.h"
#include "thread_map.h"
#include "debug.h"

/* The largest sample-id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */

/* The kernel's sample_id_all layout (struct sample_id in perf_event_open(2)). */
size_t perf_event__synthesize_sample_id(void *buf, u64 sample_type, pid_t pid, pid_t tid,
					u64 time, u64 id, u32 cpu)
{
	u64 *p = buf;

	if (sample_type & PERF_SAMPLE_TID) {
		u32 *u = (u32 *)p++;

		u[0] = pid;
		u[1] = tid;
	}
	if (sample_type & PERF_SAMPLE_TIME)
		*p++ = time;
	if (sample_type & PERF_SAMPLE_ID)
		*p++ = id;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		*p++ = id;
	if (sample_type & PERF_SAMPLE_CPU) {
		u32 *u = (u32 *)p++;

		u[0] = cpu;
		u[1] = 0;
	}
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		*p++ = id;
	return (char *)p - (char *)buf;
}

int synth_ctx__emit(struct synth_ctx *ctx, union perf_event *ev, size_t len, pid_t pid,
		    pid_t tid)
{
	size_t aligned = PERF_ALIGN(len, 8);

	memset((char *)ev + len, 0, aligned - len);
	if (ctx->sample_id_all)
		aligned += perf_event__synthesize_sample_id((char *)ev + aligned, ctx->sample_type,
							    pid, tid, ctx->time, ctx->id, 0);
	ev->header.size = aligned;
	return ctx->process(ctx->arg, ev);
}

/* A record buffer big enough for any MMAP2 with a PATH_MAX name plus trailer. */
union synth_buf {
	union perf_event ev;
	char bytes[sizeof(union perf_event) + MAX_SAMPLE_ID_SIZE + 8];
};

/*
 * A /proc file read through a buffer of its own size: stdio's default is
 * the file's st_blksize, 1 KiB for /proc, which cost the recorder a read()
 * per KiB of every process's maps and of kallsyms' 5 MB.
 */
static FILE *proc_fopen(const char *path)
{
	FILE *fp = fopen(path, "re");

	if (fp)
		setvbuf(fp, NULL, _IOFBF, 64 * 1024);
	return fp;
}

int perf_event__synthesize_kernel_mmap(struct synth_ctx *ctx)
{
	/* The kernel does not move while we run: read kallsyms once per process. */
	static unsigned long long cached_start, cached_end;
	static bool cached;
	unsigned long long start = 0, end = 0;
	union synth_buf *b;
	char line[1024];	/* a symbol name is at most 512 bytes */
	size_t len;
	FILE *fp;
	int err;

	if (cached) {
		start = cached_start;
		end = cached_end;
		goto emit;
	}
	fp = proc_fopen("/proc/kallsyms");
	if (!fp)
		return -errno;
	/*
	 * The map starts at _text and runs to the highest core-kernel symbol.
	 * Without privilege kallsyms shows zeros: the record still goes out,
	 * with start 0, so that samples are at least attributed to the kernel.
	 * "ADDR TYPE NAME[\t[MODULE]]": some 100,000 lines, parsed by hand
	 * (sscanf cost more than the kernel's own formatting of them).
	 */
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long addr;
		char *p;

		if (strchr(line, '['))
			continue;	/* module symbols */
		addr = strtoull(line, &p, 16);
		if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		if (!strcmp(p + 3, "_text\n"))
			start = addr;
		if (addr > end)
			end = addr;
	}
	fclose(fp);
	if (start) {
		cached_start = start;
		cached_end = end;
		cached = true;
	}
emit:
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->ev.mmap.header.type = PERF_RECORD_MMAP;
	b->ev.mmap.header.misc = PERF_RECORD_MISC_KERNEL;
	b->ev.mmap.pid = (u32)-1;
	b->ev.mmap.tid = 0;
	b->ev.mmap.start = start;
	b->ev.mmap.len = end > start ? end - start : ~0ULL - start;
	b->ev.mmap.pgoff = start;
	strcpy(b->ev.mmap.filename, "[kernel.kallsyms]_text");
	len = offsetof(struct perf_record_mmap, filename) + strlen(b->ev.mmap.filename) + 1;
	err = synth_ctx__emit(ctx, &b->ev, len, -1, 0);
	free(b);
	return err;
}

int perf_event__synthesize_modules(struct synth_ctx *ctx)
{
	FILE *fp = fopen("/proc/modules", "r");
	union synth_buf *b;
	char *line = NULL;
	size_t n = 0;
	int err = 0;

	if (!fp)
		return errno == ENOENT ? 0 : -errno;	/* a kernel without modules */
	b = calloc(1, sizeof(*b));
	if (!b) {
		fclose(fp);
		return -ENOMEM;
	}
	while (!err && getline(&line, &n, fp) > 0) {
		char name[256];
		unsigned long long size, addr;
		size_t len;

		/* name size refcount deps state address */
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3)
			continue;
		memset(&b->ev.mmap, 0, offsetof(struct perf_record_mmap, filename));
		b->ev.mmap.header.type = PERF_RECORD_MMAP;
		b->ev.mmap.header.misc = PERF_RECORD_MISC_KERNEL;
		b->ev.mmap.pid = (u32)-1;
		b->ev.mmap.start = addr;
		b->ev.mmap.len = size;
		/* Named "[module]": readers look the .ko up from the name. */
		snprintf(b->ev.mmap.filename, PATH_MAX, "[%s]", name);
		len = offsetof(struct perf_record_mmap, filename) + strlen(b->ev.mmap.filename) + 1;
		err = synth_ctx__emit(ctx, &b->ev, len, -1, 0);
	}
	free(line);
	free(b);
	fclose(fp);
	return err;
}

static int read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n < 0 ? -ESRCH : 0;
}

/* Tgid and PPid of a task, from /proc/TID/status; -ESRCH when it is gone. */
static int task__ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], *line = NULL;
	size_t n = 0;
	FILE *fp;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fp = proc_fopen(path);
	if (!fp)
		return -ESRCH;
	while (found != 3 && getline(&line, &n, fp) > 0) {
		if (!strncmp(line, "Tgid:", 5)) {
			*tgid = atoi(line + 5);
			found |= 1;
		} else if (!strncmp(line, "PPid:", 5)) {
			*ppid = atoi(line + 5);
			found |= 2;
		}
	}
	free(line);
	fclose(fp);
	return found == 3 ? 0 : -ESRCH;
}

static int synth__fork_comm(struct synth_ctx *ctx, union synth_buf *b, pid_t pid, pid_t ppid,
			    pid_t tid)
{
	char path[96], comm[64];
	size_t len;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (read_small_file(path, comm, sizeof(comm)))
		return -ESRCH;
	comm[strcspn(comm, "\n")] = '\0';

	/* The leader forked from its parent, other threads from their leader. */
	memset(&b->ev.fork, 0, sizeof(b->ev.fork));
	b->ev.fork.header.type = PERF_RECORD_FORK;
	b->ev.fork.pid = pid;
	b->ev.fork.tid = tid;
	b->ev.fork.ppid = tid == pid ? ppid : pid;
	b->ev.fork.ptid = tid == pid ? ppid : pid;
	err = synth_ctx__emit(ctx, &b->ev, sizeof(b->ev.fork), pid, tid);
	if (err)
		return err;

	memset(&b->ev.comm, 0, sizeof(b->ev.comm));
	b->ev.comm.header.type = PERF_RECORD_COMM;
	b->ev.comm.pid = pid;
	b->ev.comm.tid = tid;
	snprintf(b->ev.comm.comm, sizeof(b->ev.comm.comm), "%s", comm);
	len = offsetof(struct perf_record_comm, comm) + strlen(b->ev.comm.comm) + 1;
	return synth_ctx__emit(ctx, &b->ev, len, pid, tid);
}

/* One /proc/PID/maps line -> MMAP2: executable mappings, and with ctx->data_maps the others. */
static int synth__maps_line(struct synth_ctx *ctx, union synth_buf *b, pid_t pid, char *line)
{
	struct perf_record_mmap2 *m = &b->ev.mmap2;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int pos = 0;
	const char *name;
	size_t len;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &pos) < 7 || pos == 0)
		return 0;
	if (strlen(perms) < 4 || (perms[2] != 'x' && !ctx->data_maps))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	name = line + pos;
	if (!*name)
		name = "//anon";

	memset(m, 0, offsetof(struct perf_record_mmap2, filename));
	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_USER;
	m->pid = pid;
	m->tid = pid;
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	snprintf(m->filename, PATH_MAX, "%s", name);
	len = offsetof(struct perf_record_mmap2, filename) + strlen(m->filename) + 1;
	return synth_ctx__emit(ctx, &b->ev, len, pid, pid);
}

int perf_event__synthesize_process(struct synth_ctx *ctx, pid_t pid)
{
	char path[64], *line = NULL;
	union synth_buf *b;
	pid_t tgid, ppid;
	struct dirent *de;
	size_t n = 0;
	DIR *tasks;
	FILE *fp;
	int err;

	err = task__ids(pid, &tgid, &ppid);
	if (err)
		return err;
	pid = tgid;
	if (ctx->skip && ctx->skip(ctx->arg, pid))
		return 0;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks) {
		err = -ESRCH;
		goto out_free;
	}
	/* The leader first, so that readers create the process before its threads. */
	err = synth__fork_comm(ctx, b, pid, ppid, pid);
	while (!err && (de = readdir(tasks))) {
		pid_t tid = atoi(de->d_name);

		if (tid <= 0 || tid == pid)
			continue;
		err = synth__fork_comm(ctx, b, pid, ppid, tid);
		if (err == -ESRCH)	/* the thread exited meanwhile */
			err = 0;
	}
	closedir(tasks);
	if (err)
		goto out_free;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = proc_fopen(path);
	if (!fp) {
		err = -ESRCH;
		goto out_free;
	}
	while (!err && getline(&line, &n, fp) > 0)
		err = synth__maps_line(ctx, b, pid, line);
	free(line);
	fclose(fp);
out_free:
	free(b);
	return err;
}

int perf_event__synthesize_comm(struct synth_ctx *ctx, pid_t pid, const char *comm)
{
	union synth_buf *b = calloc(1, sizeof(*b));
	size_t len;
	int err;

	if (!b)
		return -ENOMEM;
	b->ev.comm.header.type = PERF_RECORD_COMM;
	b->ev.comm.pid = pid;
	b->ev.comm.tid = pid;
	snprintf(b->ev.comm.comm, sizeof(b->ev.comm.comm), "%s", comm);
	len = offsetof(struct perf_record_comm, comm) + strlen(b->ev.comm.comm) + 1;
	err = synth_ctx__emit(ctx, &b->ev, len, pid, pid);
	free(b);
	return err;
}

int perf_event__synthesize_threads(struct synth_ctx *ctx)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;
	int err = 0;

	if (!proc)
		return -errno;
	while (!err && (de = readdir(proc))) {
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		/* /proc lists processes by their leader's pid: skipped before anything is read. */
		if (ctx->skip && ctx->skip(ctx->arg, pid))
			continue;
		err = perf_event__synthesize_process(ctx, pid);
		/* Processes come and go while we walk: those that went are not an error. */
		if (err == -ESRCH || err == -ENOENT)
			err = 0;
	}
	closedir(proc);
	return err;
}

int perf_event__synthesize_thread_map(struct synth_ctx *ctx, struct thread_map *threads)
{
	pid_t *done;
	int nr_done = 0, err = 0;

	if (threads->nr == 1 && threads->map[0] == -1)
		return perf_event__synthesize_threads(ctx);
	done = calloc(threads->nr, sizeof(*done));
	if (!done)
		return -ENOMEM;
	for (int i = 0; i < threads->nr && !err; i++) {
		pid_t tgid, ppid;
		bool seen = false;

		if (task__ids(threads->map[i], &tgid, &ppid))
			continue;
		for (int j = 0; j < nr_done && !seen; j++)
			seen = done[j] == tgid;
		if (seen)
			continue;
		done[nr_done++] = tgid;
		err = perf_event__synthesize_process(ctx, tgid);
		if (err == -ESRCH)
			err = 0;
	}
	free(done);
	return err;
}
