#!/bin/bash
# perf record --overwrite swap mode: a numbered stream loses nothing across 25 dumps (pause mode's loss as a figure); a trigger's past survives a window 2 s long
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

# The numbered writer: write(-1, NULL, i) for i = 1, 2, ... (each refused,
# each recorded by syscalls:sys_enter_write with its count), resting 1 ms
# after every PACE numbers (0: never), write(-2, NULL, i) after number
# TRIGGER and a rest of 300 ms, until SIGTERM or number LAST; the last
# number goes to stdout.  The rest: the recorder sees the trigger and
# swaps within one grace period per event (10-30 ms here), while the
# events still go to the buffers they leave; a writer at full speed laps
# 1 MiB in about 40 ms.
cat >numbers.c <<'CEOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }
int main(int argc, char **argv)
{
	long pace = atol(argv[1]), trigger = atol(argv[2]), last = atol(argv[3]), i;

	signal(SIGTERM, on_term);
	for (i = 1; !stop && i <= last; i++) {
		if (write(-1, NULL, i) >= 0)
			return 1;
		if (i == trigger && (write(-2, NULL, i) >= 0 || usleep(300000)))
			return 1;
		if (pace && i % pace == 0)
			usleep(1000);
	}
	printf("%ld\n", i - 1);
	return 0;
}
CEOF
cc -O2 -o numbers numbers.c || skip "no C compiler to build the writer"

# The numbers the distro reads in the files $@, one per line, sorted; any
# complaint of the distro about a file fails.
numbers_of() {
	for f in "$@"; do
		oracle_ok "$f" script -F trace:event,trace -i "$f" >"$f.txt"
		[ ! -s "$TMPD/oracle.err" ] || { cat "$TMPD/oracle.err"; fail "$f: the distro said something"; }
		sed -n 's/.*fd: 0xffffffff.*count: 0x\([0-9a-f]*\)$/\1/p' "$f.txt"
	done | while read -r x; do echo $((16#$x)); done | sort -n
}

# 1. 25 dumps, one every 100 ms or so, of a stream of ~50,000 numbers a
#    second on CPU 0 into 16 MiB buffers (200,000 records): no dump lets a
#    buffer lap.  $1: the mode.  Prints how many numbers the dumps lack.
stream() {
	local mode=$1 rec w last missing

	rm -f s.data* s.err
	"$PERF" record --dump-mode=$mode -C 0 -m 16M --overwrite --switch-output \
		-e syscalls:sys_enter_write --filter 'fd == 0xffffffff' -o s.data 2>s.err &
	rec=$!
	wait_recording $rec
	taskset -c 0 ./numbers 50 0 100000000 >last.txt &
	w=$!
	for d in $(seq 1 25); do
		sleep 0.1
		kill -USR2 $rec
		wait_lines s.err $d 'Dump s.data' $rec
	done
	kill -TERM $w
	wait $w || fail "the writer failed"
	kill -INT $rec
	wait $rec || { cat s.err; fail "$mode: record exited $?"; }
	last=$(cat last.txt)
	[ "$(ls s.data.* | wc -l)" -ge 26 ] || { ls; fail "$mode: fewer than 26 dumps"; }
	numbers_of s.data.* >got.txt
	[ "$(uniq -d got.txt | wc -l)" -eq 0 ] || fail "$mode: numbers in two dumps: $(uniq -d got.txt | head -3)"
	missing=$(comm -23 <(seq 1 "$last" | sort) <(sort got.txt) | wc -l)
	echo "$mode mode: $last numbers, $missing missing from 26 dumps"
	MISSING=$missing
}

stream swap
[ "$MISSING" -eq 0 ] || fail "swap mode lost $MISSING numbers"
grep -q 'pause each overwrite buffer' s.err && skip "swap mode is not to be had here: $(grep 'pause each' s.err)"
stream pause
grep -q 'events were not recorded' s.err && grep 'events were not recorded' s.err

# 2. The trigger's past: number 1000, then the trigger (fd -2), then a
#    window of 2 s in 1 MiB buffers (about 12,000 records) through which the
#    writer goes on as fast as it can, some 50 laps here.  The dump holds
#    1000 and the trigger.
rm -f t.data*
"$PERF" record --dump-mode=swap -C 0 -m 1M --overwrite -e syscalls:sys_enter_write \
	--filter 'fd == 0xffffffff' --switch-output-event=syscalls:sys_enter_write \
	--filter 'fd == 0xfffffffe' --switch-output-delay=2s -o t.data 2>t.err &
rec=$!
wait_recording $rec
taskset -c 0 ./numbers 0 1000 100000000 >last.txt &
w=$!
wait_files 't.data.*' 1
kill -TERM $w
wait $w
kill -INT $rec
wait $rec || { cat t.err; fail "trigger: record exited $?"; }
last=$(cat last.txt)
f=$(ls t.data.* | head -1)
numbers_of "$f" >got.txt
# What a buffer holds of the window: the dump's numbers after the trigger.
held=$(awk '$1 > 1000' got.txt | wc -l)
[ "$held" -gt 0 ] && [ $(( (last - 1000) / held )) -ge 2 ] ||
	skip "the window did not lap its buffer: $last numbers, $held in the dump"
grep -qx 1000 got.txt || fail "$f lacks number 1000, written just before its trigger"
grep -q 'fd: 0xfffffffe.*count: 0x0*3e8$' "$f.txt" || fail "$f lacks its trigger"
echo "trigger after 1000; the window wrote $((last - 1000)) numbers, $(( (last - 1000) / held )) times what a buffer holds ($held): the dump holds 1000 and the trigger"
exit 0
