#!/bin/bash
# perf script -G, -F +field/-field, type: lists and edits, addr, period, --show-task/mmap-events print as the distro
# Files the distro recorded: cpu-clock with -g, cpu-clock with -d (sample
# addresses), sched_switch with -g (a tracepoint with callchains shows
# its stack by default), and cpu-clock with physical addresses, page sizes,
# weights and registers (the weight, ins_lat, phys_addr, data_page_size,
# code_page_size, iregs and uregs fields).  Each form of -F below must print the distro's
# lines; symbol names may differ where a library exports two names for one
# address (symbol choice is not this test's business), so chain lines are
# compared up to the address and whole lines at 95%.  Everything is
# recorded around our own workload, so what other programs on the machine
# do (C++ names, say) stays out.  Fields an event did
# not record, and contradictory -F lists, are refused with one line.
# srcline: the file and line from the DSO's debug info, or dso[address].
# --show-task-events, --show-mmap-events and --show-switch-events put the
# COMM/FORK/EXIT, MMAP/MMAP2 and SWITCH records among the samples, also on a file we recorded (where
# the workload's parent is known by number only, and its child must not
# take that number for a name).
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"
w='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls -R /usr/share/doc >/dev/null'
"$ORACLE" record -q -o cg.data -g -e cpu-clock -- sh -c "$w" >/dev/null 2>&1 &&
"$ORACLE" record -q -o ad.data -d -e cpu-clock -- sh -c "$w" >/dev/null 2>&1 &&
"$ORACLE" record -q -o tpg.data -g -e sched:sched_switch -- sh -c "$w; sleep 0.05" >/dev/null 2>&1 ||
	skip "the distro perf cannot record here"
# A fixed period (-c) without PERIOD in the samples: the period printed is
# the attr's.  With -d, each fault's address is named from the maps of data
# (and the symbols of objects) as the ip is.
"$ORACLE" record -q -o fp.data -c 10 -d -e page-faults -- sh -c "$w" >/dev/null 2>&1 ||
	skip "the distro perf cannot record page-faults here"
"$ORACLE" record -q -o sw.data --switch-events -e cpu-clock -- sh -c "$w; sleep 0.05" >/dev/null 2>&1 ||
	skip "the distro perf cannot record --switch-events here"
# Sample fields our recorder does not ask for: physical addresses and page
# sizes, weights (as a struct), interrupt and user registers.
"$ORACLE" record -q -o pa.data --phys-data --data-page-size --code-page-size -e cpu-clock \
	-- sh -c "$w" >/dev/null 2>&1 &&
"$ORACLE" record -q -o wt.data -W --transaction -e cpu-clock -- sh -c "$w" >/dev/null 2>&1 &&
"$ORACLE" record -q -o ir.data --intr-regs --user-regs=ip,sp,bp -e cpu-clock -- sh -c "$w" \
	>/dev/null 2>&1 || skip "the distro perf cannot record those sample fields here"
"$PERF" record -q -o ocg.data -g -e cpu-clock -- sh -c "$w" >/dev/null 2>&1 || fail "our record failed"
"$PERF" record -q -o ofp.data -c 10 -d -e page-faults -- sh -c "$w" >/dev/null 2>&1 ||
	fail "our record -d failed"

