#!/bin/bash
# perf report --sort tid: one line per thread number, with the shares --sort pid gives
# (The distro has no tid key; pid shows tid:comm, split by task.  Threads
# that never exec are one task each, so both keys must give the same shares.)
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"
"$PERF" record -q -o t.data -e cpu-clock -- "$PERF" test -w threads 3 150 ||
	skip "cannot record here"
"$PERF" report --stdio --no-children -i t.data --sort tid >tid.txt 2>err.txt ||
	{ cat err.txt; fail "report --sort tid exited $?"; }
"$PERF" report --stdio --no-children -i t.data --sort pid >pid.txt 2>err.txt ||
	{ cat err.txt; fail "report --sort pid exited $?"; }
grep -q '^# Overhead  *Tid$' tid.txt || { head -12 tid.txt; fail "no Tid column"; }
awk '/^ +[0-9.]+%/ { print $2, $1 }' tid.txt | sort >tid.e
awk '/^ +[0-9.]+%/ { split($2, a, ":"); print a[1], $1 }' pid.txt | sort >pid.e
[ "$(wc -l <tid.e)" -ge 3 ] || { cat tid.txt; fail "fewer than 3 threads"; }
cmp -s tid.e pid.e || { diff tid.e pid.e; fail "--sort tid and --sort pid disagree"; }
exit 0
