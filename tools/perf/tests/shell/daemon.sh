#!/bin/bash
# perf daemon: list, ping, signal, reload, restarts, lock and stop of record sessions
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root	# the sessions record system-wide (-a)
cd "$TMPD"
BASE=$TMPD/base
CFG=$TMPD/config
RUN_A='-m 1M -e cpu-clock --overwrite --switch-output -a'
RUN_B='-m 1M -e cpu-clock -c 200000 --overwrite --switch-output -a'
RUN_B2='-q -m 2M -e cpu-clock -c 200000 --overwrite --switch-output -a'
RUN_BAD='--no-such-option'

# The daemon and its recorders go with the test, whatever ends it: the
# daemon is the leader of its own session, which its recorders share.
daemon_cleanup() {
	daemon_end "$BASE" "$PERF" --base "$BASE"
	[ -z "${ORACLE_BASE:-}" ] ||
		daemon_end "$ORACLE_BASE" "$ORACLE" --config "$TMPD/oracle.config"
	# The foreground daemon shares our session: its children by parent.
	[ -n "${FG:-}" ] && pkill -9 -P "$FG" 2>/dev/null
	cleanup
}
trap daemon_cleanup EXIT

. "$(dirname "$0")/lib/daemon-sessions.sh"
# Waits (WAIT_S s at most) until the shell condition $1 holds.
wait_until() { wait_for "$1" || { D -v; fail "waited $WAIT_S s for: $1"; }; }
running() { local p; p=$(field "$1" 1); [ -n "$p" ] && [ "$p" -gt 0 ] && kill -0 "$p" 2>/dev/null; }
ping_ok() { D ping --session "$1" | grep -qx "OK   $1"; }

# 1. start: returns once the daemon answers, the socket is the user's alone.
write_config a "$RUN_A" b "$RUN_B"
D start || fail "start exited $?"
DPID=$(cat "$BASE/lock")
# A session that cannot run fails start (daemon-start-check.sh); added
# while the daemon runs, it is only logged, and restarted.
write_config a "$RUN_A" b "$RUN_B" bad "$RUN_BAD"
wait_until '[ -n "$(field bad 2)" ]'
kill -0 "$DPID" || fail "no daemon with the lock's pid $DPID"
[ "$(stat -c %a "$BASE/control")" = 600 ] || fail "socket mode $(stat -c %a "$BASE/control"), not 600"

# 2. list -x: one line for the daemon, one per session, in the fields perf daemon has.
D -x: > list.txt || fail "list exited $?"
cat list.txt
[ "$(wc -l < list.txt)" -eq 4 ] || fail "expected 4 lines in the list"
grep -qx "$DPID:daemon:$BASE:$BASE/output:$BASE/lock:0" list.txt || fail "daemon line"
for s in a b bad; do
	grep -Eq "^-?[0-9]+:$s:[^:]+:$BASE/session-$s:$BASE/session-$s/output:$BASE/session-$s/control:$BASE/session-$s/ack:0\$" list.txt ||
		fail "session line of $s"
done
grep -q ":a:$RUN_A:" list.txt || fail "session a's run line"
D > plain.txt
grep -qx "\[$DPID:daemon\] base: $BASE" plain.txt || fail "plain daemon line"
grep -Eqx "\[[0-9]+:a\] perf record $RUN_A" plain.txt || fail "plain session line"

# 3. ping: OK for each working session, FAIL for the one that cannot run (exit 0, as the distro).
wait_until 'ping_ok a && ping_ok b'
D ping > ping.txt; rc=$?
cat ping.txt
grep -qx 'OK   a' ping.txt && grep -qx 'OK   b' ping.txt || fail "ping a and b"
grep -qx 'FAIL bad' ping.txt || fail "ping of the broken session"
[ $rc -eq 0 ] || fail "ping with a FAIL exited $rc (perf daemon exits 0)"

# 4. The session that cannot run is listed, with how its recorder ended.
wait_until '[ "$(field bad 10)" = "exited 129" ]'
D -v | grep -A8 ':bad\]' | grep -q 'last end: exited 129' || fail "-v does not say how bad ended"
grep -q 'no-such-option' "$BASE/session-bad/output" || fail "bad's output lacks the error"