n=0
while read -r f opts; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$ORACLE" script -i $f $opts >theirs 2>/dev/null
	# shellcheck disable=SC2086
	"$PERF" script -i $f $opts >ours 2>ours.err || { cat ours.err; fail "$f $opts: exit $?"; }
	# Where a DSO has no debug info the distro's source line comes from
	# addr2line's guesses: those "  dso[address]" lines are left out.
	case "$opts" in *srcline*)
		sed -i -E '/^  [^ ]+\[[0-9a-f]+\]$/d' ours theirs
		grep -Eq '^  [^ ]+:[0-9]+$' theirs || fail "$f $opts: no source line to compare";;
	esac
	lines=$(wc -l <theirs)
	[ "$lines" -gt 0 ] && [ "$(wc -l <ours)" -eq "$lines" ] ||
		fail "$f $opts: $(wc -l <ours) lines, the distro $lines"
	# Source files are compared with the whole lines below (at 95%): the
	# distro's addr2line takes a DWARF 5 row's file index one off at times,
	# ctype-info.c for libdw's (and readelf's) ctype.h.
	sed -E 's/^(\t *[0-9a-f]+) .*/\1/; s/^  [^ ]+:([0-9]+)$/  :\1/' ours >o2
	sed -E 's/^(\t *[0-9a-f]+) .*/\1/; s/^  [^ ]+:([0-9]+)$/  :\1/' theirs >t2
	cmp -s o2 t2 || { diff o2 t2 | head -5; fail "$f $opts: differs from the distro's"; }
	same=$(paste -d '\n' ours theirs | awk 'NR % 2 { a = $0; next } a == $0 { s++ } END { print s + 0 }')
	[ $((same * 100)) -ge $((lines * 95)) ] ||
		{ diff ours theirs | head -5; fail "$f $opts: only $same of $lines lines as the distro's"; }
	echo "$f $opts: $lines lines, as the distro"
done <<'EOS'
cg.data
cg.data -G
cg.data -F -ip
cg.data -F comm,sym
cg.data -F comm,tid,ip,sym,dso
cg.data -F sw:comm,ip
cg.data -F trace:comm,time,event,trace -F sw:comm,time,event
cg.data -F -period,-symoff
cg.data -F sw:+addr
cg.data -F sw:-period,-ip
cg.data -F comm,tid,callindent,ip,sym
cg.data -F +callindent -G
cg.data -F comm,ip,sym,srcline
cg.data -F ip,dso,srcline
ad.data -F +addr
ad.data -F comm,addr,ip,sym
ad.data -F -dso,+addr
tpg.data
tpg.data -G
tpg.data -F -cpu
tpg.data -F +cpu,-time
tpg.data -F trace:-trace
tpg.data -F trace:+cpu,-time,+ip
fp.data
fp.data -F comm,period
fp.data -F ip,sym,dso,addr
fp.data -F addr,sym,symoff,ip
ofp.data -F comm,addr,sym,dso,ip
tpg.data -F sw:comm,ip
tpg.data -F comm,tid,ip,sym
tpg.data -F comm,ip,sym,srcline
ocg.data -F comm,ip,srcline
cg.data --show-task-events
cg.data --show-mmap-events -G
tpg.data --show-task-events --show-mmap-events -G
ocg.data --show-task-events --show-mmap-events
ocg.data --show-task-events -F comm,tid,time,ip
sw.data --show-switch-events
sw.data --show-switch-events --show-task-events -F comm,tid,time,event
pa.data -F ip,sym,phys_addr,data_page_size,code_page_size
wt.data -F comm,weight,ins_lat,ip,sym
ir.data -F ip,sym,iregs
ir.data -F comm,ip,uregs
ir.data -F +iregs,+uregs
EOS
[ $n -eq 44 ] || fail "ran $n forms, not 44"

# Refused: a field the event lacks, edits mixed into a list, symoff alone, an unknown type.
for bad in "cg.data -F comm,cpu" "cg.data -F +addr" "cg.data -F comm,ip,+cpu" \
	   "cg.data -F -sym" "cg.data -F bogus:comm" "tpg.data -F comm,addr" \
	   "cg.data -F ip,weight" "cg.data -F ip,iregs" "pa.data -F ip,uregs"; do
	# shellcheck disable=SC2086
	"$PERF" script -i $bad >out 2>err && fail "$bad: succeeded"
	[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "$bad: expected one line of error"; }
	[ ! -s out ] || fail "$bad: printed samples despite the error"
	# shellcheck disable=SC2086
	"$ORACLE" script -i $bad >/dev/null 2>&1 && fail "$bad: the distro takes it, so should we"
done
exit 0
