#!/bin/bash
# perf daemon signal the moment a session starts (after start, after a reload) gives a dump, not a restart; a session's workload has no signal blocked
. "$(dirname "$0")/lib/common.sh"
need_root	# the sessions record system-wide (-a)
trap daemon_cleanup_tmpd EXIT
cd "$TMPD"
BASE=$TMPD/base
CFG=$TMPD/config
RUN='-m 1M -e cpu-clock --overwrite --switch-output -a'

. "$(dirname "$0")/lib/daemon-sessions.sh"
# The pid that "signal 12 sent to session 'NAME [PID]'" names in file $2.
signalled() { sed -n "s/^signal 12 sent to session '$1 \[\([0-9]*\)\]'\$/\1/p" "$2"; }

# 1. Right after start (which returns once each recorder answers a ping).
write_config a "$RUN" w "-e cpu-clock -- sleep 1000"
D start || fail "start exited $?"
DPID=$(cat "$BASE/lock")
D signal --session a > sig.txt 2>&1 || { cat sig.txt; fail "signal exited $?"; }
pid=$(signalled a sig.txt)
[ -n "$pid" ] || { cat sig.txt; fail "no signal sent to a"; }
wait_lines "$BASE/session-a/output" 1 '(signal SIGUSR2)' "$pid"
[ "$(field a 9)" = 0 ] && [ "$(field a 1)" = "$pid" ] || fail "a was restarted"

# 2. Right after a reload adds a session, where no ping waits for its
#    recorder: the daemon is stopped while the new config and the request
#    wait for it, so that it starts the recorder and signals it in one go
#    (start returns once the recorder has exec'd: the signal finds it in
#    the dynamic loader or in main()).
client_waits() {	# client $1 blocked reading the daemon's answer
	local nr fd

	read -r nr fd _ </proc/$1/syscall 2>/dev/null && [ "$nr" = 0 ] &&
		[[ "$(readlink /proc/$1/fd/$((fd)))" == socket:* ]]
}
sessions=(a "$RUN" w "-e cpu-clock -- sleep 1000")
killed=0
for i in 1 2 3 4 5; do
	sessions+=(b$i "$RUN")
	kill -STOP "$DPID"
	write_config "${sessions[@]}"
	kill -HUP "$DPID"
	"$PERF" daemon --config "$CFG" signal --session b$i > sig$i.txt 2>&1 &
	c=$!
	wait_for "client_waits $c" || { kill -CONT "$DPID"; fail "the client never sent its request"; }
	kill -CONT "$DPID"
	wait $c || { cat sig$i.txt; fail "signal b$i exited $?"; }
	pid=$(signalled b$i sig$i.txt)
	[ -n "$pid" ] || { cat sig$i.txt; fail "reload $i: no signal sent to the new session"; }
	wait_for "grep -q '(signal SIGUSR2)' $BASE/session-b$i/output || ! kill -0 $pid 2>/dev/null"
	if ! grep -q '(signal SIGUSR2)' "$BASE/session-b$i/output"; then
		killed=$((killed + 1))
		wait_for '[ "$(field b$i 9)" != 0 ]'
		echo "reload $i: recorder $pid of b$i, signalled at once, ended: $(field b$i 10)"
	elif [ "$(field b$i 9)" != 0 ] || [ "$(field b$i 1)" != "$pid" ]; then
		fail "reload $i: b$i dumped, but was restarted"
	fi
done
echo "signal right after a reload: 5 tries, $killed recorders killed"
[ $killed -eq 0 ] || fail "$killed of 5 recorders signalled as they started did not dump"

# 3. The recorders run with every signal unblocked, and so do their
#    workloads: the daemon's SIGUSR2 block is the recorder's alone, and so
#    is the word that says so in its environment.
rec=$(field w 1)
wait_for "wl=\$(pgrep -P $rec) && [ \"\$(cat /proc/\$wl/comm 2>/dev/null)\" = sleep ]" ||
	fail "session w never ran its workload"
wl=$(pgrep -P "$rec")
blk=$(awk '$1 == "SigBlk:" { print $2 }' /proc/$wl/status)
[ "$blk" = 0000000000000000 ] || fail "a session's workload has SigBlk $blk"
tr '\0' '\n' </proc/$wl/environ | grep PERF_DAEMON && fail "the daemon's word reached the workload"

D stop || fail "stop exited $?"
wait_gone "$DPID" || fail "the daemon outlived stop"
exit 0
