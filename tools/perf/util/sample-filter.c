/*
 * The sample filters of perf report and perf script.
 *
 * --time takes what the distro takes: "start,stop" in seconds with either
 * side left open, or percentages of the time between the first and the last
 * sample: "P%/N" is the N-th slice of P percent, "A%-B%" a range, several of
 * either separated by commas.  A slice ends one nanosecond before the next
 * one starts, so neighbouring slices never share a sample.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sample-filter.h"
#include "parse-options.h"

static int split(const char *list, char ***out, int *nr)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(*out, (*nr + 1) * sizeof(*v));

		if (!v || !(v[*nr] = strdup(tok))) {
			if (v)
				*out = v;
			free(copy);
			return -ENOMEM;
		}
		*out = v;
		(*nr)++;
	}
	free(copy);
	return 0;
}

int sample_filter__add_comms(struct sample_filter *f, const char *list, char *err, size_t len)
{
	f->active = true;
	if (split(list, &f->comms, &f->nr_comms)) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int sample_filter__add_pids(struct sample_filter *f, const char *list, bool tid, char *err,
			    size_t len)
{
	char **v = NULL;
	int nr = 0, ret = 0;
	int **ids = tid ? &f->tids : &f->pids, *nr_ids = tid ? &f->nr_tids : &f->nr_pids;

	f->active = true;
	if (split(list, &v, &nr))
		ret = -ENOMEM;
	for (int i = 0; !ret && i < nr; i++) {
		char *end;
		long id = strtol(v[i], &end, 10);
		int *n;

		if (end == v[i] || *end || id < 0 || id > 0x7fffffff) {
			snprintf(err, len, "'%s' is not a %s", v[i], tid ? "thread id" : "process id");
			ret = -EINVAL;
			break;
		}
		n = realloc(*ids, (*nr_ids + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		n[(*nr_ids)++] = (int)id;
		*ids = n;
	}
	for (int i = 0; i < nr; i++)
		free(v[i]);
	free(v);
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	return ret;
}

int sample_filter__add_cpus(struct sample_filter *f, const char *list, char *err, size_t len)
{
	const char *p = list;

	f->active = true;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0 || a > 65535)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b > 65535)
				goto bad;
		}
		if (b >= f->nr_cpus) {
			int n = (int)b + 1;
			unsigned char *m = realloc(f->cpus, (n + 7) / 8);

			if (!m) {
				snprintf(err, len, "out of memory");
				return -ENOMEM;
			}
			memset(m + (f->nr_cpus + 7) / 8, 0, (n + 7) / 8 - (f->nr_cpus + 7) / 8);
			f->cpus = m;
			f->nr_cpus = n;
		}
		for (long c = a; c <= b; c++)
			f->cpus[c / 8] |= 1 << (c % 8);
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	return 0;
bad:
	snprintf(err, len, "bad cpu list '%s': use e.g. 0,2-3", list);
	return -EINVAL;
}

/* "123.456789" seconds to ns; an empty string is 0 (open). */
static int parse_sec(const char *s, const char *end, u64 *ns)
{
	u64 sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	*ns = 0;
	if (p == end)
		return 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		sec = sec * 10 + (u64)(*p - '0');
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			if (digits++ < 9)
				frac = frac * 10 + (u64)(*p - '0');
		}
	}
	if (p != end || p == s)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int add_range(struct sample_filter *f, u64 start, u64 end)
{
	struct time_range *v = realloc(f->times, (f->nr_times + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[f->nr_times].start = start;
	v[f->nr_times].end = end;
	f->times = v;
	f->nr_times++;
	return 0;
}

/* A share [a, b] (fractions) of [first, last], ending before the next share starts. */
static int add_share(struct sample_filter *f, double a, double b, u64 first, u64 last)
{
	u64 span = last - first, start, end;

	if (a < 0 || a > 1 || b < 0 || b > 1 || a > b)
		return -EINVAL;
	start = first + (u64)llround(a * (double)span);
	end = first + (u64)llround(b * (double)span);
	if (end > start && end != last)
		end--;
	return add_range(f, start, end);
}

static int parse_percent(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end != '%' || end[1])
		return -EINVAL;
	*v /= 100.0;
	return 0;
}

int sample_filter__set_time(struct sample_filter *f, const char *arg, bool relative,
			    u64 first, u64 last, char *err, size_t len)
{
	int ret = 0;

	f->active = true;
	if (!strchr(arg, '%')) {
		const char *comma = strchr(arg, ',');
		u64 start, end;

		if (!comma || parse_sec(arg, comma, &start) ||
		    parse_sec(comma + 1, comma + strlen(comma), &end) || (end && end < start)) {
			snprintf(err, len, "bad --time '%s': use start,stop in seconds "
				 "(either may be empty) or percentages like 10%%/2", arg);
			return -EINVAL;
		}
		/* An empty end stays open; an empty start is the first sample either way. */
		if (relative) {
			start += first;
			end += end ? first : 0;
		}
		return add_range(f, start, end);
	}
	if (!first && !last) {
		snprintf(err, len, "--time with percentages needs the first and last sample times, "
			 "which this file does not hold");
		return -EINVAL;
	}
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *slash = strchr(tok, '/'), *dash = strchr(tok, '-');
		double a, b;

		if (slash) {
			char *end;
			long n;

			*slash = '\0';
			n = strtol(slash + 1, &end, 10);
			if (parse_percent(tok, &a) || end == slash + 1 || *end || n < 1 || a <= 0)
				ret = -EINVAL;
			else
				ret = add_share(f, a * (double)(n - 1), a * (double)n, first, last);
		} else if (dash) {
			*dash = '\0';
			if (parse_percent(tok, &a) || parse_percent(dash + 1, &b))
				ret = -EINVAL;
			else
				ret = add_share(f, a, b, first, last);
		} else {
			ret = -EINVAL;
		}
	}
	free(copy);
	if (ret)
		snprintf(err, len, "bad --time '%s': percentages go as 10%%/2 (the second tenth) "
			 "or 10%%-20%%, several separated by commas", arg);
	return ret;
}

