#!/bin/bash
# Mixed call graphs: events with and without call graphs in one file, read as the distro reads them
# Both recorders record -g with a tracepoint that asks for no call graph
# (raw_syscalls:sys_enter/call-graph=no/) beside cpu-clock, and the
# README's worked example (cycles, raw_syscalls:* and sched_switch without
# call graphs, a flight recorder over the whole system) dumps once on
# SIGUSR2.  Our report must read every file in every mode without a crash,
# and its tables must be the distro's as report-oracle compares them (top
# 30 entries, every percentage within 0.01, the call graphs of the top 10);
# -g folded,...,count must print what the distro prints, byte for byte.
#
# The one written difference: with children (the default when the file
# has call graphs) the distro 6.1 credits each sample of an event without
# call graphs to the chain of the last sample before it that had one (its
# chain cursor is not reset), so that event's Children column and its
# entries of 0.00% self are not data.  Ours has Children equal to Self
# there.  So in those modes only the events with call graphs are compared
# with the distro; the others must equal our own --no-children table, which
# is compared with the distro's in full.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/report-compare.sh"
need_root
need_oracle
need_tracefs
own_tmpd report-mixed-callchains
mkdir -p tree
for i in $(seq 1 40); do mkdir -p "tree/d$i/e$i" && : >"tree/d$i/e$i/f"; done
w='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; for i in 1 2 3 4 5 6 7 8; do ls -R tree; done >/dev/null'

record_mixed() {	# <perf> <prefix>
	"$1" record -q -g -e 'raw_syscalls:sys_enter/call-graph=no/' -e cpu-clock -c 1000000 \
		-o "$2-mixed.data" -- sh -c "$w" >/dev/null 2>&1
}
record_mixed "$ORACLE" d || skip "the distro perf cannot record raw_syscalls here"
record_mixed "$PERF" o || fail "our perf record of the mixed events failed"

# The README's worked example, bounded: one dump on SIGUSR2, then the exit.
# The workload runs on until the dump is written, so that whatever span the
# buffers hold at the request (a few ms on a busy machine), it is in there:
# run once before, it may all have been overwritten by other tasks' events.
"$PERF" record -g -e cycles -e 'raw_syscalls:*/call-graph=no/' \
	-e sched:sched_switch/call-graph=no/ --switch-output --overwrite -a \
	-o readme.data >readme.out 2>&1 &
rec=$!
wait_recording $rec
sh -c "while [ ! -e stop ]; do $w; done" &
loop=$!
sh -c "$w"
kill -USR2 $rec
wait_files 'readme.data.*' 1
kill -INT $rec
wait $rec || { cat readme.out; fail "the README's recorder exited $?"; }
: >stop
wait $loop
mv "$(ls readme.data.* | head -1)" o-readme.data
rm -f readme.data.*
# What the comparisons below select must be there, or they compare nothing.
"$PERF" script -F comm -i o-readme.data 2>/dev/null | grep -qE '^ *(sh|ls) *$' ||
	fail "the README's dump, taken while sh and ls ran, holds none of their events"

fails=0 runs=0
# Whether folded outputs $1 and $2 have the same lines, the chains of each
# entry in any order of equal counts.
folded_same() {
	cmp -s "$1" "$2" && return 0
	# The same lines, and those that are not chains at the same places.
	cmp -s <(sort "$1") <(sort "$2") &&
		cmp -s <(grep -vn '^[0-9][0-9]* ' "$1") <(grep -vn '^[0-9][0-9]* ' "$2") &&
		cmp -s <(grep -o '^[0-9][0-9]* ' "$1") <(grep -o '^[0-9][0-9]* ' "$2")
}
# The table of event $2 in report output $1, without its header.
table() {
	awk -v ev="'$2'" '/^# Samples: / { on = index($0, "of event " ev) > 0; next }
		on && !/^#/ && NF' "$1"
}
for f in d-mixed.data o-mixed.data o-readme.data; do
	# The whole system's dump is compared on the test's own processes: other
	# programs may have been rebuilt since (this one's objects do not change).
	only=
	[ "$f" = o-readme.data ] && only="--comm sh,ls"
	# Events with call graphs, and those without.
	with=$("$PERF" evlist -v -i "$f" | awk -F': ' '/CALLCHAIN/ { print $1 }' | paste -sd'|')
	without=$("$PERF" evlist -v -i "$f" | grep -v CALLCHAIN | awk -F': ' '{ print $1 }')
	[ -n "$with" ] && [ -n "$without" ] || fail "$f: no mix of events with and without call graphs"
	for mode in "--no-children" "--no-children --sort comm,dso" "--no-children -n --sort pid,sym" \
		    "--group --no-children"; do
		runs=$((runs + 1))
		# As below: the distro's --comm keeps an entry of several comms
		# (a pid that exec'ed) by the first it saw, so with --comm the
		# comm is a key.
		[ -n "$only" ] && mode=${mode/--sort pid,sym/--sort comm,pid,sym}
		# shellcheck disable=SC2086
		compare "$f" $mode $only || [ $? -eq 2 ] || fails=$((fails + 1))
	done
	for mode in "" "-g none" "--children --sort dso,sym" "-g folded,0,caller,count"; do
		runs=$((runs + 1))
		# The distro's --comm keeps an entry of several comms by the first
		# it saw, so with --comm the comm is a key.
		[ -n "$only" ] && mode=${mode/--sort dso,sym/--sort comm,dso,sym}
		# shellcheck disable=SC2086
		compare_only="^'($with)'\$" compare "$f" $mode $only || [ $? -eq 2 ] || fails=$((fails + 1))
		# shellcheck disable=SC2086
		"$PERF" report --stdio -i "$f" ${mode/--children/} --no-children $only >flat.txt 2>&1 ||
			{ echo "our report --no-children $mode exited $? on $f"; fails=$((fails + 1)); }
		for ev in $without; do
			table ours.txt "$ev" | awk '$1 != $2 { print; exit 1 }' >bad.txt ||
				{ echo "$f $mode: $ev has Children other than Self:"; cat bad.txt
				  fails=$((fails + 1)); }
			cmp -s <(table ours.txt "$ev" | cut -c 11-) <(table flat.txt "$ev") ||
				{ echo "$f $mode: $ev differs from its --no-children table"
				  fails=$((fails + 1)); }
		done
	done
	for cmd in "script" "script -F comm,tid,event,ip,sym" "evlist -v"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		"$PERF" $cmd -i "$f" >ours.txt 2>&1
		rc=$?
		crashed $rc && { echo "our $cmd crashed (exit $rc) on $f"; fails=$((fails + 1)); }
	done
	# Folded chains with counts: the distro's lines byte for byte (it ends
	# with a tip).  Chains of an entry with equal counts may come in another
	# order: the distro orders those by where its objects sit in memory.
	for g in folded,0,caller,count folded,0,callee,count; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		"$PERF" report --stdio --no-children -g $g -i "$f" $only >ours.txt 2>&1
		# shellcheck disable=SC2086
		"$ORACLE" report --stdio --no-children -g $g -i "$f" $only 2>&1 |
			awk '/^# \(Tip: / { getline; next } { print }' | sed '$ { /^#$/d }' >theirs.txt
		grep -q '^[0-9][0-9]* ' theirs.txt && folded_same ours.txt theirs.txt ||
			{ echo "$f -g $g:"; diff ours.txt theirs.txt | head -5; fails=$((fails + 1)); }
	done
done
[ $fails -eq 0 ] || fail_keeping report-mixed-callchains "$fails of $runs comparisons failed"
compared $runs "comparisons agree with the distro's"
