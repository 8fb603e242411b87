#!/bin/bash
# perf record --switch-output: each dump names its request (header and message), a trigger's sample is in its dump, a delay longer than the buffers hold is said once
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
cd "$TMPD"

# The request our --header-only gives for dump $1.
request_of() {
	"$PERF" report --header-only -i "$1" >hdr.txt || fail "report --header-only -i $1: exit $?"
	sed -n 's/^# dump requested by : //p' hdr.txt
}
# The request the dump message in $1 gives for dump $2.
message_of() {
	sed -n "s/^\[ perf record: Dump $2 (\(.*\)): [0-9]* samples, .*/\1/p" "$1"
}
# Dump $1 was asked for by $2 (a pattern for grep -x), as its header and its
# message (in $3) both say.
check_request() {
	local h m
	h=$(request_of "$1")
	echo "$h" | grep -qx -- "$2" || { cat hdr.txt; fail "$1: the header says '$h', not '$2'"; }
	[ -z "${3:-}" ] && return 0
	m=$(message_of "$3" "$1")
	[ "$m" = "$h" ] || { cat "$3"; fail "$1: the dump message says '$m', the header '$h'"; }
}
# The distro reads dump $1 without a word on stderr.
distro_quiet() {
	local cmd
	for cmd in "script" "report --stdio" "evlist -v" "report -D" "report --header-only"; do
		"$ORACLE" $cmd -i "$1" >/dev/null 2>oracle.err ||
			{ cat oracle.err; fail "the distro's $cmd -i $1 exited $?"; }
		[ ! -s oracle.err ] || { cat oracle.err; fail "the distro's $cmd -i $1 wrote to stderr"; }
	done
}
dumps() { ls $1.* | sort; }

# 1. SIGUSR2, then the exit dump.
"$PERF" record -e cpu-clock --overwrite --switch-output -o sig.data -- \
	"$PERF" test -w burn 1.5 2>sig.err &
