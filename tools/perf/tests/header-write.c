/*
 * Writes a perf.data file by hand -- header, synthesized records, samples,
 * features -- and has the distro perf read it back: our files must be
 * ones the oracle reads without a complaint.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "util/data.h"
#include "util/header.h"
#include "util/evlist.h"
#include "util/synthetic-events.h"
#include "util/tracepoint.h"

#define ORACLE "/usr/bin/perf"
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct writer {
	struct perf_data data;
	struct perf_header_info info;
	int err;
};

static int writer__process(void *arg, union perf_event *event)
{
	struct writer *w = arg;
	int err = perf_data__write(&w->data, event, event->header.size);

	perf_header_info__note_event(&w->info, event);
	return err;
}

static struct evsel *new_evsel(u32 type, u64 config, u64 sample_type, const char *name,
			       const u64 *ids, int nr_ids)
{
	struct perf_event_attr attr = { 0 };
	struct evsel *evsel;

	attr.type = type;
	attr.config = config;
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	evsel = evsel__new(&attr);
	if (!evsel || evsel__set_name(evsel, name))
		return NULL;
	evsel->ids = calloc(nr_ids, sizeof(u64));
	if (!evsel->ids)
		return NULL;
	memcpy(evsel->ids, ids, nr_ids * sizeof(u64));
	evsel->nr_ids = nr_ids;
	return evsel;
}

static struct evlist *build_evlist(bool *with_tp)
{
	static const u64 clock_ids[] = { 1, 2 }, tp_ids[] = { 3, 4 };
	struct evlist *evlist = evlist__new();
	struct evsel *evsel;
	int id;

	if (!evlist)
		return NULL;
	evsel = new_evsel(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, SAMPLE_TYPE, "cpu-clock",
			  clock_ids, 2);
	if (!evsel)
		goto out_err;
	evsel->attr.mmap = evsel->attr.comm = evsel->attr.task = evsel->attr.mmap2 = 1;
	evlist__add(evlist, evsel);

	*with_tp = false;
	id = tracepoint__id("sched", "sched_switch");
	if (id > 0) {
		evsel = new_evsel(PERF_TYPE_TRACEPOINT, id, SAMPLE_TYPE | PERF_SAMPLE_RAW,
				  "sched:sched_switch", tp_ids, 2);
		if (!evsel)
			goto out_err;
		evsel->tp_sys = strdup("sched");
		evsel->tp_name = strdup("sched_switch");
		evlist__add(evlist, evsel);
		*with_tp = true;
	}
	return evlist;
out_err:
	evlist__delete(evlist);
	return NULL;
}

/* The fixed part of a sample laid out for SAMPLE_TYPE, in ABI order. */
struct test_sample {
	struct perf_event_header header;
	u64 identifier, ip;
	u32 pid, tid;
	u64 time;
	u32 cpu, res;
	u64 period;
};

static void test_sample__init(struct test_sample *s, struct writer *w, u16 misc, u16 size,
			      u64 id, u64 ip, u64 time)
{
	s->header.type = PERF_RECORD_SAMPLE;
	s->header.misc = misc;
	s->header.size = size;
	s->identifier = id;
	s->ip = ip;
	s->pid = s->tid = getpid();
	s->time = time;
	s->period = 1;
	if (!w->info.first_sample_time)
		w->info.first_sample_time = time;
	w->info.last_sample_time = time;
}

/* A cpu-clock sample (id 1) of this process. */
static int write_sample(struct writer *w, u64 ip, u64 time)
{
	struct test_sample s = { 0 };

	test_sample__init(&s, w, PERF_RECORD_MISC_USER, sizeof(s), 1, ip, time);
	return perf_data__write(&w->data, &s, sizeof(s));
}

/* sched_switch's payload; natural alignment gives the offsets of its format file. */
struct sched_switch_raw {
	u16 common_type;
	u8 common_flags, common_preempt_count;
	s32 common_pid;
	char prev_comm[16];
	s32 prev_pid, prev_prio;
	s64 prev_state;
	char next_comm[16];
	s32 next_pid, next_prio;
};

