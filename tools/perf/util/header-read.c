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
#include "header-feat.h"
#include "debug.h"
#include "tracepoint.h"

/* @buf holds @len bytes and room for a NUL; @off is where they were, for the message. */
static int session__parse_feature(struct perf_session *s, const struct perf_feat_ops *ops,
				  char *buf, u64 len, u64 off)
{
	struct fcur c = { buf, buf + len };
	int err;

	buf[len] = '\0';
	err = ops->process(s, &c, off);
	if (err == -EINVAL) {
		/* A damaged feature costs that feature only; the data is still shown. */
		pr_warning("WARNING: feature %s of %s is damaged (at offset %llu); "
			   "ignoring it.\n", ops->name, s->path, (unsigned long long)off);
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
		const struct perf_feat_ops *ops = perf_feat__ops(bit);
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
				   "(truncated?); ignoring it.\n", perf_feat__name(bit), s->path);
			s->features_truncated = true;
			continue;
		}
		if (!ops || !ops->process)
			continue;
		buf = malloc(sec[1] + 1);
		if (!buf)
			return -ENOMEM;
		if (sec[1] && pread(s->fd, buf, sec[1], sec[0]) != (ssize_t)sec[1]) {
			free(buf);
			return -EIO;
		}
		err = session__parse_feature(s, ops, buf, sec[1], sec[0]);
		free(buf);
		if (err)
			return err;
	}
	return 0;
}

int perf_session__read_feature(struct perf_session *s, int feat, const char *data, u64 len,
			       u64 off)
{
	const struct perf_feat_ops *ops = perf_feat__ops(feat);
	char *buf;
	int err;

	if (feat <= 0 || feat >= HEADER_FEAT_BITS)
		return 0;
	s->features[feat / 64] |= 1ULL << (feat % 64);
	if (!ops || !ops->process)
		return 0;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, data, len);
	err = session__parse_feature(s, ops, buf, len, off);
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
		e->nr_tp_fields = 0;
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

/* Where the tracing data is being read: its cursor, the block's place in the file, the handle. */
struct tracing_cur {
	struct fcur c;
	const char *buf;		/* the block ... */
	u64 off;			/* ... at this offset of the file or stream */
	struct perf_session *s;
	struct tep_handle *tep;
};

static u64 tracing_cur__at(const struct tracing_cur *t, const char *p)
{
	return t->off + (u64)(p - t->buf);
}

/* "@name\0" next, stepped over; -EINVAL when it is not. */
static int tracing_cur__name(struct tracing_cur *t, const char *name)
{
	size_t n = strlen(name) + 1;

	if ((size_t)(t->c.end - t->c.p) < n || memcmp(t->c.p, name, n))
		return -EINVAL;
	t->c.p += n;
	return 0;
}

/* A u64 size and as many bytes (*p, *len), stepped over; -EINVAL when they run past the end. */
static int tracing_cur__sized(struct tracing_cur *t, const char **p, u64 *len)
{
	if (fcur__u64(&t->c, len) || *len > (u64)(t->c.end - t->c.p))
		return -EINVAL;
	*p = t->c.p;
	t->c.p += *len;
	return 0;
}

/* After the magic: the version string, the byte order, the sizes of a long and a page. */
static int tracing__read_sizes(struct fcur *c, int *long_size, u32 *page_size)
{
	c->p = memchr(c->p, '\0', c->end - c->p);
	if (!c->p || c->end - ++c->p < 6)
		return -EINVAL;
	if (c->p[0])		/* big-endian files are not supported */
		return -EINVAL;
	*long_size = c->p[1];
	c->p += 2;
	return fcur__u32(c, page_size);
}

/* The ring buffer's header_page (parsed) and header_event (stepped over). */
static int tracing__parse_headers(struct tracing_cur *t, int long_size)
{
	const char *p;
	u64 len;

	if (tracing_cur__name(t, "header_page") || tracing_cur__sized(t, &p, &len))
		return -EINVAL;
	if (!format__is_text(p, len) || tep_parse_header_page(t->tep, (char *)p, len, long_size))
		tracing__damaged(t->s, tracing_cur__at(t, p), "header_page does not parse");
	if (tracing_cur__name(t, "header_event") || tracing_cur__sized(t, &p, &len))
		return -EINVAL;
	return 0;
}

