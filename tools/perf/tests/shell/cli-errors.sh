#!/bin/bash
# Bad command lines give one clear message and a non-zero exit
. "$(dirname "$0")/lib/common.sh"
need_oracle
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
	crashed $rc && fail "$what: crashed ($rc)"
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
check 129 "perf record -e unknown" record -e nosuch -- true
[ "$(grep -ci "run 'perf list'" err.txt)" = 1 ] || { cat err.txt; fail "not one pointer to perf list"; }
check 129 "perf record -e (no value)" record -e
check any "perf script missing file" script -i /nonexistent.data
check any "perf evlist missing file" evlist -i /nonexistent.data
# Exit statuses as the distro's: 255 for what it fails as -1, 129 for usage
# (a bad event included), 234 for EINVAL.
echo "not a perf.data file" >text.data
printf '%s\n' "script -i /nonexistent.data" "report --stdio -i /nonexistent.data" \
	"evlist -i /nonexistent.data" "buildid-list -i /nonexistent.data" \
	"inject -i /nonexistent.data -o inj.data" "script -i text.data" \
	"report --stdio -i text.data" "record -e nosuch -- true" \
	"record -e sched:nosuch -- true" "record -o /nonexistent/dir/p.data -- true" \
	"record -o r.data -- /nonexistent/program" >cases.txt
# Words after the options: a script name (none is known here, and these
# are none of the distro's), or a stray word where none is taken.
if "$PERF" record -q -e cpu-clock -o ok.data -- true 2>/dev/null; then
	printf '%s\n' "script -i ok.data nosuchscript" "script nosuchscript -i ok.data" \
		"script -i ok.data report nosuchscript" "script report nosuchscript -i ok.data" \
		"script -i ok.data report" "script -i ok.data -- nosuchscript" \
		"script record nosuchscript" "evlist -i ok.data stray" \
		"inject -i ok.data -o inj.data stray" "report --stdio -i ok.data two words" \
		>>cases.txt
else
	echo "no stray-word cases: perf record cannot record cpu-clock here"
fi
while read -r args; do
	# shellcheck disable=SC2086
	"$ORACLE" $args >/dev/null 2>&1; want=$?
	[ $want -ne 0 ] || continue
	# shellcheck disable=SC2086
	check $want "perf $args" $args
done <cases.txt
# The distro filters by a symbol with one word; there is no such filter here.
if [ -s ok.data ]; then
	check 129 "report with a symbol filter" report --stdio -i ok.data stray
	grep -q "'stray'" err.txt || fail "the report message does not name the word"
	# Of the distro's reports, only flamegraph is built in here.
	check any "script with a report the distro has" script -i ok.data report rwtop
	grep -q "'rwtop'" err.txt || fail "the script message does not name the script"
	[ "$(wc -l <err.txt)" = 1 ] || fail "an unknown report takes more than one line"
	[ -s out.txt ] && fail "perf script printed samples for an unknown script"
fi
"$PERF" --version | grep -q '^perf version ' || fail "--version"
"$PERF" help record | grep -q 'perf-record' || fail "perf help record"
exit 0
