#!/bin/bash
# perf record files read by the distro perf
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

# (a) cpu-clock with frame-pointer callchains over our own workload.
$PERF record -q -e cpu-clock -g -o a.data -- sh -c "'$PERF' test -w burn 0.4; '$PERF' test -w getppid 400000" ||
	fail "record (a)"
oracle_ok "script (a)" script -i a.data > a.txt
grep -q '^ *perf ' a.txt || fail "(a) no samples of the workload's comm"
grep -Eq '\[kernel\.kallsyms\]' a.txt || fail "(a) no kernel frame symbolized"
grep -q 'burn_inner' a.txt || fail "(a) no user frame symbolized (burn_inner)"

# (b) tracepoints system-wide: formatted fields.
$PERF record -q -e 'raw_syscalls:*' -e sched:sched_switch -a -o b.data sleep 1 || fail "record (b)"
ORACLE_KERNEL_ORDER=1 oracle_ok "script (b)" script -i b.data > b.txt
grep -Eq 'raw_syscalls:sys_enter: NR [0-9]+ \(' b.txt || fail "(b) no formatted sys_enter"
grep -Eq 'raw_syscalls:sys_exit: NR [0-9-]+ = ' b.txt || fail "(b) no formatted sys_exit"
grep -Eq 'prev_comm=.*==> next_comm=' b.txt || fail "(b) no formatted sched_switch"

# (c) evlist -v: our attrs.  System-wide, a dummy:HG tracks tasks from the
# start, as the distro's does; its samples are laid out otherwise, so every
# event carries IDENTIFIER.
oracle_ok "evlist (c)" evlist -v -i b.data > c.txt
grep -q '^dummy:HG: .*mmap: 1, comm: 1, task: 1' c.txt || { cat c.txt; fail "(c) no dummy:HG"; }
grep -q '^raw_syscalls:sys_enter: .*sample_type: IP|TID|TIME|CPU|PERIOD|RAW|IDENTIFIER,' c.txt ||
	{ cat c.txt; fail "(c) sample_type of sys_enter"; }
grep -q 'sample_id_all: 1' c.txt || fail "(c) sample_id_all"
oracle_ok "evlist (a)" evlist -v -i a.data | grep -q 'sample_type: IP|TID|TIME|CALLCHAIN|CPU|PERIOD' ||
	fail "(c) callchain sample_type"

# (d) report lists the workload's symbols.
oracle_ok "report (d)" report --stdio -i a.data > d.txt
grep -q 'burn_inner' d.txt || fail "(d) report has no burn_inner"

# (e) every feature we write is in the header.
oracle_ok "header (e)" report --header-only -i b.data > e.txt
for f in 'hostname :' 'os release :' 'arch :' 'nrcpus online :' 'cpudesc :' 'cpuid :' \
	 'total memory :' 'cmdline :' 'event : name = raw_syscalls:sys_enter'; do
	grep -q "# $f" e.txt || { cat e.txt; fail "(e) header lacks '$f'"; }
done

# (f) exact counts, ours and the distro's.
$PERF record -q -e syscalls:sys_enter_prctl -o f1.data -- "$PERF" test -w prctl 1000 || fail "record (f)"
"$ORACLE" record -q -e syscalls:sys_enter_prctl -o f2.data -- "$PERF" test -w prctl 1000 2>/dev/null
ours=$(oracle_ok "script (f)" script -i f1.data | grep -c 'sys_enter_prctl')
theirs=$("$ORACLE" script -i f2.data 2>/dev/null | grep -c 'sys_enter_prctl')
echo "prctl samples: ours $ours, distro $theirs"
[ "$ours" -eq 1000 ] || fail "(f) we recorded $ours prctl calls, not 1000"
[ "$theirs" -eq 1000 ] || fail "(f) the distro recorded $theirs"
exit 0
