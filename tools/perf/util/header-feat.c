/*
 * The perf.data features: per feature how it is written, read back and
 * printed, and at the end the table that holds one row per feature.  A new
 * feature is its three functions here and its row.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "header-feat.h"
#include "session.h"
#include "dump-request.h"
#include "evlist.h"
#include "evsel.h"
#include "bpf-info.h"
#include "trace-event-info.h"
#include "perf.h"

/* ---- shared by several features ---- */

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

static int fcur__string_into(struct fcur *c, char **dst)
{
	free(*dst);
	*dst = fcur__string(c);
	return *dst ? 0 : -EINVAL;
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

/* perf inject: another machine's description, as its input had it. */
static const struct perf_host_desc *feat__host(const struct perf_header_info *info)
{
	return info ? info->host : NULL;
}

/* A string of another machine's description: left out if it did not have it. */
static int write_host_string(struct perf_feat_buf *b, const char *s)
{
	if (!s)
		return -ENOENT;
	fbuf__add_string(b, s);
	return 0;
}

static int write_uname_field(struct perf_feat_buf *b, size_t field)
{
	struct utsname uts;

	if (uname(&uts) < 0)
		return -errno;
	fbuf__add_string(b, (const char *)&uts + field);
	return 0;
}

static char *proc_field(const char *file, const char *key)
{
	size_t klen = strlen(key), n = 0;
	char *line = NULL, *val = NULL;
	FILE *fp = fopen(file, "r");

	if (!fp)
		return NULL;
	while (getline(&line, &n, fp) > 0) {
		char *p = line;

		if (strncmp(p, key, klen))
			continue;
		p += klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		val = strdup(p);
		break;
	}
	free(line);
	fclose(fp);
	return val;
}

/* ---- TRACING_DATA: the tracepoints' formats (trace-event-info.c, header-read.c) ---- */

static int write_tracing_data(struct perf_feat_buf *b, struct evlist *evlist,
			      struct perf_header_info *info)
{
	if (info && info->tracing_data) {
		perf_feat_buf__add(b, info->tracing_data, info->tracing_data_len);
		return 0;
	}
	return tracing_data__write(b, evlist);
}

static int process_tracing_data(struct perf_session *s, struct fcur *c, u64 off)
{
	return perf_session__read_tracing_data(s, c->p, c->end - c->p, off);
}

/* ---- BUILD_ID ---- */

static int write_build_id(struct perf_feat_buf *b, struct evlist *evlist,
			  struct perf_header_info *info)
{
	if (info && info->build_ids) {
		perf_feat_buf__add(b, info->build_ids, info->build_ids_len);
		return 0;
	}
	return perf_header_info__write_build_ids(b, info);
}

/*
 * A list of records { header, pid, build_id[20], size, pad[3], filename }
 * (size is valid when misc has bit 15, else the id is 20 bytes).
 * User-space ids (and the kernel's) go onto their DSOs, so symbols are only
 * read from a file with the same id.
 */
static int process_build_id(struct perf_session *s, struct fcur *c, u64 off)
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

/* ---- HOSTNAME, OSRELEASE, VERSION, ARCH ---- */

static int write_hostname(struct perf_feat_buf *b, struct evlist *evlist,
			  struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);

	if (h)
		return write_host_string(b, h->hostname);
	return write_uname_field(b, offsetof(struct utsname, nodename));
}

static int process_hostname(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->hostname);
}

static void print_hostname(struct perf_session *s, int feat, FILE *fp)
{
	if (s->hostname)
		fprintf(fp, "# hostname : %s\n", s->hostname);
}

static int write_osrelease(struct perf_feat_buf *b, struct evlist *evlist,
			   struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);

	if (h)
		return write_host_string(b, h->osrelease);
	return write_uname_field(b, offsetof(struct utsname, release));
}

static int process_osrelease(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->osrelease);
}

static void print_osrelease(struct perf_session *s, int feat, FILE *fp)
{
	if (s->osrelease)
		fprintf(fp, "# os release : %s\n", s->osrelease);
}

static int write_version(struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);

	if (h)
		return write_host_string(b, h->version);
	fbuf__add_string(b, PERF_VERSION);
	return 0;
}

static int process_version(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->version);
}

