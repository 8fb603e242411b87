#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

#include "util/parse-options.h"

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

#endif