# 5. signal: one dump per session.
APID=$(field a 1) BPID=$(field b 1)
D signal --session a > sig.txt 2>sig.err
grep -qx "signal 12 sent to session 'a \[$APID\]'" sig.txt || { cat sig.txt sig.err; fail "signal a"; }
wait_lines "$BASE/session-a/output" 1 'perf record: Dump ' "$APID"
D signal > sig.txt 2>sig.err; rc=$?
cat sig.txt sig.err
grep -qx "signal 12 sent to session 'b \[$BPID\]'" sig.txt || fail "signal to every session"
grep -q "session 'bad' is not running" sig.err || fail "signal to a session that is down"
[ $rc -eq 0 ] || fail "signal that missed a session exited $rc (perf daemon exits 0)"
wait_lines "$BASE/session-a/output" 2 'perf record: Dump ' "$APID"
wait_lines "$BASE/session-b/output" 1 'perf record: Dump ' "$BPID"
wait_files "$BASE/session-a/perf.data.*" 2
wait_files "$BASE/session-b/perf.data.*" 1
[ "$(ls "$BASE"/session-a/perf.data.* | wc -l)" -eq 2 ] || fail "session a: not 2 dumps"
[ "$(ls "$BASE"/session-b/perf.data.* | wc -l)" -eq 1 ] || fail "session b: not 1 dump"

# 6. signal --wait prints the dump's path once it is complete.
check_wait() {	# check_wait SESSION [NR]: a dump with --wait, the session's NRth
	local dump
	D signal --session "$1" --wait=30 > wait.txt || { cat wait.txt; fail "signal --wait exited $?"; }
	grep -qx "dump requested from session '$1 \[$(field "$1" 1)\]'" wait.txt || { cat wait.txt; fail "--wait: first line"; }
	dump=$(tail -1 wait.txt)
	case "$dump" in "$BASE/session-$1"/perf.data.*) ;; *) fail "--wait printed '$dump'" ;; esac
	"$PERF" evlist -i "$dump" | grep -q cpu-clock || fail "$dump is not a readable perf.data"
	[ -z "$2" ] || [ "$(ls "$BASE/session-$1"/perf.data.* | wc -l)" -eq "$2" ] ||
		fail "session $1: not $2 dumps"
}
check_wait b 2

# 7. A recorder killed with SIGKILL is started again.
kill -9 "$APID"
wait_until '[ "$(field a 9)" = 1 ] && running a && [ "$(field a 1)" != "$APID" ]'
[ "$(field a 10)" = "killed by signal 9 (Killed)" ] || fail "a's last end: $(field a 10)"
wait_until 'ping_ok a'
APID=$(field a 1)

# 8. Reload: a changed run line restarts that session only.
write_config a "$RUN_A" b "$RUN_B2" bad "$RUN_BAD"
wait_until '[ "$(field b 3)" = "$RUN_B2" ] && running b'
[ "$(field b 1)" != "$BPID" ] || fail "b was not restarted"
! kill -0 "$BPID" 2>/dev/null || fail "b's old recorder $BPID still runs"
[ "$(field a 1)" = "$APID" ] || fail "a was restarted though its line did not change"
BPID=$(field b 1)
# b is quiet now (-q): --wait does not depend on what the recorder prints.
# (Its old recorder wrote a last dump as it stopped: no count.)
check_wait b

# 9. A config that does not parse changes nothing.
{ cat "$CFG"; echo '[session-broken'; } > "$CFG.new" && mv "$CFG.new" "$CFG"
wait_lines "$BASE/output" 1 "config:$(grep -c '' "$CFG"): expected ']'" "$DPID"
wait_lines "$BASE/output" 1 'config not reloaded' "$DPID"
[ "$(field a 1)" = "$APID" ] && [ "$(field b 1)" = "$BPID" ] || fail "a bad config changed the sessions"

