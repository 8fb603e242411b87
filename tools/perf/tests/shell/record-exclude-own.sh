#!/bin/bash
# perf record --overwrite: its own syscalls stay out of its buffers and fire no trigger, unless --include-perf
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
cd "$TMPD"

# A recorder whose events and trigger see only itself: bash execs it, so
# $$ there is the recorder's pid.  $1: the tag, then more options.  Two
# dumps (the second holds the writes of the first), by signal or, for
# "kept", by the trigger its own syscalls fire, then the last at SIGINT.
# Prints the number of the recorder's own records in each dump, one line
# each; its messages are in $tag.err.
own_case() {
	local tag=$1 rec f
	shift
	bash -c 'exec "$0" record -e raw_syscalls:sys_enter --filter "common_pid == $$" \
		--switch-output-event=raw_syscalls:sys_exit --filter "common_pid == $$" \
		--overwrite -a -m 16 -o "$1.data" "${@:2}" 2>"$1.err"' "$PERF" "$tag" "$@" &
	rec=$!
	if [ "$tag" = kept ]; then
		# Its own syscalls fire the trigger: two dumps that way.
		wait_lines "$tag.err" 2 '(trigger ' $rec
	else
		wait_recording $rec
		for n in 1 2; do
			kill -USR2 $rec
			wait_lines "$tag.err" $n '(signal SIGUSR2)' $rec
		done
	fi
	kill -INT $rec
	wait $rec || { cat "$tag.err"; fail "$tag: record exited $?"; }
	for f in "$tag".data.*; do
		"$PERF" script -i "$f" -F pid,event 2>/dev/null | awk -v p=$rec '$1 == p' | wc -l
	done
	echo "pid $rec" >"$tag.pid"
}

own_case left >left.n
[ "$(wc -l <left.n)" -ge 3 ] || { cat left.err; fail "fewer than three dumps"; }
[ "$(sort -u left.n)" = 0 ] ||
	fail "the recorder's own syscalls are in its dumps: $(tr '\n' ' ' <left.n)"
grep -q '(trigger' left.err && { cat left.err; fail "the recorder's own syscall fired its trigger"; }
echo "left out: $(tr '\n' ' ' <left.n)of the recorder's own records per dump, no trigger fired"

own_case kept --include-perf >kept.n
second=$(sed -n 2p kept.n)
[ "$second" -gt 0 ] ||
	{ cat kept.err; fail "--include-perf: the second dump lacks the first's writes"; }
echo "--include-perf: $(tr '\n' ' ' <kept.n)of the recorder's own records per dump, triggers fired"

# Under perf daemon, a session's recorder is told the daemon's pid to leave out.
base=$TMPD/base
mkdir -p "$base"
trap daemon_cleanup_tmpd EXIT
cat >d.cfg <<CFG
[daemon]
base = $base
[session-own]
run = -e raw_syscalls:sys_enter --overwrite -a -m 16
CFG
"$PERF" daemon start --config d.cfg >/dev/null 2>&1 || fail "perf daemon start"
dpid=$(cat "$base/lock")
wait_for "pgrep -P $dpid -f 'record' >/dev/null" || fail "no session started"
spid=$(pgrep -P "$dpid" -f record | head -1)
tr '\0' '\n' <"/proc/$spid/environ" | grep -qx "PERF_DAEMON_PID=$dpid" ||
	fail "the session's recorder is not told the daemon's pid $dpid"
daemon_end "$base" "$PERF"
echo "a daemon session leaves out daemon $dpid"
exit 0
