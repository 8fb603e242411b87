#!/bin/bash
# Flight recorder: a fork storm costs the recorder a bounded number of wake-ups and stat calls
. "$(dirname "$0")/lib/common.sh"
need_root
command -v strace >/dev/null || skip "strace is not installed"
[ -x /bin/sh ] && [ -x /bin/true ] || skip "/bin/sh or /bin/true is missing"
own_tmpd fr-forkcost

# The recorder alone is traced (no -f): the workload, N short-lived
# processes, is its child.  Counts, not times: whatever the machine's speed,
# draining the tracking stream at its watermark takes a few wake-ups per
# buffer's worth of records, and a file's identity is looked at once per
# file, not once per mapping.  Recording per record, three stat()s per
# process (every executable mapping), gave 3-7 wake-ups and 3 stats per
# process here.
N=1000
strace -c -o counts -e trace=%%stat,poll,ppoll,select,pselect6,epoll_wait,epoll_pwait \
	"$PERF" record -e cpu-clock --overwrite --switch-output -m 64 -o fc.data -- \
	/bin/sh -c "i=0; while [ \$i -lt $N ]; do /bin/true; i=\$((i + 1)); done" 2>rec.err ||
	{ cat rec.err counts; fail "record under strace failed"; }
ls fc.data.* >/dev/null 2>&1 || { cat rec.err; fail "no dump at exit"; }
cat counts
# strace -c: "% time  seconds  usecs/call  calls  [errors]  syscall"; the
# calls are the fourth column whether or not errors has a value.
count() { awk -v re="$1" '$NF ~ re && $4 ~ /^[0-9]+$/ { n += $4 } END { print n + 0 }' counts; }
waits=$(count '^(poll|ppoll|select|pselect6|epoll_wait|epoll_pwait)$')
stats=$(count 'stat')
echo "$N processes: $waits waits, $stats stat calls"
[ "$waits" -ge 1 ] || fail "strace counted no wait at all: the count is not measuring"
[ "$waits" -le $((N / 4)) ] ||
	fail "$waits waits for $N processes: the tracking stream wakes the recorder per record"
[ "$stats" -le $((N / 4)) ] ||
	fail "$stats stat calls for $N processes: a file's identity is taken per mapping"

# The overwrite buffers are read only at a dump: filling them must not
# wake the recorder.  A 2 s busy loop sampled at 10 kHz with call chains
# fills 32 KiB buffers a few hundred times over; the kernel used to wake
# the poller at every half lap (100-300 times here).  The recorder sleeps
# through all of it but its half-second tick and the tracking stream: the
# workload, its child, reads the recorder's count of sleeps before and
# after.
rm -f fc.data*
"$PERF" record -e cpu-clock -c 100000 -g --overwrite --switch-output -m 8 -o fc.data -- \
	/bin/sh -c 'grep ^voluntary_ctxt /proc/$PPID/status >before
		    timeout 2 /bin/sh -c "while :; do :; done"
		    grep ^voluntary_ctxt /proc/$PPID/status >after' 2>rec.err ||
	{ cat rec.err; fail "record of a busy loop failed"; }
ls fc.data.* >/dev/null 2>&1 || { cat rec.err; fail "no dump at exit"; }
b=$(awk '{ print $2 }' before); a=$(awk '{ print $2 }' after)
[ -n "$b" ] && [ -n "$a" ] || fail "the workload could not read the recorder's status"
echo "2 s of overwrite samples at 10 kHz: the recorder slept $((a - b)) times"
[ $((a - b)) -le 30 ] ||
	fail "the recorder woke $((a - b)) times in 2 s: the overwrite buffers wake it"
n=$("$PERF" script -i "$(ls fc.data.* | tail -1)" -F event 2>/dev/null | grep -c cpu-clock)
[ "$n" -ge 100 ] || fail "the dump holds $n cpu-clock samples of the busy loop"
exit 0
