#!/bin/bash
# Flight recorder, ours vs the distro perf: (1) steady-state cost, (2) the
# blind window per dump with 64 MiB of buffers, (3) signal-to-file latency;
# then ours alone: (4) what the build-id cache costs the later dumps.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }
CALLS=${CALLS:-3000000}
PARTS=${PARTS:-"1 2 3 4"}	# which of (1)-(4) to run
want() { [[ " $PARTS " == *" $1 "* ]]; }
NCPU=$(nproc)
EVENTS=(-g -e cycles -e 'raw_syscalls:*/call-graph=no/' -e 'sched:sched_switch/call-graph=no/')

# (1) steady state: workload wall time alone, then under each recorder.
wall() { local s e; s=$(date +%s.%N); "$OURS" test -w getppid "$CALLS"; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { print b - a }'; }
declare -A slow rcpu
want 1 && base=$(wall)
want 1 && for who in distro ours; do
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	/usr/bin/time -f "%U %S" -o "$W/t.$who" "$bin" record -q "${EVENTS[@]}" --overwrite \
		--switch-output -a -o "$W/ss.$who" 2>/dev/null &
	rec=$!
	sleep 1
	t=$(wall)
	# time(1) ignores SIGINT: signal the recorder under it.
	pkill -INT -P $rec; wait $rec
	slow[$who]=$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.3f", a / b }')
	rcpu[$who]=$(cpu_of "$W/t.$who")
	rm -f "$W"/ss.$who*
done
want 1 && echo "(1) steady state: workload alone ${base}s; slowdown distro ${slow[distro]}x, ours ${slow[ours]}x;" \
     "recorder CPU distro ${rcpu[distro]}s, ours ${rcpu[ours]}s;" \
     "ratio ours/distro cpu $(ratio "${rcpu[ours]}" "${rcpu[distro]}")"

# (2) blind window and (3) signal-to-file latency, 64 MiB of buffers in all.
pages=$(( 64 * 1024 * 1024 / 4096 / NCPU ))
p=1; while [ $p -lt $pages ]; do p=$((p * 2)); done; [ $p -gt $pages ] && p=$((p / 2))
# A VM backs guest memory lazily: the first write into pages the guest never
# touched is several times slower than into pages freed a moment ago.  Each
# recorder gets the same start: 512 MiB written and removed just before it
# (more than the buffers, our copies of them and a dump take), so its dump
# finds warm free pages, as it would on a machine that has been up a while.
warm_page_cache() {
	dd if=/dev/zero of="$W/warm" bs=1M count=512 conv=fsync status=none
	rm -f "$W/warm"
}
# Signals recorder $1 $2 times, 1.5 s apart, and prints how many ms each
# dump took to appear as a new file matching the glob $3.
signal_to_file() {
	local i s e
	for i in $(seq 1 "$2"); do
		s=$(date +%s%N)
		kill -USR2 "$1"
		while [ "$(ls $3 2>/dev/null | wc -l)" -lt "$i" ]; do sleep 0.001; done
		e=$(date +%s%N)
		echo $(( (e - s) / 1000000 ))
		sleep 1.5
	done
}
# (2) under strace, which stops at each ioctl; (3) in a run of its own
# without it: the median of three signals 1.5 s apart.
declare -A blind lat
for who in distro ours; do
	want 2 || want 3 || break
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	want 2 && {
	warm_page_cache
	"$OURS" test -w getppid 4000000000 & load=$!
	strace -f --seccomp-bpf -T -tt -e trace=ioctl -o "$W/strace.$who" "$bin" record -q -e 'raw_syscalls:*' -m $p \
		--overwrite --switch-output -a -o "$W/bw.$who" 2>/dev/null &
	rec=$!
	sleep 3
	pid=$(pgrep -P $rec -x perf | head -1); [ -n "$pid" ] || pid=$(pgrep -n -f "record -q -e raw_syscalls:\* -m $p")
	kill -USR2 "$pid"
	while [ "$(ls "$W"/bw.$who.* 2>/dev/null | wc -l)" -lt 1 ]; do sleep 0.001; done
	sleep 1
	kill -INT "$pid"; wait $rec; kill $load; wait $load 2>/dev/null
	# PAUSE_OUTPUT is _IOW('$', 9, u32): 0x40042409.  First pause -> next resume.
	blind[$who]=$(awk '
		/ioctl\(.*(PERF_EVENT_IOC_PAUSE_OUTPUT|0x40042409), 1/ { if (!t0) { split($2, a, ":"); t0 = a[1]*3600 + a[2]*60 + a[3] } }
		/ioctl\(.*(PERF_EVENT_IOC_PAUSE_OUTPUT|0x40042409), 0/ { if (t0 && !t1) { split($2, a, ":"); t1 = a[1]*3600 + a[2]*60 + a[3] } }
		END { if (t0 && t1) printf "%.1f", (t1 - t0) * 1000; else print "n/a" }' "$W/strace.$who")
	rm -f "$W"/bw.$who*
	}

	want 3 || continue
	warm_page_cache
	"$OURS" test -w getppid 4000000000 & load=$!
	"$bin" record -q -e 'raw_syscalls:*' -m $p --overwrite --switch-output -a -o "$W/bw.$who" \
		2>/dev/null &
	rec=$!
	sleep 3
	ms=($(signal_to_file $rec 3 "$W/bw.$who.*"))
	kill -INT $rec; wait $rec; kill $load; wait $load 2>/dev/null
	lat[$who]=$(printf "%s\n" "${ms[@]}" | sort -n | sed -n 2p)
	echo "(3) $who: signal to file ${ms[*]} ms" >&2
	rm -f "$W"/bw.$who*
done
want 2 && echo "(2) blind window (first pause to its resume, from strace): distro ${blind[distro]} ms, ours ${blind[ours]} ms;" \
     "ratio $(ratio "${blind[ours]}" "${blind[distro]}")"
want 3 && echo "(3) signal to file, median of 3: distro ${lat[distro]} ms, ours ${lat[ours]} ms; ratio $(ratio "${lat[ours]}" "${lat[distro]}")"

# (4) The build-id cache's share of the second and later dumps' signal to
# file: ours with the cache (an empty one, so the first dump fills it) and
# with -N, six signals 1.5 s apart each, over a load with user samples.
# The cache's own time per dump is what -vv says it took.
declare -A later cache_ms
for mode in cache nocache; do
	want 4 || exit 0
	opt=(); [ $mode = nocache ] && opt=(-N)
	warm_page_cache
	"$OURS" test -w getppid 4000000000 & load=$!
	PERF_BUILDID_DIR=$W/debug.$mode "$OURS" record -vv "${opt[@]}" "${EVENTS[@]}" -m $p --overwrite \
		--switch-output -a -o "$W/bc.$mode" 2>"$W/bc.$mode.err" &
	rec=$!
	sleep 3
	ms=($(signal_to_file $rec 6 "$W/bc.$mode.2*"))
	kill -INT $rec; wait $rec; kill $load; wait $load 2>/dev/null
	echo "(4) $mode: signal to file ${ms[*]} ms" >&2
	later[$mode]=$(printf "%s\n" "${ms[@]:1}" | sort -n | sed -n 3p)
	cache_ms[$mode]=$(awk '/^build-id cache: .* files with samples/ { n++; if (n >= 2 && n <= 6) print $(NF - 1) }' \
		"$W/bc.$mode.err" | sort -n | sed -n 3p)
	grep '^build-id cache: .* files with samples' "$W/bc.$mode.err" | head -6 >&2
	rm -rf "$W"/bc.$mode* "$W"/debug.$mode
done
echo "(4) build-id cache, dumps 2-6, median: signal to file ${later[cache]} ms with it, ${later[nocache]} ms with -N;" \
     "ratio $(ratio "${later[cache]}" "${later[nocache]}"); the cache's own time ${cache_ms[cache]:-0} ms," \
     "$(awk -v a="${cache_ms[cache]:-0}" -v b="${later[cache]}" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')% of it"
