# Sourced by the tests of daemon sessions that follow a process or a
# cgroup, after common.sh: one daemon on $BASE with the config $CFG, its
# session "svc" running $RUN.
cd "$TMPD" || exit 1
BASE=$TMPD/base
CFG=$TMPD/config
RUN='-m 1M -e cpu-clock --overwrite --switch-output'

# The daemon and its recorders go with the test, whatever ends it; then
# $FOLLOW_CLEANUP, if set (a cgroup the test made).
daemon_cleanup() {
	daemon_end "$BASE" "$PERF" --config "$CFG"
	cleanup
	[ -z "${FOLLOW_CLEANUP:-}" ] || eval "$FOLLOW_CLEANUP"
}
trap daemon_cleanup EXIT

D() { "$PERF" daemon --config "$CFG" "$@"; }
# Field $1 of the session's -x: -v line (1 pid, 9 restarts, 10 last end, 11 state).
field() { D -x: -v | awk -F: -v f="$1" '$2 == "svc" { print $f }'; }
# How many times the daemon looked for what the session follows.
checks() { D -v | awk '$1 == "checks:" { print $2 }'; }
wait_until() { wait_for "$1" || { D -v; cat "$BASE/output"; fail "waited $WAIT_S s for: $1"; }; }

# One dump with signal --wait whose samples are all of process $1 (and
# some): a dump taken the moment its recorder is ready may hold none yet.
dump_of() {
	local dump n try
	for try in 1 2 3 4 5; do
		D signal --session svc --wait=30 > wait.txt || { cat wait.txt; fail "signal --wait exited $?"; }
		dump=$(tail -1 wait.txt)
		[ -f "$dump" ] || { cat wait.txt; fail "--wait printed no dump"; }
		"$PERF" script -i "$dump" -F pid > pids.txt 2>/dev/null || fail "perf script on $dump"
		n=$(grep -c . pids.txt)
		[ "$n" -gt 0 ] && break
	done
	[ "$n" -gt 0 ] || fail "5 dumps without a sample of process $1"
	[ "$(sort -u pids.txt | tr -d ' ')" = "$1" ] ||
		{ sort pids.txt | uniq -c; fail "$dump has samples of other processes than $1"; }
	echo "dump $dump: $n samples, all of process $1"
}

# Waits until the session is recording $1 ("process 'x'") with the options
# $2 after its run line $RUN, and its recorder is ready.
wait_recording_of() {
	wait_until '[ "$(field 11)" = "recording '"$1"'" ]'
	D | grep -qx "\[[0-9]*:svc\] perf record $RUN $2" || { D; fail "the recorder does not run with $2"; }
	wait_recording "$(field 1)"
}

# Waits until the session waits for $1, with no recorder.
wait_waiting_for() {
	wait_until '[ "$(field 11)" = "waiting for '"$1"'" ]'
	[ "$(field 1)" = -1 ] || fail "a recorder runs while the session waits"
}

# The session waits on, with no restart, over 4 more looks of the daemon
# (a count of looks, not a time: the restart it must not make would come
# after 1 s, two looks).
stays_waiting_for() {
	local c
	c=$(checks)
	wait_until '[ "$(checks)" -ge $((c + 4)) ]'
	[ "$(field 9)" = 0 ] || fail "restarts: $(field 9) after $1 went, not 0"
	[ "$(field 11)" = "waiting for $1" ] || fail "state after 4 looks: $(field 11)"
	! grep -q "session 'svc' .*starting it again" "$BASE/output" || fail "a restart was scheduled"
}
