#!/bin/bash
# `make run`: a short flight-recorder session ending with a dump decoded on screen.
set -u
PERF_DIR=$(cd "$(dirname "$0")/.." && pwd)
PERF=$PERF_DIR/perf
OUT=${DEMO_DIR:-/tmp/perf-demo}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
rm -rf "$OUT"; mkdir -p "$OUT"; cd "$OUT" || exit 1

echo "== Flight recorder demo: output in $OUT"
echo "\$ perf record -e cycles -e 'raw_syscalls:*/call-graph=no/' -e sched:sched_switch/call-graph=no/ --overwrite --switch-output -a -g &"
$SUDO "$PERF" record -e cycles -e 'raw_syscalls:*/call-graph=no/' -e sched:sched_switch/call-graph=no/ -g \
	--overwrite --switch-output -a -o perf.data &
REC=$!
sleep 1
echo "== a workload runs: 2 s of getppid() calls; then a 'latency spike' and a signal"
"$PERF" test -w getppid 3000000 &
sleep 1
"$PERF" test -w mark spike-demo $REC
sleep 0.5
$SUDO kill -INT $REC
wait $REC
wait
echo
ls -l "$OUT"
DUMP=$(ls perf.data.* | head -1)
[ -n "$DUMP" ] || { echo "no dump was written" >&2; exit 1; }
echo
echo "== the first dump, decoded ($DUMP): the newest events, the marker among them"
if "$PERF" script -i "$DUMP" >script.txt 2>script.err; then
	READER="perf script (ours)"
elif [ -x /usr/bin/perf ]; then
	/usr/bin/perf script -i "$DUMP" >script.txt 2>script.err
	READER="/usr/bin/perf script"
fi
echo "(read with $READER; $(wc -l <script.txt) lines, showing the marker's neighbourhood)"
grep -n -m1 'spike-demo' script.txt | cut -d: -f1 | while read -r l; do
	start=$(( l > 8 ? l - 8 : 1 ))
	sed -n "${start},$(( l + 4 ))p" script.txt
done
grep -q spike-demo script.txt || tail -20 script.txt
