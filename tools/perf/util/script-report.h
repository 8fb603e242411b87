#ifndef PERF_UTIL_SCRIPT_REPORT_H
#define PERF_UTIL_SCRIPT_REPORT_H
/*
 * perf script's reports, "perf script report NAME [OPTIONS]", built in
 * (the distro runs them as Python scripts): the list -l shows, and each
 * report's own options and run.
 */
#include <stdio.h>

struct sample_filter;

/* The reports, in the distro's layout of perf script -l. */
void script_report__list(FILE *fp);

/*
 * Runs the report argv[0] names with its options argv[1..]; @input and
 * @filter are what perf script's own options (before "report") set, and
 * the report's may change them.  Returns the exit status.
 */
int script_report__run(int argc, const char **argv, const char *input,
		       struct sample_filter *filter);

#endif
