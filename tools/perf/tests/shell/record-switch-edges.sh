#!/bin/bash
# perf record --switch-output edges: size below a buffer, signals at once, SIGINT/SIGTERM in every state
. "$(dirname "$0")/lib/common.sh"
need_root
cd "$TMPD"

# 1. A size below one ring buffer is raised, with a notice: no switch per pass.
mkdir a && cd a
"$PERF" record -e cpu-clock --switch-output=1B -- sleep 0.5 2>err.txt >/dev/null || fail "1B: exit $?"
grep -q 'switch-output data size lower than wakeup kernel buffer size' err.txt ||
	{ cat err.txt; fail "1B: no notice that the size was raised"; }
n=$(ls | grep -c '^perf\.data\.')
echo "--switch-output=1B -- sleep 0.5: $n files"
[ "$n" -le 2 ] || fail "--switch-output=1B wrote $n files"
rm -f perf.data*
"$PERF" record -a -e cpu-clock --switch-output=4K -- sleep 0.5 2>err.txt >/dev/null || fail "4K: exit $?"
n=$(ls | grep -c '^perf\.data\.')
echo "-a --switch-output=4K -- sleep 0.5: $n files"
[ "$n" -le 2 ] || fail "-a --switch-output=4K wrote $n files"
cd ..

# 2. SIGINT and SIGTERM stop a recorder promptly while it switches on size,
#    and its workload with it (no zombie, no orphan left running).
for sig in INT TERM; do
	"$PERF" record -a -e cpu-clock --switch-output=4K -o sz$sig.data -- sleep 300 2>/dev/null &
	rec=$!
	wait_catches $rec 2
	# Switching on size, the state the signal must stop: its first file is
	# there.
	wait_files "sz$sig.data.*" 1
	n=$(ls sz$sig.data.* | wc -l)
	kill -$sig $rec
	wait_gone $rec || fail "SIG$sig: the recorder did not stop within $WAIT_S s"
	wait $rec
	! pgrep -x -P $rec sleep >/dev/null || fail "SIG$sig: the workload was left behind"
	[ "$(ls sz$sig.data.* | wc -l)" -gt $n ] || fail "SIG$sig: no file written at the exit"
done

# 3. SIGUSR2 while the recorder is still setting up (big buffers take a
#    while to map) is served once recording runs, never fatal.
"$PERF" record -e cpu-clock -m 32M --overwrite --switch-output -a -o early.data 2>early.err &
rec=$!
wait_for "ls -l /proc/$rec/fd 2>/dev/null | grep -q perf_event"
kill -USR2 $rec || fail "the recorder died before opening its events"
wait_lines early.err 1 'Dump early.data' $rec
kill -INT $rec
wait $rec || { cat early.err; fail "exit $? after an early SIGUSR2"; }
[ "$(ls early.data.* | wc -l)" -eq 2 ] || fail "expected the early dump and the exit dump"

# 4. In overwrite mode SIZE counts what the kernel wrote into the overwrite
#    buffers since the last dump.
need_tracefs
"$PERF" test -w getppid 20000000000 & load=$!
"$PERF" record -e 'raw_syscalls:*' -m 16 --overwrite --switch-output=64K -a -o ow.data 2>ow.err &
rec=$!
wait_lines ow.err 3 'Dump ow.data' $rec
kill -INT $rec
wait $rec || { cat ow.err; fail "overwrite --switch-output=64K: exit $?"; }
kill $load
for f in ow.data.*; do
	"$PERF" test -w validate "$f" >/dev/null || fail "$f has a bad record"
done
echo "overwrite --switch-output=64K: $(ls ow.data.* | wc -l) dumps"
exit 0
