#!/bin/bash
# perf report shows the functions inlined at unwound frames, as the distro does
# A program built with -O2 -g spends its time in mix(), inlined into
# outer(), inlined into work().  Recorded with --call-graph dwarf, by us
# and by the distro, its report's call graphs must show
# "mix (inlined)" and "outer (inlined)" below work, the children view must
# list them as entries of their own, and the distro's report of each file
# (default, --no-children, -g caller, --sort comm,dso,sym, folded) must be
# ours, trees included.  --no-inline leaves them out, on both sides.
# Recorded (frame-pointer) callchains are not expanded, as the distro's
# 6.1 does not expand them.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/report-compare.sh"
need_root
need_gcc
own_tmpd report-inline

cat >inl.c <<'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
static inline __attribute__((always_inline)) unsigned long outer(unsigned long x)
{
	return mix(x) ^ mix(x + 1);
}
__attribute__((noinline)) void work(long n)
{
	unsigned long a = 0;
	for (long i = 0; i < n; i++)
		a += outer(i);
	sink = a;
}
int main(int argc, char **argv)
{
	work(argc > 1 ? atol(argv[1]) : 100000);
	return 0;
}
EOF
gcc -O2 -g -fno-omit-frame-pointer -o inl inl.c || fail "gcc"

# Our own report of our file, with no distro needed.
$PERF record -q --call-graph dwarf -e cpu-clock -o o-dw.data ./inl 100000 ||
	fail "record --call-graph dwarf"
$PERF report --stdio --no-children -i o-dw.data >ours.txt 2>ours.err ||
	{ cat ours.err; fail "report exited non-zero"; }
# The top entry's tree, innermost first: mix, outer, then work itself (its
# first branch, when a few samples' stacks end elsewhere).
awk '/^ +[0-9.]+%/ { if (on++) exit; next }
     on && /[a-z_]/ { gsub(/^[ |]+/, ""); sub(/^-+([0-9.]+%-+)?/, ""); print }' ours.txt |
	head -3 | tr '\n' ' ' >tree.txt
[ "$(cat tree.txt)" = "mix (inlined) outer (inlined) work " ] ||
	fail "the top call graph starts '$(cat tree.txt)', not with mix and outer inlined into work"
$PERF report --stdio --children -i o-dw.data >ours.txt 2>/dev/null
grep -Eq '%  inl +inl +\[\.\] outer \(inlined\)$' ours.txt ||
	fail "the children view has no entry for outer (inlined)"
grep -Eq '%  inl +inl +\[\.\] work$' ours.txt || fail "work lost its entry"
$PERF report --stdio --no-inline -i o-dw.data >ours.txt 2>/dev/null
grep -q '(inlined)' ours.txt && fail "--no-inline still shows inlined functions"
# Frame-pointer chains are as recorded.
$PERF record -q -g -e cpu-clock -o o-fp.data ./inl 20000 || fail "record -g"
$PERF report --stdio -i o-fp.data >ours.txt 2>/dev/null
grep -q '(inlined)' ours.txt && fail "frame-pointer callchains were expanded"

need_oracle
"$ORACLE" record -q --call-graph dwarf -e cpu-clock -o d-dw.data ./inl 100000 >/dev/null 2>&1 ||
	skip "the distro perf cannot record --call-graph dwarf here"
"$ORACLE" report --stdio -i d-dw.data 2>/dev/null | grep -q 'outer (inlined)' ||
	skip "the distro shows no inlined functions here (is addr2line installed?)"
fails=0 runs=0
for f in o-dw.data d-dw.data; do
	# Entries of 1% and more: the loader's start-up frames below that are
	# named by addr2line from symbol-table aliases (__GI_munmap for our
	# __munmap, the DWARF name), which is not this test's business.
	for mode in "" "--no-children" "-g caller" "--sort comm,dso,sym" "-g folded --no-children" \
		    "--no-inline"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		compare "$f" --percent-limit 1 $mode || [ $? -eq 2 ] || fails=$((fails + 1))
	done
	# Not vacuous: the distro's report has the inlined frames we compared.
	"$ORACLE" report --stdio -i "$f" 2>/dev/null | grep -q 'mix (inlined)' ||
		{ echo "$f: the distro shows no mix (inlined)"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] || fail "$fails of $runs reports differ from the distro's"
compared $runs "reports agree with the distro's, inlined frames included"
