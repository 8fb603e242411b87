#!/bin/bash
# perf bench sched messaging and pipe: the distro's layout, listings and exit codes
# The figures (times, rates) are masked: the lines around them, the
# listings, and what bad input prints on stdout with its exit status (and
# the first line on stderr) must be the distro's when it is installed, and
# the layout written here when it is not.
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"

mask() {
	sed -E 's/[0-9]+\.[0-9]{3} \[sec\]/N [sec]/; s/^ *[0-9.]+ (usecs\/op|ops\/sec)$/N \1/'
}

fails=0 runs=0
# <what it must print, masked, when there is no distro perf> <bench args...>
check_run() {
	local want=$1
	shift
	runs=$((runs + 1))
	"$PERF" bench "$@" >out 2>err
	local rc=$?
	[ $rc -eq 0 ] || { echo "perf bench $*: exit $rc: $(head -1 err)"; fails=$((fails + 1)); return; }
	mask <out >ours.txt
	"$ORACLE" bench "$@" 2>/dev/null | mask >theirs.txt
	cmp -s ours.txt theirs.txt ||
		{ echo "perf bench $*:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
}

run1="# Running 'sched/messaging' benchmark:\n"
check_run "$run1# 20 sender and receiver processes per group\n# 1 groups == 40 processes run\n\n     Total time: N [sec]\n" \
	sched messaging -g 1 -l 10
check_run "$run1# 20 sender and receiver threads per group\n# 2 groups == 80 threads run\n\n     Total time: N [sec]\n" \
	sched messaging -t -p -g 2 -l 5
run2="# Running 'sched/pipe' benchmark:\n"
check_run "$run2# Executed 1000 pipe operations between two processes\n\n     Total time: N [sec]\n\nN usecs/op\nN ops/sec\n" \
	sched pipe -l 1000
check_run "$run2# Executed 1000 pipe operations between two threads\n\n     Total time: N [sec]\n\nN usecs/op\nN ops/sec\n" \
	sched pipe -T -l 1000
runs=$((runs + 1))
"$PERF" bench -f simple sched messaging -g 1 -l 10 >out 2>err &&
	grep -qxE '[0-9]+\.[0-9]{3}' out && [ "$(wc -l <out)" -eq 1 ] ||
	{ echo "-f simple: not one line of seconds:"; cat out err; fails=$((fails + 1)); }

# The listings: the sched collection's as the distro's; of the collections,
# ours (only sched, and all) are among the distro's lines.
runs=$((runs + 1))
"$PERF" bench sched >ours.txt 2>&1 || { echo "perf bench sched: exit $?"; fails=$((fails + 1)); }
grep -q '^     messaging: Benchmark for scheduling and IPC$' ours.txt ||
	{ echo "perf bench sched does not list messaging"; fails=$((fails + 1)); }
"$ORACLE" bench sched >theirs.txt 2>&1
cmp -s ours.txt theirs.txt || { echo "perf bench sched:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
runs=$((runs + 1))
"$PERF" bench >ours.txt 2>&1 || { echo "perf bench: exit $?"; fails=$((fails + 1)); }
"$ORACLE" bench >theirs.txt 2>&1
grep -vxFf theirs.txt ours.txt >extra && [ -s extra ] &&
	{ echo "perf bench lists lines the distro's does not:"; cat extra; fails=$((fails + 1)); }
grep -q '^         sched: ' ours.txt || { echo "perf bench lists no sched"; fails=$((fails + 1)); }

# Bad input: <exit status without a distro perf> <bench args...>
check_bad() {
	local want=$1
	shift
	runs=$((runs + 1))
	"$PERF" bench "$@" >ours.txt 2>ours.err
	local rc=$?
	"$ORACLE" bench "$@" >theirs.txt 2>theirs.err
	want=$?
	cmp -s ours.txt theirs.txt && [ "$(head -1 ours.err)" = "$(head -1 theirs.err)" ] ||
		{ echo "perf bench $*:"; diff ours.txt theirs.txt
		  diff <(head -1 ours.err) <(head -1 theirs.err); fails=$((fails + 1)); }
	[ $rc -eq "$want" ] || { echo "perf bench $*: exit $rc, not $want"; fails=$((fails + 1)); }
}
check_bad 1 foo
check_bad 1 sched foo
check_bad 0 -f foo sched pipe -l 10
check_bad 129 -x
check_bad 129 sched messaging -x
check_bad 129 sched messaging -g abc
check_bad 129 sched messaging -l -1
check_bad 129 sched pipe -l abc
check_bad 129 sched pipe -h
[ $fails -eq 0 ] || fail "$fails of $runs perf bench runs differ from the distro's"
echo "$runs perf bench runs as the distro's"
exit 0
