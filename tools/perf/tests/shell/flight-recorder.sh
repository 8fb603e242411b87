#!/bin/bash
# Flight recorder: --overwrite --switch-output dumps read by the distro perf
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"
NCPU=$(nproc)

# 1. The headline command under a syscall storm, five signals, markers before each.
#    The storm runs on the first CPU, the markers on the last: a marker's
#    buffer then holds seconds of events (2 MiB of idle cpu-clock samples),
#    not the milliseconds a storm leaves, so each is still there when its
#    dump pauses that buffer.
[ "$NCPU" -ge 2 ] || skip "needs two CPUs: one for the storm, one for the markers"
taskset -c 0 "$PERF" test -w getppid 2000000000 & LOAD=$!
# The monotonic clock, so that a sample's time can be set beside the
# moment the test started a marker.
mono_now() { python3 -c 'import time; print("%.6f" % time.clock_gettime(time.CLOCK_MONOTONIC))'; }
"$PERF" record -q -g -e cycles -e 'raw_syscalls:*/call-graph=no/' -m 2M -k monotonic \
	-e sched:sched_switch/call-graph=no/ --switch-output --overwrite -a -o fr.data 2>rec.err &
REC=$!
wait_recording $REC
# A second of the storm in the buffers before the first marker: a second
# of its own on its CPU, however busy the machine.
wait_ran 1000 $LOAD
for n in 1 2 3 4 5; do
	mono_now > "start.$n"
	taskset -c $((NCPU - 1)) "$PERF" test -w mark "mark-$n" $REC
	# The next marker only once this one's dump is complete.
	wait_files 'fr.data.*' $n
