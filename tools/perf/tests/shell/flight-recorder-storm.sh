#!/bin/bash
# Flight recorder: 300 dumps under a syscall storm on every CPU, each whole; a full disk and a lost directory survived
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

rss() { awk '/^VmRSS/ { print $2 }' /proc/$1/status; }
loads() {
	LOADS=""
	for c in $(seq 0 $(( $(nproc) - 1 ))); do
		taskset -c "$c" "$PERF" test -w getppid 20000000000 & LOADS="$LOADS $!"
	done
}

# 1. 300 dumps, one signal each, while every CPU makes syscalls as fast as it can.
loads
"$PERF" record -e 'raw_syscalls:*' -m 16 --overwrite --switch-output -a -o st.data 2>st.err &
REC=$!
wait_recording $REC
N=300
for i in $(seq 1 $N); do
	kill -USR2 $REC
	wait_lines st.err $i 'Dump st.data'
	[ $i -eq 20 ] && rss_before=$(rss $REC)
done
rss_after=$(rss $REC)
kill -INT $REC; wait $REC; rc=$?
kill $LOADS; wait $LOADS 2>/dev/null
[ $rc -eq 0 ] || { tail st.err; fail "record exited $rc under the storm"; }
nr=$(ls st.data.* | wc -l)
echo "storm: $nr dumps in $SECONDS s, RSS ${rss_before} kB after 20 -> ${rss_after} kB after $N"
[ "$nr" -eq $((N + 1)) ] || fail "$nr dumps for $N signals and the exit"
[ $(( rss_after - rss_before )) -lt 8192 ] || fail "memory grew by $(( rss_after - rss_before )) kB"
# Every record whole, every sample inside the range the dump line gives.
sed -n 's/^\[ perf record: Dump \(st\.data\.[0-9]*\) ([^)]*): [0-9]* samples, \([0-9.]*\)\.\.\([0-9.]*\) .*/\1 \2 \3/p' \
	st.err > ranges
[ "$(wc -l < ranges)" -eq $N ] || { head st.err; fail "not every dump line gives its range"; }
while read -r f first last; do
	"$PERF" test -w validate "$f" "$first" "$last" >/dev/null || fail "$f has a bad record"
done < ranges
# The distro reads one dump in five (and the exit dump), two at a time: its
# reads cost 40 s for all 301, and the validator has seen every record.
ls st.data.* | awk 'NR % 5 == 1' > oracle.list
ls st.data.* | tail -1 >> oracle.list
xargs -P 2 -I{} sh -c '"$1" script -i "$2" >/dev/null 2>"$2.err" || echo "$2 unreadable" >>oracle.bad' \
	sh "$ORACLE" {} < oracle.list
[ ! -s oracle.bad ] || { cat oracle.bad; fail "the distro perf could not read every dump"; }
while read -r f; do
	! grep -Eiq 'corrupt|invalid|properly terminated|out of order|Check IO' "$f.err" ||
		{ cat "$f.err"; fail "$f: warnings"; }
done < oracle.list
echo "storm: $N dumps whole by the validator, $(wc -l < oracle.list) of them read by the distro perf without a warning ($SECONDS s)"

# 2. The disk fills during a dump: the dump is dropped with a clear message,
#    recording goes on, and once there is room the next dumps are whole.
mkdir full && mount -t tmpfs -o size=256k tmpfs full || skip "cannot mount a tmpfs"
trap 'umount "$TMPD/full" 2>/dev/null; cleanup' EXIT
loads
# 512 KiB buffers: one busy CPU's dump alone does not fit in 256 KiB.
"$PERF" record -e 'raw_syscalls:*' -m 128 --overwrite --switch-output -a -o full/fr.data 2>full.err &
REC=$!
wait_recording $REC
# The loads fill the buffers past what 256 KiB holds: 200 ms of them on
# the CPUs are a hundred thousand syscalls or more, and one CPU's 512 KiB
# fill with a few thousand.
wait_ran 200 $LOADS
kill -USR2 $REC
wait_lines full.err 1 'The dump was dropped'
grep -q 'No space left on device' full.err || { cat full.err; fail "no clear disk-full message"; }
[ ! -e full/fr.data ] || fail "the incomplete dump was left as fr.data"
mount -o remount,size=64m full
kill -USR2 $REC
wait_lines full.err 1 'Dump full/fr.data'
kill -USR2 $REC
wait_lines full.err 2 'Dump full/fr.data'
kill -0 $REC || fail "the recorder stopped"
kill -INT $REC; wait $REC; rc=$?
cat full.err
[ $rc -eq 0 ] || fail "the recorder exited $rc after surviving a full disk"
[ "$(ls full/fr.data.* | wc -l)" -eq 3 ] || fail "expected two dumps after the disk had room, and the exit dump"
for f in full/fr.data.*; do
	"$PERF" test -w validate "$f" >/dev/null || fail "$f has a bad record"
	oracle_ok "script $f" script -i "$f" > /dev/null || exit 1
done

# 3. The output directory goes away: the same, until it is back.
mkdir gone
"$PERF" record -e 'raw_syscalls:*' -m 128 --overwrite --switch-output -a -o gone/fr.data 2>gone.err &
REC=$!
wait_recording $REC
rm -rf gone
kill -USR2 $REC
wait_lines gone.err 1 'The dump was dropped'
kill -USR2 $REC
wait_lines gone.err 2 'The dump was dropped'
mkdir gone
kill -USR2 $REC
wait_lines gone.err 1 'Dump gone/fr.data'
kill -INT $REC; wait $REC; rc=$?
kill $LOADS; wait $LOADS 2>/dev/null
cat gone.err
[ $rc -eq 0 ] || fail "the recorder exited $rc after surviving its failed dumps"
grep -q "Cannot create the output file gone/fr.data" gone.err || fail "no message for the lost directory"
[ "$(ls gone/fr.data.* | wc -l)" -eq 2 ] || fail "expected the dump after the directory came back and the exit dump"
for f in gone/fr.data.*; do
	"$PERF" test -w validate "$f" >/dev/null || fail "$f has a bad record"
	oracle_ok "script $f" script -i "$f" > /dev/null || exit 1
done
exit 0