static void print_version(struct perf_session *s, int feat, FILE *fp)
{
	if (s->version)
		fprintf(fp, "# perf version : %s\n", s->version);
}

static int write_arch(struct perf_feat_buf *b, struct evlist *evlist, struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);

	if (h)
		return write_host_string(b, h->arch);
	return write_uname_field(b, offsetof(struct utsname, machine));
}

static int process_arch(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->arch);
}

static void print_arch(struct perf_session *s, int feat, FILE *fp)
{
	if (s->arch)
		fprintf(fp, "# arch : %s\n", s->arch);
}

/* ---- NRCPUS: u32 available, u32 online ---- */

static int write_nrcpus(struct perf_feat_buf *b, struct evlist *evlist,
			struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);

	if (h) {
		if (!h->nr_cpus_avail)
			return -ENOENT;
		fbuf__add_u32(b, h->nr_cpus_avail);
		fbuf__add_u32(b, h->nr_cpus_online);
		return 0;
	}
	fbuf__add_u32(b, sysconf(_SC_NPROCESSORS_CONF));
	fbuf__add_u32(b, sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

static int process_nrcpus(struct perf_session *s, struct fcur *c, u64 off)
{
	if (fcur__u32(c, &s->nr_cpus_avail) || fcur__u32(c, &s->nr_cpus_online))
		return -EINVAL;
	return 0;
}

static void print_nrcpus(struct perf_session *s, int feat, FILE *fp)
{
	if (s->nr_cpus_online || s->nr_cpus_avail) {
		fprintf(fp, "# nrcpus online : %u\n", s->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", s->nr_cpus_avail);
	}
}

/* ---- CPUDESC, CPUID ---- */

static int write_cpudesc(struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);
	char *s, *r, *w;

	if (h)
		return write_host_string(b, h->cpudesc);
	s = proc_field("/proc/cpuinfo", "model name");
	if (!s)
		s = proc_field("/proc/cpuinfo", "cpu model");
	if (!s)
		return -ENOENT;
	/* Runs of blanks are squeezed, as the distro tool does. */
	for (r = w = s; *r; r++)
		if (!(*r == ' ' && w > s && w[-1] == ' '))
			*w++ = *r;
	*w = '\0';
	fbuf__add_string(b, s);
	free(s);
	return 0;
}

static int process_cpudesc(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->cpudesc);
}

static void print_cpudesc(struct perf_session *s, int feat, FILE *fp)
{
	if (s->cpudesc)
		fprintf(fp, "# cpudesc : %s\n", s->cpudesc);
}

/* x86 style: "vendor,family,model,stepping" with the extended family/model folded in. */
static int write_cpuid(struct perf_feat_buf *b, struct evlist *evlist,
		       struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);
	char *vendor, *family, *model, *stepping;
	int err = -ENOENT;

	if (h)
		return write_host_string(b, h->cpuid);
	vendor = proc_field("/proc/cpuinfo", "vendor_id");
	family = proc_field("/proc/cpuinfo", "cpu family");
	model = proc_field("/proc/cpuinfo", "model");
	stepping = proc_field("/proc/cpuinfo", "stepping");
	if (vendor && family && model && stepping) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, family, model, stepping);
		fbuf__add_string(b, buf);
		err = 0;
	}
	free(vendor);
	free(family);
	free(model);
	free(stepping);
	return err;
}

static int process_cpuid(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__string_into(c, &s->cpuid);
}

static void print_cpuid(struct perf_session *s, int feat, FILE *fp)
{
	if (s->cpuid)
		fprintf(fp, "# cpuid : %s\n", s->cpuid);
}

/* ---- TOTAL_MEM: u64 kB ---- */

static int write_total_mem(struct perf_feat_buf *b, struct evlist *evlist,
			   struct perf_header_info *info)
{
	const struct perf_host_desc *h = feat__host(info);
	char *s;

	if (h) {
		if (!h->total_mem)
			return -ENOENT;
		fbuf__add_u64(b, h->total_mem);
		return 0;
	}
	s = proc_field("/proc/meminfo", "MemTotal");
	if (!s)
		return -ENOENT;
	fbuf__add_u64(b, strtoull(s, NULL, 10));
	free(s);
	return 0;
}

static int process_total_mem(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__u64(c, &s->total_mem);
}

