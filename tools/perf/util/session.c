/*
 * Reading perf.data (see session.h).  The file is untrusted: every size and
 * offset is checked against the file size before use, and the data section
 * is mapped a window at a time so files larger than memory work.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "session.h"
#include "event-symbols.h"
#include "build-id.h"
#include "debug.h"
#include "page-size.h"
#include "header.h"
#include "data.h"
#include "fd-io.h"

#define WINDOW_SIZE	(64ull << 20)
/* Records of one kind of damage named one by one; the summary counts the rest. */
#define MAX_UNKNOWN_WARNINGS 10

struct file_section {
	u64 offset, size;
};

struct file_header {
	u64 magic, size, attr_size;
	struct file_section attrs, data, event_types;
	u64 features[4];
};

int perf_session__refuse(struct perf_session *s, const char *kind, u64 off,
			 const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(s->errmsg, sizeof(s->errmsg), "%s: %s at offset %llu", kind, what,
		 (unsigned long long)off);
	return -EINVAL;
}

#define corrupt perf_session__corrupt
/* Attrs we must not guess at: the wording is the distro's, the detail ours. */
#define incompatible(s, off, ...) perf_session__refuse(s, "incompatible file format", off, __VA_ARGS__)

/*
 * attr.size is the size of the attr its writer knew: 0 for the first ABI,
 * else a multiple of 8 from PERF_ATTR_SIZE_VER0 up, and never more than the
 * file's attr entry holds.  A newer ABI than ours is read when the fields we
 * do not know are all zero, the rule the kernel applies to perf_event_open.
 * *size is what to read of the entry.
 */
static int attr__check_size(struct perf_session *s, const char *buf, u64 asz, u64 i, u64 off,
			    u32 *size)
{
	u32 sz;

	memcpy(&sz, buf + offsetof(struct perf_event_attr, size), sizeof(sz));
	*size = sz ? sz : PERF_ATTR_SIZE_VER0;
	if (!sz)
		return 0;
	if (sz < PERF_ATTR_SIZE_VER0 || sz % sizeof(u64) || sz > asz)
		return incompatible(s, off + offsetof(struct perf_event_attr, size),
				    "attr %llu has size %u (its entry holds %llu bytes)",
				    (unsigned long long)i, sz, (unsigned long long)asz);
	for (u32 b = sizeof(struct perf_event_attr); b < sz; b++)
		if (buf[b])
			return incompatible(s, off + b, "attr %llu uses fields of a newer ABI "
					    "(%u bytes, this perf knows %zu)", (unsigned long long)i,
					    sz, sizeof(struct perf_event_attr));
	return 0;
}

struct evsel *perf_session__evsel_by_id(struct perf_session *s, u64 id)
{
	return evlist__id2evsel(s->evlist, id);
}

/* Only for files without EVENT_DESC: a name from type/config. */
static void evsel__guess_name(struct perf_session *s, struct evsel *e)
{
	char buf[128];

	if (e->name)
		return;
	if (event_symbol__name(e->attr.type, e->attr.config))
		evsel__set_name(e, event_symbol__name(e->attr.type, e->attr.config));
	else if (e->attr.type == PERF_TYPE_TRACEPOINT && s->tep) {
		struct tep_event *ev = tep_find_event(s->tep, (int)e->attr.config);

		if (ev) {
			snprintf(buf, sizeof(buf), "%s:%s", ev->system, ev->name);
			evsel__set_name(e, buf);
		}
	}
	if (!e->name) {
		snprintf(buf, sizeof(buf), "raw 0x%llx/type %u", (unsigned long long)e->attr.config,
			 e->attr.type);
		evsel__set_name(e, buf);
	}
}

/*
 * One attr as the file or stream holds it: @buf has @avail bytes for the
 * attr (its attr.size says how many are the attr's).  The ids are the
 * caller's; *sz says where they start in a pipe's HEADER_ATTR.
 */
struct evsel *perf_session__add_attr(struct perf_session *s, const char *buf, u64 avail, u64 i,
				     u64 off, u32 *sz, int *err)
{
	struct perf_event_attr attr;
	struct evsel *e;

	*err = attr__check_size(s, buf, avail, i, off, sz);
	if (*err)
		return NULL;
	/* Only what the writer knew: the rest of a larger entry is not an attr. */
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, buf, min_t(u64, *sz, sizeof(attr)));
	if (i && attr.sample_id_all != evlist__first(s->evlist)->attr.sample_id_all) {
		/* Where a record's id sits would depend on which event it came from. */
		*err = incompatible(s, off, "non matching sample_id_all (attr %llu has %u, "
				    "attr 0 has %u)", (unsigned long long)i, attr.sample_id_all,
				    evlist__first(s->evlist)->attr.sample_id_all);
		return NULL;
	}
	e = evsel__new(&attr);
	if (!e) {
		*err = -ENOMEM;
		return NULL;
	}
	e->attr.size = attr.size;
	evsel__id_pos(e, &e->id_pos, &e->is_pos);
	evlist__add(s->evlist, e);
	return e;
}

