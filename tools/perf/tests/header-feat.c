/*
 * The feature table (util/header-feat.c): a row for every feature bit the
 * file format defines, one name each, and every feature we write read back
 * and printed as it was written -- in a file and in a stream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/dump-request.h"
#include "util/evlist.h"
#include "util/header.h"
#include "util/header-feat.h"
#include "util/session.h"
#include "util/tracepoint.h"

/*
 * The file format's feature bits by number, as perf.data-file-format.txt
 * and the distro's "missing features" line name them: written here apart
 * from the table, so that a row under the wrong bit is seen.
 */
static const char *const feat_names[] = {
	NULL, "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
	"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
	"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
	"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

static int test__header_feat_table(void)
{
	TEST_ASSERT_EQUAL("the format's features, 1 to 31", HEADER_LAST_FEATURE,
			  (int)(sizeof(feat_names) / sizeof(feat_names[0])));
	for (int bit = 1; bit < HEADER_FEAT_BITS; bit++) {
		const struct perf_feat_ops *ops = perf_feat__ops(bit);

		if (!ops) {
			if (bit < HEADER_LAST_FEATURE || bit == HEADER_DUMP_REQUEST) {
				pr_err("feature %d has no row\n", bit);
				return TEST_FAIL;
			}
			continue;
		}
		if (!ops->name[0] || (bit < HEADER_LAST_FEATURE &&
				      (strcmp(feat_names[bit], ops->name) ||
				       strcmp(perf_feat__name(bit), ops->name)))) {
			pr_err("feature %d is named '%s', the format's is '%s'\n", bit, ops->name,
			       bit < HEADER_LAST_FEATURE ? feat_names[bit] : "");
			return TEST_FAIL;
		}
		for (int other = 1; other < bit; other++) {
			const struct perf_feat_ops *o = perf_feat__ops(other);

			if (o && !strcmp(o->name, ops->name)) {
				pr_err("features %d and %d are both %s\n", other, bit, ops->name);
				return TEST_FAIL;
			}
		}
		/* What we write we must read back; what goes in a stream or a dump is written. */
		if ((ops->write && !ops->process) || ((ops->pipe || ops->per_dump) && !ops->write)) {
			pr_err("feature %s: write %p, process %p, pipe %d, per_dump %d\n", ops->name,
			       ops->write, ops->process, ops->pipe, ops->per_dump);
			return TEST_FAIL;
		}
	}
	/* The distro does not know ours: it is never named to it. */
	if (strcmp(perf_feat__name(HEADER_DUMP_REQUEST), "(unknown)") ||
	    strcmp(perf_feat__name(0), "(unknown)"))
		return TEST_FAIL;
	return TEST_OK;
}
DEFINE_SUITE(header_feat_table, "perf.data features: one row per feature bit, each named once");

static const struct perf_host_desc host = {
	.hostname = "feat-host", .osrelease = "6.1.0-feat", .version = "9.9.feat",
	.arch = "featarch", .cpudesc = "Feat CPU @ 1.00GHz", .cpuid = "FeatVendor,6,1,2",
	.nr_cpus_avail = 4, .nr_cpus_online = 3, .total_mem = 123456,
};

/*
 * What each feature we write shows after the round trip: a line of the
 * header as perf report --header prints it.  A written feature missing
 * here fails the test: a new feature comes with its line.
 */
static const struct {
	int feat;
	const char *line;
} expect[] = {
	{ HEADER_HOSTNAME, "# hostname : feat-host\n" },
	{ HEADER_OSRELEASE, "# os release : 6.1.0-feat\n" },
	{ HEADER_VERSION, "# perf version : 9.9.feat\n" },
	{ HEADER_ARCH, "# arch : featarch\n" },
	{ HEADER_NRCPUS, "# nrcpus online : 3\n# nrcpus avail : 4\n" },
	{ HEADER_CPUDESC, "# cpudesc : Feat CPU @ 1.00GHz\n" },
	{ HEADER_CPUID, "# cpuid : FeatVendor,6,1,2\n" },
	{ HEADER_TOTAL_MEM, "# total memory : 123456 kB\n" },
	{ HEADER_CMDLINE, " record -e {feat-a,feat-b} feat-test \n" },
	/* The names come from EVENT_DESC only: the attrs do not carry them. */
	{ HEADER_EVENT_DESC, "# event : name = feat-b, , " },
	{ HEADER_GROUP_DESC, "# group: {feat-a,feat-b}\n" },
	{ HEADER_SAMPLE_TIME, "# time of first sample : 1.000002\n"
			      "# time of last sample : 3.000004\n"
			      "# sample duration :   2000.002 ms\n" },
	{ HEADER_CLOCKID, "# clockid frequency: 1000 MHz\n" },
	{ HEADER_COMPRESSED, "# compressed : Zstd, level = 3, ratio = 5\n" },
	{ HEADER_CLOCK_DATA, " = 1.000000 (TOD) = 0.000000500 (" },
	{ HEADER_DUMP_REQUEST, "# dump requested by : signal SIGUSR2\n" },
	/* Not printed: checked on the session (session__check). */
	{ HEADER_BUILD_ID, NULL },
	{ HEADER_TRACING_DATA, NULL },
};

static struct evsel *feat_evsel(struct evlist *evlist, const char *name, u64 config,
				const u64 *ids)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = config, .sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
	};
	struct evsel *e = evsel__new(&attr);

	if (!e || evsel__set_name(e, name))
		return NULL;
	e->ids = calloc(2, sizeof(u64));
	if (!e->ids)
		return NULL;
	memcpy(e->ids, ids, 2 * sizeof(u64));
	e->nr_ids = 2;
	evlist__add(evlist, e);
	return e;
}

