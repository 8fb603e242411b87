#!/bin/bash
# Flight recorder at scale, ours vs the distro perf: N = 1, 4, 16, 64
# overwrite buffers of 8 MiB (--per-thread on a process with N threads
# making syscalls).  For each N and each recorder: VmRSS and RssAnon before
# and after a dump, each buffer's own paused time and the span from the
# first pause to the last resume (strace: PAUSE_OUTPUT 1 -> 0 per fd), and
# SIGUSR2 to the file (a run without strace, median of 3).  Our default
# (swap) mode pauses no buffer: it points a buffer's events at its spare,
# and the buffer's stop is the time that takes, which our recorder's -v
# summary gives ("swapped ... N ms at most each", from the run without
# strace); in pause mode the stop is the pause, as the distro's.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }
NS=${NS:-"1 4 16 64"}
MB=${MB:-8}
FILL=${FILL:-4}		# seconds of syscalls before the first dump

# From strace -T -tt output: per fd, PAUSE_OUTPUT 1 -> 0; prints
# "max_ms median_ms span_ms" for the first dump (the first pause of each fd).
pause_times() {
	local d
	d=$(awk '
	function secs(s,  a) { split(s, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
	/ioctl\(/ && /(PERF_EVENT_IOC_PAUSE_OUTPUT|0x40042409)/ {
		fd = $0; sub(/.*ioctl\(/, "", fd); sub(/,.*/, "", fd)
		t = secs($2)
		if ($0 ~ /, 1\)/ && !(fd in p0)) { p0[fd] = t; if (!first) first = t }
		if ($0 ~ /, 0\)/ && (fd in p0) && !(fd in p1)) { p1[fd] = t; if (t > last) last = t }
	}
	END {
		printf "span %.1f\n", (last - first) * 1000
		for (fd in p1) printf "%.3f\n", (p1[fd] - p0[fd]) * 1000
	}' "$1")
	local span n
	span=$(echo "$d" | awk '/^span/ { print $2 }')
	n=$(echo "$d" | grep -vc '^span')
	[ "$n" -gt 0 ] || { echo "n/a n/a n/a"; return; }
	echo "$(echo "$d" | grep -v '^span' | sort -n | tail -1)" \
	     "$(echo "$d" | grep -v '^span' | sort -n | sed -n "$(( (n + 1) / 2 ))p")" "$span"
}

printf "%-4s %-7s %9s %9s %9s %9s %10s %10s %9s %9s\n" N who "rss0_MB" "anon0_MB" "rss1_MB" \
	"anon1_MB" "pause_max" "pause_med" "span_ms" "sig2file"
declare -A res
for N in $NS; do
	for who in distro ours; do
		bin=$DISTRO; [ $who = ours ] && bin=$OURS
		# Run 1, under strace: memory and pauses.
		"$OURS" test -w threads "$N" 1000000 syscalls & load=$!
		sleep 0.2
		# strace runs real-time (the recorder under it does not), or a
		# stop at each ioctl would wait for a CPU behind N busy threads.
		chrt -f 1 strace -f --seccomp-bpf -T -tt -e trace=ioctl -o "$W/strace.$who.$N" \
			chrt -o 0 "$bin" record -q -e 'raw_syscalls:*' -m "${MB}M" --per-thread -p $load \
			--overwrite --switch-output -o "$W/s.$who" 2>"$W/err.$who.$N" &
		st=$!
		rec=$(wait_recording $st) || exit 1
		sleep "$FILL"
		rss0=$(status_kb $rec VmRSS); anon0=$(status_kb $rec RssAnon)
		kill -USR2 $rec
		wait_files "$W/s.$who" 1
		sleep 0.5
		rss1=$(status_kb $rec VmRSS); anon1=$(status_kb $rec RssAnon)
		kill -INT $rec; wait $st; kill $load; wait $load 2>/dev/null
		read -r pmax pmed span < <(pause_times "$W/strace.$who.$N")
		rm -f "$W"/s.$who*
		# Run 2, without strace: signal to file, median of 3.
		"$OURS" test -w threads "$N" 1000000 syscalls & load=$!
		sleep 0.2
		v=-q; [ $who = ours ] && v=-v	# -q would silence -v's summary
		"$bin" record $v -e 'raw_syscalls:*' -m "${MB}M" --per-thread -p $load \
			--overwrite --switch-output -o "$W/l.$who" 2>"$W/v.$who.$N" &
		rec=$!
		wait_recording $rec plain >/dev/null || exit 1
		sleep "$FILL"
		ms=()
		for i in 1 2 3; do
			s=$(date +%s%N)
			kill -USR2 $rec
			wait_files "$W/l.$who" $i
			e=$(date +%s%N)
			ms+=($(( (e - s) / 1000000 )))
			sleep 1
		done
		kill -INT $rec; wait $rec; kill $load; wait $load 2>/dev/null
		lat=$(printf "%s\n" "${ms[@]}" | sort -n | sed -n 2p)
		swap=$(sed -n 's/.*pairs swapped, \([0-9.]*\) ms at most each.*/\1/p' "$W/v.$who.$N")
		[ -n "$swap" ] && pmax=$swap pmed=-
		rm -f "$W"/l.$who*
		printf "%-4s %-7s %9.1f %9.1f %9.1f %9.1f %10s %10s %9s %9s\n" $N $who \
			"$(awk -v k=$rss0 'BEGIN { print k / 1024 }')" "$(awk -v k=$anon0 'BEGIN { print k / 1024 }')" \
			"$(awk -v k=$rss1 'BEGIN { print k / 1024 }')" "$(awk -v k=$anon1 'BEGIN { print k / 1024 }')" \
			"$pmax" "$pmed" "$span" "$lat"
		res[$N.$who.anon]=$anon1; res[$N.$who.pmax]=$pmax; res[$N.$who.lat]=$lat
	done
done
echo
echo "ratios ours/distro, and the targets (RssAnon <= distro + ${MB} MiB + 8 MiB; one buffer's stop (pause, or our swap)"
echo "flat in N and <= 0.05 x distro at N = 64; signal to file <= distro):"
for N in $NS; do
	lim=$(( ${res[$N.distro.anon]} + (MB + 8) * 1024 ))
	echo "N=$N: RssAnon ours $(( ${res[$N.ours.anon]} / 1024 )) MB vs limit $(( lim / 1024 )) MB;" \
	     "stop max $(ratio "${res[$N.ours.pmax]}" "${res[$N.distro.pmax]}");" \
	     "signal to file $(ratio "${res[$N.ours.lat]}" "${res[$N.distro.lat]}")"
done
first=$(echo $NS | awk '{ print $1 }'); last=$(echo $NS | awk '{ print $NF }')
echo "our buffer stop at N=$last / at N=$first: $(ratio "${res[$last.ours.pmax]}" "${res[$first.ours.pmax]}")"
echo "our longest buffer stop at N=$last, ms: ${res[$last.ours.pmax]}"