/* A sched_switch sample (id 3): the fixed part, u32 raw size, payload, padding to 8. */
static int write_tp_sample(struct writer *w, u64 tp_id, u64 time)
{
	struct sched_switch_raw raw = { 0 };
	size_t size = PERF_ALIGN(sizeof(struct test_sample) + 4 + sizeof(raw), 8);
	u32 raw_size = size - sizeof(struct test_sample) - 4;
	u64 rec[32] = { 0 };
	struct test_sample *s = (struct test_sample *)rec;

	test_sample__init(s, w, PERF_RECORD_MISC_KERNEL, size, 3, 0, time);
	raw.common_type = tp_id;
	raw.common_pid = getpid();
	strcpy(raw.prev_comm, "wr-prev");
	raw.prev_pid = 1234;
	raw.prev_prio = 120;
	strcpy(raw.next_comm, "wr-next");
	raw.next_pid = 5678;
	raw.next_prio = 120;
	/* The raw size covers the padding that keeps the record 8-aligned. */
	memcpy((char *)rec + sizeof(*s), &raw_size, 4);
	memcpy((char *)rec + sizeof(*s) + 4, &raw, sizeof(raw));
	return perf_data__write(&w->data, rec, size);
}

static int write_file(const char *path, struct evlist *evlist, bool finish)
{
	static const char *argv[] = { "record", "-e", "cpu-clock", "header-write-test" };
	struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };
	struct writer w = { 0 };
	struct synth_ctx ctx = {
		.process = writer__process,
		.arg = &w,
		.sample_id_all = true,
		.sample_type = SAMPLE_TYPE,
		.id = 1,
	};
	struct evsel *last;
	int err;

	w.info.argc = 4;
	w.info.argv = argv;
	err = perf_data__create(&w.data, path);
	if (err)
		return err;
	err = perf_header__write_begin(&w.data, evlist);
	if (!err)
		err = perf_event__synthesize_kernel_mmap(&ctx);
	if (!err)
		err = perf_event__synthesize_process(&ctx, getpid());
	for (int i = 0; i < 4 && !err; i++)
		err = write_sample(&w, (u64)(unsigned long)write_sample + 4 * i, 1000000 + 1000 * i);
	last = list_last_entry(&evlist->entries, struct evsel, node);
	if (!err && last != evlist__first(evlist))
		err = write_tp_sample(&w, last->attr.config, 1005000);
	if (!err)
		err = perf_data__write(&w.data, &round, sizeof(round));
	if (!err && finish)
		err = perf_header__write_finish(&w.data, evlist, &w.info);
	perf_header_info__exit(&w.info);
	perf_data__close(&w.data);
	return err;
}

