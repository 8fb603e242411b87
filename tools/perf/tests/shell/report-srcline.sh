#!/bin/bash
# perf report --sort srcline: the shares of source lines agree with the distro's
# Our own workload (built with debug info) recorded with -g; for every
# source line the distro's report gives at least 0.5%, ours gives the same
# share within 0.01.  Lines of DSOs without debug info come from the
# distro's addr2line guesses and are not compared; nor are Children shares,
# where the distro names a caller's frame "sym+<address minus the symbol's
# file offset>" rather than by its line.
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"
"$PERF" record -q -o sl.data -g -e cpu-clock -- "$PERF" test -w burn 0.5 ||
	skip "cannot record here"
# Children: only that it runs and names lines.
"$PERF" report --stdio -i sl.data --sort srcline >ours.txt 2>ours.err ||
	{ cat ours.err; fail "report --sort srcline exited $?"; }
grep -Eq '%  workloads\.c:[0-9]+$' ours.txt || fail "children: no line of workloads.c"
for mode in "--no-children -g none" "--no-children" "--no-children -g caller"; do
	# shellcheck disable=SC2086
	"$PERF" report --stdio -i sl.data --sort srcline $mode >ours.txt 2>ours.err ||
		{ cat ours.err; fail "report --sort srcline $mode exited $?"; }
	# shellcheck disable=SC2086
	"$ORACLE" report --stdio -i sl.data --sort srcline $mode >theirs.txt 2>/dev/null
	grep -q 'Source:Line' ours.txt || fail "$mode: no Source:Line column"
	awk '/^ +[0-9.]+%/ && $NF ~ /^workloads\.c:[0-9]+$/ && $1 + 0 >= 0.5 { print $NF, $1 }' \
		theirs.txt | sort >theirs.e
	[ -s theirs.e ] || fail "$mode: the distro names no line of workloads.c"
	awk '/^ +[0-9.]+%/ && $NF ~ /^workloads\.c:[0-9]+$/ { print $NF, $1 }' ours.txt | sort >ours.e
	while read -r line pct; do
		o=$(awk -v l="$line" '$1 == l { print $2; exit }' ours.e)
		[ -n "$o" ] || fail "$mode: we lack $line ($pct)"
		awk -v a="${o%\%}" -v b="${pct%\%}" 'BEGIN { d = a - b; exit !(d <= 0.01 && d >= -0.01) }' ||
			fail "$mode: $line ours $o, the distro $pct"
	done <theirs.e
	echo "$mode: $(wc -l <theirs.e) source lines agree"
done
exit 0
