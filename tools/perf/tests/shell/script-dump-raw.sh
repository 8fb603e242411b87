#!/bin/bash
# perf report -D and perf script -D dump every record byte for byte as the distro does
# Files recorded by the distro and by us (cpu-clock -g over a workload, a
# compressed one, one with user registers and stacks, tracepoints
# system-wide, a stream written to a pipe; MMAP2 records with build ids,
# samples with physical addresses, page sizes, weights, transactions and
# interrupt registers, and READ records from the distro alone) are dumped
# by both perfs, and the outputs must be
# identical: the offsets, the hex dumps, the decoded lines, the order (user
# records as read, the kernel's in time order), the thread and DSO of each
# sample, perf script's own lines between them and perf report's summary
# at the end.
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"

work='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'

# $1: a file; both perfs dump it with report -D and with script -D (whose
# own sample lines, callchains included, come between the records).  For
# stacks unwound from --call-graph dwarf, script -D -G: the distro's
# unwinder sometimes adds a last frame at ffffffffffffffff, which ours does
# not (dwarf-unwind.sh compares those chains).
same_dump() {
	local f=$1 cmd g=

	case $f in *dwarf*) g=" -G";; esac
	for cmd in "report -D" "script -D$g"; do
		"$PERF" $cmd -i "$f" >ours.txt 2>ours.err ||
			{ cat ours.err; fail "$cmd -i $f exited $?"; }
		[ -s ours.err ] && { cat ours.err; fail "$cmd -i $f wrote to stderr"; }
		oracle_ok "$cmd of $f" $cmd -i "$f" >dist.txt
		grep -q '^0x[0-9a-f]*@[^ ]* \[0x[0-9a-f]*\]: event: 9$' dist.txt ||
			fail "$f: the distro dumped no sample"
		cmp -s ours.txt dist.txt || { diff ours.txt dist.txt | head -20;
			fail "$cmd -i $f differs from the distro's"; }
		echo "$cmd -i $f: $(wc -l <ours.txt) lines, the same"
	done
}

for p in "$ORACLE" "$PERF"; do
	n=$([ "$p" = "$PERF" ] && echo ours || echo dist)
	"$p" record -q -g -e cpu-clock -o $n-cg.data -- sh -c "$work" >/dev/null 2>&1 ||
		fail "$n: record -g"
	"$p" record -q -z -e cpu-clock -o $n-z.data -- sh -c "$work" >/dev/null 2>&1 ||
		fail "$n: record -z"
	"$p" record -q -g -e cpu-clock -o - -- sh -c "$work" >$n-pipe.data 2>/dev/null ||
		fail "$n: record -o -"
	# User registers and stack: their lines, and the stack's offset.
	"$p" record -q --call-graph dwarf,1024 -e cpu-clock -o $n-dwarf.data -- sh -c "$work" \
		>/dev/null 2>&1 || fail "$n: record --call-graph dwarf"
	same_dump $n-cg.data
	same_dump $n-z.data
	same_dump $n-pipe.data
	same_dump $n-dwarf.data
done
# MMAP2 records that carry build ids (only the distro writes them).
"$ORACLE" record -q --buildid-mmap -e cpu-clock -o dist-bid.data -- sh -c "$work" \
	>/dev/null 2>&1 || fail "dist: record --buildid-mmap"
same_dump dist-bid.data
# Sample fields only the distro records: physical and page sizes, weight
# and transaction, interrupt registers; and the READ record of each task's
# count at its exit (-s).
n=0
for opts in "--phys-data --data-page-size --code-page-size" "-W --transaction" \
	    "--intr-regs" "-s"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$ORACLE" record -q $opts -e cpu-clock -o dist-fields$n.data -- sh -c "$work" \
		>/dev/null 2>&1 || fail "dist: record $opts"
	same_dump dist-fields$n.data
done

# Tracepoints, with CPU columns and several processes' side-band records.
[ "$(id -u)" -eq 0 ] || skip "tracepoints system-wide need root (the rest passed)"
need_tracefs
for p in "$ORACLE" "$PERF"; do
	n=$([ "$p" = "$PERF" ] && echo ours || echo dist)
	"$p" record -q -e sched:sched_switch -a -o $n-tp.data -- sh -c "$work" >/dev/null 2>&1 ||
		fail "$n: record sched:sched_switch"
	same_dump $n-tp.data
done
exit 0