/* Runs @cmd, returns its exit status and (malloc'd) stdout+stderr in *@out. */
static int run(const char *cmd, char **out)
{
	size_t cap = 65536, len = 0, n;
	FILE *fp = popen(cmd, "r");
	char *buf = malloc(cap + 1);
	int status;

	if (!fp || !buf) {
		if (fp)
			pclose(fp);
		free(buf);
		return -1;
	}
	while ((n = fread(buf + len, 1, cap - len, fp)) > 0) {
		len += n;
		if (len == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	status = pclose(fp);
	*out = buf;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool complaint(const char *out)
{
	static const char *bad[] = { "WARNING", "Warning", "corrupt", "Fail", "not valid",
				     "Error", "error" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(out, bad[i])) {
			fprintf(stderr, "oracle complained (%s):\n%s\n", bad[i], out);
			return true;
		}
	return false;
}

static int oracle(const char *args, const char *path, char **out)
{
	char cmd[8400];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s %s -i '%s' 2>&1", ORACLE, args, path);
	rc = run(cmd, out);
	if (rc != 0)
		fprintf(stderr, "'%s' exited %d:\n%s\n", cmd, rc, *out ? *out : "");
	return rc;
}

/* A perf.data written in a directory of its own, with the evlist it was written from. */
struct written {
	char tmpl[64];
	const char *dir;	/* NULL: not made */
	char path[4200];
	struct evlist *evlist;
	bool with_tp;		/* a sched_switch event beside cpu-clock */
	char *out;		/* what the last command run on the file printed */
};

/*
 * Writes the file under a new directory named from @prefix; @finish: with
 * its header completed.  TEST_OK, TEST_SKIP without a directory, else
 * TEST_FAIL; written__exit() undoes it either way.
 */
static int written__init(struct written *w, const char *prefix, bool finish)
{
	int err;

	memset(w, 0, sizeof(*w));
	snprintf(w->tmpl, sizeof(w->tmpl), "%s-XXXXXX", prefix);
	w->dir = mkdtemp(w->tmpl);
	if (!w->dir)
		return test__skip("mkdtemp failed: %s", strerror(errno));
	w->evlist = build_evlist(&w->with_tp);
	if (!w->evlist)
		return TEST_FAIL;
	snprintf(w->path, sizeof(w->path), "%s/perf.data", w->dir);
	err = write_file(w->path, w->evlist, finish);
	if (err) {
		fprintf(stderr, "writing %s: %s\n", w->path, strerror(-err));
		return TEST_FAIL;
	}
	return TEST_OK;
}

static void written__exit(struct written *w)
{
	free(w->out);
	evlist__delete(w->evlist);
	if (!w->dir)
		return;
	unlink(w->path);
	rmdir(w->dir);
}

/* What the oracle's @args print about the file, or NULL if it failed or complained (said). */
static const char *written__read(struct written *w, const char *args)
{
	free(w->out);
	w->out = NULL;
	if (oracle(args, w->path, &w->out) || complaint(w->out))
		return NULL;
	return w->out;
}

static int test__header_write(void)
{
	static const char *features[] = {
		"# hostname :", "# os release :", "# perf version :", "# arch :",
		"# nrcpus online :", "# cpudesc :", "# cpuid :", "# total memory :",
		"# cmdline :", "# event : name = cpu-clock", "# time of first sample :",
	};
	char comm[32] = "";
	struct written w;
	const char *out, *p;
	int ret;
	FILE *fp;

	ret = written__init(&w, "/tmp/perf-header", true);
	if (ret)
		goto out;
	ret = TEST_FAIL;
	if (access(ORACLE, X_OK)) {
		ret = test__skip("no %s to read the file back", ORACLE);
		goto out;
	}

	out = written__read(&w, "report --header-only");
	if (!out)
		goto out;
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (!strstr(out, features[i])) {
			fprintf(stderr, "no '%s' in the header:\n%s\n", features[i], out);
			goto out;
		}
	if (!strstr(out, "header-write-test") ||
	    (w.with_tp && !strstr(out, "# event : name = sched:sched_switch"))) {
		fprintf(stderr, "cmdline or tracepoint event missing:\n%s\n", out);
		goto out;
	}

	out = written__read(&w, "buildid-list");
	if (!out)
		goto out;
	if (!strstr(out, "[kernel.kallsyms]") && access("/sys/kernel/notes", R_OK) == 0) {
		fprintf(stderr, "no kernel build id:\n%s\n", out);
		goto out;
	}

	out = written__read(&w, "evlist -v");
	if (!out)
		goto out;
	if (!strstr(out, "cpu-clock") || !strstr(out, "sample_id_all: 1")) {
		fprintf(stderr, "evlist -v:\n%s\n", out);
		goto out;
	}

	fp = fopen("/proc/self/comm", "r");
	if (fp) {
		if (fgets(comm, sizeof(comm), fp))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(fp);
	}
	out = written__read(&w, "script");
	if (!out)
		goto out;
	p = strstr(out, "cpu-clock");
	if (!p || !comm[0] || !strstr(out, comm)) {
		fprintf(stderr, "no cpu-clock sample of '%s' in perf script:\n%s\n", comm, out);
		goto out;
	}
	if (w.with_tp && (!strstr(out, "prev_comm=wr-prev") || !strstr(out, "next_pid=5678"))) {
		fprintf(stderr, "the tracepoint sample was not decoded from our tracing data:\n%s\n",
			out);
		goto out;
	}
	if (!strstr(out, "write_sample")) {
		fprintf(stderr, "samples not resolved to write_sample:\n%s\n", out);
		goto out;
	}
	ret = TEST_OK;
out:
	written__exit(&w);
	return ret;
}
DEFINE_SUITE(header_write, "perf.data we write is read by the distro perf without complaint");

static int test__header_unfinished(void)
{
	char cmd[8400];
	struct written w;
	u64 hdr[7];
	int ret, fd;

	ret = written__init(&w, "/tmp/perf-unfinished", false);
	if (ret)
		goto out;
	ret = TEST_FAIL;
	fd = open(w.path, O_RDONLY);
	if (fd < 0 || read(fd, hdr, sizeof(hdr)) != sizeof(hdr)) {
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	/* magic, size, attr_size, attrs{offset,size}, data{offset,size} */
	if (memcmp(hdr, "PERFILE2", 8) || hdr[6] != 0 || hdr[5] == 0) {
		fprintf(stderr, "unfinished header: want magic, data offset set, size 0; "
			"got offset %llu size %llu\n", (unsigned long long)hdr[5],
			(unsigned long long)hdr[6]);
		goto out;
	}
	if (access(ORACLE, X_OK)) {
		ret = test__skip("no %s to read the file back", ORACLE);
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "%s report --header-only -i '%s' 2>&1", ORACLE, w.path);
	if (run(cmd, &w.out) == 0 || !w.out || !strstr(w.out, "data size field is 0")) {
		fprintf(stderr, "the oracle did not flag the unfinished file:\n%s\n", w.out);
		goto out;
	}
	ret = TEST_OK;
out:
	written__exit(&w);
	return ret;
}
DEFINE_SUITE(header_unfinished, "An unfinished perf.data is detectably incomplete");
