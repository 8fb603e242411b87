#!/bin/bash
# Flight recorder: 200 signals at random intervals, and a full disk
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

rss() { awk '/^VmRSS/ { print $2 }' /proc/$1/status; }

"$PERF" test -w getppid 2000000000 & LOAD=$!
"$PERF" record -q -e 'raw_syscalls:*' -m 16 --overwrite --switch-output -a -o st.data 2>st.err &
REC=$!
sleep 1
for i in $(seq 1 20); do kill -USR2 $REC; sleep 0.01; done
sleep 0.5
rss_before=$(rss $REC)
for i in $(seq 1 200); do
	kill -USR2 $REC
	sleep "0.0$(( RANDOM % 19 + 1 ))"
done
sleep 1
rss_after=$(rss $REC)
kill -INT $REC; wait $REC; rc=$?
kill $LOAD; wait $LOAD 2>/dev/null
[ $rc -eq 0 ] || { tail st.err; fail "record exited $rc under the storm"; }
nr=$(ls st.data.* | wc -l)
echo "storm: $nr dumps, RSS ${rss_before} kB -> ${rss_after} kB"
[ "$nr" -ge 20 ] || fail "only $nr dumps for 220 signals"
[ $(( rss_after - rss_before )) -lt 8192 ] || fail "memory grew by $(( rss_after - rss_before )) kB"
for f in st.data.*; do
	"$ORACLE" script -i "$f" >/dev/null 2>"$f.err" || fail "$f unreadable"
	! grep -Eiq 'corrupt|invalid|properly terminated|out of order' "$f.err" || { cat "$f.err"; fail "$f: warnings"; }
done

# A full disk during a dump: a clear error, earlier dumps intact, a clean stop.
mkdir full && mount -t tmpfs -o size=1m tmpfs full || skip "cannot mount a tmpfs"
trap 'umount "$TMPD/full" 2>/dev/null; rm -rf "$TMPD"' EXIT
"$PERF" test -w getppid 2000000000 & LOAD=$!
"$PERF" record -q -e 'raw_syscalls:*' -m 128 --overwrite --switch-output -a -o full/fr.data 2>full.err &
REC=$!
sleep 1
kill -USR2 $REC; sleep 1
kill -USR2 $REC; sleep 1
kill -USR2 $REC; sleep 1
kill -INT $REC 2>/dev/null; wait $REC; rc=$?
kill $LOAD; wait $LOAD 2>/dev/null
cat full.err
[ $rc -ne 0 ] || fail "a full disk did not give a non-zero exit"
grep -q 'No space left on device' full.err || fail "no clear disk-full message"
[ ! -e full/fr.data ] || fail "the incomplete file was left as fr.data"
for f in full/fr.data.*; do
	[ -e "$f" ] || continue
	"$ORACLE" script -i "$f" >/dev/null 2>"$TMPD/e" || fail "earlier dump $f damaged"
done
umount full
exit 0
