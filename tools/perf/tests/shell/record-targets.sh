#!/bin/bash
# perf record target conflicts warn like the distro; -C with an offline CPU names it
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
cd "$TMPD"

# A task that lives until we end it, for -p/-t.
sleep 1000 &
T=$!
trap 'kill $T 2>/dev/null; rm -rf "$TMPD"' EXIT

# Runs "$1 record ..." against $T until it polls (then every event is
# enabled), stops it with SIGINT and keeps its warnings in $2.
warnings_of() {
	local perf=$1 out=$2; shift 2
	"$perf" record -e cpu-clock -o "$TMPD/t.data" "$@" >/dev/null 2>"$TMPD/err" &
	local p=$!
	deadline $WAIT_S
	while ! grep -q poll "/proc/$p/wchan" 2>/dev/null; do
		kill -0 $p 2>/dev/null || break
		! past_deadline || { kill -INT $p; fail "$perf record $* never polled in $WAIT_S s"; }
		sleep 0.01
	done
	kill -INT $p 2>/dev/null
	wait $p
	local rc=$?
	grep -A1 '^Warning:' "$TMPD/err" | grep -v -e '^Warning:' -e '^--' >"$out"
	return $rc
}

for args in "-a -p $T" "-C 0 -p $T" "-a -C 0 -t $T" "-a --per-thread -p $T" "-C 0 --per-thread -t $T"; do
	warnings_of "$PERF" ours.txt $args || { cat err; fail "record $args failed"; }
	"$ORACLE" evlist -i t.data >/dev/null 2>&1 || fail "record $args: unreadable file"
	warnings_of "$ORACLE" theirs.txt $args
	diff -u theirs.txt ours.txt || fail "record $args: warnings differ from the distro's"
	[ -s ours.txt ] || fail "record $args: no warning"
	echo "$args: $(tr '\n' ';' <ours.txt)"
done

# -a and -C win over --per-thread (the -p above won over them instead).
"$PERF" record -a --per-thread -e cpu-clock -o w.data -- true >/dev/null 2>err ||
	{ cat err; fail "-a --per-thread failed"; }
grep -qx 'SYSTEM/CPU switch overriding PER-THREAD' err || { cat err; fail "-a --per-thread: no warning"; }
# -q keeps warnings quiet, as with the distro.
"$PERF" record -q -a --per-thread -e cpu-clock -o w.data -- true >/dev/null 2>err
[ ! -s err ] || { cat err; fail "-q still warned"; }

# -p with a command: the command only times the recording, as in the
# distro; the task named by -p is what is recorded.  (Its events waited
# for an exec of that task and recorded nothing.)
$PERF test -w burn 30 &
B=$!
trap 'kill $T $B 2>/dev/null; rm -rf "$TMPD"' EXIT
"$PERF" record -q -e cpu-clock -p $B -o p.data -- sleep 0.3 >/dev/null 2>err || { cat err; fail "-p PID -- sleep"; }
kill $B
"$PERF" script -F pid -i p.data >pids.txt 2>err || { cat err; fail "script of -p PID -- sleep"; }
[ -s pids.txt ] || fail "-p $B -- sleep 0.3: no sample"
awk -v b=$B '$1 != b { bad = 1 } END { exit !bad }' pids.txt && { sort pids.txt | uniq -c; fail "-p $B -- sleep 0.3: samples of other tasks"; }
echo "-p PID -- sleep 0.3: $(wc -l <pids.txt) samples, all of PID"

# An offline CPU is named, with the ones that are online.
last=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
bad=$((last + 1))
for list in "$bad" "0,$bad" "$((1 << 20))"; do
	"$PERF" record -C "$list" -e cpu-clock -o c.data -- true >/dev/null 2>err && fail "-C $list succeeded"
	first=${list#0,}
	grep -q "^-C $list: CPU $first is not online (online CPUs: $(cat /sys/devices/system/cpu/online))" err ||
		{ cat err; fail "-C $list: the offline CPU is not named"; }
	[ ! -e c.data ] || fail "-C $list: left a file behind"
	echo "-C $list -> $(head -1 err)"
done
exit 0
