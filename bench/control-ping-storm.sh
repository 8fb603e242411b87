#!/bin/bash
# The control channel under a storm of triggers, ours vs the distro perf: a
# recorder dumps on every failing sethostname() (--switch-output-event), a
# program makes N of them over MS ms, and ping is sent on --control every
# 20 ms meanwhile.  Printed per recorder: the pings' median and slowest
# answer and the dumps made.  Ours also waits 100 ms after a trigger
# (--switch-output-delay) so a storm makes a dump per window; the distro
# has no such window and dumps each trigger.
. "$(dirname "$0")/lib.sh"
N=${N:-400}		# triggers
MS=${MS:-2000}		# over this many ms
EVENTS=(-a -e cpu-clock -e syscalls:sys_enter_getppid -m 256K --overwrite
	--switch-output-event=syscalls:sys_enter_sethostname)
declare -A med worst
for who in distro ours; do
	bin=$DISTRO extra=()
	[ $who = ours ] && bin=$OURS extra=(--switch-output-delay=100ms)
	mkdir -p "$W/$who" && cd "$W/$who" || exit 1
	mkfifo ctl ack
	"$bin" record -q "${EVENTS[@]}" "${extra[@]}" --control=fifo:ctl,ack -o perf.data \
		2>"$W/$who.err" &
	rec=$!
	exec 3<>ack 5<>ctl
	echo ping >&5
	IFS= read -r -t 30 a <&3 || { cat "$W/$who.err" >&2; echo "$who: no answer to ping" >&2; exit 1; }
	"$OURS" test -w hostname-storm "$N" "$MS" & storm=$!
	: >"$W/$who.ms"
	while kill -0 $storm 2>/dev/null; do
		t0=${EPOCHREALTIME/./}
		echo ping >&5
		IFS= read -r -t 60 a <&3 || { echo "$who: no answer to ping in 60 s" >&2; exit 1; }
		echo $(( ${EPOCHREALTIME/./} - t0 )) >>"$W/$who.ms"
		sleep 0.02
	done
	wait $storm
	kill -INT $rec; wait $rec
	exec 3>&- 5>&-
	nr=$(ls perf.data.* 2>/dev/null | wc -l)
	read -r n m w < <(sort -n "$W/$who.ms" | awk '{ v[NR] = $1 / 1000 } END { printf "%d %.1f %.1f\n", NR, v[int((NR + 1) / 2)], v[NR] }')
	med[$who]=$m worst[$who]=$w
	echo "$who: $n pings during $N triggers in $MS ms: median $m ms, slowest $w ms; $nr dumps" >&2
	cd "$W" && rm -rf "$W/$who"
done
echo "ping during a trigger storm ($N in $MS ms): median distro ${med[distro]} ms, ours ${med[ours]} ms;" \
     "slowest distro ${worst[distro]} ms, ours ${worst[ours]} ms; ratio of the slowest" \
     "$(ratio "${worst[ours]}" "${worst[distro]}") (target <= 0.5)"
