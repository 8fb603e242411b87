#!/bin/bash
# perf record --control: every command answered, snapshot acks name their dump, -D
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
cd "$TMPD"

# Sends command $1 on the control FIFO and reads one answer line into $ACK.
# The FIFOs are held open here (fd 4 to write, fd 3 to read answers).
cmd() {
	echo "$1" >&4
	IFS= read -r -t 30 ACK <&3 || fail "no answer to '$1' in 30 s"
}

mkfifo ctl ack
exec 3<>ack 4<>ctl
"$PERF" record -e cpu-clock -a -m 64K --overwrite --switch-output -o cr.data \
	--control=fifo:ctl,ack >rec.out 2>rec.err &
REC=$!

# 1. ping: the first answer also says the recorder is in its loop.
cmd ping;		[ "$ACK" = ack ] || fail "ping answered '$ACK'"
cmd evlist;		[ "$ACK" = ack ] || fail "evlist answered '$ACK'"
wait_lines rec.out 1 '^cpu-clock$' $REC
cmd "evlist -v";	[ "$ACK" = ack ] || fail "evlist -v answered '$ACK'"
wait_lines rec.out 1 '^cpu-clock: type: 1, ' $REC

# 2. An unknown command: an error line, and the recorder goes on.
cmd bogus
case "$ACK" in "error: unknown command 'bogus'"*) ;; *) fail "bogus answered '$ACK'" ;; esac
cmd ping;		[ "$ACK" = ack ] || fail "ping after an error answered '$ACK'"

# 3. snapshot: answered once the dump is complete, with its absolute name.
cmd snapshot
f1=${ACK#ack }
[ "$ACK" != "$f1" ] && [ "${f1#/}" != "$f1" ] || fail "snapshot answered '$ACK'"
[ -s "$f1" ] || fail "snapshot named $f1, which is not there"
case "$f1" in "$TMPD"/cr.data.*) ;; *) fail "snapshot named $f1, not a dump of cr.data" ;; esac
oracle_ok "script $f1" script -i "$f1" | grep -q cpu-clock || fail "$f1 has no samples"

