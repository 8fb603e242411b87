#!/bin/bash
# perf record -k/--clockid: samples timed by the clock asked for, CLOCKID and CLOCK_DATA written, perf script -F tod and the dump message in wall-clock time
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
command -v python3 >/dev/null || skip "python3 is needed to read the clocks"
cd "$TMPD"

now() { python3 -c "import time; print(time.clock_gettime_ns($1))"; }
# "sec.usec" of nanoseconds $1, as perf script prints times.
usec() { printf '%d.%06d' $(($1 / 1000000000)) $(($1 % 1000000000 / 1000)); }

# name | number | python's clock
CLOCKS='monotonic|1|time.CLOCK_MONOTONIC
monotonic_raw|4|time.CLOCK_MONOTONIC_RAW
realtime|0|time.CLOCK_REALTIME
boottime|7|time.CLOCK_BOOTTIME
tai|11|time.CLOCK_TAI
CLOCK_BOOTTIME|7|time.CLOCK_BOOTTIME
1|1|time.CLOCK_MONOTONIC'
while IFS='|' read -r arg id pyclock; do
	f=k-$id-${arg,,}.data
	t0=$(now "$pyclock"); w0=$(now time.CLOCK_REALTIME)
	$PERF record -q -k "$arg" -e cpu-clock -o "$f" -- $PERF test -w burn 0.2 || fail "-k $arg: record"
	t1=$(now "$pyclock"); w1=$(now time.CLOCK_REALTIME)
	# Every sample is timed by that clock: between its readings before and after.
	$PERF script -F time,tod -i "$f" >ours.txt 2>ours.err || { cat ours.err; fail "-k $arg: script"; }
	[ -s ours.txt ] || fail "-k $arg: no samples"
	read -r first < <(awk '{ print $NF }' ours.txt | tr -d : | sort -n | head -1)
	read -r last < <(awk '{ print $NF }' ours.txt | tr -d : | sort -n | tail -1)
	awk -v a="$(usec "$t0")" -v b="$(usec "$t1")" -v f="$first" -v l="$last" \
		'BEGIN { exit !(a <= f && l <= b) }' ||
		fail "-k $arg: samples at $first..$last, outside $(usec "$t0")..$(usec "$t1") of clock $id"
	# Their times of day fall in the wall-clock readings around the recording.
	python3 - "$w0" "$w1" ours.txt <<'EOF' || fail "-k $arg: perf script -F tod outside the recording's wall-clock time"
import sys, datetime
w0, w1 = int(sys.argv[1]) / 1e9, int(sys.argv[2]) / 1e9
for line in open(sys.argv[3]):
    d, t = line.split()[:2]
    tod = datetime.datetime.strptime(d + " " + t, "%Y-%m-%d %H:%M:%S.%f").timestamp()
    if not (w0 - 1e-6 <= tod <= w1 + 1e-6):
        sys.exit("%s: %f not in %f..%f" % (line.strip(), tod, w0, w1))
EOF
	oracle_ok "-k $arg: evlist" evlist -v -i "$f" >ev.txt
	grep -q "use_clockid: 1" ev.txt || { cat ev.txt; fail "-k $arg: use_clockid not set"; }
	[ "$id" = 0 ] || grep -q "clockid: $id\$" ev.txt || { cat ev.txt; fail "-k $arg: clockid not $id"; }
	oracle_ok "-k $arg: header" report --header-only -i "$f" >dh.txt
	grep -Eq "^# clockid: [a-z_]+ \($id\)$" dh.txt || { cat dh.txt; fail "-k $arg: the distro reads no clockid $id"; }
	$PERF report --header-only -i "$f" >oh.txt 2>&1
	cmp -s dh.txt oh.txt || { diff dh.txt oh.txt; fail "-k $arg: our --header-only differs from the distro's"; }
	oracle_ok "-k $arg: script -F tod" script -F comm,tid,tod,time -i "$f" >d.txt
	$PERF script -F comm,tid,tod,time -i "$f" >o.txt 2>&1
	cmp -s d.txt o.txt || { diff d.txt o.txt | head -5; fail "-k $arg: our -F tod differs from the distro's"; }
	echo "-k $arg: $(wc -l <ours.txt) samples in clock $id, $first..$last"
done <<<"$CLOCKS"

# A dump's message gives its range in the clock and as times of day.
$PERF record -k monotonic -e cpu-clock --overwrite --switch-output -o fr.data -- \
	$PERF test -w burn 1.2 2>fr.err &
dump_once_then_exit $! 'fr.data.*'
f=$(ls fr.data.* | head -1)
msg=$(grep "Dump $f (signal SIGUSR2):" fr.err) || { cat fr.err; fail "no dump message for $f"; }
$PERF script -F time,tod -i "$f" | sed "s/: *$//" | sort -k3n >d.txt
range=$(awk 'NR == 1 { a = $3; ta = $1 " " $2 } { b = $3; tb = $1 " " $2 }
	END { print a ".." b " (.* s; " ta ".." tb ")" }' d.txt)
echo "$msg" | grep -q "samples, $range, " || fail "the dump message '$msg' does not give $range"
echo "$msg"

# Wrong uses.
$PERF record -k sundial -o bad.data true 2>bad.err && fail "-k sundial accepted"
grep -q "Invalid -k/--clockid value 'sundial'" bad.err || { cat bad.err; fail "-k sundial: no clear message"; }
[ -e bad.data ] && fail "-k sundial left a file"
$PERF record -k 99 -e cpu-clock -o bad.data true 2>bad.err && fail "-k 99 accepted"
grep -q "The kernel refused clock 99 for cpu-clock" bad.err || { cat bad.err; fail "-k 99: no clear message"; }
[ -e bad.data ] && fail "-k 99 left a file"
$PERF record -q -e cpu-clock -o plain.data true || fail "record without -k"
$PERF script -F tod -i plain.data >/dev/null 2>tod.err && fail "-F tod without clock data accepted"
grep -q "missing clock data. Please record with -k/--clockid" tod.err || { cat tod.err; fail "-F tod without clock data: no clear message"; }
exit 0