static void print_total_mem(struct perf_session *s, int feat, FILE *fp)
{
	if (s->total_mem)
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)s->total_mem);
}

/* ---- CMDLINE: u32 count, then the strings (this binary's path first) ---- */

static int write_cmdline(struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		snprintf(exe, sizeof(exe), "perf");
	else
		exe[n] = '\0';
	fbuf__add_u32(b, 1 + (info ? info->argc : 0));
	fbuf__add_string(b, exe);
	for (int i = 0; info && i < info->argc; i++)
		fbuf__add_string(b, info->argv[i] ? info->argv[i] : "");
	return 0;
}

static int process_cmdline(struct perf_session *s, struct fcur *c, u64 off)
{
	u32 n;

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
}

static void print_cmdline(struct perf_session *s, int feat, FILE *fp)
{
	if (!s->nr_cmdline)
		return;
	fprintf(fp, "# cmdline : ");
	for (u32 i = 0; i < s->nr_cmdline; i++)
		fprintf(fp, "%s ", s->cmdline[i]);
	fputc('\n', fp);
}

/*
 * ---- EVENT_DESC: u32 count, u32 attr size, then per event its attr,
 * u32 nr_ids, name and ids.  Its lines are the events' own, printed from
 * the attrs (perf_session__print_header). ----
 */

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

void fbuf__add_ids(struct perf_feat_buf *b, const u64 *ids, int nr)
{
	u64 *sorted;

	if (nr <= 0)
		return;
	sorted = malloc(nr * sizeof(*sorted));
	if (!sorted) {
		b->err = b->err ?: -ENOMEM;
		return;
	}
	memcpy(sorted, ids, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), u64_cmp);
	perf_feat_buf__add(b, sorted, nr * sizeof(*sorted));
	free(sorted);
}

static int write_event_desc(struct perf_feat_buf *b, struct evlist *evlist,
			    struct perf_header_info *info)
{
	struct evsel *evsel;

	fbuf__add_u32(b, evlist__nr_file_evsels(evlist));
	fbuf__add_u32(b, sizeof(struct perf_event_attr));
	evlist__for_each_file_evsel(evlist, evsel) {
		struct perf_event_attr attr = evsel->attr;

		attr.size = sizeof(attr);
		perf_feat_buf__add(b, &attr, sizeof(attr));
		fbuf__add_u32(b, evsel->nr_ids);
		fbuf__add_string(b, evsel__name(evsel));
		fbuf__add_ids(b, evsel->ids, evsel->nr_ids);
	}
	return 0;
}

static int process_event_desc(struct perf_session *s, struct fcur *c, u64 off)
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
 * ---- The features the distro describes only as there (topologies and
 * caches).  This perf does not use them, but checks them as the distro
 * reads them, so their damage is not passed over in silence. ----
 */

static void print_available(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# %s info available, use -I to display\n", perf_feat__name(feat));
}

/* CPU_TOPOLOGY: the core and thread sibling lists (what follows is optional). */
static int process_cpu_topology(struct perf_session *s, struct fcur *c, u64 off)
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
static int process_numa_topology(struct perf_session *s, struct fcur *c, u64 off)
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
static int process_cache(struct perf_session *s, struct fcur *c, u64 off)
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
static int process_mem_topology(struct perf_session *s, struct fcur *c, u64 off)
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

/* ---- Features that only say what the data holds ---- */

static void print_branch_stack(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# contains samples with branch stack\n");
}

static void print_auxtrace(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
}

static void print_stat(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# contains stat data\n");
}

/* ---- PMU_MAPPINGS: u32 count, then per PMU its type and name ---- */

/* Kept as the line the distro prints: "software = 1, uprobe = 8, ...". */
static int process_pmu_mappings(struct perf_session *s, struct fcur *c, u64 off)
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

static void print_pmu_mappings(struct perf_session *s, int feat, FILE *fp)
{
	if (s->pmu_mappings)
		fprintf(fp, "# pmu mappings: %s\n", s->pmu_mappings);
}

/*
 * ---- GROUP_DESC: u32 nr_groups, then for each group of more than one
 * event its name ("{anon_group}" for none), the position of its leader
 * among the attrs and its number of members.  Without groups it is left
 * out. ----
 */