static int id_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * @e's @n sample ids (@ids, malloc'd, now @e's): in the evlist's table,
 * and on @e in ascending order, as headers print them and perf inject
 * writes them again.
 */
int perf_session__set_ids(struct perf_session *s, struct evsel *e, u64 *ids, u64 n)
{
	int err = hashtab__reserve(&s->evlist->ids, n);

	e->ids = ids;
	e->nr_ids = (int)n;
	if (err)
		return err;
	qsort(ids, n, sizeof(*ids), id_cmp);
	for (u64 i = 0; i < n && !err; i++)
		err = evlist__id_add(s->evlist, e, 0, 0, ids[i]);
	return err;
}

/* Attr @i's ids, from the file's id section @ids. */
static int session__read_ids(struct perf_session *s, struct evsel *e, u64 i,
			     const struct file_section *ids, u64 off)
{
	u64 n = ids->size / sizeof(u64);
	u64 *buf;
	int err;

	if (ids->size % sizeof(u64) || ids->offset > s->file_size ||
	    ids->size > s->file_size - ids->offset || n > INT_MAX)
		return corrupt(s, off, "attr %llu: id section out of bounds", (unsigned long long)i);
	buf = malloc(n ? ids->size : 1);
	if (!buf)
		return -ENOMEM;
	err = fd__pread_all(s->fd, buf, ids->size, ids->offset);
	if (err) {
		free(buf);
		return err;
	}
	return perf_session__set_ids(s, e, buf, n);
}

static int session__read_attrs(struct perf_session *s, const struct file_header *h)
{
	u64 nr = h->attrs.size / h->attr_size;
	char *buf;
	int err = 0;

	buf = malloc(h->attr_size);
	if (!buf)
		return -ENOMEM;
	for (u64 i = 0; i < nr; i++) {
		u64 off = h->attrs.offset + i * h->attr_size;
		struct file_section ids;
		struct evsel *e;
		u64 asz = h->attr_size - sizeof(ids);
		u32 attr_sz;

		err = fd__pread_all(s->fd, buf, h->attr_size, off);
		if (err)
			goto out;
		e = perf_session__add_attr(s, buf, asz, i, off, &attr_sz, &err);
		if (!e)
			goto out;
		memcpy(&ids, buf + asz, sizeof(ids));
		err = session__read_ids(s, e, i, &ids, off + asz);
		if (err)
			goto out;
	}
out:
	free(buf);
	return err;
}

static int session__check_header(struct perf_session *s, struct file_header *h)
{
	if (!s->file_size) {
		snprintf(s->errmsg, sizeof(s->errmsg), "zero-sized file, nothing to do");
		return -EINVAL;
	}
	if (s->file_size < sizeof(h->magic) + sizeof(h->size))
		return corrupt(s, 0, "file too small for a header (%llu bytes)",
			       (unsigned long long)s->file_size);
	if (fd__pread_all(s->fd, h, min_t(u64, sizeof(*h), s->file_size), 0))
		return -EIO;
	if (h->magic != PERF_MAGIC2)
		return corrupt(s, 0, "bad magic (not a perf.data file, or an unsupported version)");
	if (h->size != sizeof(*h) || s->file_size < sizeof(*h))
		return corrupt(s, 8, "header size %llu (expected %zu)",
			       (unsigned long long)h->size, sizeof(*h));
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct file_section) ||
	    h->attr_size > 4096)
		return incompatible(s, 16, "attr entry size %llu", (unsigned long long)h->attr_size);
	if (h->attrs.offset > s->file_size || h->attrs.size > s->file_size - h->attrs.offset ||
	    h->attrs.size % h->attr_size)
		return corrupt(s, 24, "attr section [%llu, +%llu) out of bounds",
			       (unsigned long long)h->attrs.offset,
			       (unsigned long long)h->attrs.size);
	if (!h->attrs.size)
		return corrupt(s, 32, "no event attributes");
	if (h->data.offset < sizeof(*h) || h->data.offset > s->file_size ||
	    h->data.offset % sizeof(u64))
		return corrupt(s, 40, "data section offset %llu out of bounds",
			       (unsigned long long)h->data.offset);
	s->attr_size = h->attr_size;
	s->data_offset = h->data.offset;
	s->data_size = h->data.size;
	memcpy(s->features, h->features, sizeof(s->features));
	if (!h->data.size) {
		pr_warning("WARNING: data size is 0: was perf record properly terminated? "
			   "Reading %s to its end.\n", s->path);
		s->data_end = s->file_size;
	} else if (h->data.size > s->file_size - h->data.offset) {
		pr_warning("WARNING: %s is truncated: its data section should end at %llu, "
			   "the file ends at %llu; showing what is there.\n", s->path,
			   (unsigned long long)(h->data.offset + h->data.size),
			   (unsigned long long)s->file_size);
		s->truncated = true;
		s->data_end = s->file_size;
	} else {
		s->data_end = h->data.offset + h->data.size;
	}
	return 0;
}

