#!/bin/bash
# perf record --off-cpu: a workload's waits in wait_here() as the offcpu-time event, read alike by the distro; ignored with the warning without BPF
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_gcc
need_tracefs
own_tmpd record-off-cpu

# wait_here() sleeps through a function of its own: libc's nanosleep has
# no frame pointer, so the frame under it (sleep_once) is never seen, and
# wait_here is the first frame of the stack that waited.
cat >w.c <<'C'
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) void sleep_once(void)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void wait_here(int n)
{
	for (int i = 0; i < n; i++)
		sleep_once();
	__asm__ volatile("" ::: "memory");
}
int main(int argc, char **argv)
{
	wait_here(atoi(argv[1]));
	return 0;
}
C
gcc -O0 -g -fno-omit-frame-pointer -o w w.c || fail "cannot build the workload"
N=20

# What the BPF program can count is what the kernel's sched_switch
# tracepoint, which runs it, tells: a switch out to sleep (prev_state S, D
# or I; R+ is a preemption), then the task's next switch in.  So each
# recording runs inside a witness that takes that tracepoint on every CPU,
# and the program's sums are checked against the waits the witness saw in
# the same run.  Not against N * 5 ms: on a virtual machine a sleep's timer
# can run out while the host has the CPU, before the task ever leaves it.
# Nor against the context switch records: the one of a task coming back
# is written by the task itself once it runs, traced switch or not, and a
# kernel may leave switches untraced (the one this was written on never
# traced a switch away from a thread of its pid 1, the machine's agent:
# the wait that such a switch ended was in the records, 5 ms more than
# the program could know of).
witness() {	# <file> <command>...
	local file=$1

	shift
	"$PERF" record -q -a -e sched:sched_switch,sched:sched_process_exec -o "$file" -- "$@"
}

# traced <file> <pid>: from pid's exec of w on (what a shell did before,
# such as joining a cgroup, is not w's), as the witness in <file> saw it:
# how many times the task left the CPU to sleep, for how many ns in all
# it was away in the waits whose end was seen, and how many ends were not
# (a switch out with no switch in since the one before: the program, told
# nothing either, stamps the new sleep over the old one).
traced() {
	"$PERF" script -i "$1" --ns -F time,event,trace 2>/dev/null | awk -v pid="$2" '
	function arg(name) {
		if (!match($0, " " name "=[^ ]*"))
			return ""
		return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
	}
	function ns(t) { sub(":", "", t); split(t, p, "."); return p[1] * 1000000000 + p[2] }
	$2 == "sched:sched_process_exec:" && arg("pid") == pid && arg("filename") ~ /(^|\/)w$/ { on = 1 }
	!on || $2 != "sched:sched_switch:" { next }
	arg("prev_pid") == pid && arg("prev_state") ~ /^[SDI]/ { if (out) lost++; out = ns($1); n++ }
	arg("next_pid") == pid && out { s += ns($1) - out; out = 0 }
	END { printf "%d %d %d\n", n, s, lost }'
}

witness t.data "$PERF" record --off-cpu -e dummy -o o.data ./w $N >out 2>err
rc=$?
if grep -q "option \`off-cpu' is being ignored because" err; then
	skip "no BPF here: $(sed -n 's/.*being ignored because //p' err)"
fi
[ $rc -eq 0 ] || { cat err; fail "record --off-cpu (inside the witness) exited $rc"; }
attrs=$("$PERF" evlist -v -i o.data) || fail "evlist -v failed"
echo "$attrs" | grep -q '^offcpu-time: type: 1, size: 128, config: 0xa,' ||
	fail "no offcpu-time event of type 1, config 0xa (PERF_COUNT_SW_BPF_OUTPUT): $attrs"
echo "$attrs" | grep '^offcpu-time' | grep -q 'sample_type: IP|TID|TIME|CALLCHAIN|CPU|PERIOD' ||
	fail "offcpu-time's samples lack a callchain or period: $attrs"

# w left the CPU to sleep at least N times after its exec (the wait before
# it, for the recorder's go, is not counted), and was away $slept ns in the
# waits the tracepoint saw end.
wpid=$("$PERF" script -i o.data --show-task-events -F pid 2>/dev/null |
	awk '$2 == "PERF_RECORD_COMM" && $3 == "exec:" { print $1; exit }')
read -r sleeps slept lost < <(traced t.data "$wpid")
echo "w: $sleeps switches out to sleep after its exec, $slept ns away in the waits" \
     "sched_switch saw end ($lost it did not)"
[ "$sleeps" -ge $N ] || fail "w left the CPU to wait $sleeps times, fewer than its $N sleeps"
waited=$("$PERF" script -i o.data -F pid,period 2>/dev/null |
	awk -v p="$wpid" '$1 == p { s += $2 } END { print s + 0 }')