static int write_group_desc(struct perf_feat_buf *b, struct evlist *evlist,
			    struct perf_header_info *info)
{
	struct evsel *evsel;
	u32 nr = 0;

	evlist__for_each_entry(evlist, evsel)
		if (evsel->leader == evsel && evsel->nr_members > 1)
			nr++;
	if (!nr)
		return -ENOENT;
	fbuf__add_u32(b, nr);
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->leader != evsel || evsel->nr_members <= 1)
			continue;
		fbuf__add_string(b, evsel->group_name ? evsel->group_name : "{anon_group}");
		fbuf__add_u32(b, evsel->idx);
		fbuf__add_u32(b, evsel->nr_members);
	}
	return 0;
}

/* The groups onto the evsels; one that does not fit the attrs is refused, as the distro does. */
static int process_group_desc(struct perf_session *s, struct fcur *c, u64 off)
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

static void print_group_desc(struct perf_session *s, int feat, FILE *fp)
{
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
}

/* ---- SAMPLE_TIME: u64 first, u64 last; written when there was a sample ---- */

static int write_sample_time(struct perf_feat_buf *b, struct evlist *evlist,
			     struct perf_header_info *info)
{
	if (!info || !info->last_sample_time)
		return -ENOENT;
	fbuf__add_u64(b, info->first_sample_time);
	fbuf__add_u64(b, info->last_sample_time);
	return 0;
}

static int process_sample_time(struct perf_session *s, struct fcur *c, u64 off)
{
	if (fcur__u64(c, &s->first_sample_time) || fcur__u64(c, &s->last_sample_time))
		return -EINVAL;
	return 0;
}

static void print_sample_time(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# time of first sample : %llu.%06llu\n",
		(unsigned long long)(s->first_sample_time / 1000000000),
		(unsigned long long)(s->first_sample_time % 1000000000 / 1000));
	fprintf(fp, "# time of last sample : %llu.%06llu\n",
		(unsigned long long)(s->last_sample_time / 1000000000),
		(unsigned long long)(s->last_sample_time % 1000000000 / 1000));
	fprintf(fp, "# sample duration : %10.3f ms\n",
		(double)(s->last_sample_time - s->first_sample_time) / 1e6);
}

/* ---- CLOCKID: u64, the clock's resolution in ns; with -k ---- */

static int write_clockid(struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info)
{
	if (!info || !info->use_clockid)
		return -ENOENT;
	fbuf__add_u64(b, info->clock_res_ns);
	return 0;
}

static int process_clockid(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__u64(c, &s->clockid_ns);
}

static void print_clockid(struct perf_session *s, int feat, FILE *fp)
{
	/* The feature holds the clock's resolution in ns; the distro prints it so. */
	fprintf(fp, "# clockid frequency: %llu MHz\n", (unsigned long long)(s->clockid_ns * 1000));
}

/* ---- BPF_PROG_INFO, BPF_BTF: kept as they are, decoded when printed (bpf-info.c) ---- */

static int process_bpf_prog_info(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__keep(c, &s->bpf_prog_info, &s->bpf_prog_info_len);
}

static void print_bpf_prog_info(struct perf_session *s, int feat, FILE *fp)
{
	bpf_prog_info__fprintf(fp, s->bpf_prog_info, s->bpf_prog_info_len, s->bpf_btf,
			       s->bpf_btf_len);
}

static int process_bpf_btf(struct perf_session *s, struct fcur *c, u64 off)
{
	return fcur__keep(c, &s->bpf_btf, &s->bpf_btf_len);
}

static void print_bpf_btf(struct perf_session *s, int feat, FILE *fp)
{
	bpf_btf__fprintf(fp, s->bpf_btf, s->bpf_btf_len);
}

/* ---- COMPRESSED: u32 version, type, level, ratio, mmap_len; with -z ---- */

static int write_compressed(struct perf_feat_buf *b, struct evlist *evlist,
			    struct perf_header_info *info)
{
	if (!info || !info->comp_level)
		return -ENOENT;
	fbuf__add_u32(b, 0);			/* version: the distro's */
	fbuf__add_u32(b, 1);			/* zstd */
	fbuf__add_u32(b, info->comp_level);
	fbuf__add_u32(b, info->comp_ratio);
	fbuf__add_u32(b, info->comp_mmap_len);
	return 0;
}

