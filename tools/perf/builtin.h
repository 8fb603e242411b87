#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

int cmd_record(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_buildid_cache(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_daemon(int argc, const char **argv);
int cmd_sched(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_timechart(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_help(int argc, const char **argv);

/* Prints "usage: ..." and the options (a NULL-terminated list of lines). */
void usage_with_options(const char *usage, const char * const *options);

/*
 * A command's exit status for @err, as the distro's perf makes it: 0 for
 * success, a negative errno's low byte (-EINVAL exits 234) for a failure,
 * and 255 (its -1) when the cause has no errno.  An errno above 63 would
 * read as death by a signal (128 + n): 255 too, where the distro's would
 * mislead.
 */
static inline int cmd_exit_status(int err)
{
	if (!err)
		return 0;
	return err < 0 && err >= -63 ? err & 0xff : 255;
}

#endif
