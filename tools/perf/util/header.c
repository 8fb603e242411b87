/*
 * Writing the perf.data header: the file header and attr section before the
 * records, the feature sections after them.  The layout is
 *
 *	file header | attrs (attr + ids section each) | id arrays | data | features
 *
 * and the header is rewritten with the real sizes only when the file is
 * finished, so a file whose recorder died keeps a data size of zero.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "header.h"
#include "header-feat.h"
#include "clockid.h"
#include "compress.h"
#include "data.h"
#include "evlist.h"
#include "build-id.h"
#include "dso-hits.h"
#include "hash.h"
#include "hashtab.h"
#include "strset.h"
#include "debug.h"
#include "page-size.h"
#include "perf.h"

/* perf's own flag in a build-id record: build_id[20] carries its length. */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

struct perf_file_section {
	u64 offset;
	u64 size;
};

struct perf_file_header {
	u64 magic;
	u64 size;			/* sizeof(struct perf_file_header) */
	u64 attr_size;			/* one attrs entry: attr + its ids section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, always empty */
	u64 adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

struct perf_record_build_id {
	struct perf_event_header header;
	s32 pid;
	u8 build_id[20];
	u8 size;
	u8 reserved[3];
	char filename[];
};

void perf_feat_buf__add(struct perf_feat_buf *b, const void *data, size_t len)
{
	/* Nothing to add: @data may be NULL (an event without ids). */
	if (b->err || !len)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *n;

		while (cap < b->len + len)
			cap *= 2;
		n = realloc(b->p, cap);
		if (!n) {
			b->err = -ENOMEM;
			return;
		}
		b->p = n;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

/* ---- the set of mapped files, for BUILD_ID ---- */

/* Its names in slot order are the BUILD_ID feature's order. */
struct perf_dso_set {
	struct strset names;
};

static struct perf_dso_set *dso_set__new(void)
{
	struct perf_dso_set *set = calloc(1, sizeof(*set));

	if (set)
		strset__init(&set->names, 64);
	return set;
}

static int dso_set__add(struct perf_dso_set *set, const char *name)
{
	return strset__intern(&set->names, name) ? 0 : -ENOMEM;
}

/* The name in slot @i of @set, or NULL. */
static const char *dso_set__name(const struct perf_dso_set *set, size_t i)
{
	char **name = hashtab__slot(&set->names.strs, i);

	return name ? *name : NULL;
}

/* Only files that can carry a build id: real paths, not anon memory, devices or deleted files. */
static bool dso_name__wanted(const char *name)
{
	size_t len = strlen(name);

	if (name[0] != '/')
		return false;
	if (!strncmp(name, "/dev/", 5) || !strncmp(name, "/memfd:", 7) ||
	    !strncmp(name, "/SYSV", 5))
		return false;
	if (len > 10 && !strcmp(name + len - 10, " (deleted)"))
		return false;
	return true;
}

void perf_header_info__note_event(struct perf_header_info *info, const union perf_event *event)
{
	const char *name;
	size_t max;

	dso_hits__note(info->hits, event);

	/* Records of perf's own types (rounds, features) carry no time. */
	if (event->header.type < PERF_RECORD_USER_TYPE_START && info->evlist) {
		u64 t = evlist__event_time(info->evlist, event);

		if (t > info->last_time)
			info->last_time = t;
		/* SAMPLE_TIME: the earliest and the latest, in whatever order they come. */
		if (event->header.type == PERF_RECORD_SAMPLE) {
			if (t && (!info->first_sample_time || t < info->first_sample_time))
				info->first_sample_time = t;
			if (t > info->last_sample_time)
				info->last_sample_time = t;
			return;
		}
	}

	if ((event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	if (event->header.type == PERF_RECORD_MMAP) {
		name = event->mmap.filename;
		max = event->header.size - offsetof(struct perf_record_mmap, filename);
	} else if (event->header.type == PERF_RECORD_MMAP2) {
		if (!(event->mmap2.prot & 4 /* PROT_EXEC */))
			return;
		name = event->mmap2.filename;
		max = event->header.size - offsetof(struct perf_record_mmap2, filename);
	} else {
		return;
	}
	if (event->header.size <= offsetof(struct perf_record_mmap, filename) ||
	    !memchr(name, '\0', max))
		return;
	if (!strcmp(name, "[vdso]"))
		info->vdso = true;
	if (!dso_name__wanted(name))
		return;
	if (!info->dsos) {
		info->dsos = dso_set__new();
		if (!info->dsos)
			return;
	}
	if (dso_set__add(info->dsos, name))
		pr_debug("out of memory noting %s for the build-id table\n", name);
}

void perf_header_info__setup(struct perf_header_info *info, struct evlist *evlist,
			     const struct record_opts *opts)
{
	info->evlist = evlist;
	/*
	 * The reference pair is read once per file: a reader turns the file's
	 * sample times into times of day from it (perf script -F tod).
	 */
	if (opts->use_clockid) {
		struct timespec res;

		if (!clock_getres(opts->clockid, &res) &&
		    !clock_ref__now(&info->clock, opts->clockid)) {
			info->use_clockid = true;
			info->clock_res_ns = (u64)res.tv_sec * 1000000000ULL + (u64)res.tv_nsec;
		}
	}
	/*
	 * The distro writes the size of one ring buffer with its header page,
	 * which its reader takes as the most one COMPRESSED record expands to:
	 * never less than our chunk, which is what ours expand to.
	 */
	info->comp_mmap_len = max_t(u64, (opts->mmap_pages + 1) * page_size(),
				    ZSTD_WRITER_CHUNK);
	info->no_buildid = opts->no_buildid;
	info->no_buildid_cache = opts->no_buildid_cache;
	if (!opts->no_buildid && !opts->buildid_all)
		info->hits = dso_hits__new(evlist);
}

void perf_header_info__exit(struct perf_header_info *info)
{
	struct perf_dso_set *set = info->dsos;

	dso_hits__delete(info->hits);
	info->hits = NULL;

	if (!set)
		return;
	strset__exit(&set->names);
	free(set);
	info->dsos = NULL;
}

/* ---- the build-id cache ---- */

/*
 * Files this process has already put into the cache, by identity: a
 * flight recorder dumps again and again with the same libraries mapped,
 * and after the first dump each costs a stat() here, not a build-id read.
 */
struct cached_file {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

static u64 cached_file__hash(const void *entry, void *ctx)
{
	const struct cached_file *c = entry;

	return u64__hash(c->ino ^ c->dev * 31);
}

static bool cached_file__equal(const void *entry, const void *key, void *ctx)
{
	const struct cached_file *a = entry, *b = key;

	return a->ino == b->ino && a->dev == b->dev && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec;
}

static struct hashtab cached_files = {
	.size = sizeof(struct cached_file), .min_cap = 64,
	.hash = cached_file__hash, .equal = cached_file__equal,
};
static bool cache_warned, vdso_cached, kernel_cached;

static struct cached_file cached_file__of(const struct stat *st)
{
	return (struct cached_file){
		.dev = st->st_dev, .ino = st->st_ino, .size = st->st_size, .mtime = st->st_mtim,
	};
}

static bool cached_file__known(const struct stat *st)
{
	struct cached_file key = cached_file__of(st);

	return hashtab__find(&cached_files, &key, cached_file__hash(&key, NULL)) != NULL;
}

static void cached_file__remember(const struct stat *st)
{
	struct cached_file c = cached_file__of(st);

	if (!cached_file__known(st))	/* out of memory only costs a repeated add */
		hashtab__add(&cached_files, &c, cached_file__hash(&c, NULL));
}

static void cache__warn(const char *what, int err)
{
	if (cache_warned)
		return;
	cache_warned = true;
	pr_warning("Warning: cannot add %s to the build-id cache in %s: %s; recording goes on "
		   "(-N skips the cache).\n", what, buildid_dir__get(), strerror(-err));
}

/*
 * The build id of each executable file as it was when it was mapped, by
 * path, for the flight recorder: a deploy may replace the file at that
 * path before a dump is written.  One id per path, the latest mapped; kept
 * for the whole run.
 */
struct mapped_id {
	char *name;
	u8 bid[BUILD_ID_SIZE];
	int len;
};

static u64 mapped_id__hash(const void *entry, void *ctx)
{
	return str__hash(((const struct mapped_id *)entry)->name);
}

static bool mapped_id__equal(const void *entry, const void *key, void *ctx)
{
	return !strcmp(((const struct mapped_id *)entry)->name, key);
}

static struct hashtab mapped_ids = {
	.size = sizeof(struct mapped_id), .min_cap = 256,
	.hash = mapped_id__hash, .equal = mapped_id__equal,
};

static struct mapped_id *mapped_id__find(const char *name)
{
	return hashtab__find(&mapped_ids, name, str__hash(name));
}

/* @name's entry, added if new; valid until the next one is added. */
static struct mapped_id *mapped_id__get(const char *name)
{
	struct mapped_id *m = mapped_id__find(name), new = { .name = NULL };

	if (m || !(new.name = strdup(name)))
		return m;
	m = hashtab__add(&mapped_ids, &new, str__hash(name));
	if (!m)
		free(new.name);
	return m;
}

/*
 * The files perf_header_info__note_mapping() has looked at, by the identity
 * the MMAP2 record itself carries (device, inode and its generation) and
 * path: every process of a fork storm maps the same few files, and each is
 * worth a stat() and a build-id read once, not once per mapping.  A file
 * replaced by a deploy is a new inode, so a new entry.
 */
struct seen_mapping {
	u32 maj, min;
	u64 ino, ino_generation;
	char *name;
};

static u64 seen_mapping__hash(const void *entry, void *ctx)
{
	const struct seen_mapping *s = entry;

	return str__hash(s->name) ^ u64__hash(s->ino);
}

static bool seen_mapping__equal(const void *entry, const void *key, void *ctx)
{
	const struct seen_mapping *a = entry, *b = key;

	return a->ino == b->ino && a->maj == b->maj && a->min == b->min &&
	       a->ino_generation == b->ino_generation && !strcmp(a->name, b->name);
}

static struct hashtab seen_mappings = {
	.size = sizeof(struct seen_mapping), .min_cap = 256,
	.hash = seen_mapping__hash, .equal = seen_mapping__equal,
};

/* The key of @mm: it borrows the record's file name. */
static struct seen_mapping seen_mapping__of(const struct perf_record_mmap2 *mm)
{
	return (struct seen_mapping){
		.maj = mm->maj, .min = mm->min, .ino = mm->ino,
		.ino_generation = mm->ino_generation, .name = (char *)mm->filename,
	};
}

static bool seen_mapping__find(const struct perf_record_mmap2 *mm)
{
	struct seen_mapping key = seen_mapping__of(mm);

	return hashtab__find(&seen_mappings, &key, seen_mapping__hash(&key, NULL)) != NULL;
}

static void seen_mapping__add(const struct perf_record_mmap2 *mm)
{
	struct seen_mapping s = seen_mapping__of(mm);

	if (seen_mapping__find(mm))
		return;
	s.name = strdup(mm->filename);
	/* Out of memory only costs the lookup again next time. */
	if (s.name && !hashtab__add(&seen_mappings, &s, seen_mapping__hash(&s, NULL)))
		free(s.name);
}

/*
 * The build id of the file @mm mapped, from the file at its path if that is
 * still the one mapped (*at_path, and *st is its identity), else through
 * the mapping itself, readable while the process lives (@src, a
 * /proc/PID/map_files name).  A file is not looked at again once its id is
 * known or it was looked at at its path.
 */
static int mapping__read_build_id(const struct perf_record_mmap2 *mm, u8 *bid,
				  struct stat *st, bool *at_path, char *src, size_t size)
{
	int len;

	*at_path = stat(mm->filename, st) == 0 && S_ISREG(st->st_mode) &&
		   st->st_ino == mm->ino && major(st->st_dev) == mm->maj &&
		   minor(st->st_dev) == mm->min;
	if (*at_path) {
		seen_mapping__add(mm);
		if (cached_file__known(st))
			return 0;
		return filename__read_build_id(mm->filename, bid, BUILD_ID_SIZE);
	}
	snprintf(src, size, "/proc/%u/map_files/%llx-%llx", mm->pid,
		 (unsigned long long)mm->start, (unsigned long long)(mm->start + mm->len));
	len = filename__read_build_id(src, bid, BUILD_ID_SIZE);
	if (len > 0)
		seen_mapping__add(mm);
	return len;
}

void perf_header_info__note_mapping(struct perf_header_info *info, const union perf_event *event)
{
	const struct perf_record_mmap2 *mm = &event->mmap2;
	struct mapped_id *m;
	u8 bid[BUILD_ID_SIZE];
	struct stat st;
	char src[64];
	bool at_path;
	size_t max;
	int len, err;

	if (event->header.type != PERF_RECORD_MMAP2 ||
	    (event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
	    !(mm->prot & 4 /* PROT_EXEC */) ||
	    event->header.size <= offsetof(struct perf_record_mmap2, filename))
		return;
	max = event->header.size - offsetof(struct perf_record_mmap2, filename);
	if (!memchr(mm->filename, '\0', max) || !dso_name__wanted(mm->filename) ||
	    seen_mapping__find(mm))
		return;
	len = mapping__read_build_id(mm, bid, &st, &at_path, src, sizeof(src));
	if (len <= 0)
		return;
	m = mapped_id__get(mm->filename);
	if (!m)
		return;
	if (m->len == len && !memcmp(m->bid, bid, len) && at_path)
		goto remember;
	m->len = len;
	memcpy(m->bid, bid, len);
	/* Into the cache now, while the mapped binary can still be read. */
	if (info->no_buildid || info->no_buildid_cache)
		return;
	err = build_id_cache__add_file(mm->filename, bid, len, at_path ? mm->filename : src);
	if (err) {
		cache__warn(mm->filename, err);
		return;
	}
	pr_debug2("build-id cache: added %s when it was mapped\n", mm->filename);
remember:
	if (at_path)
		cached_file__remember(&st);
}

/* The id of the file at @name: as it was mapped, if known, else as it is now. */
static int mapped_or_current_build_id(const char *name, u8 *bid, size_t size)
{
	struct mapped_id *m = mapped_id__find(name);

	if (m && (size_t)m->len <= size) {
		memcpy(bid, m->bid, m->len);
		return m->len;
	}
	return filename__read_build_id(name, bid, size);
}

void perf_header_info__cache_build_ids(struct perf_header_info *info)
{
	struct mapped_id *mapped;
	u8 bid[BUILD_ID_SIZE];
	u64 t0;
	int len, err, nr = 0, added = 0;

	if (info->no_buildid || info->no_buildid_cache)
		return;
	t0 = now_ns();
	/* The kernel's symbols as they are now: upstream keeps them, and its archive wants them. */
	if (!kernel_cached) {
		len = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));
		if (len > 0) {
			err = build_id_cache__add_file("[kernel.kallsyms]", bid, len,
						       "/proc/kallsyms");
			if (err)
				cache__warn("[kernel.kallsyms]", err);
			else
				kernel_cached = true;
		}
	}
	if (info->vdso && !vdso_cached) {
		const void *img;
		size_t size;

		len = vdso__build_id(bid, sizeof(bid));
		if (len > 0 && !vdso__image(&img, &size)) {
			err = build_id_cache__add_buf("[vdso]", bid, len, img, size);
			if (err)
				cache__warn("[vdso]", err);
			else
				vdso_cached = true;
		}
	}
	for (size_t i = 0; info->dsos && i < info->dsos->names.strs.cap; i++) {
		const char *name = dso_set__name(info->dsos, i);
		struct stat st;

		if (!name || !dso_hits__hit(info->hits, name))
			continue;
		nr++;
		if (stat(name, &st) < 0 || !S_ISREG(st.st_mode) || cached_file__known(&st))
			continue;
		len = filename__read_build_id(name, bid, sizeof(bid));
		if (len <= 0)
			continue;
		/* Replaced since it was mapped: the mapped one was cached then. */
		mapped = mapped_id__find(name);
		if (mapped && !build_id__same(bid, len, mapped->bid, mapped->len))
			continue;
		err = build_id_cache__add_file(name, bid, len, name);
		if (err) {
			cache__warn(name, err);
			continue;
		}
		cached_file__remember(&st);
		pr_debug2("build-id cache: added %s\n", name);
		added++;
	}
	pr_debug2("build-id cache: %d files with samples, %d added, %.2f ms\n", nr, added,
		  (now_ns() - t0) / 1e6);
}

/* ---- begin ---- */

int perf_header__write_begin(struct perf_data *data, struct evlist *evlist)
{
	struct perf_file_header h = { 0 };
	struct evsel *evsel;
	struct perf_feat_buf b = { 0 };
	u64 ids_off, off;
	int err;

	if (data->is_pipe)
		return -ENOTSUP;
	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = sizeof(h);
	h.attrs.size = (u64)evlist__nr_file_evsels(evlist) * sizeof(struct perf_file_attr);
	ids_off = h.attrs.offset + h.attrs.size;
	off = ids_off;
	evlist__for_each_file_evsel(evlist, evsel)
		off += (u64)evsel->nr_ids * sizeof(u64);
	/* Where the records go is known now; only their size waits for the finish. */
	h.data.offset = PERF_ALIGN(off, 8);

	perf_feat_buf__add(&b, &h, sizeof(h));
	off = ids_off;
	evlist__for_each_file_evsel(evlist, evsel) {
		struct perf_file_attr fa = { 0 };

		fa.attr = evsel->attr;
		/* Readers size the attr by this field: it is what we were compiled with. */
		fa.attr.size = sizeof(fa.attr);
		fa.ids.offset = off;
		fa.ids.size = (u64)evsel->nr_ids * sizeof(u64);
		off += fa.ids.size;
		perf_feat_buf__add(&b, &fa, sizeof(fa));
	}
	evlist__for_each_file_evsel(evlist, evsel)
		fbuf__add_ids(&b, evsel->ids, evsel->nr_ids);
	if (b.err)
		return b.err;

	data->data_offset = h.data.offset;
	data->data_size = 0;
	fbuf__add_zeros(&b, data->data_offset - off);
	/* The data section in this header is still empty: see the comment at the top. */
	err = b.err ? b.err : perf_data__pwrite(data, b.p, b.len, 0);
	free(b.p);
	if (err)
		return err;
	err = perf_data__truncate(data, data->data_offset);
	if (!err && lseek(data->fd, data->data_offset, SEEK_SET) < 0)
		err = -errno;
	return err;
	return 0;
}

/* ---- features ---- */

void perf_feat_buf__add_build_id(struct perf_feat_buf *b, u16 cpumode, const u8 *bid, int len,
			 const char *name)
{
	struct perf_record_build_id r = { 0 };
	size_t nlen = strlen(name) + 1, padded = PERF_ALIGN(nlen, FEAT_NAME_ALIGN);

	r.header.type = PERF_RECORD_HEADER_BUILD_ID;
	r.header.misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE;
	r.header.size = sizeof(r) + padded;
	r.pid = -1;		/* the host machine */
	memcpy(r.build_id, bid, len);
	r.size = len;
	perf_feat_buf__add(b, &r, sizeof(r));
	perf_feat_buf__add(b, name, nlen);
	fbuf__add_zeros(b, padded - nlen);
}

int perf_header_info__write_build_ids(struct perf_feat_buf *b, struct perf_header_info *info)
{
	u8 bid[BUILD_ID_SIZE];
	int len;

	len = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));
	if (len > 0)
		perf_feat_buf__add_build_id(b, PERF_RECORD_MISC_KERNEL, bid, len, "[kernel.kallsyms]");
	if (info && info->no_buildid)
		return -ENOENT;
	if (info && info->vdso) {
		len = vdso__build_id(bid, sizeof(bid));
		if (len > 0)
			perf_feat_buf__add_build_id(b, PERF_RECORD_MISC_USER, bid, len, "[vdso]");
	}
	for (size_t i = 0; info && info->dsos && i < info->dsos->names.strs.cap; i++) {
		const char *name = dso_set__name(info->dsos, i);

		if (!name)
			continue;
		if (!dso_hits__hit(info->hits, name))
			continue;
		len = mapped_or_current_build_id(name, bid, sizeof(bid));
		if (len > 0)
			perf_feat_buf__add_build_id(b, PERF_RECORD_MISC_USER, bid, len, name);
	}
	return b->len ? 0 : -ENOENT;
}

int perf_header__feature(int feat, struct perf_feat_buf *b, struct evlist *evlist,
			 struct perf_header_info *info)
{
	const struct perf_feat_ops *ops = perf_feat__ops(feat);

	return ops && ops->write ? ops->write(b, evlist, info) : -ENOENT;
}

int perf_header__write_finish(struct perf_data *data, struct evlist *evlist,
			      struct perf_header_info *info)
{
	/* The section table is in the order of the bits; a reader counts the bits below. */
	struct perf_file_section secs[HEADER_FEAT_BITS];
	struct perf_feat_buf payload = { 0 };
	struct perf_file_header h = { 0 };
	u64 feat_off = data->data_offset + data->data_size, off;
	int nr = 0, err;

	/* A stream has no header to complete: its head went out first (header-pipe.c). */
	if (data->is_pipe)
		return 0;
	/* Payloads go after the section table, whose size is known once all are built. */
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		size_t before = payload.len;

		err = perf_header__feature(feat, &payload, evlist, info);
		if (payload.err) {
			err = payload.err;
			goto out_free;
		}
		if (err) {
			/*
			 * -ENOENT: the feature does not apply (no tracepoint, no
			 * group, no -z, no -k) or this machine cannot describe
			 * it; either way it is simply left out, as the distro
			 * leaves it out.  Other errors are worth a word with -v.
			 */
			if (err != -ENOENT)
				pr_debug("header: feature %d left out: %s\n", feat,
					 strerror(-err));
			payload.len = before;
			continue;
		}
		secs[nr].offset = before;
		secs[nr].size = payload.len - before;
		h.adds_features[feat / 64] |= 1ULL << (feat % 64);
		nr++;
	}
	off = feat_off + nr * sizeof(secs[0]);
	for (int i = 0; i < nr; i++)
		secs[i].offset += off;
	err = perf_data__pwrite(data, secs, nr * sizeof(secs[0]), feat_off);
	if (!err)
		err = perf_data__pwrite(data, payload.p, payload.len, off);
	if (err)
		goto out_free;
	err = perf_data__truncate(data, off + payload.len);
	if (err)
		goto out_free;

	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = sizeof(h);
	h.attrs.size = (u64)evlist__nr_file_evsels(evlist) * sizeof(struct perf_file_attr);
	h.data.offset = data->data_offset;
	h.data.size = data->data_size;
	err = perf_data__pwrite(data, &h, sizeof(h), 0);
out_free:
	free(payload.p);
	return err;
}