echo "w: $waited ns off the CPU in its offcpu-time samples"
# Less 2 ms for the two clocks (the witness's are taken a few microseconds
# from the program's in each switch): a lost 5 ms sleep fails.
[ "$waited" -ge $((slept - 2000000)) ] ||
	fail "w's offcpu-time samples add up to $waited ns, less than the $slept ns it was away"

# The heaviest stack holds wait_here.  Each reader's total equals the sum
# of the periods it lists.
check_reader() {	# <perf>
	local who=$1 tot sum top
	"$who" script -i o.data -F period,ip,sym >s.txt 2>s.err || fail "$who script failed: $(cat s.err)"
	top=$(awk '/^ *[0-9]+ *$/ { p = $1; n++ } !/^ *[0-9]+ *$/ && NF { s[n] = s[n] " " $2; v[n] = p }
		   END { for (i in v) if (v[i] > best) { best = v[i]; b = i }; print best, s[b] }' s.txt)
	echo "$who: heaviest offcpu-time stack: $top"
	case " $top " in
	*" wait_here "*) ;;
	*) fail "$who: wait_here is not in the heaviest off-CPU stack: $top" ;;
	esac
	sum=$(awk '/^ *[0-9]+ *$/ { s += $1 } END { print s }' s.txt)
	"$who" report -i o.data --stdio >r.txt 2>r.err || fail "$who report failed: $(cat r.err)"
	tot=$(sed -n "/of event 'offcpu-time'/{n;s/^# Event count (approx.): //p}" r.txt)
	[ "$tot" = "$sum" ] || fail "$who report: event count '$tot', the samples' periods add up to $sum"
	grep -q 'wait_here' r.txt || fail "$who report does not show wait_here: $(cat r.txt)"
	sed -n '/^#/!p' r.txt | grep -v '^$' >"$(basename "$who").stacks"
}
check_reader "$PERF"
check_reader "$ORACLE"
cmp -s perf.stacks "$(basename "$ORACLE").stacks" ||
	{ diff perf.stacks "$(basename "$ORACLE").stacks"; fail "the reports' off-CPU stacks differ"; }
# perf script byte for byte: a bpf-output sample ends with its data's empty line.
"$ORACLE" script -i o.data >ds.txt 2>/dev/null
"$PERF" script -i o.data >os.txt 2>&1
cmp -s ds.txt os.txt || { diff ds.txt os.txt; fail "perf script of offcpu-time differs from the distro's"; }

# A process the workload forks is counted too, as the events follow it:
# here the workload is a shell, and w its child.
"$PERF" record --off-cpu -e dummy -o c.data -- sh -c "./w $N; true" >out 2>err ||
	{ cat err; fail "record --off-cpu of a shell running w failed"; }
"$PERF" report -i c.data --stdio -s comm --no-children >c.txt 2>&1 || fail "report of c.data failed"
grep -q '%  w *$' c.txt || fail "the shell's child w has no off-CPU time: $(cat c.txt)"

# Flight recorder: each dump holds the waits since the dump before, its
# tasks named.  The shell runs w, asks for a dump, waits for its file and
# runs w again: each dump has the wait_here stack of its own w only.
timeout 60 "$PERF" record --overwrite --switch-output --off-cpu -e dummy -o d.data -- \
	sh -c "./w $N; kill -USR2 \$PPID; while ! ls d.data.2* >/dev/null 2>&1; do sleep 0.05; done; ./w $N" \
	>out 2>err || { cat err; fail "record --off-cpu --overwrite --switch-output failed"; }
dumps=$(ls d.data.2* 2>/dev/null)
[ "$(echo "$dumps" | wc -l)" -eq 2 ] || fail "2 dumps expected, found: $dumps"
# The pids of the samples whose stack holds wait_here, one line per dump.
waiters() {
	"$1" script -i "$2" -F comm,pid,ip,sym 2>/dev/null |
		awk '/^[^\t]/ { pid = $2 } /\twait_here *$/ || / wait_here$/ { print pid }' | sort -u | tr '\n' ' '
}
readers=$PERF
readers="$readers $ORACLE"
for who in $readers; do
	w1=$(waiters "$who" "$(echo "$dumps" | sed -n 1p)")
	w2=$(waiters "$who" "$(echo "$dumps" | sed -n 2p)")
	echo "$who: wait_here in the dumps by pid: '$w1' then '$w2'"
	[ -n "$w1" ] && [ -n "$w2" ] || fail "$who: a dump lacks w's wait_here stack: '$w1', '$w2'"
	[ "$w1" != "$w2" ] || fail "$who: the second dump repeats the first one's waits ($w1)"
done

