#!/bin/bash
# perf script and perf evlist (-v, -F, --trace-fields) agree with the distro perf on files it recorded
# Records fresh files with /usr/bin/perf (tracepoints system-wide, cpu-clock
# with -g over a workload, and a flight-recorder dump with --overwrite and
# --switch-output) and compares our output with the distro's line by line.
# The second tracepoint file mixes formats our compiled printer takes
# (integers, char arrays, __get_str) with ones left to libtraceevent
# (__print_symbolic, __print_flags), so both paths are held to the oracle.
PERF=${PERF:-perf}
. "$(dirname "$0")/lib/common.sh"
DISTRO=$ORACLE
tmp=$TMPD
fail=0

[ -x "$DISTRO" ] || { echo "skip: $DISTRO (the distro perf, our oracle) is missing"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "skip: system-wide recording needs root"; exit 2; }
cd "$tmp" || exit 1

if ! "$DISTRO" record -q -o tp.data -e 'raw_syscalls:*' -e sched:sched_switch -a \
	sleep 0.1 >/dev/null 2>&1; then
	echo "skip: the distro perf cannot record tracepoints here"
	exit 2
fi
"$DISTRO" record -q -o tp2.data -a \
	-e 'sched:sched_wakeup,sched:sched_process_exec,sched:sched_process_fork' \
	-e 'sched:sched_process_exit,sched:sched_stat_runtime,signal:*,irq:*' \
	-e 'syscalls:sys_enter_openat,syscalls:sys_exit_openat,block:*,writeback:*' -- \
	sh -c 'for i in 1 2 3; do ls /usr/share/doc >/dev/null; cat /etc/hostname >/dev/null;
		kill -0 $$; done; echo x >f; sync' >/dev/null 2>&1
"$DISTRO" record -q -o cg.data -g -e cpu-clock -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls -R /usr/share/doc >/dev/null' \
	>/dev/null 2>&1
"$DISTRO" record -q -o fr.data --overwrite --switch-output -e cpu-clock -a >/dev/null 2>&1 &
rec=$!
wait_recording $rec
sleep 0.5	# a moment of samples for the dump
kill -USR2 $rec
wait_files 'fr.data.*' 1
kill -INT $rec
wait $rec
fr=$(ls fr.data.* 2>/dev/null | head -1)

# Comm, pid, cpu, time, event and tracepoint fields: the line without the
# symbol part, which must agree exactly; whole lines (symbols) >= 99%.
compare() {
	local f=$1
	timeout 60 "$PERF" script -i "$f" >"$f.ours" 2>"$f.err"
	local rc=$?
	"$DISTRO" script -i "$f" >"$f.dist" 2>"$f.derr"
	if [ $rc -ne 0 ]; then
		echo "FAIL $f: perf script exit $rc"; head -3 "$f.err"; fail=1; return
	fi
	local n=$(wc -l <"$f.dist") m=$(wc -l <"$f.ours")
	if [ "$n" != "$m" ] || [ "$n" -eq 0 ]; then
		echo "FAIL $f: $m lines, the distro printed $n"; fail=1; return
	fi
	# Drop symbol and dso text (after the address) to compare the fixed fields.
	sed -E 's/^(.* cpu-clock:).*/\1/; s/^(\t *[0-9a-f]+) .*/\1/' "$f.ours" >"$f.o2"
	sed -E 's/^(.* cpu-clock:).*/\1/; s/^(\t *[0-9a-f]+) .*/\1/' "$f.dist" >"$f.d2"
	if ! cmp -s "$f.o2" "$f.d2"; then
		echo "FAIL $f: fields differ from the distro's:"; diff "$f.o2" "$f.d2" | head -6
		fail=1; return
	fi
	local same=$(paste -d '\n' "$f.ours" "$f.dist" | awk 'NR%2{a=$0;next} a==$0{s++} END{print s+0}')
	if [ $((same * 100)) -lt $((n * 99)) ]; then
		echo "FAIL $f: only $same of $n lines match the distro's (symbols)"; fail=1
		diff "$f.ours" "$f.dist" | head -6
	fi
	local o
	for o in -v "" -F --trace-fields "-v --trace-fields"; do
		"$PERF" evlist $o -i "$f" >"$f.ev1" 2>&1
		"$DISTRO" evlist $o -i "$f" >"$f.ev2" 2>/dev/null
		if ! cmp -s "$f.ev1" "$f.ev2"; then
			echo "FAIL $f: evlist $o differs:"; diff "$f.ev1" "$f.ev2" | head -6; fail=1
		fi
	done
	# The out-of-order warning: the same count, or none when the distro gives none
	# (always none with write_backward events).
	if [ "$(grep 'out of order' "$f.err")" != "$(grep 'out of order' "$f.derr")" ]; then
		echo "FAIL $f: out-of-order warning differs:"; grep -h 'out of order' "$f.err" "$f.derr"
		fail=1
	fi
}

compare tp.data
compare tp2.data
compare cg.data
if [ -n "$fr" ]; then
	compare "$fr"
else
	echo "FAIL: the distro perf wrote no flight-recorder dump"; fail=1
fi
if [ $fail -ne 0 ]; then
	# Keep the files for whoever looks into it (the last failed run's only).
	keep=${TMPDIR:-/tmp}/script-oracle.failed
	rm -rf "$keep" && mkdir -p "$keep" && cp ./*.data* "$keep"/ 2>/dev/null &&
		echo "the files are kept in $keep"
fi
[ $fail -eq 0 ] && echo "our perf script/evlist agree with $DISTRO"
exit $fail
