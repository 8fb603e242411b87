#!/bin/bash
# SIGUSR2 from perf's first instruction on never kills perf record and becomes a dump; its workload and other commands keep the mask they were given
. "$(dirname "$0")/lib/common.sh"
need_root
cd "$TMPD"

# Bit 12 (SIGUSR2) of field $2 (SigBlk, ShdPnd) of process $1's status.
usr2_in() {
	local m

	m=$(awk -v f="$2:" '$1 == f { print $2 }' /proc/$1/status 2>/dev/null)
	[ -n "$m" ] && (( 0x$m & (1 << 11) ))
}
sigblk() { awk '$1 == "SigBlk:" { print $2 }' /proc/$1/status; }

# 1. 60 recorders, each sent SIGUSR2 0 to 50 ms after a point of its start:
#    the first call of main() (parse_options), perf record's entry
#    (cmd_record), both reached under ptrace (perf test -w early-usr2), or
#    the fork of a starter that blocked SIGUSR2 for the exec, as perf daemon
#    does.  None may die of it, each must take its dump, then stop cleanly
#    on SIGINT.  (A signal sent before perf's first instruction, into the
#    dynamic loader, is not perf's to survive; the traced points are past
#    it, and they and the delays are exact, not left to the scheduler.)
"$PERF" test -w early-usr2 cmd_record 0 "$PERF" version >/dev/null 2>probe.err
rc=$?
[ $rc -eq 2 ] && skip "$(cat probe.err)"
[ $rc -eq 0 ] || { cat probe.err; fail "perf test -w early-usr2 exited $rc"; }
# Whether try $2 (helper $1) is decided: its dump announced, the helper
# gone, or the recorder asleep in poll() with the SIGUSR2 still pending
# (blocked there: it will never be served).
decided() {
	local rec

	grep -q '(signal SIGUSR2)' t$2.err 2>/dev/null && return 0
	kill -0 $1 2>/dev/null || return 0
	rec=$(pgrep -P $1) || return 1
	grep -q poll /proc/$rec/wchan 2>/dev/null && usr2_in $rec ShdPnd
}
killed=0 lost=0 bad=0
for i in $(seq 0 59); do
	at=$(echo parse_options cmd_record blocked | cut -d' ' -f$((i % 3 + 1)))
	us=$(( i / 3 * 50000 / 19 ))
	"$PERF" test -w early-usr2 $at $us "$PERF" record -e cpu-clock --overwrite \
		--switch-output -a -o t$i.data 2>t$i.err &
	h=$!
	wait_for "decided $h $i" || fail "try $i ($at + $us us): undecided after $WAIT_S s"
	kill -INT $h 2>/dev/null
	wait $h
	rc=$?
	if [ $rc -eq $((128 + 12)) ]; then
		killed=$((killed + 1))
		echo "try $i ($at + $us us): killed by SIGUSR2"
	elif ! grep -q '(signal SIGUSR2)' t$i.err; then
		lost=$((lost + 1))
		echo "try $i ($at + $us us): exit $rc, the request was not served"
	elif [ $rc -ne 0 ] || [ "$(ls t$i.data.* | wc -l)" -ne 2 ]; then
		bad=$((bad + 1))
		echo "try $i ($at + $us us): exit $rc, files: $(ls t$i.data.* | wc -l)"
		cat t$i.err
	fi
	rm -f t$i.data*
done
echo "SIGUSR2 at start: 60 tries, $killed killed by it, $lost requests not served, $bad bad exits"
[ $killed -eq 0 ] || fail "$killed of 60 recorders were killed by an early SIGUSR2"
[ $lost -eq 0 ] || fail "$lost of 60 early requests were not served"
[ $bad -eq 0 ] || fail "$bad of 60 recorders did not end with 2 dumps and exit 0"

# 2. Without --switch-output an early SIGUSR2 is ignored, as perf-record(1)
#    says: taken once the recorder records (nothing pending), no dump.
"$PERF" test -w early-usr2 cmd_record 0 "$PERF" record -e cpu-clock -a -o plain.data \
	2>plain.err &
h=$!
wait_for "pgrep -P $h >/dev/null" || fail "no recorder under the helper"
rec=$(pgrep -P $h)
wait_for "catches $rec 12 && grep -q poll /proc/$rec/wchan" ||
	{ cat plain.err; fail "the recorder without --switch-output never got to recording"; }
usr2_in $rec ShdPnd && fail "the early SIGUSR2 is still pending once the recorder records"
kill -INT $h
wait $h || { cat plain.err; fail "the recorder without --switch-output exited $?"; }
ls plain.data.* 2>/dev/null && fail "SIGUSR2 without --switch-output made a dump"
"$PERF" evlist -i plain.data >/dev/null || fail "plain.data does not read"

# 3. The workload has the mask it would have had without perf: as a
#    command the shell starts itself, SIGUSR2 unblocked ...
workload_of() {	# the pid of recorder $1's workload, once it runs $2
	local p
	wait_for "p=\$(pgrep -P $1) && [ \"\$(cat /proc/\$p/comm 2>/dev/null)\" = $2 ]" ||
		fail "recorder $1 never ran $2"
	pgrep -P $1
}
"$PERF" record -e cpu-clock -o wl.data -- sleep 300 2>wl.err &
rec=$!
wl=$(workload_of $rec sleep)
sleep 300 &
ref=$!
[ "$(sigblk $wl)" = "$(sigblk $ref)" ] ||
	fail "the workload's SigBlk is $(sigblk $wl), a command of the shell's $(sigblk $ref)"
usr2_in $wl SigBlk && fail "SIGUSR2 is blocked in the workload"
kill $ref
kill -INT $rec
wait $rec
#    ... and blocked, when whoever started perf had it blocked.
"$PERF" test -w early-usr2 blocked 0 "$PERF" record -e cpu-clock -o wlb.data -- sleep 300 \
	2>wlb.err &
h=$!
wait_for "pgrep -P $h >/dev/null" || fail "no recorder under the helper"
wl=$(workload_of "$(pgrep -P $h)" sleep)
usr2_in $wl SigBlk || fail "SIGUSR2, blocked by perf's starter, is not blocked in the workload"
kill -INT $h
wait $h

# 4. Other commands keep SIGUSR2's default: perf report, reading a pipe
#    that has nothing yet, has it unblocked and dies of it, as the distro's.
# In read(2) of the fifo $2, process $1.
reads_fifo() {
	local nr fd

	read -r nr fd _ </proc/$1/syscall 2>/dev/null && [ "$nr" = 0 ] &&
		[ "$(readlink /proc/$1/fd/$((fd)))" = "$2" ]
}
mkfifo in.fifo
exec 3<>in.fifo
for perf in "$PERF" "$ORACLE"; do
	[ -x "$perf" ] || continue
	"$perf" report -i - --stdio <in.fifo >/dev/null 2>report.err 3>&- &
	p=$!
	# Blocked reading its standard input: past main(), well into report.
	wait_for "reads_fifo $p $TMPD/in.fifo" || fail "$perf report never read its standard input"
	usr2_in $p SigBlk && fail "SIGUSR2 is blocked in $perf report"
	kill -USR2 $p
	{ wait $p; } 2>/dev/null	# (no "User defined signal 2" from bash)
	rc=$?
	[ $rc -eq $((128 + 12)) ] || fail "$perf report exited $rc on SIGUSR2, not killed by it"
done
exec 3>&-
exit 0
