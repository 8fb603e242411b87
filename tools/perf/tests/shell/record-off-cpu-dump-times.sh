#!/bin/bash
# perf record --off-cpu --overwrite --switch-output: every dump's first and last sample times are real times of the recording, off-CPU samples' too, as the distro reads them; each dump in time order
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
command -v python3 >/dev/null || skip "python3 is needed to read the clocks"
here=$(cd "$(dirname "$0")" && pwd)
own_tmpd record-off-cpu-dump-times

now() { python3 -c "import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))"; }
# Microseconds of "sec.usec" $1, as the header prints times.
us() { local s=${1%.*} u=${1#*.}; echo $((s * 1000000 + 10#$u)); }

# A shell that sleeps, asks for a dump, waits for its file and sleeps
# again: a dump by the signal and one at the exit, each with the
# offcpu-time samples of its sleep.
WL='sleep 0.2; kill -USR2 $PPID; while ! ls o.data.2* >/dev/null 2>&1; do sleep 0.05; done; sleep 0.2'

# record <-k option or nothing>: the two dumps of $WL; t0 and t1 are the
# monotonic clock before and after.
record() {
	rm -f o.data o.data.*
	t0=$(now)
	# shellcheck disable=SC2086
	timeout 60 "$PERF" record $1 --off-cpu --overwrite --switch-output -e cpu-clock \
		-o o.data -- sh -c "$WL" >out 2>err
	rc=$?
	t1=$(now)
	if grep -q "option \`off-cpu' is being ignored because" err; then
		skip "no BPF here: $(sed -n 's/.*being ignored because //p' err)"
	fi
	[ $rc -eq 0 ] || { cat err; fail "record $1 --off-cpu --overwrite --switch-output exited $rc"; }
	[ "$(ls o.data.2* | wc -l)" -eq 2 ] || { cat err; fail "two dumps expected: $(ls o.data.2*)"; }
}

# check <dump> <lo> <hi> <what>: the dump's header has its first and last
# sample times in [lo, hi] (microseconds), first <= last, a duration
# shorter than the recording's wall time, its offcpu-time samples at
# times in that range; no record in it goes back in time as readers walk
# it (lib/time-order.py); the distro reads it alike and without a warning.
check() {
	local f=$1 lo=$2 hi=$3 what=$4 first last dur wall t

	python3 "$here/lib/time-order.py" "$f" || fail "$f is not in time order"

	"$PERF" report --header-only -i "$f" >h.txt 2>h.err || { cat h.err; fail "$f: header"; }
	first=$(sed -n 's/^# time of first sample : //p' h.txt)
	last=$(sed -n 's/^# time of last sample : //p' h.txt)
	dur=$(sed -n 's/^# sample duration : *\([0-9.]*\) ms$/\1/p' h.txt)
	[ -n "$first" ] && [ -n "$last" ] && [ -n "$dur" ] ||
		{ cat h.txt; fail "$f: no sample times in the header"; }
	echo "$f: first sample $first, last $last, $dur ms; $what $lo..$hi us"
	[ "$(us "$first")" -le "$(us "$last")" ] || fail "$f: first sample $first after the last, $last"
	[ "$(us "$first")" -ge "$lo" ] && [ "$(us "$last")" -le "$hi" ] ||
		fail "$f: sample times $first..$last outside $what, $lo..$hi us"
	wall=$(( (t1 - t0) / 1000 ))
	awk -v d="$dur" -v w="$wall" 'BEGIN { exit !(d * 1000 < w) }' ||
		fail "$f: sample duration $dur ms, not shorter than the recording's $wall us"
	"$PERF" script -F event,time -i "$f" 2>/dev/null | awk '$2 == "offcpu-time:" { print $1 }' |
		tr -d : >off.txt
	[ -s off.txt ] || fail "$f: no offcpu-time samples"
	while read -r t; do
		[ "$(us "$t")" -ge "$(us "$first")" ] && [ "$(us "$t")" -le "$(us "$last")" ] ||
			fail "$f: an offcpu-time sample at $t, outside the file's $first..$last"
	done <off.txt
	oracle_ok "header of $f" report --header-only -i "$f" >dh.txt
	grep '^# \(time of\|sample duration\)' h.txt >oh.times
	grep '^# \(time of\|sample duration\)' dh.txt >dh.times
	cmp -s oh.times dh.times || { diff oh.times dh.times; fail "$f: the distro reads other sample times"; }
	oracle_ok "script of $f" script -i "$f" >/dev/null
}

# The monotonic clock: the recording's range, read around it.
record "-k monotonic"
for f in o.data.2*; do
	check "$f" $((t0 / 1000)) $((t1 / 1000)) "the recording's CLOCK_MONOTONIC"
done

# perf's own clock: the range of the dump's other timed records.
record ""
for f in o.data.2*; do
	"$PERF" script -F event,time --show-task-events --show-mmap-events -i "$f" 2>/dev/null |
		awk '$2 != "offcpu-time:" && $1 != "0.000000:" { print $1 }' |
		tr -d : | sort -n >other.txt
	[ -s other.txt ] || fail "$f: no timed record but offcpu-time's"
	check "$f" "$(us "$(head -1 other.txt)")" "$(us "$(tail -1 other.txt)")" "its other records'"
done
exit 0
