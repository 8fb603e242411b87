#!/bin/bash
# perf daemon: a session that follows a process by name waits for it, records it, and waits again when it exits
. "$(dirname "$0")/lib/common.sh"
# A name no other process has: the kernel's comm of a copy of bash.
NAME=psvc-$$
. "$(dirname "$0")/lib/daemon-follow.sh"

write_config() {	# write_config KEY VALUE [RUN]
	printf '[daemon]\nbase = %s\n[session-svc]\nrun = %s\n%s = %s\n' \
		"$BASE" "${3:-$RUN}" "$1" "$2" > "$CFG.new"
	mv "$CFG.new" "$CFG"
}

# 1. The keys that exclude each other, refused at start with the session and the key.
config_error() {	# config_error WHAT PATTERN: start refuses $CFG so, and leaves no base
	"$PERF" daemon start --config "$CFG" >out.txt 2>err.txt && fail "$1: the daemon started"
	[ "$(grep -c '' err.txt)" -eq 1 ] || { cat err.txt; fail "$1: not one line"; }
	grep -q -- "$2" err.txt || { cat err.txt; fail "$1: no '$2' in the message"; }
	[ ! -e "$BASE" ] || fail "$1: left $BASE behind"
	echo "$1 -> $(cat err.txt)"
}
printf '[daemon]\nbase = %s\n[session-svc]\nrun = %s\nprocess = x\ncgroup = y\n' "$BASE" "$RUN" > "$CFG"
config_error "process and cgroup" "config:6: session 'svc': 'cgroup' and 'process' exclude each other"
write_config process x "$RUN -p 1"
config_error "process with -p" "config:5: session 'svc': 'process' cannot go with -p in its run line"
write_config cgroup x "$RUN -a"
config_error "cgroup with -a" "config:5: session 'svc': 'cgroup' cannot go with -a in its run line"
write_config process x "$RUN --tid=1"
config_error "process with --tid" "'process' cannot go with --tid"
write_config process abcdefghijklmnop
config_error "a name longer than a comm" "config:5: session 'svc': a process name is at most 15 characters"
printf '[daemon]\nbase = %s\n[session-svc]\nprocess = x\n' "$BASE" > "$CFG"
config_error "no run line" "config:4: session 'svc' has 'process' but no run line"

need_root	# the recorder attaches to another user's process as root does
cp "$(command -v bash)" "$NAME"
spin() { ./"$NAME" -c 'while :; do :; done' & }
# 2. Before the process exists, the session waits, and says so in each list.
write_config process "$NAME"
D start || fail "start exited $?"
wait_waiting_for "process '$NAME'"
D | grep -qx "\[-1:svc\] waiting for process '$NAME': perf record $RUN" || { D; fail "the plain list"; }
D -v | grep -qx "  state:   waiting for process '$NAME'" || { D -v; fail "the -v list"; }
D signal --session svc 2>sig.err
grep -qx "session 'svc' is waiting for process '$NAME': no signal sent" sig.err || { cat sig.err; fail "signal while waiting"; }

# 3. The process starts: its recorder records it, and only it.
spin; W=$!
wait_recording_of "process '$NAME'" "-p $W"
dump_of "$W"

# 4. It exits: the recorder ends with its last dump and the session waits,
#    with no restart, however many times the daemon looks.
dumps=$(ls "$BASE"/session-svc/perf.data.* | wc -l)
kill -9 "$W"; wait "$W" 2>/dev/null
wait_waiting_for "process '$NAME'"
[ "$(field 10)" = "exited 0" ] || fail "the recorder's end: $(field 10)"
wait_files "$BASE/session-svc/perf.data.*" $((dumps + 1))
stays_waiting_for "process '$NAME'"

# 5. It comes back: recorded again, into the same session.
spin; W2=$!
wait_recording_of "process '$NAME'" "-p $W2"
dump_of "$W2"
[ "$(field 9)" = 0 ] || fail "restarts: $(field 9), not 0"
grep -q "session 'svc' started (pid [0-9]*): $RUN -p $W2\$" "$BASE/output" || fail "the log of the second start"

# 6. A reload that names another process stops this recorder and waits for the other.
write_config process "$NAME-b"
wait_waiting_for "process '$NAME-b'"
rec=$(sed -n "s/.*session 'svc' started (pid \([0-9]*\)).*/\1/p" "$BASE/output" | tail -1)
[ -n "$rec" ] || fail "no recorder start in the daemon's log"
! kill -0 "$rec" 2>/dev/null || fail "the recorder $rec of the process before the reload still runs"

# 7. A recorder that fails while its process runs is restarted after the delays, as any.
write_config process "$NAME" "--no-such-option"
wait_until '[ "$(field 9)" -ge 1 ]'
[ "$(field 10)" = "exited 129" ] || fail "the failing recorder's end: $(field 10)"
kill -9 "$W2"; wait "$W2" 2>/dev/null
D stop || fail "stop exited $?"
exit 0