static int process_compressed(struct perf_session *s, struct fcur *c, u64 off)
{
	if (fcur__u32(c, &s->comp.version) || fcur__u32(c, &s->comp.type) ||
	    fcur__u32(c, &s->comp.level) || fcur__u32(c, &s->comp.ratio) ||
	    fcur__u32(c, &s->comp.mmap_len))
		return -EINVAL;
	return 0;
}

static void print_compressed(struct perf_session *s, int feat, FILE *fp)
{
	fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
		s->comp.type == 1 ? "Zstd" : "Unknown", s->comp.level, s->comp.ratio);
}

/* ---- CLOCK_DATA: u32 version 1, u32 clockid, u64 wall-clock ns, u64 clock ns; with -k ---- */

static int write_clock_data(struct perf_feat_buf *b, struct evlist *evlist,
			    struct perf_header_info *info)
{
	if (!info || !info->use_clockid)
		return -ENOENT;
	fbuf__add_u32(b, 1);	/* version */
	fbuf__add_u32(b, info->clock.clockid);
	fbuf__add_u64(b, info->clock.wall_ns);
	fbuf__add_u64(b, info->clock.clock_ns);
	return 0;
}

static int process_clock_data(struct perf_session *s, struct fcur *c, u64 off)
{
	u32 version;

	if (fcur__u32(c, &version) || fcur__u32(c, &s->clock.clockid) ||
	    fcur__u64(c, &s->clock.wall_ns) || fcur__u64(c, &s->clock.clock_ns))
		return -EINVAL;
	/* A later layout would be another version: not guessed at. */
	s->has_clock = version == 1;
	return 0;
}

static void print_clock_data(struct perf_session *s, int feat, FILE *fp)
{
	const char *name = clockid__name((int)s->clock.clockid);
	char tod[64];

	if (!s->has_clock)
		return;
	clock_ref__format_tod(s->clock.wall_ns, tod, sizeof(tod));
	fprintf(fp, "# clockid: %s (%u)\n", name ? name : "(unknown)", s->clock.clockid);
	fprintf(fp, "# reference time: %s = %llu.%06llu (TOD) = %llu.%09llu (%s)\n",
		tod, (unsigned long long)(s->clock.wall_ns / 1000000000),
		(unsigned long long)(s->clock.wall_ns % 1000000000 / 1000),
		(unsigned long long)(s->clock.clock_ns / 1000000000),
		(unsigned long long)(s->clock.clock_ns % 1000000000),
		name ? name : "(unknown)");
}

/* ---- DUMP_REQUEST (ours): see header.h for the layout; in dumps only ---- */

static int write_dump_request(struct perf_feat_buf *b, struct evlist *evlist,
			      struct perf_header_info *info)
{
	const struct dump_request *r = info ? info->request : NULL;

	if (!r)
		return -ENOENT;
	fbuf__add_u32(b, 1);	/* version */
	fbuf__add_u32(b, r->kind);
	fbuf__add_u32(b, r->joined);
	fbuf__add_u32(b, r->cpu);
	fbuf__add_u64(b, r->time);
	fbuf__add_u64(b, r->threshold);
	fbuf__add_u32(b, r->pid);
	fbuf__add_u32(b, r->tid);
	fbuf__add_string(b, r->event);
	fbuf__add_string(b, r->comm);
	return 0;
}

static int process_dump_request(struct perf_session *s, struct fcur *c, u64 off)
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

static void print_dump_request(struct perf_session *s, int feat, FILE *fp)
{
	char why[256];

	if (s->has_dump_request)
		fprintf(fp, "# dump requested by : %s\n",
			dump_request__format(&s->dump_request, why, sizeof(why)));
}

/* ---- the table ---- */