# 9b. Nor does one that start would refuse: an empty file sets no base.
: > "$CFG.new" && mv "$CFG.new" "$CFG"
wait_lines "$BASE/output" 1 'config not reloaded: it sets no base directory' "$DPID"
# (The client finds the daemon by --base: the config names none now.)
pid_of() { "$PERF" daemon --base "$BASE" -x: | awk -F: -v n="$1" '$2 == n { print $1 }'; }
[ "$(pid_of a)" = "$APID" ] && [ "$(pid_of b)" = "$BPID" ] || fail "an empty config changed the sessions"
grep -q 'no longer in the config' "$BASE/output" && fail "an empty config removed sessions"

# 10. Removing every session stops them all; restoring them starts them again.
write_config
wait_until '[ "$(D -x: | wc -l)" -eq 1 ]'
for p in $APID $BPID; do ! kill -0 "$p" 2>/dev/null || fail "recorder $p outlived its session"; done
write_config a "$RUN_A" b "$RUN_B"
wait_until 'running a && running b'
wait_until 'ping_ok a && ping_ok b'
[ "$(field a 1)" != "$APID" ] && [ "$(field b 1)" != "$BPID" ] || fail "restored sessions kept old pids"
APID=$(field a 1) BPID=$(field b 1)

# 11. A second daemon on the same base fails, naming the first.
"$PERF" daemon start --config "$CFG" 2>second.err && fail "a second daemon started"
grep -q "pid $DPID" second.err || { cat second.err; fail "the error does not name pid $DPID"; }
# Its first word is the distro's, which scripts (the distro's own test) read.
[ "$(awk 'NR == 1 { print $1 }' second.err)" = failed: ] ||
	{ cat second.err; fail "the error does not start with 'failed:', as the distro's does"; }
"$PERF" daemon start --foreground --config "$CFG" 2>second.err && fail "a second daemon started (-f)"
kill -0 "$DPID" || fail "the second start hurt the first daemon"

# 12. The list layout is the one the distro's perf daemon prints.
ORACLE_BASE=$TMPD/oracle-base
mkdir "$ORACLE_BASE"
printf '[daemon]\nbase = %s\n[session-a]\nrun = %s\n[session-b]\nrun = %s\n' \
	"$ORACLE_BASE" "$RUN_A" "$RUN_B" > oracle.config
"$ORACLE" daemon start --config oracle.config || fail "the distro's daemon did not start"
wait_for '[ "$("$ORACLE" daemon --config oracle.config -x: 2>/dev/null | wc -l)" -eq 3 ]'
# Pids, bases and minutes up differ; the layout must not.
for sep in : ,; do
	"$ORACLE" daemon --config oracle.config -x$sep |
		sed "s|$ORACLE_BASE|BASE|g; s/^[0-9]*/PID/; s/[0-9]*\$/N/" > o.txt
	D -x$sep | sed "s|$BASE|BASE|g; s/^[0-9]*/PID/; s/[0-9]*\$/N/" > m.txt
	diff o.txt m.txt || fail "-x$sep list differs from the distro's"
done
for v in "" -v; do
	"$ORACLE" daemon --config oracle.config $v |
		sed "s|$ORACLE_BASE|BASE|g; s/^\[[0-9]*:/[PID:/; s/[0-9]* minutes/N minutes/" > o.txt
	D $v | grep -v -e '^  restarts:' -e '^  last end:' |
		sed "s|$BASE|BASE|g; s/^\[[0-9]*:/[PID:/; s/[0-9]* minutes/N minutes/" > m.txt
	diff o.txt m.txt || fail "list $v differs from the distro's"
done
"$ORACLE" daemon stop --config oracle.config

# 13. stop: returns once every recorder has ended, and the daemon is gone.
D stop || fail "stop exited $?"
for p in $DPID $APID $BPID; do
	wait_gone "$p" || fail "process $p outlived stop"
