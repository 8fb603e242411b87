#!/bin/bash
# perf record --per-thread: a buffer per thread for -p/-t and a workload, streaming and flight recorder
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
cd "$TMPD"
trap 'exec 3>&- 4>&-; kill $W $W2 $R 2>/dev/null; rm -rf "$TMPD"' EXIT

# start_threads N MS: $W runs N threads, all created and waiting for fd 3.
start_threads() {
	rm -f go; mkfifo go
	"$PERF" test -w threads "$1" "$2" wait <go &
	W=$!
	exec 3>go
	wait_for "[ \$(ls /proc/$W/task 2>/dev/null | wc -l) -ge $1 ]" ||
		fail "the workload did not start its $1 threads in $WAIT_S s"
}
release_threads() { echo go >&3; exec 3>&-; wait $W; }
# Once the recorder sleeps in poll(), every event is open and enabled.
wait_polling() {
	deadline $WAIT_S
	while ! grep -q poll "/proc/$1/wchan" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null || { cat rec.err; fail "the recorder exited early"; }
		! past_deadline || fail "the recorder never polled in $WAIT_S s"
		sleep 0.01
	done
}
# Ring buffers and event fds of a running recorder.
nr_buffers() { grep -c 'perf_event' "/proc/$1/maps"; }
# The read-only (backward) ones among them.
nr_backward() { grep 'perf_event' "/proc/$1/maps" | grep -c ' r--s '; }
nr_event_fds() { ls -l "/proc/$1/fd" | grep -c 'perf_event'; }

# check_tids FILE N MIN: the distro reads FILE cleanly and finds samples of
# exactly N threads, at least MIN of each.
check_tids() {
	oracle_ok "$1: report" report --stdio -i "$1" >/dev/null
	oracle_ok "$1: script" script -F tid -i "$1" | sort -n | uniq -c >tids.txt
	local n min
	n=$(wc -l <tids.txt)
	min=$(awk 'NR == 1 || $1 < m { m = $1 } END { print m + 0 }' tids.txt)
	[ "$n" -eq "$2" ] || { cat tids.txt; fail "$1: samples of $n threads, want $2"; }
	[ "$min" -ge "$3" ] || { cat tids.txt; fail "$1: a thread has only $min samples"; }
	echo "$1: $n threads, at least $min samples each"
}
# Every sample of FILE finds its thread's maps: none falls in [unknown].
check_maps() {
	local unknown
	unknown=$("$ORACLE" script -F tid,ip,dso -i "$1" 2>/dev/null | grep -c '(\[unknown\])')
	[ "$unknown" -eq 0 ] || fail "$1: $unknown samples without a map (a thread without its process's maps?)"
}

# Streams with `perf record "$@"` until the threads are released: $1 names
# the case, $2 is how many threads it follows, each with its own ring buffer
# and its own event fd by the time the recorder polls.
record_released() {
	local what=$1 n=$2

	shift 2
	"$PERF" record "$@" 2>rec.err &
	R=$!
	wait_polling $R
	[ "$(nr_buffers $R)" -eq "$n" ] || fail "$what: $(nr_buffers $R) ring buffers for $n threads"
	[ "$(nr_event_fds $R)" -eq "$n" ] || fail "$what: $(nr_event_fds $R) event fds for $n threads"
	release_threads
	wait $R || { cat rec.err; fail "$what: record failed"; }
}

# 1. -p, streaming: one buffer and one cpu -1 event per thread, no inherit.
start_threads 8 40
record_released -p 8 --per-thread -e cpu-clock -c 1000000 -p $W -o p.data
oracle_ok "p.data: evlist" evlist -v -i p.data | grep -q 'inherit: 1' && fail "-p: events inherit"
check_tids p.data 8 10

# 2. -t: only the threads named.
start_threads 8 20
tids=$(ls /proc/$W/task | sort -n | sed -n '2,4p' | paste -sd,)
record_released -t 3 --per-thread -e cpu-clock -c 1000000 -t "$tids" -o t.data
check_tids t.data 3 5
[ "$(awk '{ print $2 }' tids.txt | paste -sd,)" = "$tids" ] || fail "-t: other threads than $tids"

# 3. A workload: its first thread only, since nothing is inherited (as the distro does).
"$PERF" record --per-thread -e cpu-clock -c 1000000 -o w.data -- "$PERF" test -w threads 4 20 \
	2>rec.err || { cat rec.err; fail "workload: record failed"; }
check_tids w.data 1 5
"$ORACLE" record -q --per-thread -e cpu-clock -c 1000000 -o d.data -- "$PERF" test -w threads 4 20
[ "$("$ORACLE" script -F tid -i d.data | sort -u | wc -l)" -eq 1 ] || fail "the distro samples more threads"

# 4. Flight recorder: a forward (tracking) and a backward buffer per thread, two
#    in swap mode (--dump-mode); a SIGUSR2 dump while one task lives on, with
#    the buffers of 8 that exited.
start_threads 8 40
sleep 1000 &
W2=$!
"$PERF" record --per-thread --overwrite --switch-output -e cpu-clock -c 1000000 -m 16 \
	-p "$W,$W2" -o fr.data 2>rec.err &
R=$!
wait_polling $R
back=$(nr_backward $R)
[ "$(nr_buffers $R)" -eq $((9 + back)) ] && { [ "$back" -eq 9 ] || [ "$back" -eq 18 ]; } ||
	fail "flight recorder: $(nr_buffers $R) ring buffers, $back backward, for 9 threads"
release_threads
kill -USR2 $R
wait_for 'ls fr.data.2* >/dev/null 2>&1' || { cat rec.err; fail "no dump $WAIT_S s after SIGUSR2"; }
dump=$(ls fr.data.2* | head -1)
kill $W2; wait $W2 2>/dev/null
wait $R || { cat rec.err; fail "flight recorder: record failed"; }
oracle_ok "$dump: evlist" evlist -v -i "$dump" | grep -q 'write_backward: 1' || fail "no backward event"
check_tids "$dump" 8 10
check_maps "$dump"

# 5. 64 threads, streaming and a flight-recorder dump at exit.
start_threads 64 10
record_released "64 threads" 64 --per-thread -e cpu-clock -c 1000000 -m 8 -p $W -o p64.data
check_tids p64.data 64 3

start_threads 64 10
"$PERF" record --per-thread --overwrite --switch-output -e cpu-clock -c 1000000 -m 8 -p $W \
	-o fr64.data 2>rec.err &
R=$!
wait_polling $R
release_threads
wait $R || { cat rec.err; fail "64 threads, flight recorder: record failed"; }
check_tids "$(ls fr64.data.2* | head -1)" 64 3
check_maps "$(ls fr64.data.2* | head -1)"
check_maps p64.data
exit 0
