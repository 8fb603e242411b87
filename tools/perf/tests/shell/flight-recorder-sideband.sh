#!/bin/bash
# Flight recorder: dumps name and resolve a program that exited before the signal
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v cc >/dev/null || skip "no C compiler (cc) to build the test program"
cd "$TMPD"
cc -O1 -g -fno-omit-frame-pointer -o burner "$(dirname "$0")/lib/burner.c" ||
	fail "cannot build lib/burner.c"

# Records system-wide with small buffers; burner runs 2 s (longer than the
# buffers hold, so its exec-time COMM and MMAP2 are long overwritten), exits,
# and 50 ms later comes the signal.  Prints "<burner samples> <with comm
# burner> <leaf resolved>" for the first dump of recorder $1.
exited_program_case() {
	local bin=$1 tag=$2 rec pid dump
	"$bin" record -q -e cpu-clock -g --overwrite --switch-output -a -m 64 -o "$tag.data" \
		2>"$tag.err" &
	rec=$!
	wait_recording $rec
	pid=$(./burner 2)
	sleep 0.05
	kill -USR2 $rec
	wait_files "$tag.data.*" 1
	kill -INT $rec
	wait $rec
	dump=$(ls "$tag".data.* 2>/dev/null | head -1)
	[ -n "$dump" ] || { cat "$tag.err" >&2; fail "$tag: no dump"; }
	oracle_ok "$tag script" script -i "$dump" -F comm,pid,sym,dso -G > "$tag.leaf" ||
		exit 1
	oracle_ok "$tag script -g" script -i "$dump" -F comm,pid,ip,sym,dso > "$tag.chains" ||
		exit 1
	awk -v pid="$pid" '$2 == pid { n++; if ($1 == "burner") c++; if ($0 !~ /unknown/) r++ }
		END { printf "%d %d %d\n", n, c, r }' "$tag.leaf"
}

read -r n comm resolved < <(exited_program_case "$PERF" ours)
echo "ours: $n samples of the exited program, $comm with its comm, $resolved with a resolved leaf"
[ "$n" -ge 200 ] || fail "only $n samples of the program in the dump: it should hold most of a 2 s run"
[ $((comm * 100)) -ge $((n * 99)) ] || fail "only $comm of $n samples show comm burner"
[ $((resolved * 100)) -ge $((n * 99)) ] || fail "only $resolved of $n samples have a resolved leaf"
grep -q ' ([^)]*/burner)$' ours.chains || fail "no frame resolves in the program's own binary"
grep -q '(.*libc.so[^)]*)' ours.chains || fail "no frame resolves in libc"
read -r dn dcomm dres < <(exited_program_case "$ORACLE" distro)
echo "the distro perf: $dn samples of the exited program, $dcomm with its comm, $dres resolved"
# Where the distro's dump holds the program too, ours names and resolves
# at least as large a share of its samples.
if [ "$dn" -gt 0 ]; then
	[ $((comm * dn)) -ge $((dcomm * n)) ] ||
		fail "ours names $comm of $n samples, a smaller share than the distro's $dcomm of $dn"
	[ $((resolved * dn)) -ge $((dres * n)) ] ||
		fail "ours resolves $resolved of $n samples, a smaller share than the distro's $dres of $dn"
fi

# The dump line says what the file covers.
"$PERF" record -e cpu-clock --overwrite --switch-output -a -m 16 -o msg.data 2>msg.err &
rec=$!
wait_recording $rec
sleep 0.2	# a moment of samples for the dump to describe
kill -USR2 $rec
wait_files 'msg.data.*'
kill -INT $rec
wait $rec
grep -Eq '^\[ perf record: Dump msg\.data\.[0-9]{16} \(signal SIGUSR2\): [0-9]+ samples, [0-9]+\.[0-9]{6}\.\.[0-9]+\.[0-9]{6} \([0-9.]+ s\), [1-9][0-9]* tasks, 0 lost \]$' msg.err ||
	{ cat msg.err; fail "the dump message does not say its request, samples, time range and tasks"; }

# A fork storm: the table is pruned as the buffers turn over, stays under its
# cap, and a dump at the end still names the last program.
#    A dump taken more than the table's 100 ms clock margin after the
#    storm tells it that no later dump can need the exited tasks.
"$PERF" record -v -e cpu-clock -g --overwrite --switch-output -a -m 16 --sideband-max=8M \
	-o storm.data 2>storm.err &
rec=$!
wait_recording $rec
for i in $(seq 600); do /bin/true; done
sleep 0.3
kill -USR2 $rec
wait_files 'storm.data.*'
pid=$(./burner 0.3)
sleep 0.05	# the program has exited 50 ms before the dump, as in the first case
kill -INT $rec
wait $rec || fail "record exited non-zero after the fork storm"
grep 'process table' storm.err
! grep -q 'reached --sideband-max' storm.err || fail "the table hit its cap"
pruned=$(sed -n 's/.*process table: .* \([0-9]*\) tasks pruned.*/\1/p' storm.err)
[ "${pruned:-0}" -ge 200 ] || fail "the table pruned only ${pruned:-0} of 600 exited tasks"
dump=$(ls storm.data.* | tail -1)
oracle_ok "storm script" script -i "$dump" -F comm,pid -G > storm.txt || exit 1
# Samples from before its exec rightly show the shell that forked it.
n=$(awk -v pid="$pid" '$2 == pid && $1 != "bash"' storm.txt | wc -l)
c=$(awk -v pid="$pid" '$2 == pid && $1 == "burner"' storm.txt | wc -l)
echo "fork storm: the last program has $n samples, $c with its comm"
[ "$n" -gt 0 ] && [ $((c * 100)) -ge $((n * 99)) ] || fail "the last program is not named after the storm"

# Without --overwrite there is no table: the dump line is as before.
"$PERF" record -e cpu-clock --switch-output -o plain.data -- ./burner 0.5 >/dev/null 2>plain.err &
rec=$!
wait_recording $rec
kill -USR2 $rec
wait $rec
grep -Eq '^\[ perf record: Dump plain\.data\.[0-9]{16} \]$' plain.err ||
	{ cat plain.err; fail "a plain --switch-output dump line changed"; }
exit 0
