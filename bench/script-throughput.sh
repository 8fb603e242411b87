#!/bin/bash
# perf script, ours vs the distro's, on the same files (~100 MB of
# tracepoints; cpu-clock with callchains): events per second, peak memory.
. "$(dirname "$0")/lib.sh"
TP_CALLS=${TP_CALLS:-600000}	# getppid() calls in the tracepoint file
CG_SECS=${CG_SECS:-4}		# seconds of burn in the callchain file
"$DISTRO" record -q -e 'raw_syscalls:*' -a -m 64 -o "$W/tp.data" -- "$OURS" test -w getppid "$TP_CALLS" 2>/dev/null
"$DISTRO" record -q -e cpu-clock -F 20000 -g -a -o "$W/cg.data" -- "$OURS" test -w burn "$CG_SECS" 2>/dev/null
printf "%-4s %-7s %9s %8s %10s %9s\n" file who lines secs lines/s peak_MB
for f in tp cg; do
	declare -A secs mem
	for who in distro ours; do
		bin=$DISTRO; [ $who = ours ] && bin=$OURS
		/usr/bin/time -f "%e %M" -o "$W/time" "$bin" script -i "$W/$f.data" >"$W/out.$who" 2>/dev/null
		read -r s m < <(tail -1 "$W/time")
		n=$(wc -l <"$W/out.$who")
		secs[$who]=$s; mem[$who]=$m
		printf "%-4s %-7s %9d %8.2f %10.0f %9.1f\n" $f $who "$n" "$s" \
			"$(awk -v n="$n" -v s="$s" 'BEGIN { print (s > 0 ? n / s : 0) }')" \
			"$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
	done
	echo "$f ($(( $(stat -c %s "$W/$f.data") / 1048576 )) MB): speed ours/distro $(ratio "${secs[distro]}" "${secs[ours]}")x," \
	     "peak memory ours/distro $(ratio "${mem[ours]}" "${mem[distro]}")"
done

# perf report --stdio -g (children and call graphs, the distro's defaults) on the callchain file.
printf "%-4s %-7s %9s %8s %9s\n" file who lines secs peak_MB
declare -A rsecs rmem
for who in distro ours; do
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	/usr/bin/time -f "%e %M" -o "$W/time" "$bin" report --stdio -g -i "$W/cg.data" >"$W/rep.$who" 2>/dev/null
	read -r s m < <(tail -1 "$W/time")
	rsecs[$who]=$s; rmem[$who]=$m
	printf "%-4s %-7s %9d %8.2f %9.1f\n" cg $who "$(wc -l <"$W/rep.$who")" "$s" \
		"$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
done
echo "report -g cg: speed ours/distro $(ratio "${rsecs[distro]}" "${rsecs[ours]}")x," \
     "peak memory ours/distro $(ratio "${rmem[ours]}" "${rmem[distro]}")"
