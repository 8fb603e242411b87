#!/bin/bash
# perf record -a -G: only a cgroup's tasks are sampled, in a file and in flight-recorder dumps; its bad input as the distro's
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle

# The hierarchy perf follows: a v1 one with perf_event, else the v2 one.
MNT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$MNT" ] || MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$MNT" ] || skip "no cgroup v2 (nor v1 perf_event) hierarchy is mounted"
NAME=perf-test-$$
CG=$MNT/$NAME
mkdir "$CG" || skip "cannot make a cgroup under $MNT"
# The workloads go first (a cgroup with tasks cannot be removed), then the cgroup.
trap 'cleanup; rmdir "$CG"' EXIT
# perf events need no controller in cgroup.subtree_control: in v2 perf_event
# is always on; a task can join a leaf whatever its parent enables.
cd "$TMPD"

# A shell that spins forever, moved first into cgroup $1 (root: none), its
# pid the one the samples name (exec keeps it).
spinner() {
	sh -c 'echo $$ >"$1/cgroup.procs" && exec sh -c "while :; do :; done"' sh "$1" &
}
spinner "$MNT"
OUTSIDER=$!

# The samples of file $1, as the distro reads them: "pid tid time" a line.
samples_of() {
	oracle_ok "$1" script -F pid,tid,time -i "$1" |
		awk '{ split($1, id, "/"); sub(/:$/, "", $2); print id[1], id[2], $2 }'
}

# The kernel names a sample's task -1/-1 when the task has no pid left: a
# task that exits runs its last steps of exit on its CPU while its parent,
# on another CPU, may already have reaped it (the distro's perf record
# writes such samples too).  Only the cgroup's task ends while it is
# recorded, so each -1/-1 sample is of its exit: no earlier than its last
# sample that names it.  Reads "pid tid time" lines; prints those of pid
# -1 that are not such a sample.
unnamed_not_exit() {	# <the cgroup's task's pid>
	awk -v pid="$1" '
		$1 == pid && $3 + 0 > last { last = $3 + 0 }
		$1 == -1 && $2 != -1 { print }
		$1 == -1 && $2 == -1 { unnamed[++n] = $0; at[n] = $3 + 0 }
		END { for (i = 1; i <= n; i++) if (at[i] < last) print unnamed[i] }'
}

# The check above refuses a -1/-1 sample before the task's last one, and
# a -1 with a tid; it takes one after.
[ "$(printf '%s\n' '7 7 1.000002' '-1 -1 1.000001' '-1 5 1.000003' '-1 -1 1.000004' |
     unnamed_not_exit 7)" = "$(printf '%s\n' '-1 5 1.000003' '-1 -1 1.000001')" ] ||
	fail "the check of samples of no task takes what it must refuse"

# $1's samples all of pid $2 (or of its exit, above): none of the outsider's.
none_but() {	# <file> <pid>
	local others early

	samples_of "$1" >samples.txt || exit 1
	awk '{ print $1 }' samples.txt >pids.txt
	grep -qx "$OUTSIDER" pids.txt && fail "$1: samples of the outsider $OUTSIDER"
	others=$(grep -vx -e "$2" -e -1 pids.txt | sort | uniq -c | sort -rn | head -3)
	[ -z "$others" ] || fail "$1: samples of other tasks than $2: $others"
	early=$(unnamed_not_exit "$2" <samples.txt | head -3)
	[ -z "$early" ] || fail "$1: samples of no task that are not $2's exit: $early"
}

# $1's samples all of pid $2, at least one.
only_pid() {
	local what=$1 pid=$2 n gone

	none_but "$what" "$pid"
	n=$(grep -cx "$pid" pids.txt)
	gone=$(grep -cx -- -1 pids.txt)
	[ "$n" -gt 0 ] || fail "$what: no sample of $pid, the cgroup's task"
	echo "$what: $n samples, all of $pid, $gone more once it was reaped"
}

# 1. The workload joins the cgroup, then counts to 300000 (its own time,
#    whatever the load), while the outsider spins: the file holds the
#    workload's samples only.
"$PERF" record -q -a -e cpu-clock -G "$NAME" -o cg.data -- \
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >in.pid &&
	       i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' sh "$CG" ||
	fail "perf record -a -G exited $?"
only_pid cg.data "$(cat in.pid)"

# 1b. "-a -G name" ahead of the rest of the command line, as a daemon
#     session runs it: the distro wants the events first; ours applies
#     such a -G to every event, here the default one.
rm -f in.pid
"$PERF" record -q -a -G "$NAME" -o early.data -- \
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >in.pid &&
	       i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' sh "$CG" ||
	fail "perf record -a -G before the events exited $?"
