#!/bin/bash
# Trigger to file, ours vs the distro perf: a program makes the syscall that
# --switch-output-event waits for, then times how long until the dump
# appears under its final name (perf test -w trigger-latency: inotify on the
# output directory).  Median of 5 per recorder, in the same run.
. "$(dirname "$0")/lib.sh"
NCPU=$(nproc)
REPS=${REPS:-5}		# triggers per recorder; the median is printed
# A realistic flight recorder: every syscall and cpu-clock samples, system
# wide, 1 MiB per CPU, with a syscall load on the first CPU to fill it.  The
# trigger is a failing sethostname(), which nothing else on the box makes.
EVENTS=(-a -e cpu-clock -e 'raw_syscalls:*' -m 1M --overwrite
	--switch-output-event=syscalls:sys_enter_sethostname)
declare -A med
for who in distro ours; do
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	mkdir -p "$W/$who"
	taskset -c 0 "$OURS" test -w getppid 4000000000 & load=$!
	"$bin" record -q "${EVENTS[@]}" -o "$W/$who/perf.data" 2>"$W/$who.err" &
	rec=$!
	sleep 3
	out=$(taskset -c $((NCPU - 1)) "$OURS" test -w trigger-latency "$REPS" "$W/$who") ||
		{ cat "$W/$who.err" >&2; echo "$who: no dump after a trigger" >&2; exit 1; }
	kill -INT $rec; wait $rec; kill $load; wait $load 2>/dev/null
	echo "$who: trigger to file $out ms" >&2
	med[$who]=${out##* }
	rm -rf "$W/$who"
done
echo "trigger to file (--switch-output-event), median of $REPS: distro ${med[distro]} ms," \
     "ours ${med[ours]} ms; ratio $(ratio "${med[ours]}" "${med[distro]}") (target <= 0.5)"
