#!/bin/bash
# The report comparison of the tests: a distro that crashes compares nothing, and is never counted as agreement
# lib/report-compare.sh's compare() runs our report and the distro's on a
# file.  Here the distro is a stand-in: one that dies by SIGSEGV, one that
# reports nothing, and our own perf (which must agree with itself).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/report-compare.sh"
cd "$TMPD"
"$PERF" record -q -e cpu-clock -c 100000 -o f.data -- "$PERF" test -w burn 0.2 2>rec.err ||
	{ cat rec.err; fail "record exited $?"; }

printf '#!/bin/sh\nkill -SEGV $$\n' >crasher
printf '#!/bin/sh\nexit 0\n' >silent
chmod +x crasher silent

ORACLE=$TMPD/crasher compare f.data --no-children >out.txt; rc=$?
cat out.txt
[ $rc -eq 2 ] || fail "compare with a distro that crashed exited $rc, not 2 (not compared)"
[ "$not_compared" -eq 1 ] || fail "the crash was not counted as not compared ($not_compared)"
grep -q "not compared" out.txt || fail "compare did not say that nothing was compared"
# All of one test's comparisons not made: a skip (exit 2), not a pass.
(compared 1 "reports agree") >out.txt; rc=$?
[ $rc -eq 2 ] || fail "compared with every comparison not made exited $rc, not 2 (skip)"
(compared 3 "reports agree") >out.txt; rc=$?
[ $rc -eq 0 ] && grep -qx "2 reports agree, 1 not compared (the distro crashed)" out.txt ||
	fail "compared 3 with one not made said '$(cat out.txt)' ($rc)"

ORACLE=$TMPD/silent compare f.data --no-children >out.txt; rc=$?
[ $rc -eq 1 ] || fail "compare with a distro that reports nothing exited $rc, not 1"

ORACLE=$PERF compare f.data --no-children >out.txt; rc=$?
[ $rc -eq 0 ] || { cat out.txt; fail "our report does not agree with itself ($rc)"; }
echo "a crash is not compared, nothing reported is a difference, the same report agrees"
exit 0