bool sample_filter__match_time(const struct sample_filter *f, u64 time)
{
	if (!f->nr_times)
		return true;
	for (int i = 0; i < f->nr_times; i++) {
		const struct time_range *r = &f->times[i];

		if ((!r->start || time >= r->start) && (!r->end || time <= r->end))
			return true;
	}
	return false;
}

bool sample_filter__match(const struct sample_filter *f, const char *comm, int pid, int tid,
			  int cpu, u64 time)
{
	int i;

	if (f->nr_pids) {
		for (i = 0; i < f->nr_pids && f->pids[i] != pid; i++)
			;
		if (i == f->nr_pids)
			return false;
	}
	if (f->nr_tids) {
		for (i = 0; i < f->nr_tids && f->tids[i] != tid; i++)
			;
		if (i == f->nr_tids)
			return false;
	}
	if (!sample_filter__match_cpu(f, cpu))
		return false;
	if (f->nr_comms) {
		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], comm); i++)
			;
		if (i == f->nr_comms)
			return false;
	}
	return sample_filter__match_time(f, time);
}

void sample_filter__exit(struct sample_filter *f)
{
	for (int i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->times);
	free(f->time_arg);
	memset(f, 0, sizeof(*f));
}

/* A bad value: why, in one line (the usage would bury it). */
static int opt__error(const struct perf_option *opt, int err, const char *msg)
{
	if (!err)
		return 0;
	fprintf(stderr, "perf %s: %s\n", (const char *)opt->data, msg[0] ? msg : strerror(-err));
	return -1;
}

int sample_filter__opt_comm(const struct perf_option *opt, const char *arg, int unset)
{
	char msg[256] = "";

	return opt__error(opt, sample_filter__add_comms(opt->value, arg, msg, sizeof(msg)), msg);
}

int sample_filter__opt_pid(const struct perf_option *opt, const char *arg, int unset)
{
	bool tid = !strcmp(opt->long_name, "tid");
	char msg[256] = "";

	return opt__error(opt, sample_filter__add_pids(opt->value, arg, tid, msg, sizeof(msg)),
			  msg);
}

int sample_filter__opt_cpu(const struct perf_option *opt, const char *arg, int unset)
{
	char msg[256] = "";

	return opt__error(opt, sample_filter__add_cpus(opt->value, arg, msg, sizeof(msg)), msg);
}

int sample_filter__opt_time(const struct perf_option *opt, const char *arg, int unset)
{
	struct sample_filter *f = opt->value;

	free(f->time_arg);
	f->time_arg = strdup(arg);
	return opt__error(opt, f->time_arg ? 0 : -ENOMEM, "");
}