/* A u32 count of formats of system @sys, each sized. */
static int tracing__parse_formats(struct tracing_cur *t, const char *sys)
{
	const char *p;
	u32 nr;
	u64 len;

	if (fcur__u32(&t->c, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		if (tracing_cur__sized(t, &p, &len))
			return -EINVAL;
		tracing__parse_format(t->s, t->tep, p, len, sys, tracing_cur__at(t, p));
	}
	return 0;
}

/* ftrace's own formats, then a u32 count of systems, each its name and its formats. */
static int tracing__parse_events(struct tracing_cur *t)
{
	u32 nr;

	if (tracing__parse_formats(t, "ftrace") || fcur__u32(&t->c, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		const char *sys = t->c.p;

		t->c.p = memchr(t->c.p, '\0', t->c.end - t->c.p);
		if (!t->c.p)
			return -EINVAL;
		t->c.p++;
		if (tracing__parse_formats(t, sys))
			return -EINVAL;
	}
	/* kallsyms and printk formats are optional extras: the event fields print without. */
	return 0;
}

/* The block as it came, for perf inject to pass on. */
static int session__keep_tracing_data(struct perf_session *s, const char *buf, u64 size)
{
	free(s->tracing_data);
	s->tracing_data = malloc(size);
	if (!s->tracing_data)
		return -ENOMEM;
	memcpy(s->tracing_data, buf, size);
	s->tracing_data_len = size;
	return 0;
}

/* The tracing data block; see trace-cmd.dat(5) for its layout (version 0.6). */
int perf_session__read_tracing_data(struct perf_session *s, const char *buf, u64 size, u64 off)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tracing_cur t = { .c = { buf, buf + size }, .buf = buf, .off = off, .s = s };
	u32 page_size;
	int long_size, err;

	if (size < sizeof(magic) || memcmp(buf, magic, sizeof(magic)))
		return -EINVAL;
	err = session__keep_tracing_data(s, buf, size);
	if (err)
		return err;
	t.c.p += sizeof(magic);
	if (tracing__read_sizes(&t.c, &long_size, &page_size))
		return -EINVAL;
	t.tep = tep_alloc();
	if (!t.tep)
		return -ENOMEM;
	tep_guard_install();
	if (sigsetjmp(tep_jmp, 1)) {
		in_tep = 0;
		return -EINVAL;		/* the handle may be inconsistent: leak it */
	}
	in_tep = 1;
	tep_set_long_size(t.tep, long_size);
	tep_set_page_size(t.tep, page_size);
	tep_set_file_bigendian(t.tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t.tep, TEP_LITTLE_ENDIAN);
	err = tracing__parse_headers(&t, long_size);
	if (!err)
		err = tracing__parse_events(&t);
	in_tep = 0;
	if (err) {
		tep_free(t.tep);
		return err;
	}
	if (s->tep)
		tep_free(s->tep);
	s->tep = t.tep;
	return 0;
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

/* The lines of the features of bits [@from, @to) the session has, in the order of their bits. */
static void session__print_features(struct perf_session *s, FILE *fp, int from, int to)
{
	for (int bit = from; bit < to; bit++) {
		const struct perf_feat_ops *ops = perf_feat__ops(bit);

		if (ops && ops->print && session__has_feat(s, bit))
			ops->print(s, bit, fp);
	}
}

/* "# missing features: ", the bits the distro defines this file lacks. */
static void session__print_missing(struct perf_session *s, FILE *fp)
{
	fprintf(fp, "# missing features: ");
	for (int bit = HEADER_TRACING_DATA; bit < HEADER_LAST_FEATURE; bit++)
		if (!session__has_feat(s, bit))
			fprintf(fp, "%s ", perf_feat__name(bit));
	fputc('\n', fp);
}

/* The event's sample ids, as "id = { 1, 2 }, " (nothing when it has none). */
static void session__print_ids(struct perf_session *s, struct evsel *e, FILE *fp)
{
	bool first = true;

	for (int i = 0; i < e->nr_ids; i++) {
		fprintf(fp, "%s%llu", first ? "id = { " : ", ", (unsigned long long)e->ids[i]);
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
	session__print_features(s, fp, 1, HEADER_EVENT_DESC);
	/*
	 * The events, from the attrs: a file has them whether it has
	 * EVENT_DESC or not; a stream names them only in its EVENT_DESC.
	 */
	evlist__for_each_entry(s->evlist, e) {
		if (s->pipe && !session__has_feat(s, HEADER_EVENT_DESC))
			break;
		fprintf(fp, "# event : name = %s, , ", evsel__name(e));
		session__print_ids(s, e, fp);
		perf_event_attr__fprintf(fp, &e->attr, " = ");
		fputc('\n', fp);
	}
	session__print_features(s, fp, HEADER_EVENT_DESC + 1, HEADER_FEAT_BITS);
	/* A stream's features are those that came: none is missing. */
	if (!s->pipe) {
		session__print_missing(s, fp);
		fprintf(fp, "# ========\n#\n");
	}
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
