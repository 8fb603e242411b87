/*
 * Reading the feature sections of perf.data and the tracing data block
 * (header_page, event formats per system, kallsyms, printk formats), and
 * printing attrs the way perf evlist -v does.  Every length is checked
 * against the bytes that are really there.
 */
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <setjmp.h>
#include <signal.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "session.h"
#include "header.h"
#include "bpf-info.h"
#include "debug.h"
#include "tracepoint.h"

/* A bounded cursor over one feature section, read into memory. */
struct fcur {
	const char *p, *end;
};

static int fcur__u32(struct fcur *c, u32 *v)
{
	if (c->end - c->p < 4)
		return -EINVAL;
	memcpy(v, c->p, 4);
	c->p += 4;
	return 0;
}

static int fcur__u64(struct fcur *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

/* u32 length (padding included), then a NUL-terminated string. */
static char *fcur__string(struct fcur *c)
{
	u32 len;
	char *s;

	if (fcur__u32(c, &len) || len > (u64)(c->end - c->p))
		return NULL;
	s = strndup(c->p, len);
	c->p += len;
	return s;
}

/* A string as fcur__string reads it, only checked. */
static int fcur__skip_string(struct fcur *c)
{
	u32 len;

	if (fcur__u32(c, &len) || len > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += len;
	return 0;
}

static int fcur__skip(struct fcur *c, u64 len)
{
	if (len > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += len;
	return 0;
}

/*
 * The features this perf does not use but the distro reads: checked as
 * the distro reads them, so their damage is not passed over in silence.
 * CPU_TOPOLOGY: the core and thread sibling lists (what follows is optional).
 */
static int feat__check_cpu_topology(struct fcur *c)
{
	for (int list = 0; list < 2; list++) {
		u32 nr;

		if (fcur__u32(c, &nr))
			return -EINVAL;
		for (u32 i = 0; i < nr; i++)
			if (fcur__skip_string(c))
				return -EINVAL;
	}
	return 0;
}

/* NUMA_TOPOLOGY: per node its number, memory total and free, and cpu list. */
static int feat__check_numa_topology(struct fcur *c)
{
	u32 nr;

	if (fcur__u32(c, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++)
		if (fcur__skip(c, 4 + 8 + 8) || fcur__skip_string(c))
			return -EINVAL;
	return 0;
}

/* CACHE: version 1, then per cache four numbers and three strings. */
static int feat__check_cache(struct fcur *c)
{
	u32 version, nr;

	if (fcur__u32(c, &version) || version != 1 || fcur__u32(c, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++)
		if (fcur__skip(c, 4 * 4) || fcur__skip_string(c) || fcur__skip_string(c) ||
		    fcur__skip_string(c))
			return -EINVAL;
	return 0;
}

/* MEM_TOPOLOGY: version 1, block size, then per node its number, size and bitmap. */
static int feat__check_mem_topology(struct fcur *c)
{
	u64 version, nr, bits;

	if (fcur__u64(c, &version) || version != 1 || fcur__skip(c, 8) || fcur__u64(c, &nr))
		return -EINVAL;
	for (u64 i = 0; i < nr; i++)
		if (fcur__skip(c, 8 + 8) || fcur__u64(c, &bits) ||
		    fcur__skip(c, (bits / 64 + !!(bits % 64)) * 8))
			return -EINVAL;
	return 0;
}

static int session__feature_string(struct perf_session *s, struct fcur *c, char **dst)
{
	free(*dst);
	*dst = fcur__string(c);
	return *dst ? 0 : -EINVAL;
}

static int session__event_desc(struct perf_session *s, struct fcur *c)
{
	u32 nr, sz;
	struct evsel *e;

	if (fcur__u32(c, &nr) || fcur__u32(c, &sz))
		return -EINVAL;
	e = evlist__first(s->evlist);
	for (u32 i = 0; i < nr; i++) {
		u32 nr_ids;
		char *name;

		if (sz > (u64)(c->end - c->p))
			return -EINVAL;
		c->p += sz;
		if (fcur__u32(c, &nr_ids))
			return -EINVAL;
		name = fcur__string(c);
		if (!name)
			return -EINVAL;
		if (e && &e->node != &s->evlist->entries) {
			evsel__set_name(e, name);
			e = list_entry(e->node.next, struct evsel, node);
		}
		free(name);
		if (nr_ids > (u64)(c->end - c->p) / 8)
			return -EINVAL;
		c->p += (u64)nr_ids * 8;
	}
	return 0;
}

/*
 * GROUP_DESC: the groups, as leader position and size (and name), onto
 * the evsels.  A group that does not fit the attrs is refused, as the
 * distro refuses it.
 */
static int session__group_desc(struct perf_session *s, struct fcur *c)
{
	struct evsel *e, *leader = NULL;
	u32 nr, idx, nr_members, left = 0;
	struct {
		char *name;
		u32 idx, nr;
	} *g;
	int err = -EINVAL;

	if (fcur__u32(c, &nr) || nr > (u64)(c->end - c->p) / 12)
		return -EINVAL;
	g = calloc(nr ? nr : 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		g[i].name = fcur__string(c);
		if (!g[i].name || fcur__u32(c, &idx) || fcur__u32(c, &nr_members))
			goto out;
		/* In order, apart, and within the attrs. */
		if (nr_members < 1 || idx >= (u32)s->evlist->nr_entries ||
		    nr_members > (u32)s->evlist->nr_entries - idx ||
		    (i && idx < g[i - 1].idx + g[i - 1].nr))
			goto out;
		g[i].idx = idx;
		g[i].nr = nr_members;
	}
	for (u32 i = 0; i < nr; i++) {
		evlist__for_each_entry(s->evlist, e) {
			if ((u32)e->idx == g[i].idx) {
				leader = e;
				left = g[i].nr;
				free(leader->group_name);
				leader->group_name = strcmp(g[i].name, "{anon_group}") ?
						     g[i].name : NULL;
				if (leader->group_name)
					g[i].name = NULL;
				leader->nr_members = (int)g[i].nr;
			}
			if (left) {
				e->leader = leader;
				left--;
			}
		}
	}
	err = 0;
out:
	for (u32 i = 0; i < nr; i++)
		free(g[i].name);
	free(g);
	return err;
}

/*
 * BUILD_ID: a list of records { header, pid, build_id[20], size, pad[3],
 * filename } (size is valid when misc has bit 15, else the id is 20
 * bytes).  User-space ids (and the kernel's) go onto their DSOs, so
 * symbols are only read from a file with the same id.
 */
static int session__build_ids(struct perf_session *s, struct fcur *c)
{
	const size_t fixed = 8 + 4 + 20 + 4;

	while (c->end - c->p >= (ptrdiff_t)fixed) {
		struct perf_event_header h;
		struct build_id_entry *e, *n;
		const char *name;
		size_t name_max;

		memcpy(&h, c->p, sizeof(h));
		if (h.size < fixed || h.size > c->end - c->p)
			return -EINVAL;
		name = c->p + fixed;
		name_max = h.size - fixed;
		n = realloc(s->build_ids, (s->nr_build_ids + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->build_ids = n;
		e = &n[s->nr_build_ids];
		e->name = strndup(name, name_max);
		if (!e->name)
			return -ENOMEM;
		s->nr_build_ids++;
		e->cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		e->len = (h.misc & (1 << 15)) ? (u8)c->p[8 + 4 + 20] : 20;
		if (e->len > 20)
			e->len = 20;
		memcpy(e->bid, c->p + 8 + 4, 20);
		if (e->cpumode == PERF_RECORD_MISC_KERNEL && e->len &&
		    !strcmp(e->name, "[kernel.kallsyms]")) {
			memcpy(s->machine.kernel_dso->build_id, e->bid, e->len);
			s->machine.kernel_dso->build_id_len = e->len;
		} else if (e->cpumode == PERF_RECORD_MISC_USER && e->len &&
		    (e->name[0] == '/' || !strcmp(e->name, "[vdso]"))) {
			struct dso *d = dso_table__findnew(&s->machine.dsos, e->name, false);

			if (!d)
				return -ENOMEM;
			memcpy(d->build_id, e->bid, e->len);
			d->build_id_len = e->len;
		}
		c->p += h.size;
	}
	return 0;
}

/* "software = 1, uprobe = 8, ...": u32 count, then per PMU its type and name. */
static int session__pmu_mappings(struct perf_session *s, struct fcur *c)
{
	size_t len = 0, cap = 256;
	char *out = malloc(cap);
	u32 nr;

	if (!out)
		return -ENOMEM;
	out[0] = '\0';
	if (fcur__u32(c, &nr) || nr > (u64)(c->end - c->p) / 8)
		goto bad;
	for (u32 i = 0; i < nr; i++) {
		u32 type;
		char *name;
		int n;

		if (fcur__u32(c, &type))
			goto bad;
		name = fcur__string(c);
		if (!name)
			goto bad;
		while (len + strlen(name) + 32 > cap) {
			char *o = realloc(out, cap * 2);

			if (!o) {
				free(name);
				free(out);
				return -ENOMEM;
			}
			out = o;
			cap *= 2;
		}
		n = snprintf(out + len, cap - len, "%s%s = %u", i ? ", " : "", name, type);
		len += (size_t)n;
		free(name);
	}
	free(s->pmu_mappings);
	s->pmu_mappings = out;
	return 0;
bad:
	free(out);
	return -EINVAL;
}

/* The rest of the section, kept as it is in *@to. */
static int fcur__keep(struct fcur *c, void **to, size_t *len)
{
	size_t n = (size_t)(c->end - c->p);
	void *copy = malloc(n ? n : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, c->p, n);
	free(*to);
	*to = copy;
	*len = n;
	c->p = c->end;
	return 0;
}

/* DUMP_REQUEST: see header.h for the layout. */
static int session__dump_request(struct perf_session *s, struct fcur *c)
{
	struct dump_request *r = &s->dump_request;
	char *event = NULL, *comm = NULL;
	u32 version;
	int err = -EINVAL;

	if (fcur__u32(c, &version) || version != 1 || fcur__u32(c, &r->kind) ||
	    fcur__u32(c, &r->joined) || fcur__u32(c, &r->cpu) || fcur__u64(c, &r->time) ||
	    fcur__u64(c, &r->threshold) || fcur__u32(c, &r->pid) || fcur__u32(c, &r->tid))
		return -EINVAL;
	event = fcur__string(c);
	comm = event ? fcur__string(c) : NULL;
	if (comm && r->kind < DUMP_REQUEST__MAX) {
		snprintf(r->event, sizeof(r->event), "%s", event);
		snprintf(r->comm, sizeof(r->comm), "%s", comm);
		s->has_dump_request = true;
		err = 0;
	}
	free(event);
	free(comm);
	return err;
}

static int session__feature(struct perf_session *s, int feat, struct fcur *c, u64 off)
{
	u32 n;

	switch (feat) {
	case HEADER_TRACING_DATA:
		return perf_session__read_tracing_data(s, c->p, c->end - c->p, off);
	case HEADER_HOSTNAME:
		return session__feature_string(s, c, &s->hostname);
	case HEADER_OSRELEASE:
		return session__feature_string(s, c, &s->osrelease);
	case HEADER_VERSION:
		return session__feature_string(s, c, &s->version);
	case HEADER_ARCH:
		return session__feature_string(s, c, &s->arch);
	case HEADER_CPUDESC:
		return session__feature_string(s, c, &s->cpudesc);
	case HEADER_CPUID:
		return session__feature_string(s, c, &s->cpuid);
	case HEADER_NRCPUS:
		if (fcur__u32(c, &s->nr_cpus_avail) || fcur__u32(c, &s->nr_cpus_online))
			return -EINVAL;
		return 0;
	case HEADER_TOTAL_MEM:
		return fcur__u64(c, &s->total_mem);
	case HEADER_CMDLINE:
		if (fcur__u32(c, &n) || n > (u64)(c->end - c->p) / 4)
			return -EINVAL;
		s->cmdline = calloc(n ? n : 1, sizeof(char *));
		if (!s->cmdline)
			return -ENOMEM;
		for (; s->nr_cmdline < n; s->nr_cmdline++) {
			s->cmdline[s->nr_cmdline] = fcur__string(c);
			if (!s->cmdline[s->nr_cmdline])
				return -EINVAL;
		}
		return 0;
	case HEADER_EVENT_DESC:
		return session__event_desc(s, c);
	case HEADER_GROUP_DESC:
		return session__group_desc(s, c);
	case HEADER_BUILD_ID:
		return session__build_ids(s, c);
	case HEADER_PMU_MAPPINGS:
		return session__pmu_mappings(s, c);
	case HEADER_CLOCKID:
		return fcur__u64(c, &s->clockid_ns);
	case HEADER_CLOCK_DATA: {
		u32 version;

		if (fcur__u32(c, &version) || fcur__u32(c, &s->clock.clockid) ||
		    fcur__u64(c, &s->clock.wall_ns) || fcur__u64(c, &s->clock.clock_ns))
			return -EINVAL;
		/* A later layout would be another version: not guessed at. */
		s->has_clock = version == 1;
		return 0;
	}
	case HEADER_BPF_PROG_INFO:
		return fcur__keep(c, &s->bpf_prog_info, &s->bpf_prog_info_len);
	case HEADER_BPF_BTF:
		return fcur__keep(c, &s->bpf_btf, &s->bpf_btf_len);
	case HEADER_SAMPLE_TIME:
		if (fcur__u64(c, &s->first_sample_time) || fcur__u64(c, &s->last_sample_time))
			return -EINVAL;
		return 0;
	case HEADER_DUMP_REQUEST:
		return session__dump_request(s, c);
	case HEADER_CPU_TOPOLOGY:
		return feat__check_cpu_topology(c);
	case HEADER_NUMA_TOPOLOGY:
		return feat__check_numa_topology(c);
	case HEADER_CACHE:
		return feat__check_cache(c);
	case HEADER_MEM_TOPOLOGY:
		return feat__check_mem_topology(c);
	case HEADER_COMPRESSED:
		if (fcur__u32(c, &s->comp.version) || fcur__u32(c, &s->comp.type) ||
		    fcur__u32(c, &s->comp.level) || fcur__u32(c, &s->comp.ratio) ||
		    fcur__u32(c, &s->comp.mmap_len))
			return -EINVAL;
		return 0;
	default:
		/* The rest: not needed to decode the data. */
		return 0;
	}
}

static const char *const feat_names[] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA", [HEADER_HOSTNAME] = "HOSTNAME",
	[HEADER_OSRELEASE] = "OSRELEASE", [HEADER_VERSION] = "VERSION",
	[HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS", [HEADER_CPUDESC] = "CPUDESC",
	[HEADER_CPUID] = "CPUID", [HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE", [HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME", [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_CLOCKID] = "CLOCKID", [HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_COMPRESSED] = "COMPRESSED", [HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF", [HEADER_GROUP_DESC] = "GROUP_DESC",
	[HEADER_DUMP_REQUEST] = "DUMP_REQUEST",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_CACHE] = "CACHE", [HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
};

/* Every feature the format defines, for "missing features" (perf report --header). */
static const char *const all_feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA", [HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME", [HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION", [HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC", [HEADER_CPUID] = "CPUID", [HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE", [HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK", [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC", [HEADER_AUXTRACE] = "AUXTRACE",
	[HEADER_STAT] = "STAT", [HEADER_CACHE] = "CACHE", [HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [HEADER_CLOCKID] = "CLOCKID",
	[HEADER_DIR_FORMAT] = "DIR_FORMAT", [HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF", [HEADER_COMPRESSED] = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [HEADER_PMU_CAPS] = "PMU_CAPS",
};

static const char *session__feat_name(int bit)
{
	return bit < HEADER_LAST_FEATURE && all_feat_names[bit] ? all_feat_names[bit] : "(unknown)";
}

/* @buf holds @len bytes and room for a NUL; @off is where they were, for the message. */
static int session__parse_feature(struct perf_session *s, int feat, char *buf, u64 len, u64 off)
{
	struct fcur c = { buf, buf + len };
	int err;

	buf[len] = '\0';
	err = session__feature(s, feat, &c, off);
	if (err == -EINVAL) {
		/* A damaged feature costs that feature only; the data is still shown. */
		pr_warning("WARNING: feature %s of %s is damaged (at offset %llu); "
			   "ignoring it.\n", feat_names[feat], s->path, (unsigned long long)off);
		s->damaged = true;
		err = 0;
	}
	return err;
}

int perf_session__read_features(struct perf_session *s)
{
	u64 table = s->data_offset + s->data_size;
	int nr = 0, idx = 0, err = 0;

	for (int bit = 1; bit < HEADER_FEAT_BITS; bit++)
		if (s->features[bit / 64] & (1ULL << (bit % 64)))
			nr++;
	if (!nr)
		return 0;
	if (table > s->file_size || (u64)nr * 16 > s->file_size - table) {
		pr_warning("WARNING: the feature table at offset %llu is past the end of %s; "
			   "ignoring the features.\n", (unsigned long long)table, s->path);
		s->features_truncated = true;
		return 0;
	}
	for (int bit = 1; bit < HEADER_FEAT_BITS; bit++) {
		u64 sec[2];
		char *buf;

		if (!(s->features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (pread(s->fd, sec, sizeof(sec), table + idx * 16) != sizeof(sec))
			return -EIO;
		idx++;
		/* Those this perf does not read too: the distro reads them. */
		if (sec[0] > s->file_size || sec[1] > s->file_size - sec[0]) {
			/* Truncated after the data: the samples are still all there. */
			pr_warning("WARNING: feature %s of %s lies past the end of the file "
				   "(truncated?); ignoring it.\n", session__feat_name(bit), s->path);
			s->features_truncated = true;
			continue;
		}
		if (bit >= (int)ARRAY_SIZE(feat_names) || !feat_names[bit])
			continue;
		buf = malloc(sec[1] + 1);
		if (!buf)
			return -ENOMEM;
		if (sec[1] && pread(s->fd, buf, sec[1], sec[0]) != (ssize_t)sec[1]) {
			free(buf);
			return -EIO;
		}
		err = session__parse_feature(s, bit, buf, sec[1], sec[0]);
		free(buf);
		if (err)
			return err;
	}
	return 0;
}

int perf_session__read_feature(struct perf_session *s, int feat, const char *data, u64 len,
			       u64 off)
{
	char *buf;
	int err;

	if (feat <= 0 || feat >= HEADER_FEAT_BITS)
		return 0;
	s->features[feat / 64] |= 1ULL << (feat % 64);
	if (feat >= (int)ARRAY_SIZE(feat_names) || !feat_names[feat])
		return 0;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, data, len);
	err = session__parse_feature(s, feat, buf, len, off);
	free(buf);
	return err;
}

static sigjmp_buf tep_jmp;
static volatile sig_atomic_t in_tep;
static void tep_guard_install(void);

#define MAX_FORMAT_WARNINGS 10

static void tracing__damaged(struct perf_session *s, u64 off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Damage inside the tracing data: named (the first few), and the exit status says it. */
static void tracing__damaged(struct perf_session *s, u64 off, const char *fmt, ...)
{
	char what[192];
	va_list ap;

	s->damaged = true;
	if (s->nr_damaged_formats++ >= MAX_FORMAT_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pr_warning("WARNING: the tracing data of %s is damaged at offset %llu: %s.\n",
		   s->path, (unsigned long long)off, what);
}

/* Kernels write their formats as text: any other byte in one is damage. */
static bool format__is_text(const char *p, u64 len)
{
	for (u64 i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t'))
			return false;
	}
	return true;
}

/* One event's format, @off into the file or stream; damage is named, not fatal. */
static void tracing__parse_format(struct perf_session *s, struct tep_handle *tep,
				  const char *p, u64 len, const char *sys, u64 off)
{
	char why[128];
	int err;

	if (!format__is_text(p, len))
		tracing__damaged(s, off, "a format of system %s holds bytes that are not text",
				 sys);
	err = tep_parse_event(tep, p, len, sys);
	if (err) {
		if (tep_strerror(tep, err, why, sizeof(why)))
			snprintf(why, sizeof(why), "error %d", err);
		tracing__damaged(s, off, "a format of system %s does not parse (%s)", sys, why);
	}
}

void perf_session__check_tp_formats(struct perf_session *s)
{
	struct evsel *e;
	char buf[128];
	const char *why;

	if (!s->tep)
		return;
	evlist__for_each_entry(s->evlist, e) {
		struct tep_format_field *type;

		if (!evsel__is_tracepoint(e) || e->tp_checked)
			continue;
		e->tp_checked = true;
		e->tp_format = tep_find_event(s->tep, (int)e->attr.config);
		why = e->tp_format ? tracepoint__format_problem(e->tp_format, buf, sizeof(buf)) :
				     "it has no format for it";
		type = e->tp_format ? tep_find_common_field(e->tp_format, "common_type") : NULL;
		if (type && type->offset >= 0 && type->size > 0 && type->size <= 8) {
			s->tp_type_off = (u32)type->offset;
			s->tp_type_size = (u32)type->size;
		}
		if (why) {
			s->damaged = true;
			pr_warning("WARNING: the tracing data of %s is damaged: event %s "
				   "(id %llu): %s.\n", s->path, evsel__name(e),
				   (unsigned long long)e->attr.config, why);
		}
	}
}

/* The tracing data block; see trace-cmd.dat(5) for its layout (version 0.6). */
int perf_session__read_tracing_data(struct perf_session *s, const char *buf, u64 size, u64 off)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct fcur c = { buf, buf + size };
	struct tep_handle *tep;
	u32 page_size, nr;
	u64 len;
	int long_size;

	if (size < sizeof(magic) || memcmp(buf, magic, sizeof(magic)))
		return -EINVAL;
	/* As it came, for perf inject to pass on. */
	free(s->tracing_data);
	s->tracing_data = malloc(size);
	if (!s->tracing_data)
		return -ENOMEM;
	memcpy(s->tracing_data, buf, size);
	s->tracing_data_len = size;
	c.p += sizeof(magic);
	c.p = memchr(c.p, '\0', c.end - c.p);	/* the version string */
	if (!c.p || c.end - ++c.p < 6)
		return -EINVAL;
	if (c.p[0])		/* big-endian files are not supported */
		return -EINVAL;
	long_size = c.p[1];
	c.p += 2;
	if (fcur__u32(&c, &page_size))
		return -EINVAL;
	tep = tep_alloc();
	if (!tep)
		return -ENOMEM;
	tep_guard_install();
	if (sigsetjmp(tep_jmp, 1)) {
		in_tep = 0;
		return -EINVAL;		/* the handle may be inconsistent: leak it */
	}
	in_tep = 1;
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, page_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);

#define NEED(x) do { if (!(x)) goto out_bad; } while (0)
#define AT(p) (off + (u64)((p) - buf))
	/* "header_page\0", u64 size, data; then the same for "header_event". */
	NEED(c.end - c.p >= 12 && !memcmp(c.p, "header_page", 12));
	c.p += 12;
	NEED(!fcur__u64(&c, &len) && len <= (u64)(c.end - c.p));
	if (!format__is_text(c.p, len) || tep_parse_header_page(tep, (char *)c.p, len, long_size))
		tracing__damaged(s, AT(c.p), "header_page does not parse");
	c.p += len;
	NEED(c.end - c.p >= 13 && !memcmp(c.p, "header_event", 13));
	c.p += 13;
	NEED(!fcur__u64(&c, &len) && len <= (u64)(c.end - c.p));
	c.p += len;
	/* ftrace's own formats: counted, each sized. */
	NEED(!fcur__u32(&c, &nr));
	for (u32 i = 0; i < nr; i++) {
		NEED(!fcur__u64(&c, &len) && len <= (u64)(c.end - c.p));
		tracing__parse_format(s, tep, c.p, len, "ftrace", AT(c.p));
		c.p += len;
	}
	NEED(!fcur__u32(&c, &nr));
	for (u32 i = 0; i < nr; i++) {
		const char *sys = c.p;
		u32 nr_ev;

		c.p = memchr(c.p, '\0', c.end - c.p);
		NEED(c.p);
		c.p++;
		NEED(!fcur__u32(&c, &nr_ev));
		for (u32 j = 0; j < nr_ev; j++) {
			NEED(!fcur__u64(&c, &len) && len <= (u64)(c.end - c.p));
			tracing__parse_format(s, tep, c.p, len, sys, AT(c.p));
			c.p += len;
		}
	}
	/* kallsyms and printk formats are optional extras: the event fields print without. */
	in_tep = 0;
	if (s->tep)
		tep_free(s->tep);
	s->tep = tep;
	return 0;
#undef AT
#undef NEED
out_bad:
	in_tep = 0;
	tep_free(tep);
	return -EINVAL;
}

struct bit_name {
	u64 bit;
	const char *name;
};

static const struct bit_name sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL }
};

static const struct bit_name read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" }, { PERF_FORMAT_LOST, "LOST" },
	{ 0, NULL }
};

static void print_bits(FILE *fp, u64 v, const struct bit_name *b)
{
	bool first = true;

	for (; b->name; b++) {
		if (v & b->bit) {
			fprintf(fp, "%s%s", first ? "" : "|", b->name);
			first = false;
		}
	}
}

void evlist__fprintf_events(FILE *fp, struct evlist *evlist, bool details)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		fprintf(fp, "%s", evsel__name(e));
		if (details) {
			fprintf(fp, ": ");
			perf_event_attr__fprintf(fp, &e->attr, ": ");
		}
		fputc('\n', fp);
	}
}

void perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *a, const char *sep)
{
	bool first = true;

#define FIELD(name, val, fmt)							\
	do {									\
		if (val) {							\
			fprintf(fp, "%s%s%s" fmt, first ? "" : ", ", name, sep,	\
				(unsigned long long)(val));			\
			first = false;						\
		}								\
	} while (0)
#define BITS(name, val, tab)							\
	do {									\
		if (val) {							\
			fprintf(fp, "%s%s%s", first ? "" : ", ", name, sep);	\
			print_bits(fp, val, tab);				\
			first = false;						\
		}								\
	} while (0)
#define FLAG(f) FIELD(#f, a->f, "%llu")
	FIELD("type", a->type, "%llu");
	FIELD("size", a->size, "%llu");
	FIELD("config", a->config, "%#llx");
	FIELD("{ sample_period, sample_freq }", a->sample_period, "%llu");
	BITS("sample_type", a->sample_type, sample_bits);
	BITS("read_format", a->read_format, read_bits);
	FLAG(disabled); FLAG(inherit); FLAG(pinned); FLAG(exclusive);
	FLAG(exclude_user); FLAG(exclude_kernel); FLAG(exclude_hv); FLAG(exclude_idle);
	FLAG(mmap); FLAG(comm); FLAG(freq); FLAG(inherit_stat); FLAG(enable_on_exec);
	FLAG(task); FLAG(watermark); FLAG(precise_ip); FLAG(mmap_data); FLAG(sample_id_all);
	FLAG(exclude_host); FLAG(exclude_guest); FLAG(exclude_callchain_kernel);
	FLAG(exclude_callchain_user); FLAG(mmap2); FLAG(comm_exec); FLAG(use_clockid);
	FLAG(context_switch); FLAG(write_backward); FLAG(namespaces); FLAG(ksymbol);
	FLAG(bpf_event); FLAG(aux_output); FLAG(cgroup); FLAG(text_poke); FLAG(build_id);
	FLAG(inherit_thread); FLAG(remove_on_exec); FLAG(sigtrap);
	FIELD("{ wakeup_events, wakeup_watermark }", a->wakeup_events, "%llu");
	FLAG(bp_type);
	FIELD("{ bp_addr, config1 }", a->bp_addr, "%#llx");
	FIELD("{ bp_len, config2 }", a->bp_len, "%#llx");
	FIELD("branch_sample_type", a->branch_sample_type, "%#llx");
	FIELD("sample_regs_user", a->sample_regs_user, "%#llx");
	FLAG(sample_stack_user);
	if (a->clockid) {
		fprintf(fp, "%sclockid%s%d", first ? "" : ", ", sep, (int)a->clockid);
		first = false;
	}
	FIELD("sample_regs_intr", a->sample_regs_intr, "%#llx");
	FLAG(aux_watermark); FLAG(sample_max_stack);
#undef FLAG
#undef BITS
#undef FIELD
}

static bool session__has_feat(const struct perf_session *s, int bit)
{
	return s->features[bit / 64] & (1ULL << (bit % 64));
}

/* The lines the distro prints for the features it does not spell out. */
static void session__print_features(struct perf_session *s, FILE *fp)
{
	static const int available[] = {
		HEADER_CPU_TOPOLOGY, HEADER_NUMA_TOPOLOGY, HEADER_CACHE, HEADER_MEM_TOPOLOGY,
	};

	for (int bit = HEADER_CPU_TOPOLOGY; bit < HEADER_LAST_FEATURE; bit++) {
		if (!session__has_feat(s, bit))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(available); i++)
			if (available[i] == bit)
				fprintf(fp, "# %s info available, use -I to display\n",
					all_feat_names[bit]);
		switch (bit) {
		case HEADER_BRANCH_STACK:
			fprintf(fp, "# contains samples with branch stack\n");
			break;
		case HEADER_PMU_MAPPINGS:
			if (s->pmu_mappings)
				fprintf(fp, "# pmu mappings: %s\n", s->pmu_mappings);
			break;
		case HEADER_GROUP_DESC: {
			struct evsel *e;
			char *desc;

			evlist__for_each_entry(s->evlist, e) {
				if (!evsel__is_group_leader(e) || e->nr_members < 2)
					continue;
				desc = evsel__group_desc(e, false);
				if (desc)
					fprintf(fp, "# group: %s\n", desc);
				free(desc);
			}
			break;
		}
		case HEADER_AUXTRACE:
			fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
			break;
		case HEADER_STAT:
			fprintf(fp, "# contains stat data\n");
			break;
		case HEADER_SAMPLE_TIME:
			fprintf(fp, "# time of first sample : %llu.%06llu\n",
				(unsigned long long)(s->first_sample_time / 1000000000),
				(unsigned long long)(s->first_sample_time % 1000000000 / 1000));
			fprintf(fp, "# time of last sample : %llu.%06llu\n",
				(unsigned long long)(s->last_sample_time / 1000000000),
				(unsigned long long)(s->last_sample_time % 1000000000 / 1000));
			fprintf(fp, "# sample duration : %10.3f ms\n",
				(double)(s->last_sample_time - s->first_sample_time) / 1e6);
			break;
		case HEADER_CLOCKID:
			/* The feature holds the clock's resolution in ns; the distro prints it so. */
			fprintf(fp, "# clockid frequency: %llu MHz\n",
				(unsigned long long)(s->clockid_ns * 1000));
			break;
		case HEADER_CLOCK_DATA: {
			const char *name = clockid__name((int)s->clock.clockid);
			char tod[64];

			if (!s->has_clock)
				break;
			clock_ref__format_tod(s->clock.wall_ns, tod, sizeof(tod));
			fprintf(fp, "# clockid: %s (%u)\n", name ? name : "(unknown)",
				s->clock.clockid);
			fprintf(fp, "# reference time: %s = %llu.%06llu (TOD) = %llu.%09llu (%s)\n",
				tod, (unsigned long long)(s->clock.wall_ns / 1000000000),
				(unsigned long long)(s->clock.wall_ns % 1000000000 / 1000),
				(unsigned long long)(s->clock.clock_ns / 1000000000),
				(unsigned long long)(s->clock.clock_ns % 1000000000),
				name ? name : "(unknown)");
			break;
		}
		case HEADER_BPF_PROG_INFO:
			bpf_prog_info__fprintf(fp, s->bpf_prog_info, s->bpf_prog_info_len,
					       s->bpf_btf, s->bpf_btf_len);
			break;
		case HEADER_BPF_BTF:
			bpf_btf__fprintf(fp, s->bpf_btf, s->bpf_btf_len);
			break;
		case HEADER_COMPRESSED:
			fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
				s->comp.type == 1 ? "Zstd" : "Unknown", s->comp.level,
				s->comp.ratio);
			break;
		default:
			break;
		}
	}
	if (s->has_dump_request) {
		char why[256];

		fprintf(fp, "# dump requested by : %s\n",
			dump_request__format(&s->dump_request, why, sizeof(why)));
	}
	/* A stream's features are those that came: none is missing. */
	if (s->pipe)
		return;
	fprintf(fp, "# missing features: ");
	for (int bit = HEADER_TRACING_DATA; bit < HEADER_LAST_FEATURE; bit++)
		if (!session__has_feat(s, bit))
			fprintf(fp, "%s ", all_feat_names[bit]);
	fputc('\n', fp);
}

/* The event's sample ids, as "id = { 1, 2 }, " (nothing when it has none). */
static void session__print_ids(struct perf_session *s, struct evsel *e, FILE *fp)
{
	bool first = true;

	for (size_t i = 0; i < s->nr_ids; i++) {
		if (s->ids[i].evsel != e)
			continue;
		fprintf(fp, "%s%llu", first ? "id = { " : ", ", (unsigned long long)s->ids[i].id);
		first = false;
	}
	if (!first)
		fprintf(fp, " }, ");
}

void perf_session__print_file_header(struct perf_session *s, FILE *fp)
{
	struct stat st;

	fprintf(fp, "# ========\n");
	/* The file's modification time: when the recording was finished. */
	if (fstat(s->fd, &st) == 0) {
		char when[64];

		if (ctime_r(&st.st_mtime, when))
			fprintf(fp, "# captured on    : %s", when);
	}
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %llu\n", (unsigned long long)s->data_offset);
	fprintf(fp, "# data size      : %llu\n", (unsigned long long)s->data_size);
	fprintf(fp, "# feat offset    : %llu\n",
		(unsigned long long)(s->data_offset + s->data_size));
	/* A stream's features come after its head, as records: the distro ends the head here. */
	if (s->pipe)
		fprintf(fp, "# ========\n#\n");
}

void perf_session__print_header(struct perf_session *s, FILE *fp)
{
	struct evsel *e;

	perf_session__print_file_header(s, fp);
	if (s->hostname)
		fprintf(fp, "# hostname : %s\n", s->hostname);
	if (s->osrelease)
		fprintf(fp, "# os release : %s\n", s->osrelease);
	if (s->version)
		fprintf(fp, "# perf version : %s\n", s->version);
	if (s->arch)
		fprintf(fp, "# arch : %s\n", s->arch);
	if (s->nr_cpus_online || s->nr_cpus_avail) {
		fprintf(fp, "# nrcpus online : %u\n", s->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", s->nr_cpus_avail);
	}
	if (s->cpudesc)
		fprintf(fp, "# cpudesc : %s\n", s->cpudesc);
	if (s->cpuid)
		fprintf(fp, "# cpuid : %s\n", s->cpuid);
	if (s->total_mem)
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)s->total_mem);
	if (s->nr_cmdline) {
		fprintf(fp, "# cmdline : ");
		for (u32 i = 0; i < s->nr_cmdline; i++)
			fprintf(fp, "%s ", s->cmdline[i]);
		fputc('\n', fp);
	}
	/* A stream names its events only in its EVENT_DESC feature, when it has one. */
	evlist__for_each_entry(s->evlist, e) {
		if (s->pipe && !session__has_feat(s, HEADER_EVENT_DESC))
			break;
		fprintf(fp, "# event : name = %s, , ", evsel__name(e));
		session__print_ids(s, e, fp);
		perf_event_attr__fprintf(fp, &e->attr, " = ");
		fputc('\n', fp);
	}
	session__print_features(s, fp);
	if (!s->pipe)
		fprintf(fp, "# ========\n#\n");
}

/*
 * libtraceevent trusts the formats it is given: a hostile one can make its
 * parser follow a NULL pointer or its printer divide by a zero field.  The
 * calls into it run under a guard that turns such a fault into an error
 * for that one format or event instead of the end of the whole run.  A
 * handle that faulted while parsing is abandoned, not freed.
 */
static void tep_fault_handler(int sig)
{
	if (in_tep)
		siglongjmp(tep_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void tep_guard_install(void)
{
	static bool installed;
	struct sigaction sa = { .sa_handler = tep_fault_handler };

	if (installed)
		return;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	installed = true;
}

void perf_session__print_tp(struct tep_handle *tep, struct trace_seq *seq,
			    struct tep_record *rec)
{
	tep_guard_install();
	/* SA_NODEFER keeps the signal unblocked: no mask to save, no syscall per event. */
	if (sigsetjmp(tep_jmp, 0)) {
		in_tep = 0;
		trace_seq_reset(seq);
		trace_seq_puts(seq, "[unprintable: the event's format is broken]");
		trace_seq_terminate(seq);
		return;
	}
	in_tep = 1;
	tep_print_event(tep, seq, rec, "%s", TEP_PRINT_INFO);
	in_tep = 0;
	trace_seq_terminate(seq);
}
