#!/bin/bash
# perf report's sample count: 1000 stays 1000, 1001 is 1K, as the distro prints it
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
own_tmpd report-sample-count

# Exactly N getppid() calls: exactly N samples of its tracepoint.
for n in 1000 1001; do
	"$PERF" record -q -e syscalls:sys_enter_getppid -o $n.data -- "$PERF" test -w getppid $n 2>rec.err ||
		{ cat rec.err; fail "perf record of $n getppid() calls failed"; }
	"$PERF" report --stdio -i $n.data 2>/dev/null | grep '^# Samples:' >ours.$n
	"$ORACLE" report --stdio -i $n.data 2>/dev/null | grep '^# Samples:' >distro.$n
done
grep -qx "# Samples: 1000  of event 'syscalls:sys_enter_getppid'" ours.1000 ||
	{ cat ours.1000; fail "1000 samples are not shown as 1000"; }
grep -qx "# Samples: 1K of event 'syscalls:sys_enter_getppid'" ours.1001 ||
	{ cat ours.1001; fail "1001 samples are not shown as 1K"; }
for n in 1000 1001; do
	diff ours.$n distro.$n || fail "the sample count of $n differs from the distro's"
done
exit 0