/* Names, tracepoint formats and the sample layout, once the attrs and features are in. */
int perf_session__setup_evlist(struct perf_session *s, u64 attrs_off)
{
	struct evsel *e, *first = evlist__first(s->evlist);

	s->one_layout = true;
	evlist__for_each_entry(s->evlist, e) {
		evsel__guess_name(s, e);
		if (e->attr.sample_type != first->attr.sample_type)
			s->one_layout = false;
	}
	perf_session__check_tp_formats(s);
	if (!s->one_layout) {
		evlist__for_each_entry(s->evlist, e)
			if (e->id_pos < 0)
				return corrupt(s, attrs_off,
					       "events of different layouts without sample ids");
	}
	/* Which event a record is of is read where the first event has its id. */
	evlist__for_each_entry(s->evlist, e)
		if (e->id_pos != first->id_pos || e->is_pos != first->is_pos)
			return incompatible(s, attrs_off, "non matching sample_type (attr %d "
					    "has its sample id elsewhere than attr 0)", e->idx);
	return 0;
}

/*
 * Records are 8-byte multiples (samples are read as u64 words), except
 * those the distro writes unpadded: COMPRESSED, FEATURE and BUILD_ID.
 */
bool perf_event__type_unpadded(u32 type)
{
	return type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_HEADER_FEATURE ||
	       type == PERF_RECORD_HEADER_BUILD_ID;
}

/*
 * A pipe or a FIFO is read as a stream: nothing else can come through one.
 * A regular file is one when it starts with the 16-byte pipe header, as
 * `perf record -o - > file` leaves it.  1, 0 or -errno.
 */
static int session__is_pipe(struct perf_session *s, const struct stat *st)
{
	u64 h[2];

	if (!S_ISREG(st->st_mode))
		return 1;
	if ((u64)st->st_size < sizeof(h))
		return 0;
	if (fd__pread_all(s->fd, h, sizeof(h), 0))
		return -EIO;
	return h[0] == PERF_MAGIC2 && h[1] == sizeof(h);
}

/* Does process @pid's command line have an argument that begins with @prefix? */
static bool cmdline_has(pid_t pid, const char *prefix)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < n; i += strlen(buf + i) + 1) {
		buf[n] = '\0';
		if (!strncmp(buf + i, prefix, strlen(prefix)))
			return true;
	}
	return false;
}

/*
 * A file a live recorder holds (its write lock, see perf_data__create) is
 * not finished: its header says nothing yet.  Which recorder, and where
 * the files it completes are; -EBUSY.
 */
static int session__check_live(struct perf_session *s)
{
	pid_t pid = perf_data__holder(s->fd);
	char *full, *slash;

	if (!pid)
		return 0;
	full = realpath(s->path, NULL);
	slash = full ? strrchr(full, '/') : NULL;
	if (slash && cmdline_has(pid, "--switch-output")) {
		*slash = '\0';
		snprintf(s->errmsg, sizeof(s->errmsg), "perf record (pid %d) is still writing it; "
			 "its dumps are %s.<timestamp> in %s/: read one of those, or stop the "
			 "recorder first", (int)pid, slash + 1, full);
	} else {
		snprintf(s->errmsg, sizeof(s->errmsg), "perf record (pid %d) is still writing it: "
			 "stop the recorder (kill -INT %d), then read it", (int)pid, (int)pid);
	}
	free(full);
	return -EBUSY;
}

struct perf_session *perf_session__open(const char *path, int *err, char *errbuf, size_t len)
{
	struct perf_session *s = calloc(1, sizeof(*s));
	struct file_header h;
	struct stat st;