static const struct perf_feat_ops feat_ops[HEADER_FEAT_BITS] = {
	[HEADER_TRACING_DATA] = { "TRACING_DATA", write_tracing_data, process_tracing_data,
				  NULL },
	[HEADER_BUILD_ID] = { "BUILD_ID", write_build_id, process_build_id, NULL,
			      .per_dump = true },
	[HEADER_HOSTNAME] = { "HOSTNAME", write_hostname, process_hostname, print_hostname,
			      .pipe = true },
	[HEADER_OSRELEASE] = { "OSRELEASE", write_osrelease, process_osrelease,
			       print_osrelease, .pipe = true },
	[HEADER_VERSION] = { "VERSION", write_version, process_version, print_version,
			     .pipe = true },
	[HEADER_ARCH] = { "ARCH", write_arch, process_arch, print_arch, .pipe = true },
	[HEADER_NRCPUS] = { "NRCPUS", write_nrcpus, process_nrcpus, print_nrcpus, .pipe = true },
	[HEADER_CPUDESC] = { "CPUDESC", write_cpudesc, process_cpudesc, print_cpudesc,
			     .pipe = true },
	[HEADER_CPUID] = { "CPUID", write_cpuid, process_cpuid, print_cpuid, .pipe = true },
	[HEADER_TOTAL_MEM] = { "TOTAL_MEM", write_total_mem, process_total_mem,
			       print_total_mem, .pipe = true },
	[HEADER_CMDLINE] = { "CMDLINE", write_cmdline, process_cmdline, print_cmdline,
			     .pipe = true },
	[HEADER_EVENT_DESC] = { "EVENT_DESC", write_event_desc, process_event_desc, NULL,
				.pipe = true },
	[HEADER_CPU_TOPOLOGY] = { "CPU_TOPOLOGY", NULL, process_cpu_topology, print_available },
	[HEADER_NUMA_TOPOLOGY] = { "NUMA_TOPOLOGY", NULL, process_numa_topology,
				   print_available },
	[HEADER_BRANCH_STACK] = { "BRANCH_STACK", NULL, NULL, print_branch_stack },
	[HEADER_PMU_MAPPINGS] = { "PMU_MAPPINGS", NULL, process_pmu_mappings,
				  print_pmu_mappings },
	[HEADER_GROUP_DESC] = { "GROUP_DESC", write_group_desc, process_group_desc,
				print_group_desc, .pipe = true },
	[HEADER_AUXTRACE] = { "AUXTRACE", NULL, NULL, print_auxtrace },
	[HEADER_STAT] = { "STAT", NULL, NULL, print_stat },
	[HEADER_CACHE] = { "CACHE", NULL, process_cache, print_available },
	[HEADER_SAMPLE_TIME] = { "SAMPLE_TIME", write_sample_time, process_sample_time,
				 print_sample_time, .per_dump = true },
	[HEADER_MEM_TOPOLOGY] = { "MEM_TOPOLOGY", NULL, process_mem_topology, print_available },
	[HEADER_CLOCKID] = { "CLOCKID", write_clockid, process_clockid, print_clockid,
			     .pipe = true },
	[HEADER_DIR_FORMAT] = { "DIR_FORMAT" },
	[HEADER_BPF_PROG_INFO] = { "BPF_PROG_INFO", NULL, process_bpf_prog_info,
				   print_bpf_prog_info },
	[HEADER_BPF_BTF] = { "BPF_BTF", NULL, process_bpf_btf, print_bpf_btf },
	[HEADER_COMPRESSED] = { "COMPRESSED", write_compressed, process_compressed,
				print_compressed, .pipe = true, .per_dump = true },
	[HEADER_CPU_PMU_CAPS] = { "CPU_PMU_CAPS" },
	[HEADER_CLOCK_DATA] = { "CLOCK_DATA", write_clock_data, process_clock_data,
				print_clock_data, .pipe = true, .per_dump = true },
	[HEADER_HYBRID_TOPOLOGY] = { "HYBRID_TOPOLOGY" },
	[HEADER_PMU_CAPS] = { "PMU_CAPS" },
	[HEADER_DUMP_REQUEST] = { "DUMP_REQUEST", write_dump_request, process_dump_request,
				  print_dump_request, .per_dump = true },
};

const struct perf_feat_ops *perf_feat__ops(int feat)
{
	if (feat <= 0 || feat >= HEADER_FEAT_BITS || !feat_ops[feat].name)
		return NULL;
	return &feat_ops[feat];
}

const char *perf_feat__name(int feat)
{
	/* DUMP_REQUEST is ours: a name the distro would not know. */
	if (feat >= HEADER_LAST_FEATURE)
		return "(unknown)";
	return perf_feat__ops(feat) ? feat_ops[feat].name : "(unknown)";
}
