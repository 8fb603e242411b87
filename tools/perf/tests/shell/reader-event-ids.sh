#!/bin/bash
# Samples of events sharing one sample layout go to the event their id names
# A file where every event is a tracepoint has one sample layout for all of
# them; the reader must still tell the events apart by the sample id (it once
# gave every sample to the first event).  sleep makes syscalls and is
# switched out, so both events below have samples in any run.
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
cd "$TMPD"
"$PERF" record -q -o t.data -e raw_syscalls:sys_enter -e sched:sched_switch -a -- sleep 0.1 \
	>/dev/null 2>&1 || skip "cannot record tracepoints here"
"$PERF" script -i t.data -F event >ours || fail "perf script exited $?"
for e in raw_syscalls:sys_enter sched:sched_switch; do
	n=$(grep -c "$e:" ours)
	[ "$n" -gt 0 ] || fail "no sample of $e in our perf script output"
	echo "$e: $n"
done
"$PERF" report --stdio -i t.data | grep -q "of event 'sched:sched_switch'" ||
	fail "perf report has no table for sched:sched_switch"
# The same counts per event as the distro reads from the file.
"$ORACLE" script -i t.data -F event 2>/dev/null | sort | uniq -c >theirs.n
sort ours | uniq -c >ours.n
cmp -s ours.n theirs.n || { diff ours.n theirs.n; fail "counts per event differ from the distro's"; }
exit 0