only_pid early.data "$(cat in.pid)"

# 1c. An overwritable event (mapped by the auxiliary evlist) beside a
#     forward one, each with the cgroup: both hold samples, only the
#     workload's.
rm -f in.pid
"$PERF" record -q -a -e cpu-clock/overwrite/ -e task-clock -G "$NAME,$NAME" -o aux.data -- \
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >in.pid &&
	       i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' sh "$CG" ||
	fail "perf record -a -G with an overwritable event exited $?"
only_pid aux.data "$(cat in.pid)"
oracle_ok aux.data script -F event -i aux.data >events.txt || exit 1
for ev in cpu-clock/overwrite/ task-clock; do
	grep -q "^ *$ev:" events.txt || fail "aux.data: no sample of $ev"
done

# 2. The flight recorder, in both dump modes.  Once it records, a task
#    joins the cgroup and counts to 300000, then the SIGUSR2 dump is asked
#    for: it holds that task's samples and no other's, whatever the load;
#    the exit dump holds no other task's either.  The recorder's workload
#    waits on a fifo, so the test says when it ends.
counter() {	# <cgroup dir> <file made once counted>
	sh -c 'echo $$ >"$1/cgroup.procs" &&
	       i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done; : >"$2"' sh "$1" "$2" &
}
mkfifo go
for mode in swap pause; do
	rm -f fr.data.* counted
	dumps='fr.data.????????????????'
	"$PERF" record -q -a -e cpu-clock -G "$NAME" --overwrite --switch-output \
		--dump-mode=$mode -o fr.data -- sh -c 'read x <go' &
	rec=$!
	wait_recording $rec
	counter "$CG" counted
	insider=$!
	wait_for "[ -e counted ]" || fail "$mode: the cgroup's task never finished its count"
	wait $insider
	kill -USR2 $rec
	wait_files "$dumps" 1
	echo done >go
	wait $rec || fail "$mode: the flight recorder exited $?"
	set -- $dumps
	[ $# -eq 2 ] || fail "$mode: $# dumps, not the SIGUSR2 one and the exit one"
	only_pid "$1" $insider
	none_but "$2" $insider
done

# 2b. The file says nothing of the cgroup, as the distro's does not: the
#     same attributes for the same command line.
"$ORACLE" record -q -a -e cpu-clock -G "$NAME" -o oracle.data -- true ||
	fail "the distro's perf record -a -G exited $?"
"$PERF" record -q -a -e cpu-clock -G "$NAME" -o ours.data -- true ||
	fail "perf record -a -G exited $?"
oracle_ok oracle.data evlist -v -i oracle.data >oracle.attr || exit 1
oracle_ok ours.data evlist -v -i ours.data >ours.attr || exit 1
diff oracle.attr ours.attr || fail "the events' attributes differ from the distro's (above)"

# 3. Bad input: our exit status and first line are the distro's.  For more
#    cgroups than events the distro says nothing but the option's usage;
#    ours says what was wrong, then the same usage.
same_error() {	# <what> <args...>
	local what=$1 rc_o rc_p; shift

	"$ORACLE" record -o bad.data "$@" >/dev/null 2>oracle-bad.err
	rc_o=$?
	"$PERF" record -o bad.data "$@" >/dev/null 2>perf-bad.err
	rc_p=$?
	[ $rc_p -eq $rc_o ] || fail "$what: exit $rc_p, the distro's $rc_o"
	[ ! -e bad.data ] || fail "$what: left a file"
	grep -q '^    -G, --cgroup <name>' perf-bad.err || fail "$what: no usage of -G"
	if [ -s oracle-bad.err ] && [ -n "$(head -1 oracle-bad.err)" ]; then
		[ "$(head -1 perf-bad.err)" = "$(head -1 oracle-bad.err)" ] ||
			fail "$what: '$(head -1 perf-bad.err)', the distro's '$(head -1 oracle-bad.err)'"
	fi
	echo "$what -> $rc_p: $(head -1 perf-bad.err)"
}
same_error "-G without -a" -e cpu-clock -G "$NAME" -- true
same_error "-G with -C only" -C 0 -e cpu-clock -G "$NAME" -- true
same_error "a missing cgroup" -a -e cpu-clock -G "$NAME-missing" -- true
same_error "more cgroups than events" -a -e cpu-clock -G "$NAME,$NAME" -- true
same_error "a second -G before any -e" -a -G "$NAME" -G "$NAME" -- true
"$PERF" record -o bad.data -a -e cpu-clock -G "$NAME,$NAME" -- true 2>&1 | head -1 |
	grep -q "more cgroups than there are events" || fail "more cgroups than events: not said"
exit 0