/* A group of two, and a tracepoint when this machine lets us read its format. */
static struct evlist *feat_evlist(void)
{
	static const u64 a_ids[] = { 11, 12 }, b_ids[] = { 13, 14 }, tp_ids[] = { 15, 16 };
	struct evlist *evlist = evlist__new();
	struct evsel *a, *b, *tp;
	int id = tracepoint__id("sched", "sched_switch");

	if (!evlist)
		return NULL;
	a = feat_evsel(evlist, "feat-a", PERF_COUNT_SW_CPU_CLOCK, a_ids);
	b = a ? feat_evsel(evlist, "feat-b", PERF_COUNT_SW_TASK_CLOCK, b_ids) : NULL;
	if (!b)
		goto out_err;
	a->nr_members = 2;
	b->leader = a;
	if (id <= 0)
		return evlist;
	tp = feat_evsel(evlist, "sched:sched_switch", id, tp_ids);
	if (!tp)
		goto out_err;
	tp->attr.type = PERF_TYPE_TRACEPOINT;
	tp->tp_sys = strdup("sched");
	tp->tp_name = strdup("sched_switch");
	return evlist;
out_err:
	evlist__delete(evlist);
	return NULL;
}

static const u8 feat_bid[20] = { 0xfe, 0xa7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

/* An info that makes every writer write, and shows what it wrote. */
static void feat_info(struct perf_header_info *info, struct perf_feat_buf *bids,
		      struct dump_request *r, struct evlist *evlist)
{
	static const char *argv[] = { "record", "-e", "{feat-a,feat-b}", "feat-test" };

	memset(info, 0, sizeof(*info));
	info->argc = 4;
	info->argv = argv;
	info->evlist = evlist;
	info->host = &host;
	info->first_sample_time = 1000002000;
	info->last_sample_time = 3000004000;
	info->use_clockid = true;
	info->clock_res_ns = 1;
	info->clock.clockid = 1;
	info->clock.wall_ns = 1000000000;
	info->clock.clock_ns = 500;
	info->comp_level = 3;
	info->comp_ratio = 5;
	info->comp_mmap_len = 528384;
	perf_feat_buf__add_build_id(bids, PERF_RECORD_MISC_USER, feat_bid, 14, "/feat/lib.so");
	info->build_ids = bids->p;
	info->build_ids_len = bids->len;
	memset(r, 0, sizeof(*r));
	r->kind = DUMP_REQUEST_SIGNAL;
	info->request = r;
}

static bool session__check_build_id(struct perf_session *s)
{
	return s->nr_build_ids == 1 && !strcmp(s->build_ids[0].name, "/feat/lib.so") &&
	       s->build_ids[0].len == 14 && !memcmp(s->build_ids[0].bid, feat_bid, 14);
}

/* Every feature @ops says goes in (a file: all written; a stream: the pipe ones) came back. */
static int session__check(struct perf_session *s, struct evlist *evlist,
			  struct perf_header_info *info, bool pipe)
{
	struct perf_feat_buf probe = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	int ret = TEST_FAIL;

	if (!fp)
		return TEST_FAIL;
	perf_session__print_header(s, fp);
	fclose(fp);
	if (s->damaged)
		goto out;
	for (int bit = 1; bit < HEADER_FEAT_BITS; bit++) {
		const struct perf_feat_ops *ops = perf_feat__ops(bit);
		const char *line = NULL;
		bool known = false, has = s->features[bit / 64] & (1ULL << (bit % 64));

		if (!ops || !ops->write || (pipe && !ops->pipe))
			continue;
		probe.len = 0;
		/* TRACING_DATA: only with a tracepoint. */
		if (perf_header__feature(bit, &probe, evlist, info) == -ENOENT)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(expect); i++)
			if (expect[i].feat == bit) {
				known = true;
				line = expect[i].line;
			}
		if (!known || !has) {
			pr_err("%s: %s %s\n", pipe ? "stream" : "file", ops->name,
			       known ? "not in the file" : "has no expected line in this test");
			goto out;
		}
		if (line && !strstr(out, line)) {
			pr_err("%s: %s: no '%s' in\n%s\n", pipe ? "stream" : "file", ops->name,
			       line, out);
			goto out;
		}
		if ((bit == HEADER_BUILD_ID && !session__check_build_id(s)) ||
		    (bit == HEADER_TRACING_DATA && !s->tep)) {
			pr_err("%s did not come back\n", ops->name);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	free(probe.p);
	free(out);
	return ret;
}

static int round_trip(const char *path, bool pipe)
{
	struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };
	struct perf_feat_buf bids = { 0 };
	struct perf_header_info info;
	struct perf_session *s = NULL;
	struct dump_request r;
	struct perf_data data;
	struct evlist *evlist = feat_evlist();
	char msg[256] = "";
	int err, ret = TEST_FAIL;

	if (!evlist)
		return TEST_FAIL;
	feat_info(&info, &bids, &r, evlist);
	err = perf_data__create(&data, path);
	if (err)
		goto out;
	if (pipe) {
		err = perf_header__write_pipe(&data, evlist, &info);
	} else {
		err = perf_header__write_begin(&data, evlist);
		/* A file without data would be one whose recorder died. */
		if (!err)
			err = perf_data__write(&data, &round, sizeof(round));
		if (!err)
			err = perf_header__write_finish(&data, evlist, &info);
	}
	perf_data__close(&data);
	if (err) {
		pr_err("writing %s: %s\n", path, strerror(-err));
		goto out;
	}
	s = perf_session__open(path, &err, msg, sizeof(msg));
	if (!s) {
		pr_err("reading %s back: %s %s\n", path, strerror(-err), msg);
		goto out;
	}
	ret = session__check(s, evlist, &info, pipe);
out:
	if (s)
		perf_session__delete(s);
	unlink(path);
	free(bids.p);
	evlist__delete(evlist);
	return ret;
}

static int test__header_feat_round_trip(void)
{
	char tmpl[] = "/tmp/perf-feat-XXXXXX", path[64];
	const char *dir = mkdtemp(tmpl);
	int ret;

	if (!dir)
		return test__skip("mkdtemp failed: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	ret = round_trip(path, false);
	if (ret == TEST_OK)
		ret = round_trip(path, true);
	rmdir(dir);
	return ret;
}
DEFINE_SUITE(header_feat_round_trip,
	     "perf.data features: each one written is read back as written, in a file and a stream");
