#!/bin/bash
# perf daemon: a bad config, base or command line gives one clear error and leaves no files
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"

trap daemon_cleanup_tmpd EXIT

# expect_error WHAT RC PATTERN ARGS...: exit status RC, PATTERN on stderr, no base left.
expect_error() {
	local what=$1 want=$2 pattern=$3; shift 3
	timeout 30 "$PERF" daemon "$@" >out.txt 2>err.txt
	local rc=$?
	[ $rc -eq "$want" ] || { cat err.txt; fail "$what: exit status $rc, not $want"; }
	grep -q -- "$pattern" err.txt || { cat err.txt; fail "$what: no '$pattern' in the message"; }
	[ "$(grep -c '' err.txt)" -le 12 ] || { cat err.txt; fail "$what: more than one message"; }
	[ ! -e base ] || { ls -laR base; fail "$what: left $TMPD/base behind"; }
	echo "$what -> $(head -1 err.txt)"
}

config() { printf '[daemon]\nbase = %s\n%b' "$TMPD/base" "$1" > "$TMPD/$2"; }

# Malformed lines, at start: the file, the line and what was expected there.
config '[session-a\nrun = -a\n' bad-header
expect_error "unclosed section" 255 "bad-header:3: expected ']'" start --config bad-header
config '[session-a]\njunk line here\n' bad-item
expect_error "not key = value" 255 "bad-item:4: expected '\[section\]' or 'key = value', not 'junk line here'" \
	start --config bad-item
config '[session-a]\nrun =\n' empty-run
expect_error "empty run line" 255 "empty-run:4: expected 'run = <perf record arguments>'" \
	start --config empty-run
config '[session-a]\nrun = "-e cpu-clock\n' bad-quote
expect_error "unclosed quote" 255 "bad-quote:4: expected '\"'" start --config bad-quote
config "[session-a]\\nrun = -e 'sched:*\\n" run-quote
expect_error "unclosed quote in a run line" 255 "run-quote:4: expected a closing quote in the run line" \
	start --config run-quote
printf 'base = /tmp\n' > no-section
expect_error "item before a section" 255 "no-section:1: expected a '\[section\]' header" \
	start --config no-section
printf '[session-a]\nrun = -a\n' > no-base
expect_error "no base" 255 "no base directory" start --config no-base
expect_error "missing config" 255 "cannot open the config file" start --config "$TMPD/nope"
HOME=$TMPD/nohome PERF_CONFIG_NOSYSTEM=1 expect_error "no config at all" 255 "no config file" start

# A base that cannot be created.
touch file
printf '[daemon]\nbase = %s\n[session-a]\nrun = -a\n' "$TMPD/file/base" > under-file
# Start's own failures begin "failed:", as the distro's do (its tests read that).
expect_error "base under a file" 255 "^failed: cannot create the base directory $TMPD/file/base" \
	start --config under-file
mkdir long
printf '[daemon]\nbase = %s\n[session-a]\nrun = -a\n' "$TMPD/long/$(printf 'x%.0s' $(seq 1 100))" \
	> too-long
expect_error "base too long" 255 "^failed: .* too long for the daemon's socket" start --config too-long
[ -z "$(ls -A long)" ] || { ls -laR long; fail "a too-long base left files"; }

# A base that cannot be written (as a user who may not: root may write anywhere).
mkdir ro && chmod 555 ro
printf '[daemon]\nbase = %s\n[session-a]\nrun = -a\n' "$TMPD/ro" > read-only
chmod 755 "$TMPD"; chmod 644 read-only
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null; then
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		echo "skipping the read-only base: setpriv is not installed"
	fi
fi
if [ "$(id -u)" -ne 0 ] || [ ${#as_user[@]} -gt 0 ]; then
	"${as_user[@]}" "$PERF" daemon start --config "$TMPD/read-only" 2>err.txt && fail "read-only base: started"
	grep -q "^failed: cannot write in the base directory $TMPD/ro" err.txt || { cat err.txt; fail "read-only base: message"; }
	[ -z "$(ls -A ro)" ] || { ls -la ro; fail "read-only base: files left"; }
	echo "read-only base -> $(head -1 err.txt)"
fi

# The command line.
config '[session-a]\nrun = -a\n' good
expect_error "unknown command" 255 "unknown command 'bogus'" bogus --config good
expect_error "extra argument" 129 "unexpected argument 'extra'" ping extra --config good
expect_error "--session with start" 129 "--session goes with signal and ping" start --session a --config good
expect_error "--wait without signal" 129 "--wait with" ping --wait --config good
expect_error "--wait=0" 129 "--wait takes a number of seconds" signal --wait=0 --config good
expect_error "no daemon to list" 255 "no daemon answers on $TMPD/base/control" --config good --base "$TMPD/base"
expect_error "no daemon to stop" 255 "no daemon answers" stop --config good --base "$TMPD/base"
exit 0
