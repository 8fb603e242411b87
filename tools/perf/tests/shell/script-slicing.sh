#!/bin/bash
# perf script --comm/--pid/--tid/--cpu/--time select, --ns/--reltime/--deltatime show, as the distro
# On a file the distro recorded (tracepoints system-wide around a small
# workload), each selection below must print what the distro prints, byte
# for byte: comms, process and thread ids, CPUs, absolute time ranges with
# either end open, and percentage slices of the run ("10%/2", several
# slices, "A%-B%").  Percentages need the first and last sample times of
# the header; on a file without them we refuse, with one line, as the
# distro does.  The times shown with --ns, --reltime and --deltatime (also
# after a selection: relative to the first and previous samples shown) are
# compared the same way, and --time with --reltime.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"
"$ORACLE" record -q -o t.data -e 'raw_syscalls:*' -e sched:sched_switch -a -- \
	sh -c 'for i in 1 2 3 4 5; do ls / >/dev/null; sleep 0.02; done' >/dev/null 2>&1 ||
	skip "the distro perf cannot record tracepoints here"
"$ORACLE" script -i t.data -F comm,pid,tid,cpu,time >all.txt 2>/dev/null
first=$("$ORACLE" report --header-only -i t.data | sed -n 's/^# time of first sample : //p')
last=$("$ORACLE" report --header-only -i t.data | sed -n 's/^# time of last sample : //p')
[ -n "$first" ] && [ -n "$last" ] || skip "the distro wrote no first/last sample times"
mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (a + b) / 2 }')
q1=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", a + (b - a) / 4 }')
# With --reltime, --time counts seconds from the first sample.  (Not
# compared: an open end, "0.3,", which the distro reads as ending at the
# first sample, selecting nothing; we read it as open.)
rq1=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) / 4 }')
rmid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) / 2 }')
pid=$(awk '$1 == "ls" { split($2, a, "/"); print a[1]; exit }' all.txt)
tid=$(awk '$1 == "sh" { split($2, a, "/"); print a[2]; exit }' all.txt)
[ -n "$pid" ] && [ -n "$tid" ] || fail "no ls or sh samples in the distro's own output"

n=0
while read -r opts; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$ORACLE" script -i t.data $opts >theirs 2>/dev/null
	# shellcheck disable=SC2086
	"$PERF" script -i t.data $opts >ours 2>ours.err || { cat ours.err; fail "$opts: exit $?"; }
	cmp -s ours theirs || { diff ours theirs | head -5; fail "$opts: output differs from the distro's"; }
	echo "$opts: $(wc -l <ours) lines, as the distro"
done <<EOS
--comm ls
--comm ls,sleep
--pid $pid
--tid $tid
--cpu 0
--cpu 0-1 --comm sh
--time $q1,$mid
--time $mid,
--time ,$q1
--time 10%/2
--time 10%/2,10%/3
--time 90%/1
--time 0%-25%
--time 25%-50%,75%-100%
--ns
--reltime
--deltatime
--reltime --ns --comm ls
--deltatime --time 10%/2
--reltime --time $rq1,$rmid
--reltime --time ,$rq1
EOS
[ $n -eq 21 ] || fail "ran $n selections, not 21"
# Every selection narrows: the second tenth is smaller than the whole.
[ "$("$PERF" script -i t.data --time 10%/2 2>/dev/null | wc -l)" -lt "$(wc -l <all.txt)" ] ||
	fail "--time 10%/2 selected everything"

# Without first/last sample times in the header, percentages are refused.
"$PERF" record -q -o o.data -e sched:sched_switch -a -- sleep 0.05 >/dev/null 2>&1 ||
	fail "our record failed"
if ! "$PERF" report --header-only -i o.data | grep -q 'time of first sample'; then
	"$PERF" script -i o.data --time 10%/1 >out 2>err && fail "--time 10%/1 without sample times succeeded"
	[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "expected one line of error"; }
	[ ! -s out ] || fail "output despite the error"
fi
# Bad lists and ranges: one line, exit 129 (usage).
for bad in "--time 5,1" "--time x%/2" "--cpu 1-0" "--pid abc" "--reltime --deltatime"; do
	# shellcheck disable=SC2086
	"$PERF" script -i t.data $bad >/dev/null 2>err; rc=$?
	[ $rc -ne 0 ] && ! crashed $rc || fail "$bad: exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "$bad: expected one line of error"; }
done
exit 0
