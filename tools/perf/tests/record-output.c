/*
 * perf record's output writer (util/record-output): records through the
 * write buffer and -z into a file whose header says where they are; the
 * names --switch-output gives; a file that could not be written is not
 * left behind looking like a good one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "tests.h"
#include "perf.h"
#include "util/compress.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/record-output.h"

#define NR_RECORDS	6000
#define RECORD_SIZE	64

/* What a test writes: an event list to describe, and no build-id cache touched. */
struct fixture {
	char dir[64];
	char path[128];
	char *records;		/* the test's records, made by make_records() */
	struct evlist *evlist;
	struct record_opts opts;
	struct record_output out;
};

/* Records of RECORD_SIZE bytes, each told apart by its contents, @nr of them. */
static char *make_records(int nr)
{
	char *buf = calloc(nr, RECORD_SIZE);

	for (int i = 0; buf && i < nr; i++) {
		struct perf_event_header *h = (void *)(buf + i * RECORD_SIZE);

		h->type = PERF_RECORD_SAMPLE;
		h->size = RECORD_SIZE;
		snprintf((char *)(h + 1), RECORD_SIZE - sizeof(*h), "record %d", i);
	}
	return buf;
}


/* @nr_records of make_records() to write; fixture__exit() undoes a failed init too. */
static int fixture__init(struct fixture *f, int comp_level, int nr_records)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
	};
	struct evsel *evsel;

	memset(f, 0, sizeof(*f));
	f->records = make_records(nr_records);
	if (!f->records)
		return -1;
	strcpy(f->dir, "/tmp/perf-test-record-output-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/perf.data", f->dir);
	f->opts.no_buildid = f->opts.no_buildid_cache = true;
	f->opts.output = f->path;
	f->evlist = evlist__new();
	evsel = evsel__new(&attr);
	if (!f->evlist || !evsel)
		return -1;
	evlist__add(f->evlist, evsel);
	return record_output__init(&f->out, f->path, comp_level);
}

