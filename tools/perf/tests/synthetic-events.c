/* Synthesized records describe this very process and the kernel correctly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tests.h"
#include "util/synthetic-events.h"

#define SAMPLE_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

struct seen {
	char exe[PATH_MAX];
	char comm[32];
	bool comm_found, exe_found, fork_found, bad_size, bad_trailer;
	u64 kernel_start;
	int kernel_mmaps;
};

static int check_trailer(struct seen *s, union perf_event *ev, u32 pid)
{
	/* The trailer is the last 32 bytes: TID, TIME, CPU, IDENTIFIER. */
	const u64 *t = (const u64 *)((char *)ev + ev->header.size) - 4;
	const u32 *tid = (const u32 *)t;

	if (tid[0] != pid || t[1] != 42 || t[3] != 7)
		s->bad_trailer = true;
	return 0;
}

static int collect(void *arg, union perf_event *ev)
{
	struct seen *s = arg;

	if (ev->header.size % 8 || ev->header.size < sizeof(ev->header) + 32)
		s->bad_size = true;
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		if (ev->comm.pid == (u32)getpid() && !strcmp(ev->comm.comm, s->comm))
			s->comm_found = true;
		return check_trailer(s, ev, ev->comm.pid);
	case PERF_RECORD_FORK:
		if (ev->fork.pid == (u32)getpid() && ev->fork.ppid == (u32)getppid())
			s->fork_found = true;
		return check_trailer(s, ev, ev->fork.pid);
	case PERF_RECORD_MMAP2:
		if (!strcmp(ev->mmap2.filename, s->exe) && (ev->mmap2.prot & PROT_EXEC) &&
		    ev->header.misc == PERF_RECORD_MISC_USER && ev->mmap2.ino)
			s->exe_found = true;
		return check_trailer(s, ev, ev->mmap2.pid);
	case PERF_RECORD_MMAP:
		if (!strcmp(ev->mmap.filename, "[kernel.kallsyms]_text") &&
		    ev->header.misc == PERF_RECORD_MISC_KERNEL && ev->mmap.pid == (u32)-1) {
			s->kernel_mmaps++;
			s->kernel_start = ev->mmap.start;
		}
		return check_trailer(s, ev, (u32)-1);
	default:
		fprintf(stderr, "unexpected record type %u\n", ev->header.type);
		return -EINVAL;
	}
}

static int test__synthesize_self(void)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct synth_ctx ctx = {
		.process = collect,
		.sample_id_all = true,
		.sample_type = SAMPLE_TYPE,
		.id = 7,
		.time = 42,
	};
	ssize_t n;
	FILE *fp;
	int err;

	if (!s)
		return TEST_FAIL;
	ctx.arg = s;
	n = readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
	TEST_ASSERT_VAL("readlink /proc/self/exe", n > 0);
	fp = fopen("/proc/self/comm", "r");
	TEST_ASSERT_VAL("open comm", fp);
	if (fgets(s->comm, sizeof(s->comm), fp))
		s->comm[strcspn(s->comm, "\n")] = '\0';
	fclose(fp);

	err = perf_event__synthesize_process(&ctx, getpid());
	TEST_ASSERT_EQUAL("synthesize this process", err, 0);
	TEST_ASSERT_VAL("COMM of this process", s->comm_found);
	TEST_ASSERT_VAL("FORK from the parent", s->fork_found);
	TEST_ASSERT_VAL("MMAP2 of our executable, PROT_EXEC", s->exe_found);
	TEST_ASSERT_VAL("sizes 8-aligned, with trailer", !s->bad_size);
	TEST_ASSERT_VAL("trailer carries pid, time and id", !s->bad_trailer);

	err = perf_event__synthesize_kernel_mmap(&ctx);
	TEST_ASSERT_EQUAL("synthesize the kernel", err, 0);
	TEST_ASSERT_EQUAL("one kernel mmap", s->kernel_mmaps, 1);
	if (geteuid() == 0)
		TEST_ASSERT_VAL("root sees where _text is", s->kernel_start != 0);
	TEST_ASSERT_EQUAL("modules", perf_event__synthesize_modules(&ctx), 0);
	TEST_ASSERT_VAL("trailers still right", !s->bad_trailer && !s->bad_size);

	TEST_ASSERT_EQUAL("a vanished process", perf_event__synthesize_process(&ctx, 0x3fffffff),
			  -ESRCH);
	free(s);
	return TEST_OK;
}
DEFINE_SUITE(synthesize_self, "Synthesized COMM/FORK/MMAP2 of this process and the kernel mmap");

static int count_records(void *arg, union perf_event *ev)
{
	(*(int *)arg)++;
	return ev->header.size % 8 ? -EINVAL : 0;
}

static int test__synthesize_threads(void)
{
	int nr = 0;
	struct synth_ctx ctx = { .process = count_records, .arg = &nr };

	TEST_ASSERT_EQUAL("walk all of /proc", perf_event__synthesize_threads(&ctx), 0);
	/* At least init and ourselves: FORK + COMM each. */
	TEST_ASSERT_VAL("records for several processes", nr >= 4);
	return TEST_OK;
}
DEFINE_SUITE(synthesize_threads, "Synthesizing every process in /proc");

struct skipping {
	int asked, ours;	/* skip() calls for this process; its records written */
};

static bool skip_self(void *arg, pid_t pid)
{
	struct skipping *sk = arg;

	if (pid != getpid())
		return false;
	sk->asked++;
	return true;
}

static int note_self(void *arg, union perf_event *ev)
{
	struct skipping *sk = arg;

	/* COMM, FORK and MMAP2 all start with the pid. */
	sk->ours += ev->comm.pid == (u32)getpid();
	return 0;
}

/* A process the caller describes itself is neither read nor written. */
static int test__synthesize_skip(void)
{
	struct skipping sk = { 0 };
	struct synth_ctx ctx = { .process = note_self, .arg = &sk, .skip = skip_self };

	TEST_ASSERT_EQUAL("walk all of /proc", perf_event__synthesize_threads(&ctx), 0);
	TEST_ASSERT_EQUAL("asked once about this process", sk.asked, 1);
	TEST_ASSERT_EQUAL("none of its records", sk.ours, 0);
	TEST_ASSERT_EQUAL("one process", perf_event__synthesize_process(&ctx, getpid()), 0);
	TEST_ASSERT_EQUAL("asked again", sk.asked, 2);
	TEST_ASSERT_EQUAL("still none of its records", sk.ours, 0);
	return TEST_OK;
}
DEFINE_SUITE(synthesize_skip, "Synthesizing /proc: the processes a caller describes itself are skipped");
