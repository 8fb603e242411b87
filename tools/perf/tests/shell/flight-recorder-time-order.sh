#!/bin/bash
# Flight recorder: a dump of the README's events (-a) is in time order as readers walk it, its synthesized records of time 0 only ahead of everything
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
command -v python3 >/dev/null || skip "python3 is needed to walk the files (lib/time-order.py)"
here=$(cd "$(dirname "$0")" && pwd)
own_tmpd flight-recorder-time-order

# in_order <file>: lib/time-order.py finds no record going back in time,
# neither across a FINISHED_ROUND nor a COMM, FORK, MMAP... after a later
# record; the distro reads the file without a warning.
in_order() {
	python3 "$here/lib/time-order.py" "$1" || fail "$1 is not in time order"
	oracle_ok "script of $1" script -i "$1" >/dev/null
}

# The README's flight recorder, system-wide, while processes come and go
# and a BPF program is loaded and unloaded: a dump by the signal, one at
# the exit.  Each holds the process table's records (tasks from /proc at
# time 0, those recorded, the program's KSYMBOL and BPF_EVENT records)
# and the kernel's and modules' maps.  A second session, started after
# ours, tracks the same CPUs: the kernel then writes our KSYMBOL and
# BPF_EVENT records longer than they are, stale bytes where their times
# are read.
WL='i=0; while [ $i -lt 40 ]; do ls / >/dev/null; sleep 0.05; i=$((i + 1)); done'
"$PERF" test -w bpf-loop 0.01 2>/dev/null || echo "no BPF program can be loaded here: none in the dumps"
"$PERF" record -e cycles -e 'raw_syscalls:*' -e sched:sched_switch --overwrite --switch-output \
	-a -o r.data -- sh -c "while [ ! -e go ]; do sleep 0.01; done
		\"$PERF\" test -w bpf-loop 0.2 2>/dev/null; $WL" >r.out 2>r.err &
rec=$!
wait_recording $rec
"$PERF" record -q -e dummy -a --switch-output -o s2.data >/dev/null 2>&1 &
rec2=$!
wait_recording $rec2
touch go
dump_once_then_exit $rec 'r.data.*'
kill -INT $rec2
wait $rec2
[ "$(ls r.data.* | wc -l)" -eq 2 ] || { cat r.err; fail "two dumps expected: $(ls r.data.*)"; }
for f in r.data.*; do
	in_order "$f"
	echo "$f: in time order"
done
exit 0
