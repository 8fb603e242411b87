#!/bin/bash
# perf daemon stop: the step timeouts the manual and the unit file state are the daemon's
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"
DOC=$(dirname "$0")/../../Documentation
BASE=$TMPD/base
daemon_cleanup() {
	local pid
	pid=$(cat "$BASE/lock" 2>/dev/null)
	[ -n "$pid" ] && pkill -CONT -s "$pid" 2>/dev/null && pkill -9 -s "$pid" 2>/dev/null
	cleanup
}
trap daemon_cleanup EXIT

# What the manual and the unit file say: seconds per step, and the unit's limit.
step=$(tr -s '\n\t ' '   ' <"$DOC/perf-daemon.txt" | grep -o 'in three steps given [0-9]* seconds each' |
	grep -o '[0-9]*')
[ -n "$step" ] || fail "the manual's stop does not state its three steps' seconds"
unit=$DOC/examples/perf-daemon.service.in
grep -q "three steps of $step s each" "$unit" || fail "the unit file does not state the manual's $step s per step"
limit=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' "$unit")
[ -n "$limit" ] && [ "$limit" -gt $((3 * step)) ] ||
	fail "the unit's TimeoutStopSec=$limit does not leave the $((3 * step)) s that stop may take"

# What the daemon does: a recorder that answers nothing (stopped: the
# control command and SIGTERM wait) ends at SIGKILL, after two steps.
perf_event_ok() { "$PERF" record -q -e cpu-clock -o probe.data -- true 2>/dev/null; }
perf_event_ok || skip "cannot record cpu-clock here (perf_event_paranoid?)"
printf '[daemon]\nbase = %s\n[session-s]\nrun = -e cpu-clock -m 1 -- sleep 1000\n' "$BASE" > config
"$PERF" daemon start --config config || fail "start exited $?"
wait_for '"$PERF" daemon ping --config config --session s | grep -qx "OK   s"'
rec=$("$PERF" daemon --config config -x: | awk -F: '$2 == "s" { print $1 }')
[ -n "$rec" ] && [ "$rec" -gt 0 ] || fail "session s is not running"
kill -STOP "$rec"
t0=$(date +%s.%N)
timeout $((5 * step)) "$PERF" daemon stop --config config || fail "stop exited $?"
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "stop of a recorder that answers nothing: $took s (two steps of $step s)"
! kill -0 "$rec" 2>/dev/null || fail "the recorder $rec outlived stop"
awk -v t="$took" -v s="$step" 'BEGIN { exit !(t >= 2 * s - 0.5 && t <= 2 * s + 5) }' ||
	fail "stop took $took s, not the two steps of $step s the manual states"
exit 0