/* Removes the files a test left in its directory, and the directory. */
static void fixture__exit(struct fixture *f)
{
	struct dirent *de;
	DIR *d = opendir(f->dir);

	record_output__exit(&f->out);
	evlist__delete(f->evlist);
	free(f->records);
	while (d && (de = readdir(d))) {
		char path[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", f->dir, de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(f->dir);
}

static int fixture__begin(struct fixture *f)
{
	return record_output__begin(&f->out, f->evlist, &f->opts, 0, NULL);
}

/*
 * Writes the records as a recorder does: one at a time (gathered in the
 * buffer), a run of them (still gathered) and a run bigger than a
 * quarter of the buffer (written at once).
 */
static int write_records(struct record_output *out, const char *records)
{
	int one = 1000, run = 100, big = NR_RECORDS - one - run, err = 0;

	for (int i = 0; i < one && !err; i++)
		err = record_output__write(out, records + i * RECORD_SIZE, RECORD_SIZE);
	if (!err)
		err = record_output__write(out, records + one * RECORD_SIZE, run * RECORD_SIZE);
	if (!err)
		err = record_output__write(out, records + (one + run) * RECORD_SIZE,
					   big * RECORD_SIZE);
	return err;
}

static char *read_file(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		goto out_close;
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) == st.st_size) {
		close(fd);
		*len = st.st_size;
		return buf;
	}
	free(buf);
out_close:
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The data section's records, with COMPRESSED ones expanded, into *@back. */
static int expand(const char *data, u64 size, char *back, size_t cap, size_t *len)
{
	struct zstd_reader r;
	u64 pos = 0;

	*len = 0;
	if (zstd_reader__init(&r, 1 << 20))
		return -1;
	while (pos + sizeof(struct perf_event_header) <= size) {
		/*
		 * A COMPRESSED record's size is its zstd frame's, not a multiple
		 * of 8, so the next header may sit at any address: copied out.
		 */
		struct perf_event_header h;
		const void *p = data + pos;
		size_t n;

		memcpy(&h, data + pos, sizeof(h));
		n = h.size;
		if (!h.size)
			break;
		if (h.type == PERF_RECORD_COMPRESSED) {
			if (zstd_reader__decompress(&r, data + pos + sizeof(h), h.size - sizeof(h)))
				break;
			p = r.buf;
			n = r.len;
		}
		if (*len + n > cap)
			break;
		memcpy(back + *len, p, n);
		*len += n;
		if (h.type == PERF_RECORD_COMPRESSED)
			zstd_reader__consume(&r, n);
		pos += h.size;
	}
	zstd_reader__exit(&r);
	return pos == size ? 0 : -1;
}

static int check_write(int comp_level)
{
	size_t total = (size_t)NR_RECORDS * RECORD_SIZE, len, back_len;
	char *file = NULL, *back = malloc(total);
	struct fixture f;
	u64 magic, offset, size;
	int ret = TEST_FAIL;

	if (fixture__init(&f, comp_level, NR_RECORDS) || !back)
		goto out;
	if (fixture__begin(&f) || write_records(&f.out, f.records) ||
	    record_output__finish(&f.out, f.evlist)) {
		fprintf(stderr, "FAILED: writing %s\n", f.path);
		goto out;
	}
	record_output__close(&f.out);
	file = read_file(f.path, &len);
	if (!file || len < 64)
		goto out;
	memcpy(&magic, file, 8);
	memcpy(&offset, file + 40, 8);
	memcpy(&size, file + 48, 8);
	if (magic != PERF_MAGIC2 || offset != f.out.data.data_offset ||
	    size != f.out.data.data_size || offset + size > len) {
		fprintf(stderr, "FAILED: the header's data section %llu+%llu in a %zu byte file\n",
			(unsigned long long)offset, (unsigned long long)size, len);
		goto out;
	}
	if (f.out.bytes_written != total || (comp_level ? size >= total : size != total)) {
		fprintf(stderr, "FAILED: %llu bytes written, %llu in the file, of %zu\n",
			(unsigned long long)f.out.bytes_written, (unsigned long long)size, total);
		goto out;
	}
	if (expand(file + offset, size, back, total, &back_len) || back_len != total ||
	    memcmp(back, f.records, total)) {
		fprintf(stderr, "FAILED: the records read back differ\n");
		goto out;
	}
	ret = TEST_OK;
out:
	fixture__exit(&f);
	free(file);
	free(back);
	return ret;
}

static int test__record_output_write(void)
{
	TEST_ASSERT_EQUAL("records as they are", check_write(0), TEST_OK);
	TEST_ASSERT_EQUAL("records through zstd (-z)", check_write(1), TEST_OK);
	return TEST_OK;
}
DEFINE_SUITE(record_output_write, "perf record's output: records in, header says where, with and without -z");

/* Whether @name is "<path>.<16 digits>". */
static bool is_dump_name(const char *name, const char *path)
{
	size_t n = strlen(path);

	if (strncmp(name, path, n) || name[n] != '.' || strlen(name + n + 1) != 16)
		return false;
	return strspn(name + n + 1, "0123456789") == 16;
}

/* One file of the recording: begun, a few records, finished, renamed. */
static int dump(struct fixture *f, const char *records, bool next, char **name)
{
	if (fixture__begin(f) || record_output__write(&f->out, records, 10 * RECORD_SIZE) ||
	    record_output__finish(&f->out, f->evlist))
		return -1;
	return record_output__rename(&f->out, next, name);
}

static int count_files(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static int test__record_output_rotate(void)
{
	char *names[3] = { NULL };
	struct fixture f;
	int ret = TEST_FAIL;

	if (fixture__init(&f, 0, 10))
		goto out;
	for (int i = 0; i < 3; i++) {
		if (dump(&f, f.records, i < 2, &names[i])) {
			fprintf(stderr, "FAILED: dump %d\n", i);
			goto out;
		}
		if (!is_dump_name(names[i], f.path) || access(names[i], R_OK) ||
		    (i && strcmp(names[i], names[i - 1]) <= 0)) {
			fprintf(stderr, "FAILED: dump %d named %s\n", i, names[i]);
			goto out;
		}
		/* Between dumps the name is held by the next file; after the last it is free. */
		if (f.out.open || f.out.next_ready != (i < 2) || (access(f.path, F_OK) == 0) != (i < 2)) {
			fprintf(stderr, "FAILED: after dump %d, the output name\n", i);
			goto out;
		}
	}
	record_output__rotate(&f.out, 2);
	if (count_files(f.dir) != 2 || !access(names[0], F_OK) || access(names[2], F_OK)) {
		fprintf(stderr, "FAILED: --switch-max-files=2 left %d files\n", count_files(f.dir));
		goto out;
	}
	ret = TEST_OK;
out:
	fixture__exit(&f);
	for (int i = 0; i < 3; i++)
		free(names[i]);
	return ret;
}
DEFINE_SUITE(record_output_rotate, "perf record's output: --switch-output names and --switch-max-files");

/*
 * A full disk, as a file size limit: the write fails with -EFBIG (SIGXFSZ
 * ignored, as a recorder must survive it), and the abandoned file is gone.
 */
static int test__record_output_full(void)
{
	struct rlimit old, lim;
	struct fixture f;
	int ret = TEST_FAIL, err;

	if (fixture__init(&f, 0, NR_RECORDS) || getrlimit(RLIMIT_FSIZE, &old))
		goto out;
	lim = old;
	lim.rlim_cur = 64 * 1024;
	signal(SIGXFSZ, SIG_IGN);
	if (fixture__begin(&f) || setrlimit(RLIMIT_FSIZE, &lim))
		goto out;
	err = write_records(&f.out, f.records);
	if (!err)
		err = record_output__finish(&f.out, f.evlist);
	setrlimit(RLIMIT_FSIZE, &old);
	if (err != -EFBIG) {
		fprintf(stderr, "FAILED: writing past the limit gave %d, not -EFBIG\n", err);
		goto out;
	}
	fprintf(stderr, "(a failed write and a removed file are expected)\n");
	record_output__abandon(&f.out);
	if (f.out.open || !access(f.path, F_OK) || count_files(f.dir)) {
		fprintf(stderr, "FAILED: the file that could not be written is still there\n");
		goto out;
	}
	ret = TEST_OK;
out:
	fixture__exit(&f);
	return ret;
}
DEFINE_SUITE(record_output_full, "perf record's output: a full disk is an error and leaves no file");