done
! pgrep -s "$DPID" > /dev/null || fail "processes of the daemon's session remain: $(pgrep -s "$DPID")"
[ ! -e "$BASE/control" ] || fail "the socket is left behind"
# The daemon read every answer, the stops' too (restarts, reloads, stop).
! grep 'never read' "$BASE"/session-*/output || fail "a recorder's answers were left unread by the daemon"
D -x: 2>stop.err && fail "a list after stop succeeded"
grep -q 'no daemon answers' stop.err || { cat stop.err; fail "no clear error after stop"; }

# 14. --foreground, as a service manager runs it: logs to stdout, SIGHUP
#     reloads, SIGTERM stops the sessions and the daemon.
FG_BASE=$TMPD/fg
printf '[daemon]\nbase = %s\n[session-f]\nrun = %s\n[session-short]\nrun = %s\n' \
	"$FG_BASE" "$RUN_A" '-e cpu-clock -- sleep 0.1' > fg.config
F() { "$PERF" daemon --config fg.config "$@"; }
"$PERF" daemon start --foreground --config fg.config > fg.log 2>&1 &
FG=$!
wait_lines fg.log 1 "daemon started (pid $FG)" "$FG"
wait_until 'F ping --session f | grep -qx "OK   f"'
FPID=$(F -x: | awk -F: '$2 == "f" { print $1 }')
[ "$(cat "$FG_BASE/lock")" = "$FG" ] || fail "the lock does not hold the foreground pid $FG"
# While a recorder that ended waits for its restart, the daemon sleeps.
cpu() { awk '{ print $14 + $15 }' /proc/$FG/stat; }
ticks=$(cpu)
wait_until '[ "$(F -x: -v | awk -F: '"'"'$2 == "short" { print $9 }'"'"')" -ge 2 ]'
used=$(( $(cpu) - ticks ))
echo "foreground daemon: $used clock ticks of CPU over two restarts (1 s and 2 s apart)"
[ "$used" -lt 100 ] || fail "the daemon used $used ticks of CPU while waiting to restart"
kill -HUP "$FG"
wait_lines fg.log 1 'reloading it' "$FG"
[ "$(F -x: | awk -F: '$2 == "f" { print $1 }')" = "$FPID" ] || fail "SIGHUP restarted an unchanged session"
F -v | grep -A9 ':short\]' | grep -q 'last end: exited 0' || { F -v; fail "short's end is not listed"; }
kill -TERM "$FG"
wait "$FG"; rc=$?
[ $rc -eq 0 ] || { cat fg.log; fail "the foreground daemon exited $rc on SIGTERM"; }
! kill -0 "$FPID" 2>/dev/null || fail "recorder $FPID outlived the foreground daemon"
grep -q 'daemon exited' fg.log || { cat fg.log; fail "no 'daemon exited' in the log"; }
FG=

# 15. A daemon killed outright takes its recorders with it, and a new one
#     starts on the same base (the socket it left is replaced).
D start || fail "start after stop exited $?"
DPID=$(cat "$BASE/lock")
wait_until 'running a && running b'
APID=$(field a 1) BPID=$(field b 1)
kill -9 "$DPID"
for p in $APID $BPID; do
	wait_gone "$p" || fail "recorder $p outlived its killed daemon"
done
D start || fail "start after a killed daemon exited $?"
wait_until 'ping_ok a && ping_ok b'

# 16. A dump that fails (its directory is gone) ends signal --wait at once,
#     with the recorder's reason and a non-zero exit.
mkdir -p "$BASE/session-g/out"
write_config a "$RUN_A" b "$RUN_B" g "$RUN_A -o out/g.data"
wait_until 'running g && ping_ok g'
rm -rf "$BASE/session-g/out"
t0=$SECONDS
D signal --session g --wait=60 >gw.txt 2>gw.err; rc=$?
cat gw.txt gw.err
[ $rc -ne 0 ] || fail "signal --wait for a dump that failed exited 0"
grep -q "^session 'g' wrote no dump: the dump failed" gw.err || fail "--wait does not say the dump failed"
[ $((SECONDS - t0)) -lt 30 ] || fail "signal --wait waited $((SECONDS - t0)) s for a dump that had failed"
D stop || fail "stop exited $?"
exit 0
