#!/bin/bash
# The same syscall storm recorded system-wide by the distro perf and by ours,
# plain and with -z, alternating; prints recorder CPU seconds, bytes written
# and lost events.
. "$(dirname "$0")/lib.sh"
CALLS=${CALLS:-2000000}
ROUNDS=${ROUNDS:-3}
printf "%-7s %-9s %10s %12s %10s\n" round who cpu_s bytes lost
declare -A cpu bytes lost
for r in $(seq 1 "$ROUNDS"); do
	for who in distro ours distro-z ours-z; do
		bin=$DISTRO; [ "${who%-z}" = ours ] && bin=$OURS
		z=; [ "${who%-z}" = "$who" ] || z=-z
		/usr/bin/time -f "%U %S" -o "$W/time" "$bin" record -q $z -e 'raw_syscalls:*' -a -m 64 \
			-o "$W/$who.data" -- "$OURS" test -w getppid "$CALLS" 2>"$W/$who.err"
		c=$(cpu_of "$W/time")
		b=$(stat -c %s "$W/$who.data")
		l=$("$DISTRO" report -D -i "$W/$who.data" 2>/dev/null | awk '/PERF_RECORD_LOST / { n += $NF } END { print n + 0 }')
		printf "%-7s %-9s %10.2f %12d %10d\n" "$r" $who "$c" "$b" "$l"
		cpu[$who]=$(awk -v a="${cpu[$who]:-0}" -v b="$c" 'BEGIN { print a + b }')
		bytes[$who]=$(( ${bytes[$who]:-0} + b ))
		lost[$who]=$(( ${lost[$who]:-0} + l ))
	done
done
for z in "" -z; do
	echo "ratios ours/distro${z:+ with -z}: cpu $(ratio "${cpu[ours$z]}" "${cpu[distro$z]}")," \
	     "bytes $(ratio "${bytes[ours$z]}" "${bytes[distro$z]}")," \
	     "lost ${lost[ours$z]} vs ${lost[distro$z]}"
done
for who in ours distro; do
	echo "$who with -z / without: cpu $(ratio "${cpu[$who-z]}" "${cpu[$who]}")," \
	     "bytes $(ratio "${bytes[$who-z]}" "${bytes[$who]}")"
done