dump_once_then_exit $! 'sig.data.*'
f=($(dumps sig.data))
[ ${#f[@]} -eq 2 ] || { cat sig.err; fail "expected a signalled dump and the exit dump"; }
check_request "${f[0]}" 'signal SIGUSR2' sig.err
check_request "${f[1]}" 'exit'
distro_quiet "${f[0]}"

# 2. 'snapshot' on the control channel.
mkfifo ctl ack
"$PERF" record -e cpu-clock --overwrite --switch-output --control=fifo:ctl,ack -o ctl.data -- \
	"$PERF" test -w burn 30 2>ctl.err &
rec=$!
exec 3<>ack 5<>ctl
echo snapshot >&5
IFS= read -r -t 30 a <&3 || fail "no answer to snapshot"
case "$a" in "ack "*) snap=${a#ack } ;; *) fail "snapshot answered '$a'" ;; esac
echo stop >&5
IFS= read -r -t 30 a <&3 || fail "no answer to stop"
wait $rec || { cat ctl.err; fail "the recorder exited $?"; }
exec 3>&- 5>&-
check_request "$(basename "$snap")" 'control snapshot' ctl.err

# 3. The size and the time thresholds: the first dump of each, then SIGINT.
threshold() {	# <name> <--switch-output=...> <request>
	"$PERF" record -e cpu-clock -c 100000 -m 64K --overwrite "$2" -o $1.data -- \
		"$PERF" test -w burn 60 2>$1.err &
	local rec=$!
	wait_files "$1.data.*" 1
	kill -INT $rec
	wait $rec || { cat $1.err; fail "$2: the recorder exited $?"; }
	check_request "$(dumps $1.data | head -1)" "$3" $1.err
}
threshold sz --switch-output=64K 'size threshold 65536 bytes'
threshold tm --switch-output=1s 'time threshold 1 s'

# 4. Triggers: a failed read(2) by one program, then by another (the same
#    binary under another name), each in a dump of its own, told apart by
#    name, pid and time.  Each dump holds its trigger's sample, where our
#    script and the distro's print it with the header's time, CPU and pid.
#    The workload ends only once the second dump is there (fifo d3): a
#    workload gone before the recorder reads the second trigger would have
#    it served by the exit dump instead, as a trigger left waiting is.
need_tracefs
ln -s "$PERF" other
mkfifo d1 d2 d3
"$PERF" record -e syscalls:sys_enter_read -m 64K --overwrite -o tr.data \
	--switch-output-event=syscalls:sys_exit_read --filter 'ret < 0' \
	-- bash -c "\"$PERF\" test -w reads <d1 && ./other test -w reads <d2 && cat d3" \
	>/dev/null 2>tr.err &
rec=$!
printf 'ok\nfail 1001\n' >d1
wait_files 'tr.data.*' 1
printf 'ok\nfail 1002\n' >d2
wait_files 'tr.data.*' 2
echo done >d3
wait $rec || { cat tr.err; fail "the recorder exited $?"; }
f=($(dumps tr.data))
[ ${#f[@]} -eq 3 ] || { cat tr.err; fail "expected 2 triggered dumps and the exit dump, got ${#f[@]}"; }
pids=
for k in 0 1; do
	comm=perf
	[ $k -eq 1 ] && comm=other
	pat="trigger syscalls:sys_exit_read at [0-9]+\.[0-9]{6} on CPU [0-9]+ by $comm ([0-9]+)/\1"
	h=$(request_of "${f[$k]}")
	echo "$h" | grep -Eqx -- "$pat" || { cat hdr.txt; fail "${f[$k]}: the header says '$h'"; }
	check_request "${f[$k]}" "$h" tr.err
	read -r t cpu pid <<<"$(echo "$h" | sed -E 's/.* at ([0-9.]+) on CPU ([0-9]+) by [^ ]+ ([0-9]+)\/.*/\1 \2 \3/')"
	pids="$pids $pid"
	"$PERF" script -i "${f[$k]}" >ours.txt || fail "cannot read ${f[$k]}"
	line=$(grep 'syscalls:sys_exit_read:' ours.txt)
	[ "$(echo "$line" | wc -l)" -eq 1 ] || { cat ours.txt; fail "${f[$k]}: not one trigger sample"; }
	echo "$line" | awk -v c="$comm" -v p="$pid" -v cpu="$cpu" -v t="$t:" \
		'$1 == c && $2 == p && $3 == sprintf("[%03d]", cpu) && $4 == t { ok = 1 }
		 END { exit !ok }' || fail "${f[$k]}: trigger sample '$line', header '$h'"
	"$ORACLE" script -i "${f[$k]}" 2>/dev/null | grep 'syscalls:sys_exit_read:' >theirs.txt
	[ "$(cat theirs.txt)" = "$line" ] ||
		{ cat theirs.txt; fail "${f[$k]}: the distro prints the trigger as above, we '$line'"; }
	distro_quiet "${f[$k]}"
done
set -- $pids
[ "$1" != "$2" ] || fail "the two triggers have one pid, $1"
check_request "${f[2]}" 'exit'
! grep -q 'syscalls:sys_exit_read:' <("$PERF" script -i "${f[2]}") ||
	fail "${f[2]}: the exit dump holds a trigger sample"

# 5. Buffers that hold less than --switch-output-delay: in pause mode said
#    once, with the delay and what the buffers held.  Two requests, 20 kHz of
#    samples into 8 KB buffers, a 2 s delay.  Swap mode sets the past aside
#    at the request: nothing to say.
# delay_dumps MODE NAME N: N requests, each dump waited for, in MODE.
delay_dumps() {
	"$PERF" record -e cpu-clock -c 50000 -m 8K --overwrite --switch-output \
		--switch-output-delay=2s --dump-mode=$1 -o $2.data -- "$PERF" test -w burn 30 \
		2>$2.err &
	rec=$!
	wait_recording $rec
	for k in $(seq 1 $3); do
		kill -USR2 $rec
		wait_files "$2.data.*" $k
	done
	kill -INT $rec
	wait $rec || { cat $2.err; fail "$1: the recorder exited $?"; }
}
delay_dumps swap s 1
! grep -q 'is longer than the overwrite buffers hold' s.err || grep -q 'pause each' s.err ||
	{ cat s.err; fail "swap mode: the delay was said to outlast the buffers"; }
delay_dumps pause w 2
n=$(grep -c 'is longer than the overwrite buffers hold' w.err)
[ "$n" -eq 1 ] || { cat w.err; fail "the delay was said $n times, not once"; }
msg=$(grep 'is longer than the overwrite buffers hold' w.err)
held=$(echo "$msg" | sed -En 's/^--switch-output-delay=2000ms is longer .* held the last ([0-9.]+) ms only, .*-m.*--switch-output-delay\.$/\1/p')
[ -n "$held" ] || fail "the warning does not give the delay, what was held and what to do: '$msg'"
awk -v h="$held" 'BEGIN { exit !(h > 0 && h < 2000) }' || fail "the buffers held $held ms?"
echo "delay 2000 ms, buffers held $held ms"
exit 0
