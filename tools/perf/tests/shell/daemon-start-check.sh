#!/bin/bash
# perf daemon start: a session that cannot start fails start, one line each, nothing left
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"
chmod 755 "$TMPD"

trap daemon_cleanup_tmpd EXIT

GOOD='-m 1M -e cpu-clock --overwrite --switch-output'
# config FILE BASE [NAME RUN]...
config() {
	local file=$1 base=$2; shift 2
	{
		printf '[daemon]\nbase = %s\n' "$base"
		while [ $# -ge 2 ]; do
			printf '[session-%s]\nrun = %s\n' "$1" "$2"
			shift 2
		done
	} > "$file"
	chmod 644 "$file"
}

# cannot_start WHAT BASE PATTERN... -- START-COMMAND...: exit status 255, one
# line per PATTERN (each a session and its reason) and no other, no recorder
# left, no base left.
cannot_start() {
	local what=$1 base=$2 patterns=() p rc; shift 2
	while [ "$1" != -- ]; do patterns+=("$1"); shift; done
	shift
	timeout 30 "$@" >out.txt 2>err.txt; rc=$?
	cat err.txt
	[ $rc -eq 255 ] || fail "$what: start exited $rc, not 255"
	for p in "${patterns[@]}"; do
		grep -q -- "$p" err.txt || fail "$what: no line '$p'"
	done
	[ "$(grep -c '' err.txt)" -eq ${#patterns[@]} ] || fail "$what: not one line per session"
	! pgrep -f "control=fifo:control,ack.*$what" >/dev/null ||
		fail "$what: a recorder is left running: $(pgrep -af "control=fifo:control,ack.*$what")"
	[ ! -e "$base" ] || { ls -laR "$base"; fail "$what: left $base behind"; }
}

# An unknown event and an option perf record refuses: the recorder's own
# reason, and the good session started with them is stopped again.
need_root_or_paranoid() { [ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; }
# The good sessions' workloads carry the case's name for pgrep, in an
# argument env passes over (sleep would exit at once on it, and the good
# recorder, done, would leave its last dump before the daemon stops it).
config bad-event "$TMPD/base" good "$GOOD -- env PERF_TEST_CASE=unknown-event sleep 1000" \
	ev "-e nosuchevent -- sleep 1000"
cannot_start unknown-event "$TMPD/base" \
	"^session 'ev' cannot start: event syntax error: 'nosuchevent'\$" -- \
	"$PERF" daemon start --config bad-event
config bad-option "$TMPD/base" opt "--no-such-option -- env PERF_TEST_CASE=bad-option sleep 1000" \
	good "$GOOD -- env PERF_TEST_CASE=bad-option sleep 1000"
cannot_start bad-option "$TMPD/base" \
	"^session 'opt' cannot start: unknown option \`no-such-option'\$" -- \
	"$PERF" daemon start --config bad-option
# In the foreground, as a service manager runs it: the same, before it runs.
cannot_start foreground "$TMPD/base" \
	"^session 'ev' cannot start: event syntax error: 'nosuchevent'\$" -- \
	"$PERF" daemon start --foreground --config bad-event
grep -q "session 'ev' cannot start" out.txt || fail "foreground: the failure is not in the log"
grep -q 'daemon exited' out.txt || fail "foreground: no 'daemon exited' in the log"

# -a as a user who may not record system-wide.
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	user_ok=${#as_user[@]}
else
	user_ok=1
fi
if [ "$user_ok" -eq 0 ]; then
	echo "skipping -a as a user: setpriv is not installed"
elif [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	echo "skipping -a as a user: perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) lets users record system-wide"
else
	mkdir user && chmod 777 user
	config system-wide "$TMPD/user/base" all "-e cpu-clock -a"
	cannot_start system-wide "$TMPD/user/base" \
		"^session 'all' cannot start: No permission to open event cpu-clock" -- \
		"${as_user[@]}" "$PERF" daemon start --config "$TMPD/system-wide"
fi

# A good config still starts, with 0, and a session whose workload ends
# at once (exit 0) is no failure.
if need_root_or_paranoid; then
	config good "$TMPD/base" a "$GOOD -a" short "-e cpu-clock -- true"
else
	config good "$TMPD/base" a "$GOOD -- sleep 1000" short "-e cpu-clock -- true"
fi
"$PERF" daemon start --config good 2>err.txt || { cat err.txt; fail "a good config: start exited $?"; }
[ ! -s err.txt ] || { cat err.txt; fail "a good config: start printed errors"; }
"$PERF" daemon ping --config good --session a | grep -qx 'OK   a' || fail "a good config: a does not answer"
"$PERF" daemon stop --config good || fail "stop exited $?"
exit 0
