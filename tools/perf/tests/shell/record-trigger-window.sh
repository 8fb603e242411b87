#!/bin/bash
# perf record --switch-output-delay: a post-trigger window; a storm of triggers gives few dumps, and ping is answered through it
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
cd "$TMPD"

# As in record-triggers.sh: perf test -w reads, driven line by line; a failed
# read is the trigger, every read's entry is recorded, its count names it.
mkfifo drive ctl ack
TRIGGER=(--switch-output-event=syscalls:sys_exit_read --filter 'ret < 0')

# 1. The window: a marker 50 ms after the trigger is in that trigger's dump;
#    a second trigger inside the window joins it; a marker a second later
#    is not in it (it goes to the exit dump).
"$PERF" record -e syscalls:sys_enter_read -m 64K --overwrite -o w.data "${TRIGGER[@]}" \
	--switch-output-delay=200ms -- "$PERF" test -w reads <drive 2>w.err &
REC=$!
exec 4>drive
printf 'fail 1001\nsleep 50\nmark 777\n' >&4
wait_files 'w.data.*' 1
printf 'fail 1100\nsleep 50\nfail 1200\nsleep 50\nmark 888\nsleep 1000\nmark 999\ndone\n' >&4
exec 4>&-
wait $REC || { cat w.err; fail "record exited $?"; }
files=($(ls w.data.*))
[ ${#files[@]} -eq 3 ] || { ls -l; cat w.err; fail "expected 3 dumps (2 windows + exit), got ${#files[@]}"; }
has() { grep -q "count: 0x0*$(printf '%x' $2)\$" "$1.txt"; }
for f in "${files[@]}"; do
	"$PERF" script -i "$f" >"$f.txt" || fail "cannot read $f"
done
has "${files[0]}" 1001 && has "${files[0]}" 777 ||
	fail "${files[0]}: the trigger or the marker 50 ms after it is missing"
has "${files[1]}" 1100 && has "${files[1]}" 1200 && has "${files[1]}" 888 ||
	fail "${files[1]}: the two triggers of one window and the marker after them are not all there"
! has "${files[1]}" 999 || fail "${files[1]}: holds a marker made a second after its window"
has "${files[2]}" 999 || fail "${files[2]}: the exit dump lacks the last marker"

# 2. A storm: a failing read every 100 us, as long as the test keeps it
#    going.  The recorder must answer pings while it lasts: the storm ends
#    only after the last ping's answer, so an answer held back until the
#    storm is over never comes and the read's deadline fails the test.
#    Dumps stay few (one per 100 ms window at most, plus the exit dump),
#    and each is whole.  How fast a ping is answered is the machine's
#    business, not this test's.
"$PERF" record -e syscalls:sys_enter_read -m 64K --overwrite -o s.data "${TRIGGER[@]}" \
	--switch-output-delay=100ms --control=fifo:ctl,ack \
	-- "$PERF" test -w reads <drive >s.out 2>s.err &
REC=$!
exec 3<>ack 4>drive 5<>ctl
echo ping >&5
IFS= read -r -t 30 a <&3 && [ "$a" = ack ] || fail "no answer to the first ping"
echo "storm-until 100" >&4
for pings in $(seq 20); do
	sleep 0.05
	echo ping >&5
	IFS= read -r -t 30 a <&3 || fail "no answer in 30 s to ping $pings during the storm"
	[ "$a" = ack ] || fail "ping answered '$a' during the storm"
done
echo done >&4
exec 4>&-
wait $REC || { cat s.err; fail "record exited $?"; }
read -r _ reads _ _ ms _ <s.out || fail "the workload did not report its storm: $(cat s.out)"
echo "$pings pings answered during a storm of $reads triggers in $ms ms"
[ "$reads" -ge 1000 ] || fail "only $reads triggers in the storm"
nr=$(ls s.data.* | wc -l)
most=$((ms / 100 + 2))
echo "$nr dumps for $reads triggers in $ms ms (at most $most)"
[ "$nr" -ge 2 ] && [ "$nr" -le "$most" ] ||
	{ cat s.err; fail "$nr dumps for $reads triggers in $ms ms with 100 ms windows"; }
for f in s.data.*; do
	oracle_ok "script $f" script -i "$f" >/dev/null
	"$PERF" test -w validate "$f" >/dev/null || fail "$f does not validate"
done
exit 0
