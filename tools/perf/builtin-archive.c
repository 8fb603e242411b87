/*
 * perf archive [file]: packs what a perf.data file needs from the build-id
 * cache -- for each DSO with samples, its .build-id link and the entry the
 * link leads to -- into <file>.tar.bz2, laid out relative to the cache so
 * that extracting it into ~/.debug elsewhere lets perf report find them.
 * tar(1) does the packing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/session.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/run-command.h"
#include "util/tmp-file.h"

extern char **environ;

/*
 * Appends the link of @e and the entry it leads to (paths relative to the
 * cache) to @list.  1 when added, 0 when the cache has no such entry.
 */
static int archive__add(FILE *list, const struct build_id_entry *e)
{
	char hex[2 * BUILD_ID_SIZE + 1], link[PATH_MAX], target[PATH_MAX], full[PATH_MAX * 2];
	const char *entry;
	struct stat st;
	ssize_t n;

	build_id__sprintf(e->bid, e->len, hex);
	snprintf(link, sizeof(link), ".build-id/%.2s/%s", hex, hex + 2);
	snprintf(full, sizeof(full), "%s/%s", buildid_dir__get(), link);
	n = readlink(full, target, sizeof(target) - 1);
	if (n <= 0 || stat(full, &st) < 0)
		return 0;
	target[n] = '\0';
	/* The link is relative to .build-id/xx/: "../../<entry>". */
	entry = target;
	if (!strncmp(entry, "../../", 6))
		entry += 6;
	else
		return 0;	/* an absolute or odd link would not survive the move */
	fprintf(list, "%s\n%s\n", link, entry);
	return 1;
}

/*
 * A cache entry is a hard link to a binary: another recorder linking or
 * unlinking the same binary changes its inode's ctime while tar reads it,
 * which GNU tar reports as "file changed as we read it", exit status 1.
 * The bytes are those of the build id either way: that warning is off and
 * status 1 is not a failure (status 2 is).  tar writes the archive under
 * a temporary name, which becomes @out only once tar has succeeded: a
 * failed tar leaves no half archive, nor spoils an earlier one.
 */
static int run_tar(const char *out, const char *list)
{
	const char *argv[] = { "tar", "--warning=no-file-changed", "-cjf", NULL, "-C",
			       buildid_dir__get(), "-T", list, NULL };
	struct child_process tar = CHILD_PROCESS_INIT;
	struct tmp_file tmp;
	int err = tmp_file__create(&tmp, out, 0644);

	if (err < 0)
		return err;
	argv[3] = tmp.name;
	tar.argv = argv;
	err = child_process__start(&tar);
	/* One that could not exec has exited 127: reaped, it is its errno. */
	if (tar.pid >= 0 && child_process__wait(&tar, true) < 0 && !err)
		err = -ECHILD;
	if (!err && !(WIFEXITED(tar.status) && WEXITSTATUS(tar.status) <= 1))
		err = -EIO;
	if (err) {
		tmp_file__abort(&tmp);
		return err;
	}
	return tmp_file__commit(&tmp, out);
}

static const char * const archive_usage[] = { "perf archive [<file>]", NULL };

int cmd_archive(int argc, const char **argv)
{
	/* No options: the table gives -h and the distro's errors all the same. */
	const struct perf_option options[] = {
		OPT_END_WORDS("perf archive: unexpected argument '%s'; it takes one file.\n")
	};
	const char *input = "perf.data";
	char out[PATH_MAX], list[] = "/tmp/perf-archive-list.XXXXXX", msg[256];
	struct perf_session *s;
	int fd, err, nr = 0, ret = 1;
	FILE *fp;

	argc = parse_options(argc, argv, options, archive_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_ONE_WORD);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc == 1)
		input = argv[0];
	s = perf_session__open(input, &err, msg, sizeof(msg));
	if (!s) {
		perf_session__report_open_error("archive", input, err, msg);
		return 1;
	}
	err = perf_session__mark_dso_hits(s);
	if (err) {
		fprintf(stderr, "perf archive: %s: %s\n", input,
			s->errmsg[0] ? s->errmsg : strerror(-err));
		goto out_delete;
	}
	fd = mkstemp(list);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp) {
		fprintf(stderr, "perf archive: cannot create a file list in /tmp: %s\n",
			strerror(errno));
		goto out_delete;
	}
	for (size_t i = 0; i < s->nr_build_ids; i++) {
		const struct build_id_entry *e = &s->build_ids[i];
		struct dso *d = NULL;

		if (e->cpumode == PERF_RECORD_MISC_KERNEL && !strcmp(e->name, "[kernel.kallsyms]"))
			d = s->machine.kernel_dso;
		else if (e->cpumode == PERF_RECORD_MISC_USER)
			d = dso_table__findnew(&s->machine.dsos, e->name, false);
		if (!d || !d->hit)
			continue;
		if (archive__add(fp, e))
			nr++;
		else if (e->cpumode == PERF_RECORD_MISC_USER)
			pr_warning("Warning: %s is not in the build-id cache (%s); it is left out "
				   "of the archive.\n", e->name, buildid_dir__get());
	}
	if (fclose(fp)) {
		fprintf(stderr, "perf archive: cannot write %s: %s\n", list, strerror(errno));
		goto out_unlink;
	}
	if (!nr) {
		fprintf(stderr, "perf archive: no build-ids found\n");
		goto out_unlink;
	}
	snprintf(out, sizeof(out), "%s.tar.bz2", input);
	err = run_tar(out, list);
	if (err) {
		fprintf(stderr, "perf archive: tar could not write %s: %s\n", out,
			err == -EIO ? "it failed (see above)" : strerror(-err));
		goto out_unlink;
	}
	printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'perf report' on.\n", out);
	ret = 0;
out_unlink:
	unlink(list);
out_delete:
	perf_session__delete(s);
	return ret;
}