done
kill -INT $REC; wait $REC; rc=$?
kill $LOAD; wait $LOAD 2>/dev/null
[ $rc -eq 0 ] || { cat rec.err; fail "record exited $rc"; }
files=$(ls fr.data.* 2>/dev/null)
nr=$(echo "$files" | wc -w)
[ "$nr" -eq 6 ] || { ls -l; cat rec.err; fail "expected 6 dumps (5 signals + exit), got $nr"; }
[ ! -e fr.data ] || fail "an unfinished fr.data was left behind"
# Buffers: 2 MiB per CPU; metadata (process table, tail synthesis, header) bounded.
limit=$(( NCPU * 2048 * 1024 + 8 * 1024 * 1024 ))
# "cpu:event time" of each syscall of a dump, from lines with "[cpu] time: event".
cpu_times() {
	awk 'match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: +raw_syscalls:sys_e[a-z]+/) {
		print substr($0, RSTART, RLENGTH) }' "$1" |
		sed 's/^\[\([0-9]*\)\] *\([0-9.]*\): *raw_syscalls:\(.*\)/\1:\3 \2/'
}
: > prev.last
n=0 lost=0
for f in $files; do
	n=$((n + 1))
	size=$(stat -c %s "$f")
	[ "$size" -le "$limit" ] || fail "$f is $size bytes, more than $limit"
	oracle_ok "script $f" script -i "$f" -F trace:comm,cpu,time,event,trace -F sw:comm,time,event \
		> "$f.txt"
	# The marker is the return of its prctl(PR_SET_NAME) (NR 157), which
	# comes with the new name.  What the marker process does after its
	# signal (the rest of kill(), exit) rightly shows in the next dump.
	cpu_times "$f.txt" | sort -k1,1n -k2,2n > times
	if [ $n -le 5 ] && ! grep -q "mark-$n .*sys_exit: NR 157 " "$f.txt"; then
		# Other tasks of a busy machine share the marker's CPU: its
		# buffer may have been written over since the marker ran.  The
		# marker is owed only when the buffer reaches back before it.
		oldest=$(awk -v c=$((NCPU - 1)) '$1 + 0 == c && $1 ~ /:sys_exit$/ { print $2; exit }' times)
		[ -n "$oldest" ] || fail "$f has no sys_exit of CPU $((NCPU - 1)), the marker's"
		awk -v o="$oldest" -v s="$(cat "start.$n")" 'BEGIN { exit !(o > s) }' ||
			fail "$f lacks the marker mark-$n, its CPU's sys_exits reach back to $oldest, before it started at $(cat "start.$n")"
		echo "$f: CPU $((NCPU - 1))'s sys_exits start at $oldest, after mark-$n started ($(cat "start.$n")): written over"
		lost=$((lost + 1))
	fi
	if [ $n -le 5 ]; then
		[ $n -eq 1 ] || ! grep -q "mark-$((n - 1)) .*sys_exit: NR 157 " "$f.txt" ||
			fail "$f repeats the previous dump's marker mark-$((n - 1))"
	fi
	grep -q 'raw_syscalls:sys_enter' "$f.txt" || fail "$f has no syscalls"
	# A dump's buffers end at slightly different times, each CPU's and, when
	# a dump swaps them, each event's of a CPU: nothing of an event on a
	# CPU is older than the previous dump's newest of that event there.
	awk 'NR == FNR { last[$1] = $2; next }
	     !($1 in seen) { seen[$1] = 1; if ($1 in last && $2 < last[$1]) {
		print "CPU:event " $1 " starts at " $2 ", before the previous dump'"'"'s last " last[$1]; bad = 1 } }
	     END { exit bad }' prev.last times || fail "$f repeats events of the previous dump"
	awk '{ last[$1] = $2 } END { for (c in last) print c, last[c] }' times > prev.last
	first=$(sort -k2,2n times | head -1 | cut -d' ' -f2)
	last=$(sort -k2,2n times | tail -1 | cut -d' ' -f2)
	echo "$f: $size bytes, $(grep -c raw_syscalls "$f.txt") syscalls, $first..$last"
done
[ $lost -lt 5 ] || skip "the machine's other tasks wrote over every marker before its dump"

# 2. A workload's samples carry its comm, not perf's.
"$PERF" record -q -m 4 -e 'raw_syscalls:*' -g --overwrite --switch-output -o dd.data \
	-- dd if=/dev/zero of=/dev/null bs=1 count=20000000 2>dd.err &
REC=$!
wait_recording $REC
# dd's syscalls fill the buffers: 200 ms of it on a CPU are tens of
# thousands of reads and writes, many times what 16 KiB hold.
wait_for "dd=\$(pgrep -P $REC -x dd)" || fail "the recorder's dd never ran"
wait_ran 200 $dd
kill -USR2 $REC
wait_files 'dd.data.*' 1
kill -INT $REC; wait $REC
first=$(ls dd.data.* | head -1)
[ -n "$first" ] || fail "no dd dump"
oracle_ok "script dd" script -i "$first" -F comm,event > dd.txt
total=$(grep -c raw_syscalls dd.txt)
ddn=$(grep -c '^ *dd ' dd.txt)
echo "dd dump: $ddn of $total samples show comm dd"
[ "$total" -gt 0 ] && [ "$ddn" -eq "$total" ] || fail "dd's samples do not all show comm dd"

# 3. Mixed forward and backward events: no out-of-order warning.
"$PERF" record -q -m 1 -e raw_syscalls:sys_exit/overwrite/ -e raw_syscalls:sys_enter -o mix.data \
	-- dd if=/dev/zero of=/dev/null count=300 2>/dev/null || fail "record mix"
# A 1-page forward buffer may lose chunks (the distro's does too); only order matters here.
"$ORACLE" script -i mix.data > mix.txt 2> mix.err || fail "the oracle cannot read the mixed file"
! grep -qi 'out of order' mix.err || { cat mix.err; fail "out-of-order warning on the mixed file"; }
grep -q 'raw_syscalls:sys_exit' mix.txt || fail "no backward sys_exit in the mixed file"
grep -q 'raw_syscalls:sys_enter' mix.txt || fail "no forward sys_enter in the mixed file"
exit 0