	*err = -ENOMEM;
	if (!s)
		return NULL;
	s->fd = -1;
	s->path = strdup(path);
	s->evlist = evlist__new();
	if (!s->path || !s->evlist || machine__init(&s->machine))
		goto out_err;
	/* "-" is standard input, as the distro reads it. */
	s->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (s->fd < 0 || fstat(s->fd, &st)) {
		*err = -errno;
		goto out_err;
	}
	if (S_ISDIR(st.st_mode)) {
		*err = -EISDIR;
		goto out_err;
	}
	s->file_size = st.st_size;
	*err = session__is_pipe(s, &st);
	if (*err < 0)
		goto out_err;
	if (*err) {
		*err = perf_session__open_pipe(s);
		if (*err)
			goto out_err;
		return s;
	}
	*err = session__check_live(s);
	if (!*err)
		*err = session__check_header(s, &h);
	if (*err)
		goto out_err;
	*err = session__read_attrs(s, &h);
	if (*err)
		goto out_err;
	/* The features come after the data, so an unfinished or truncated file has none. */
	if (s->data_size && !s->truncated) {
		*err = perf_session__read_features(s);
		if (*err)
			goto out_err;
	}
	*err = perf_session__setup_evlist(s, h.attrs.offset);
	if (*err)
		goto out_err;
	return s;
out_err:
	if (errbuf)
		snprintf(errbuf, len, "%s", s->errmsg[0] ? s->errmsg : strerror(-*err));
	perf_session__delete(s);
	return NULL;
}

void perf_session__delete(struct perf_session *s)
{
	if (!s)
		return;
	if (s->win)
		munmap(s->win, s->win_len);
	if (s->fd >= 0)
		close(s->fd);
	evlist__delete(s->evlist);
	free(s->align_buf);
	free(s->tracing_data);
	free(s->pipe_buf);
	free(s->pipe_head);
	zstd_reader__exit(&s->zstd);
	free(s->hostname);
	free(s->osrelease);
	free(s->version);
	free(s->arch);
	free(s->cpudesc);
	free(s->cpuid);
	free(s->pmu_mappings);
	free(s->bpf_prog_info);
	free(s->bpf_btf);
	for (u32 i = 0; i < s->nr_cmdline; i++)
		free(s->cmdline[i]);
	free(s->cmdline);
	for (size_t i = 0; i < s->nr_build_ids; i++)
		free(s->build_ids[i].name);
	free(s->build_ids);
	if (s->tep)
		tep_free(s->tep);
	machine__exit(&s->machine);
	free(s->path);
	free(s);
}

/* A pointer to [off, off + len) of the file, remapping the window when needed. */
static const char *session__map(struct perf_session *s, u64 off, u64 len)
{
	u64 start, mlen;
	void *p;

	if (s->win && off >= s->win_off && off + len <= s->win_off + s->win_len)
		return s->win + (off - s->win_off);
	if (s->win)
		munmap(s->win, s->win_len);
	s->win = NULL;
	start = off & ~((u64)page_size() - 1);
	mlen = max_t(u64, WINDOW_SIZE, off + len - start);
	if (mlen > s->file_size - start)
		mlen = s->file_size - start;
	if (off + len > start + mlen)
		return NULL;
	p = mmap(NULL, mlen, PROT_READ, MAP_SHARED, s->fd, start);
	if (p == MAP_FAILED)
		return NULL;
	s->win = p;
	s->win_off = start;
	s->win_len = mlen;
	return s->win + (off - start);
}

int perf_session__read_samples(const struct perf_session *s, const struct perf_sample *sample)
{
	int n = 0;

	for (u64 i = 0; i < sample->read_nr; i++) {
		const u64 *v = sample->read_values + i * sample->read_stride;
		const struct perf_sample_id *sid = evlist__id2sid(s->evlist, v[sample->read_id_off]);

		n += sid && sid->evsel && v[0] != sid->read;
	}
	return n;
}

/*
 * A sample that reads counts (PERF_SAMPLE_READ, e.g. a group's leader
 * sampling, -e '{a,b}:S'): one sample for each count read, of the event
 * the count's id names, its period what that count grew since the last
 * read, as the distro delivers them; a count that did not grow gives none.
 */
static int session__deliver_read(struct perf_session *s, union perf_event *ev,
				 struct perf_sample *sample)
{
	struct perf_tool *tool = s->tool;

