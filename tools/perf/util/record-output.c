/*
 * perf record's output writer (see record-output.h): the write buffer,
 * -z compression, the header at both ends of a file, and the names a
 * file takes and gives up.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build-id.h"
#include "debug.h"
#include "record-output.h"
#include "session.h"

/* The file itself: what -z compressed, or the records as they are. */
static int record_output__write_file(void *arg, const void *buf, size_t size)
{
	struct record_output *out = arg;
	int err = perf_data__write(&out->data, buf, size);

	if (err)
		pr_err("Failed to write %s: %s\n%s", out->data.path, strerror(-err),
		       err == -ENOSPC ? "Free some space, or record elsewhere with -o.\n" : "");
	return err;
}

int record_output__init(struct record_output *out, const char *path, int comp_level)
{
	out->path = path;
	out->comp_level = comp_level;
	out->wbuf = malloc(RECORD_OUTPUT_WBUF_SIZE);
	if (!out->wbuf)
		return -ENOMEM;
	if (comp_level && zstd_writer__init(&out->zstd, comp_level, record_output__write_file, out))
		return -ENOMEM;
	return 0;
}

void record_output__exit(struct record_output *out)
{
	free(out->wbuf);
	out->wbuf = NULL;
	zstd_writer__exit(&out->zstd);
}

static int record_output__write_direct(struct record_output *out, const void *buf, size_t size)
{
	if (out->comp_level)
		return zstd_writer__write(&out->zstd, buf, size);
	return record_output__write_file(out, buf, size);
}

int record_output__flush(struct record_output *out)
{
	int err = 0;

	if (out->wbuf_len)
		err = record_output__write_direct(out, out->wbuf, out->wbuf_len);
	out->wbuf_len = 0;
	return err;
}

/*
 * Small records (synthesized ones, the process table's, forward samples
 * in overwrite mode) are gathered so a dump is not thousands of write(2)s;
 * large ranges go straight out.
 */
int record_output__write(struct record_output *out, const void *buf, size_t size)
{
	int err;

	if (!out->wbuf || size > RECORD_OUTPUT_WBUF_SIZE / 4) {
		err = record_output__flush(out);
		if (!err)
			err = record_output__write_direct(out, buf, size);
	} else {
		err = 0;
		if (out->wbuf_len + size > RECORD_OUTPUT_WBUF_SIZE)
			err = record_output__flush(out);
		if (!err) {
			memcpy(out->wbuf + out->wbuf_len, buf, size);
			out->wbuf_len += size;
		}
	}
	if (err)
		return err;
	out->bytes_written += size;
	return 0;
}

void record_output__account(struct record_output *out, const union perf_event *event)
{
	perf_header_info__note_event(&out->hinfo, event);
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		out->samples++;
		break;
	case PERF_RECORD_LOST:
		out->lost_events += event->lost.lost;
		out->lost_chunks++;
		break;
	default:
		break;
	}
}

int record_output__write_event(struct record_output *out, const union perf_event *event)
{
	record_output__account(out, event);
	return record_output__write(out, event, event->header.size);
}

/* A relative output name in a working directory that was removed: no file can be made there. */
static bool record_output__cwd_gone(const char *path)
{
	char buf[PATH_MAX];

	return path[0] != '/' && !getcwd(buf, sizeof(buf)) && errno == ENOENT;
}

/* The file at the output name: the one a rename left ready, or a new one. */
static int record_output__create(struct record_output *out)
{
	const char *path = out->path;
	int err;

	if (out->next_ready) {
		out->next_ready = false;
		return 0;
	}
	err = perf_data__create(&out->data, path);
	if (err == -EBUSY)
		pr_err("%s is the output of another perf record (pid %d), still running: give this "
		       "one another -o, or stop that one first.\n", path, (int)out->data.holder);
	else if (err == -ENOENT && record_output__cwd_gone(path))
		pr_err("Cannot create %s: the working directory was removed while recording. "
		       "Stop this recorder and start it again in an existing directory, or with "
		       "an absolute -o.\n", path);
	else if (err == -ENOTSUP)
		pr_err("Cannot write the output file %s: it is a fifo, a socket or a block device, "
		       "which perf record does not replace. Choose a regular file with -o, or "
		       "-o - for a stream on standard output.\n", path);
	else if (err)
		pr_err("Cannot create the output file %s: %s\n%s", path, strerror(-err),
		       err == -ENOENT ? "Its directory does not exist: create it or choose "
					"another -o.\n" :
		       err == -EACCES || err == -EPERM ? "Check the directory's permissions and "
					"attributes, or choose another -o.\n" : "");
	return err;
}

