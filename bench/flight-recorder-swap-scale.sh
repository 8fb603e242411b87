#!/bin/bash
# A dump's swap for N = 1, 4, 16, 64 per-thread buffers (NS): ours in swap
# mode, --per-thread -p on `perf test -w threads N ... syscalls` (N threads
# spinning on getppid()), raw_syscalls into 1 MiB buffers; DUMPS (3)
# SIGUSR2s.  Per N: the longest swap of one pair and the median and worst
# from SIGUSR2 to file, from -vv's "swapped in" lines and the clock.
. "$(dirname "$0")/lib.sh"
DUMPS=${DUMPS:-3}
printf '%4s %18s %16s %14s\n' N "longest swap ms" "sig->file ms" "worst ms"
for N in ${NS:-1 4 16 64}; do
	"$OURS" test -w threads "$N" 1000000 syscalls & load=$!
	sleep 0.5
	"$OURS" record -vv -e 'raw_syscalls:*' -m 1M --per-thread -p $load --overwrite \
		--switch-output -o "$W/s$N" 2>"$W/s$N.err" &
	rec=$!
	wait_recording $rec plain >/dev/null || exit 1
	ms=()
	for i in $(seq 1 "$DUMPS"); do
		s=$(date +%s%N)
		kill -USR2 $rec
		wait_files "$W/s$N" $i || exit 1
		ms+=($(( ($(date +%s%N) - s) / 1000000 )))
		sleep 0.3
	done
	kill -INT $rec; wait $rec; kill $load; wait $load 2>/dev/null
	swap=$(sed -n 's/.*: swapped in \([0-9.]*\) ms$/\1/p' "$W/s$N.err" | sort -n | tail -1)
	printf '%4s %18s %16s %14s\n' "$N" "${swap:-?}" \
		"$(printf '%s\n' "${ms[@]}" | sort -n | sed -n "$(( (DUMPS + 1) / 2 ))p")" \
		"$(printf '%s\n' "${ms[@]}" | sort -n | tail -1)"
done