# 4. disable: the dump after it has what came before; the next one nothing.
cmd disable;		[ "$ACK" = ack ] || fail "disable answered '$ACK'"
wait_lines rec.err 1 '^Events disabled$' $REC
cmd snapshot;		f2=${ACK#ack }
cmd snapshot;		f3=${ACK#ack }
[ -s "$f2" ] && [ -s "$f3" ] && [ "$f2" != "$f3" ] || fail "snapshots gave '$f2' '$f3'"
n3=$("$PERF" script -i "$f3" | grep -c cpu-clock)
[ "$n3" -eq 0 ] || fail "$n3 samples in $f3, taken while the events were disabled"

# 5. enable: samples again.
cmd enable;		[ "$ACK" = ack ] || fail "enable answered '$ACK'"
wait_lines rec.err 1 '^Events enabled$' $REC
"$PERF" test -w burn 0.2
cmd snapshot;		f4=${ACK#ack }
n4=$("$PERF" script -i "$f4" | grep -c cpu-clock)
[ "$n4" -gt 0 ] || fail "no samples in $f4, taken after enable"

# 6. stop: the recorder ends cleanly with its exit dump.
cmd stop;		[ "$ACK" = ack ] || fail "stop answered '$ACK'"
wait $REC; rc=$?
[ $rc -eq 0 ] || { cat rec.err; fail "record exited $rc after stop"; }
[ "$(ls cr.data.* | wc -l)" -eq 5 ] || { ls -l; fail "expected 4 snapshots and the exit dump"; }
[ ! -e cr.data ] || fail "an unfinished cr.data was left behind"

# 7. fd:CTL,ACK, inherited descriptors; snapshot without --switch-output is refused.
mkfifo ctl2 ack2
exec 5<>ack2 6<>ctl2
"$PERF" record -e cpu-clock -a -m 64K -o fd.data --control=fd:6,5 2>fd.err &
REC=$!
exec 3<&5 4>&6
cmd ping;		[ "$ACK" = ack ] || fail "ping on fd: answered '$ACK'"
cmd snapshot
case "$ACK" in "error: snapshot needs --switch-output"*) ;; *) fail "snapshot without --switch-output answered '$ACK'" ;; esac
cmd stop;		[ "$ACK" = ack ] || fail "stop on fd: answered '$ACK'"
wait $REC || { cat fd.err; fail "record on fd: exited $?"; }
[ -s fd.data ] || fail "no fd.data"

# 8. An answer channel whose reader went away (EPIPE) does not end the recorder.
exec 7<>ctl2
"$PERF" record -e cpu-clock -a -m 64K -o pipe.data --control=fd:7,8 8> >(head -c 1 >/dev/null) \
	2>pipe.err &
REC=$!
echo ping >&7
echo ping >&7
echo ping >&7
"$PERF" test -w burn 0.3
echo stop >&7
wait $REC || { cat pipe.err; fail "record exited $? once its answers had nowhere to go"; }
[ -s pipe.data ] || fail "no pipe.data"

# 8b. Answers nobody reads (no one opened the ack FIFO) are counted at exit.
mkfifo ctl3 ack3
exec 9<>ctl3
"$PERF" record -e cpu-clock -a -m 64K --overwrite --switch-output -o nr.data \
	--control=fifo:ctl3,ack3 2>nr.err &
REC=$!
for i in 1 2 3; do
	echo snapshot >&9
	wait_files 'nr.data.*' $i
done
echo stop >&9
wait $REC || { cat nr.err; fail "record exited $? with its answers unread"; }
exec 9>&-
grep -qx "Warning: 4 control answers were never read (0 could not be written, 4 left in the ack channel): read it while sending commands." nr.err ||
	{ cat nr.err; fail "the 4 answers nobody read were not counted"; }
# Section 8's 4 answers (3 pings, the stop) went to a reader that took one
# byte and left: written before it left, or refused (EPIPE) after, which
# is said once at most.  Each is counted, but the first when the reader
# took its byte from it (it then was read, in part): 3 or 4, by timing.
[ "$(grep -c 'could not be written to the ack channel' pipe.err)" -le 1 ] ||
	{ cat pipe.err; fail "answers that could not be written were said more than once"; }
grep -Eq '^Warning: [34] control answers were never read' pipe.err ||
	{ cat pipe.err; fail "the 4 answers whose reader had gone were not counted"; }

# 9. -D -1: nothing until 'enable'; stopped before it, the file has no samples.
"$PERF" record -e cpu-clock -a -m 64K -D -1 -o d1.data --control=fifo:ctl,ack 2>d1.err &
REC=$!
exec 3<>ack 4<>ctl
cmd ping
"$PERF" test -w burn 0.2
cmd stop
wait $REC || { cat d1.err; fail "record -D -1 exited $?"; }
grep -q '^Events disabled$' d1.err || fail "-D -1 did not say the events are disabled"
! grep -q '^Events enabled$' d1.err || fail "-D -1 enabled the events by itself"
n=$("$PERF" script -i d1.data | grep -c cpu-clock)
[ "$n" -eq 0 ] || fail "$n samples recorded before 'enable' with -D -1"

# 10. -D MSECS with a workload: a delay longer than the workload records
#    nothing; a short one records once it has passed.
"$PERF" record -e cpu-clock -D 100000 -o dl.data -- "$PERF" test -w burn 0.1 2>dl.err ||
	{ cat dl.err; fail "record -D 100000 exited $?"; }
! grep -q '^Events enabled$' dl.err || fail "-D 100000 enabled the events within 0.1 s"
[ "$("$PERF" script -i dl.data | grep -c cpu-clock)" -eq 0 ] || fail "samples before the -D delay"
"$PERF" record -e cpu-clock -D 100 -o ds.data -- "$PERF" test -w burn 1.5 2>ds.err ||
	{ cat ds.err; fail "record -D 100 exited $?"; }
grep -A1 '^Events disabled$' ds.err | grep -q '^Events enabled$' || { cat ds.err; fail "-D 100 messages"; }
[ "$("$PERF" script -i ds.data | grep -c cpu-clock)" -gt 0 ] || fail "no samples after the -D delay"
exit 0
