#!/bin/bash
# Bad command lines give one clear message and a non-zero exit
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"
check() {
	local want=$1 what=$2; shift 2
	"$PERF" "$@" >out.txt 2>err.txt
	local rc=$?
	if [ "$want" = any ]; then
		[ $rc -ne 0 ] || fail "$what: exit 0"
	else
		[ $rc -eq "$want" ] || fail "$what: exit $rc, want $want"
	fi
	[ $rc -lt 128 ] || [ $rc -eq 129 ] || fail "$what: crashed ($rc)"
	[ -s err.txt ] || fail "$what: no message on stderr"
	echo "$what ($rc): $(head -1 err.txt)"
}
check 129 "unknown command" nosuch
check 129 "unknown option" --bogus
check 129 "perf list --bogus" list --bogus
check 129 "perf test --bogus" test --bogus
check any "perf help nosuchcmd" help nosuchcmd
check any "perf list no match" list 'no-such-event-*'
check any "perf record -e bad" record -e 'cpu-clock/bogus/' -- true
grep -q "event syntax error: 'cpu-clock/bogus/'" err.txt || fail "no syntax error line"
grep -q '\\___' err.txt || fail "no caret line under the bad term"
check 129 "perf record -e (no value)" record -e
check any "perf script missing file" script -i /nonexistent.data
check any "perf evlist missing file" evlist -i /nonexistent.data
"$PERF" --version | grep -q '^perf version ' || fail "--version"
"$PERF" help record | grep -q 'perf-record' || fail "perf help record"
exit 0
