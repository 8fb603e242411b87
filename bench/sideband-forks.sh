#!/bin/bash
# Flight recorder under a fork storm, ours vs the distro perf: NPROC
# short-lived processes (fork + exec of /bin/true, two loops side by side)
# while `record -e cpu-clock -g --overwrite --switch-output -a` runs.  For
# each: the recorder's CPU as a share of one core over the storm, and for
# ours the process table's peak (from -v); then whether the dump taken at
# the end names the last program.
. "$(dirname "$0")/lib.sh"
NPROC=${NPROC:-10000}
command -v cc >/dev/null || { echo "cc is needed" >&2; exit 1; }
cc -O1 -g -fno-omit-frame-pointer -o "$W/burner" "$ROOT/tools/perf/tests/shell/lib/burner.c" || exit 1

storm() {
	local half=$((NPROC / 2)) a b
	(for ((i = 0; i < half; i++)); do /bin/true; done) & a=$!
	(for ((i = 0; i < NPROC - half; i++)); do /bin/true; done) & b=$!
	wait $a $b
}

declare -A cpu wall named
for who in distro ours; do
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	/usr/bin/time -f "%U %S" -o "$W/t.$who" "$bin" record -v -e cpu-clock -g --overwrite \
		--switch-output -a -m 64 -o "$W/fs.$who" 2>"$W/err.$who" &
	rec=$!
	sleep 1
	s=$(date +%s.%N)
	storm
	e=$(date +%s.%N)
	pid=$("$W/burner" 0.3)
	sleep 0.05
	# time(1) ignores SIGINT: signal the recorder under it.
	pkill -INT -P $rec; wait $rec
	wall[$who]=$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", b - a }')
	cpu[$who]=$(cpu_of "$W/t.$who")
	dump=$(ls "$W"/fs.$who.* | tail -1)
	named[$who]=$("$DISTRO" script -i "$dump" -F comm,pid -G 2>/dev/null |
		awk -v pid="$pid" '$2 == pid { n++; if ($1 == "burner") c++ } END { printf "%d/%d", c, n }')
	[ $who = ours ] && grep 'process table' "$W/err.$who"
	rm -f "$W"/fs.$who*
done
for who in distro ours; do
	echo "$who: $NPROC processes in ${wall[$who]} s; recorder CPU ${cpu[$who]} s" \
	     "($(awk -v c="${cpu[$who]}" -v w="${wall[$who]}" 'BEGIN { printf "%.2f", 100 * c / w }')% of one core);" \
	     "last program's samples named in the final dump: ${named[$who]}"
done
echo "ratio ours/distro recorder CPU: $(ratio "${cpu[ours]}" "${cpu[distro]}")"