# -C: only the waits that begin on those CPUs.  w pinned to one CPU waits
# there alone (the recorder is pinned too, so the workload is from its
# fork): recorded on the other CPU it has no off-CPU time, on its own CPU
# all of it.  It is known by its pid: its exec, on its own CPU, is not
# seen from the other one, so its samples there do not say "w".
cpus=($(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
	for (c = r[1]; c <= r[n]; c++) print c } }' /sys/devices/system/cpu/online))
if [ ${#cpus[@]} -ge 2 ] && command -v taskset >/dev/null; then
	on=${cpus[0]} off=${cpus[1]}
	for c in $on $off; do
		witness t$c.data taskset -c "$on" "$PERF" record --off-cpu -e dummy -C "$c" \
			-o cpu$c.data -- sh -c "echo \$\$ >w$c.pid; exec ./w $N" \
			>out 2>err || { cat err; fail "record --off-cpu -C $c failed"; }
		"$PERF" script -i cpu$c.data -F pid,period 2>/dev/null |
			awk -v pid="$(cat w$c.pid)" '$1 == pid { s += $2 } END { print s + 0 }' >cpu$c.w
	done
	read -r sleeps slept lost < <(traced t$on.data "$(cat w$on.pid)")
	echo "-C: w on CPU $on waited $(cat cpu$on.w) ns recorded there ($sleeps sleeps, $slept ns" \
	     "in those sched_switch saw end, $lost not), $(cat cpu$off.w) ns on CPU $off"
	[ "$sleeps" -ge $N ] || fail "-C $on: w left the CPU to wait $sleeps times, not $N"
	[ "$(cat cpu$on.w)" -ge $((slept - 2000000)) ] ||
		fail "-C $on: w, pinned there, waited $(cat cpu$on.w) ns, less than the $slept ns it was away"
	[ "$(cat cpu$off.w)" -eq 0 ] ||
		fail "-C $off: w, pinned to CPU $on, has $(cat cpu$off.w) ns of off-CPU time there"
fi

# -G: only the waits of the cgroup's tasks.  w runs in a cgroup of its own
# while another w sleeps outside it all along: the outsider has no off-CPU
# time in the file.  The program knows a task's cgroup v2 id, so this needs
# the v2 hierarchy to be the one perf follows.
MNT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print "v1"; exit }
	   $3 == "cgroup2" { m = $2 } END { if (m) print m }' /proc/mounts | head -1)
if [ -n "$MNT" ] && [ "$MNT" != v1 ] && mkdir "$MNT/perf-test-offcpu-$$" 2>/dev/null; then
	CG=$MNT/perf-test-offcpu-$$
	./w 400 &
	outsider=$!
	witness tg.data "$PERF" record --off-cpu -e dummy -a -G "perf-test-offcpu-$$" -o g.data -- \
		sh -c "echo \$\$ >$CG/cgroup.procs && echo \$\$ >in.pid && exec ./w $N" >out 2>err
	rc=$?
	kill $outsider; wait $outsider 2>/dev/null
	rmdir "$CG"
	[ $rc -eq 0 ] || { cat err; fail "record --off-cpu -a -G exited $rc"; }
	"$PERF" script -i g.data -F pid,period >g.txt 2>/dev/null || fail "cannot read g.data"
	in=$(awk -v p="$(cat in.pid)" '$1 == p { s += $2 } END { print s + 0 }' g.txt)
	out=$(awk -v p=$outsider '$1 == p { s += $2 } END { print s + 0 }' g.txt)
	read -r sleeps slept lost < <(traced tg.data "$(cat in.pid)")
	echo "-G: the cgroup's w waited $in ns ($sleeps sleeps, $slept ns in those sched_switch" \
	     "saw end, $lost not), the outsider $out ns"
	[ "$sleeps" -ge $N ] || fail "-G: the cgroup's w left the CPU to wait $sleeps times, not $N"
	[ "$in" -ge $((slept - 2000000)) ] ||
		fail "-G: the cgroup's w waited $in ns, less than the $slept ns it was away"
	[ "$out" -eq 0 ] || fail "-G: the outsider, not in the cgroup, has $out ns of off-CPU time"
fi

# Without the rights BPF needs, the option is ignored with the warning and
# the rest is recorded, as the distro's perf ignores it (it has no BPF
# program); exit 0.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$PERF"; then
	chmod 777 "$TMPD"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERF" record --off-cpu -e dummy -o "$TMPD/u.data" true >u.out 2>u.err
	rc=$?
	[ $rc -eq 0 ] || { cat u.err; fail "record --off-cpu as nobody exited $rc, not 0"; }
	grep -q "^ Warning: option \`off-cpu' is being ignored because .*root" u.err ||
		fail "as nobody, no warning that --off-cpu is ignored: $(cat u.err)"
	"$PERF" evlist -i u.data | grep -q offcpu-time && fail "as nobody, the file has offcpu-time"
fi
exit 0