int record_output__begin(struct record_output *out, struct evlist *evlist,
			 const struct record_opts *opts, int argc, const char **argv)
{
	int err = record_output__create(out);

	if (err)
		return err;
	out->open = true;
	out->samples = 0;
	out->bytes_written = 0;
	out->zstd.bytes_in = out->zstd.bytes_out = 0;
	memset(&out->hinfo, 0, sizeof(out->hinfo));
	out->hinfo.argc = argc;
	out->hinfo.argv = argv;
	perf_header_info__setup(&out->hinfo, evlist, opts);
	if (out->data.is_pipe) {
		/* The stream's features go first, before the ratio is known. */
		out->hinfo.comp_level = out->comp_level;
		err = perf_header__write_pipe(&out->data, evlist, &out->hinfo);
	} else {
		err = perf_header__write_begin(&out->data, evlist);
	}
	if (err)
		pr_err("Cannot write the header of %s: %s\n", out->data.path, strerror(-err));
	return err;
}

/* The build ids the kept dumps name, as hex, sorted once all are in. */
struct kept_ids {
	char **v;
	size_t nr, cap;
	bool unknown;		/* a dump could not be read: it may name any entry */
};

static void kept_ids__add_file(const char *file, void *arg)
{
	struct kept_ids *k = arg;
	char msg[256], hex[2 * BUILD_ID_SIZE + 1], **v;
	struct perf_session *s;
	int err;

	s = perf_session__open(file, &err, msg, sizeof(msg));
	if (!s) {
		pr_debug("build-id cache: cannot read the build ids of %s: %s\n", file,
			 msg[0] ? msg : strerror(-err));
		k->unknown = true;
		return;
	}
	for (size_t i = 0; i < s->nr_build_ids; i++) {
		if (k->nr == k->cap) {
			size_t cap = k->cap ? 2 * k->cap : 64;

			v = realloc(k->v, cap * sizeof(*v));
			if (!v) {
				k->unknown = true;
				break;
			}
			k->v = v;
			k->cap = cap;
		}
		build_id__sprintf(s->build_ids[i].bid, s->build_ids[i].len, hex);
		k->v[k->nr] = strdup(hex);
		if (k->v[k->nr])
			k->nr++;
		else
			k->unknown = true;
	}
	perf_session__delete(s);
}

static int kept_ids__cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static bool kept_ids__has(const char *hex, void *arg)
{
	struct kept_ids *k = arg;

	return k->nr && bsearch(&hex, k->v, k->nr, sizeof(*k->v), kept_ids__cmp);
}

/*
 * buildid-cache.max-size: the entries the file just finished names are
 * marked used, and the cache is brought under the cap by evicting the
 * least recently used entries that neither it nor any dump of the set
 * still on disk names, so that every kept dump can be read with its own
 * binaries.  Reading the dumps' BUILD_ID features costs a header read
 * each, paid only when a cap is set.
 */
void record_output__trim_cache(struct record_output *out, const char *file)
{
	struct kept_ids k = { 0 };
	int nr;

	if (!out->cache_max || out->data.is_pipe || out->hinfo.no_buildid ||
	    out->hinfo.no_buildid_cache)
		return;
	kept_ids__add_file(file, &k);
	for (size_t i = 0; i < k.nr; i++)
		build_id_cache__touch(k.v[i]);
	perf_data__rotate_each(out->path, -1, kept_ids__add_file, &k);
	if (k.unknown) {
		pr_debug("build-id cache: not trimmed to buildid-cache.max-size: what the kept "
			 "dumps name is not all known\n");
		goto out;
	}
	if (k.nr)
		qsort(k.v, k.nr, sizeof(*k.v), kept_ids__cmp);
	nr = build_id_cache__trim(out->cache_max, kept_ids__has, &k);
	if (nr < 0)
		pr_debug("build-id cache: cannot trim %s: %s\n", buildid_dir__get(),
			 strerror(-nr));
out:
	for (size_t i = 0; i < k.nr; i++)
		free(k.v[i]);
	free(k.v);
}