	for (u64 i = 0; i < sample->read_nr; i++) {
		const u64 *v = sample->read_values + i * sample->read_stride;
		struct perf_sample_id *sid = evlist__id2sid(s->evlist, v[sample->read_id_off]);
		int err;

		if (!sid || !sid->evsel) {
			s->nr_unknown_id++;
			continue;
		}
		sample->id = sid->id;
		sample->period = v[0] - sid->read;
		sid->read = v[0];
		if (!sample->period)
			continue;
		err = tool->sample(tool, ev, sample, sid->evsel, &s->machine);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A tracepoint's record names its event in its common_type field; one that
 * names another was damaged (libtraceevent shows it as an unknown event).
 * It is shown all the same, and counted.
 */
static void session__check_tp_record(struct perf_session *s, struct evsel *evsel,
				     const struct perf_sample *sample, u64 offset)
{
	u64 type = 0;

	if (!s->tp_type_size || sample->raw_size < s->tp_type_off + s->tp_type_size)
		return;
	memcpy(&type, (const char *)sample->raw_data + s->tp_type_off, s->tp_type_size);
	if (type == evsel->attr.config)
		return;
	if (++s->nr_tp_mismatch <= MAX_UNKNOWN_WARNINGS)
		pr_warning("WARNING: the %s record at offset %llu names event id %llu: "
			   "it is damaged.\n", evsel__name(evsel), (unsigned long long)offset,
			   (unsigned long long)type);
}

static int session__deliver(struct perf_session *s, union perf_event *ev, struct evsel *evsel,
			    u64 offset)
{
	struct perf_sample sample;
	struct perf_tool *tool = s->tool;
	int err;

	if (!evsel) {
		s->nr_unknown_id++;
		return 0;
	}
	if (evsel__parse_sample(&evsel->attr, ev, &sample))
		return corrupt(s, offset, "%s record fields run past its size %u",
			       ev->header.type == PERF_RECORD_SAMPLE ? "sample" : "side-band",
			       ev->header.size);
	if (tool->dump)
		tool->dump(tool, s, ev, &sample, offset);
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		s->nr_samples++;
		if (evsel->tp_format)
			session__check_tp_record(s, evsel, &sample, offset);
		if (!tool->sample)
			return 0;
		if ((evsel->attr.sample_type & PERF_SAMPLE_READ) &&
		    (evsel->attr.read_format & PERF_FORMAT_ID))
			return session__deliver_read(s, ev, &sample);
		return tool->sample(tool, ev, &sample, evsel, &s->machine);
	case PERF_RECORD_MMAP:
		err = machine__process_mmap(&s->machine, ev);
		break;
	case PERF_RECORD_MMAP2:
		/* With MMAP_BUILD_ID the first byte of maj is the build id's length. */
		if ((ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    ev->header.size > offsetof(struct perf_record_mmap2, maj) &&
		    *(const u8 *)&ev->mmap2.maj > BUILD_ID_SIZE)
			return corrupt(s, offset, "MMAP2 record with a build id of %u bytes (%d at most)",
				       *(const u8 *)&ev->mmap2.maj, BUILD_ID_SIZE);
		err = machine__process_mmap2(&s->machine, ev);
		break;
	case PERF_RECORD_COMM:
		err = machine__process_comm(&s->machine, ev, sample.time);
		break;
	case PERF_RECORD_FORK:
		err = machine__process_fork(&s->machine, ev);
		break;
	case PERF_RECORD_EXIT:
		err = machine__process_exit(&s->machine, ev);
		break;
	case PERF_RECORD_KSYMBOL:
		err = machine__process_ksymbol(&s->machine, ev);
		break;
	case PERF_RECORD_LOST:
		if (ev->header.size < sizeof(ev->lost))
			return corrupt(s, offset, "LOST record of size %u", ev->header.size);
		s->nr_lost_chunks++;
		s->nr_lost += ev->lost.lost;
		err = 0;
		break;
	default:
		err = 0;
		break;
	}
	if (err == -EINVAL)
		return corrupt(s, offset, "record of type %u too short (%u bytes)",
			       ev->header.type, ev->header.size);
	if (err)
		return err;
	return tool->other ? tool->other(tool, ev, &sample, &s->machine) : 0;
}

static int session__oe_deliver(struct ordered_events *oe, struct oe_event *e)
{
	struct perf_session *s = oe->data;

	return session__deliver(s, e->event, e->priv, e->offset);
}

const char *perf_session__default_input(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
}

const char *perf_event__type_name(u32 type)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
		[PERF_RECORD_HEADER_ATTR] = "ATTR", [PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
		[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
		[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
		[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
		[PERF_RECORD_ID_INDEX] = "ID_INDEX",
		[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
		[PERF_RECORD_AUXTRACE] = "AUXTRACE",
		[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
		[PERF_RECORD_THREAD_MAP] = "THREAD_MAP", [PERF_RECORD_CPU_MAP] = "CPU_MAP",
		[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG", [PERF_RECORD_STAT] = "STAT",
		[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
		[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
		[PERF_RECORD_TIME_CONV] = "TIME_CONV", [PERF_RECORD_HEADER_FEATURE] = "FEATURE",
		[PERF_RECORD_COMPRESSED] = "COMPRESSED",
		[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	};

	return type < ARRAY_SIZE(names) ? names[type] : NULL;
}

/*
 * Types we know but whose content this reader cannot use: hardware trace
 * data (nothing here decodes it), and inside a file the records that carry
 * the head of a pipe-format stream (a stream reads them: util/session-pipe.c).
 */
static bool record_type__unsupported(const struct perf_session *s, u32 type)
{
	switch (type) {
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE:
	case PERF_RECORD_AUXTRACE_ERROR:
		return true;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_FEATURE:
		return !s->pipe;
	default:
		return false;
	}
}

/*
 * A record whose type no perf defines (a damaged file, or one from a newer
 * perf): said at once with its offset, counted for the end-of-file summary,
 * and stepped over by its size, which was checked already.
 */
static void session__unknown_type(struct perf_session *s, const union perf_event *ev,
				  u64 offset)
{
	if (!s->nr_unknown_type++)
		s->first_unknown_type_off = offset;
	if (s->nr_unknown_type <= MAX_UNKNOWN_WARNINGS)
		pr_warning("WARNING: record of unknown type %u (size %u) at offset %llu; "
			   "skipping it.\n", ev->header.type, ev->header.size,
			   (unsigned long long)offset);
	else if (s->nr_unknown_type == MAX_UNKNOWN_WARNINGS + 1)
		pr_warning("WARNING: more records of unknown type follow; "
			   "the end-of-file summary counts them.\n");
}

/* A user record has no sample fields: its dump shows them as zeroes, as the distro's does. */
void perf_session__dump_user(struct perf_session *s, const union perf_event *ev, u64 offset)
{
	struct perf_sample none = { .ip = 0 };

	s->tool->dump(s->tool, s, ev, &none, offset);
}

int perf_session__process_record(struct perf_session *s, const union perf_event *ev,
				   u64 offset)
{
	u32 type = ev->header.type;
	struct evsel *evsel;
	u64 time;

	s->nr_events++;
	if (!perf_event__type_name(type)) {
		session__unknown_type(s, ev, offset);
		return 0;
	}
	/* User records are dumped as read, the kernel's as delivered (session__deliver). */
	if (type >= PERF_RECORD_USER_TYPE_START && s->tool->dump)
		perf_session__dump_user(s, ev, offset);
	if (!s->nr_by_type[type]++ && record_type__unsupported(s, type))
		pr_warning("WARNING: PERF_RECORD_%s records are not supported by this perf "
			   "(the first is at offset %llu); skipping them.\n",
			   perf_event__type_name(type), (unsigned long long)offset);
	if (record_type__unsupported(s, type))
		return 0;
	if (ev->header.type == PERF_RECORD_FINISHED_ROUND)
		return ordered_events__flush_round(&s->oe);
	/* A build id in the data (perf inject -b): the same entry as the BUILD_ID feature holds. */
	if (type == PERF_RECORD_HEADER_BUILD_ID)
		return perf_session__read_feature(s, HEADER_BUILD_ID, (const char *)ev,
						  ev->header.size, offset);
	if (ev->header.type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	evsel = evlist__event2evsel(s->evlist, ev);
	if (!evsel) {
		s->nr_unknown_id++;
		return 0;
	}
	/* All that ordering needs; the record is decoded in full when delivered. */
	if (perf_event__time(&evsel->attr, ev, &time))
		return corrupt(s, offset, "record fields run past its size %u", ev->header.size);
	/*
	 * No time to sort by (or 0, as synthesized records have): delivered at
	 * once, ahead of what is queued, as perf does.
	 */
	if (time == (u64)-1 || !time)
		return session__deliver(s, (union perf_event *)ev, evsel, offset);
	return ordered_events__queue(&s->oe, ev, time, evsel, offset);
}

/* The most one COMPRESSED record may expand to: what its writer said, within reason. */
static size_t session__max_decompressed(struct perf_session *s)
{
	size_t said = min_t(u64, s->comp.mmap_len, 1ULL << 30);

	return max_t(size_t, said + ZSTD_WRITER_CHUNK, 64ULL << 20);
}

/*
 * A COMPRESSED record whose payload cannot be read, named in errmsg: -1,
 * for the exit status the distro's perf script gives it, 255 (-EINVAL
 * would be 234).
 */
static int session__undecompressed(struct perf_session *s, u64 off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int session__undecompressed(struct perf_session *s, u64 off, const char *fmt, ...)
{
	char what[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	corrupt(s, off, "COMPRESSED record that %s", what);
	return -1;
}

/*
 * The records of a COMPRESSED record, after what the previous one left
 * unfinished; one cut at the end waits for the next.  Messages give the
 * COMPRESSED record's offset: the records inside have none in the file.
 */
int perf_session__process_compressed(struct perf_session *s, const char *payload, u32 len,
				       u64 off)
{
	struct zstd_reader *z = &s->zstd;
	size_t pos = 0, had = z->len;
	int err;

	s->nr_events++;
	s->nr_by_type[PERF_RECORD_COMPRESSED]++;
	s->zstd_off = off;
	if (!z->dctx) {
		err = zstd_reader__init(z, session__max_decompressed(s));
		if (err)
			return err;
	}
	err = zstd_reader__decompress(z, payload, len);
	if (err == -EINVAL)
		return session__undecompressed(s, off, "does not decompress (or to over %zu "
					       "bytes)", z->max);
	if (err)
		return err;
	/*
	 * Every payload a recorder writes ends a zstd block: one that gives no
	 * byte is cut short (a block or frame header says more than it holds)
	 * or holds no frame.  The distro's perf script refuses it too.
	 */
	if (z->len == had)
		return session__undecompressed(s, off, "decompresses to nothing");
	while (z->len - pos >= sizeof(struct perf_event_header)) {
		const union perf_event *ev = (const union perf_event *)(z->buf + pos);
		u32 type = ev->header.type, size = ev->header.size;

		if (size < sizeof(ev->header) || size % sizeof(u64))
			return corrupt(s, off, "record size %u inside the COMPRESSED record", size);
		if (size > z->len - pos)
			break;
		if (type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_AUXTRACE)
			return corrupt(s, off, "%s record inside the COMPRESSED record",
				       perf_event__type_name(type));
		err = perf_session__process_record(s, ev, off);
		if (err)
			return err;
		pos += size;
	}
	zstd_reader__consume(z, pos);
	return 0;
}

/*
 * A record at an offset that is not a multiple of 8 (the distro's
 * COMPRESSED records are not padded) is read from an aligned copy: samples
 * are decoded as u64 words.
 */
static const union perf_event *session__aligned(struct perf_session *s, const char *p, u16 size)
{
	if (!((uintptr_t)p % sizeof(u64)))
		return (const union perf_event *)p;
	if (!s->align_buf) {
		s->align_buf = malloc(0x10000);
		if (!s->align_buf)
			return NULL;
	}
	memcpy(s->align_buf, p, size);
	return (const union perf_event *)s->align_buf;
}

/*
 * The header of the record at @off into @h, its size checked against the
 * data section: 0; 1 where a file cut short (or never finished) ends, for
 * the walk to stop; or -errno.
 */
static int session__read_header(struct perf_session *s, u64 off, struct perf_event_header *h)
{
	bool may_end = s->truncated || !s->data_size;
	const char *p;

	if (s->data_end - off < sizeof(*h)) {
		if (may_end)
			return 1;
		return corrupt(s, off, "record header runs past the data section end");
	}
	p = session__map(s, off, sizeof(*h));
	if (!p)
		return -EIO;
	memcpy(h, p, sizeof(*h));
	if (h->size < sizeof(*h) || (h->size % sizeof(u64) && !perf_event__type_unpadded(h->type)))
		return corrupt(s, off, "record size %u", h->size);
	if (h->size <= s->data_end - off)
		return 0;
	if (!may_end)
		return corrupt(s, off, "record of size %u runs past the data section end", h->size);
	s->truncated = true;
	pr_warning("WARNING: the file ends inside the record at offset %llu; "
		   "showing the records before it.\n", (unsigned long long)off);
	return 1;
}

/* The record @p (of header @h) at @off, mapped: a COMPRESSED one's records, or itself. */
static int session__process_mapped(struct perf_session *s, const char *p,
				   const struct perf_event_header *h, u64 off)
{
	const union perf_event *ev;

	if (h->type == PERF_RECORD_COMPRESSED)
		return perf_session__process_compressed(s, p + sizeof(*h), h->size - sizeof(*h),
							off);
	ev = session__aligned(s, p, h->size);
	return ev ? perf_session__process_record(s, ev, off) : -ENOMEM;
}

/* AUXTRACE data follows its record @p, outside header.size: *off is moved past it. */
static int session__skip_auxtrace(struct perf_session *s, const char *p, u64 *off)
{
	u64 aux;

	memcpy(&aux, p + 8, sizeof(aux));
	if (aux > s->data_end - *off || aux % sizeof(u64))
		return corrupt(s, *off, "auxtrace data of %llu bytes runs past the end",
			       (unsigned long long)aux);
	*off += aux;
	return 0;
}

/* The data section's records from *off, which is left where the walk stopped. */
static int session__process_data(struct perf_session *s, u64 *off)
{
	while (*off < s->data_end) {
		struct perf_event_header h;
		const char *p;
		int err = session__read_header(s, *off, &h);

		if (err)
			return err < 0 ? err : 0;
		p = session__map(s, *off, h.size);
		if (!p)
			return -EIO;
		err = session__process_mapped(s, p, &h, *off);
		if (err)
			return err;
		*off += h.size;
		if (h.type == PERF_RECORD_AUXTRACE && h.size >= 16) {
			err = session__skip_auxtrace(s, p, off);
			if (err)
				return err;
		}
	}
	return 0;
}

int perf_session__process_events(struct perf_session *s, struct perf_tool *tool)
{
	u64 off = s->data_offset;
	int err;

	s->tool = tool;
	ordered_events__init(&s->oe, session__oe_deliver, s);
	if (s->pipe) {
		err = perf_session__process_pipe(s);
		off = s->pipe_off;
	} else {
		err = session__process_data(s, &off);
	}
	if (!err)
		err = ordered_events__flush_all(&s->oe);
	/* The whole records before it are shown first, as the distro (silent on it) shows them. */
	if (!err && s->zstd.len && !s->truncated)
		err = corrupt(s, s->zstd_off, "the last COMPRESSED record ends %zu bytes into "
			      "a record", s->zstd.len);
	s->nr_unordered = s->oe.nr_unordered;
	if (err == -EINVAL && !s->errmsg[0])
		corrupt(s, off, "bad record");
	ordered_events__exit(&s->oe);
	return err;
}

int perf_session__warn_stats(struct perf_session *s)
{
	struct evsel *e;
	bool backward = false;

	if (s->nr_unknown_type)
		ui__warning("%llu records of unknown type skipped, the first at offset %llu: "
			    "the file is damaged or was written by a newer perf.\n",
			    (unsigned long long)s->nr_unknown_type,
			    (unsigned long long)s->first_unknown_type_off);
	for (u32 type = 0; type < PERF_RECORD_HEADER_MAX; type++)
		if (s->nr_by_type[type] && record_type__unsupported(s, type))
			ui__warning("%llu PERF_RECORD_%s records skipped: not supported by this "
				    "perf.\n", (unsigned long long)s->nr_by_type[type],
				    perf_event__type_name(type));

	if (s->nr_lost_chunks)
		ui__warning("Processed %llu events and lost %llu chunks!\n\n"
			    "Check IO/CPU overload!\n\n", (unsigned long long)s->nr_events,
			    (unsigned long long)s->nr_lost_chunks);
	if (s->nr_unknown_id)
		ui__warning("%llu samples with id not present in the header\n",
			    (unsigned long long)s->nr_unknown_id);
	if (s->nr_tp_mismatch)
		ui__warning("%llu tracepoint records name an event other than their own.\n",
			    (unsigned long long)s->nr_tp_mismatch);
	evlist__for_each_entry(s->evlist, e)
		if (e->attr.write_backward)
			backward = true;
	/* Backward (overwrite) buffers hand records out newest first: that is expected. */
	if (s->nr_unordered && !backward)
		ui__warning("%llu out of order events recorded.\n",
			    (unsigned long long)s->nr_unordered);
	if (s->truncated || s->features_truncated) {
		ui__warning("%s is truncated: what it holds was shown, the rest is missing.\n",
			    s->path);
		return -EIO;
	}
	if (perf_session__damaged(s)) {
		ui__warning("%s is damaged: what could be read was shown; the warnings above "
			    "say what was not.\n", s->path);
		return -EIO;
	}
	return 0;
}

bool perf_session__damaged(const struct perf_session *s)
{
	return s->truncated || s->features_truncated || s->damaged || s->nr_unknown_type ||
	       s->nr_unknown_id || s->nr_tp_mismatch;
}

static int session__mark_hit(struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct evsel *evsel, struct machine *m)
{
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct dso *dso = machine__find_dso(m, (int)sample->pid, sample->ip,
					    mode == PERF_RECORD_MISC_KERNEL ||
					    mode == PERF_RECORD_MISC_GUEST_KERNEL);

	if (dso)
		dso->hit = true;
	return 0;
}

int perf_session__mark_dso_hits(struct perf_session *s)
{
	struct perf_tool tool = { .sample = session__mark_hit };

	return perf_session__process_events(s, &tool);
}

void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg)
{
	if (err == -ENOENT)
		fprintf(stderr, "perf %s: failed to open %s: %s (try 'perf record' first)\n",
			cmd, path, strerror(-err));
	else if (err == -EISDIR)
		fprintf(stderr, "perf %s: %s is a directory, not a perf.data file.\n", cmd, path);
	else if ((err == -EINVAL || err == -EBUSY) && msg && msg[0])
		fprintf(stderr, "perf %s: %s: %s\n", cmd, path, msg);
	else
		fprintf(stderr, "perf %s: cannot read %s: %s\n", cmd, path, strerror(-err));
}