int record_output__finish(struct record_output *out, struct evlist *evlist)
{
	int err = record_output__flush(out);

	if (!err && out->comp_level) {
		err = zstd_writer__flush(&out->zstd);
		out->hinfo.comp_level = out->comp_level;
		out->hinfo.comp_ratio = zstd_writer__ratio(&out->zstd);
	}
	if (!err)
		err = perf_header__write_finish(&out->data, evlist, &out->hinfo);
	if (!err)
		perf_header_info__cache_build_ids(&out->hinfo);
	return err;
}

void record_output__close(struct record_output *out)
{
	perf_data__close(&out->data);
	out->open = false;
}

/* A file we could not finish must not look like a good one. */
void record_output__abandon(struct record_output *out)
{
	if (!out->open)
		return;
	out->wbuf_len = 0;
	out->zstd.in_len = 0;
	/* Only if the name is still ours: it may be another recorder's file by now. */
	if (!out->data.is_pipe && !out->kept && perf_data__discard(&out->data) == 0)
		pr_err("Removed the incomplete %s; earlier files are untouched.\n", out->path);
	record_output__close(out);
	perf_header_info__exit(&out->hinfo);
}

/* Why a finished file could not take its dump name, and where its data is. */
static void record_output__rename_failed(struct record_output *out, const char *name, int err)
{
	const char *path = out->path;

	if (err == -ESTALE) {
		pr_err("%s is no longer the file this recorder wrote (something replaced it): the "
		       "dump cannot be named, and the file there is left alone.\n", path);
	} else if (err == -ENOENT && record_output__cwd_gone(path)) {
		pr_err("The working directory was removed while recording: the dump went with it. "
		       "Stop this recorder and start it again in an existing directory, or with an "
		       "absolute -o.\n");
	} else if (err == -ENOENT) {
		pr_err("%s was removed while recording (or its directory was): the dump went with "
		       "it.\n", path);
	} else {
		pr_err("Cannot name the dump %s: %s. It stays, complete, in %s; the next file "
		       "created there moves it to %s.old.\n", name, strerror(-err), path, path);
		out->kept = true;
	}
}

/*
 * Renames "<output>" to "<output>.<timestamp>".  Unless this is the end,
 * the next file takes the name in the same instant: the recorder never
 * lets go of it.
 */
int record_output__rename(struct record_output *out, bool next, char **name)
{
	int err = perf_data__switch(&out->data, next, name);

	if (err) {
		if (*name)
			record_output__rename_failed(out, *name, err);
		free(*name);
		*name = NULL;
		return err;
	}
	out->next_ready = out->data.fd >= 0;
	if (!out->next_ready)
		perf_data__close(&out->data);
	out->open = false;
	return 0;
}

void record_output__rotate(struct record_output *out, int max_files)
{
	if (max_files > 0) {
		int n = perf_data__rotate(out->path, max_files);

		if (n > 0)
			pr_debug("Removed %d old dump(s) (--switch-max-files=%d)\n", n, max_files);
	}
}

/*
 * The size is the file's on disk, as the distro gives it: nothing for a
 * device (-o /dev/null).  The sample count is left out when there is none,
 * and from a compressed file's line, as the distro prints them.
 */
void record_output__print_written(const struct record_output *out, const char *name)
{
	u64 bytes = out->data.data_offset + (out->comp_level && out->zstd.bytes_out ?
					     out->data.data_size : out->bytes_written);
	char samples[48] = "";

	if (out->data.is_device)
		bytes = 0;
	if (out->samples)
		snprintf(samples, sizeof(samples), " (%llu samples)",
			 (unsigned long long)out->samples);
	if (out->comp_level && out->zstd.bytes_out) {
		fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s, "
			"compressed (original %.3f MB, ratio is %.3f) ]\n",
			(double)bytes / 1024 / 1024, name,
			(double)out->zstd.bytes_in / 1024 / 1024,
			(double)out->zstd.bytes_in / out->zstd.bytes_out);
		return;
	}
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s%s ]\n",
		(double)bytes / 1024 / 1024, name, samples);
}
