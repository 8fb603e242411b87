#!/bin/bash
# Event groups: recorded as groups, listed by evlist -g, reported together as the distro does
# Both recorders record a workload with an anonymous and a named group
# ('{cpu-clock,task-clock}' and 'grp{page-faults,minor-faults}:u'), one
# group with -g, one sampled by its leader ('{...}:S': the leader's samples
# read the group's counts, each count a sample of its event), a
# flight-recorder dump of a group and a stream (-o -).
# On each file the distro's evlist -g and "# group:" header lines must be
# ours byte for byte, and its report (the group view: one line per entry,
# a value for each event of the group; and --no-group, -n, -F, --sort)
# must be ours as report-oracle compares them: the top 30 entries with
# every percentage within 0.01, the call graphs of the top 10.  Of the
# leader-sampled files, script and report -D print what the distro's do,
# byte for byte.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/report-compare.sh"
need_root
need_oracle
own_tmpd report-groups
w='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls -R /usr/share/doc >/dev/null'

record_all() {	# <perf> <prefix>
	local p=$1 x=$2
	"$p" record -q -o "$x-two.data" -e '{cpu-clock,task-clock}' \
		-e 'grp{page-faults,minor-faults}:u' -- sh -c "$w" >/dev/null 2>&1 || return 1
	"$p" record -q -o "$x-cg.data" -g -e '{cpu-clock,task-clock}' -- sh -c "$w" \
		>/dev/null 2>&1 || return 1
	"$p" record -q -o - -e '{cpu-clock,task-clock}' -- sh -c "$w" >"$x-pipe.data" \
		2>/dev/null || return 1
	"$p" record -q -o "$x-read.data" -e '{cpu-clock,task-clock}:S' -- sh -c "$w" \
		>/dev/null 2>&1 || return 1
	# The dump the flight recorder takes when the workload exits.
	rm -f "$x"-fr.data.*
	"$p" record -q -o "$x-fr.data" -e '{cpu-clock,task-clock}' --overwrite --switch-output \
		-- sh -c "$w" >/dev/null 2>&1 || return 1
	mv "$(ls "$x"-fr.data.* | head -1)" "$x-fr.data" 2>/dev/null
	[ -s "$x-fr.data" ]
}
record_all "$ORACLE" d || skip "the distro perf cannot record event groups here"
record_all "$PERF" o || fail "our perf record failed"

fails=0 runs=0
for f in ?-*.data; do
	# The distro's evlist reads no group from a stream; its report does.
	if [ "${f#?-}" != pipe.data ]; then
		runs=$((runs + 1))
		"$PERF" evlist -g -i "$f" >ours.txt 2>&1
		"$ORACLE" evlist -g -i "$f" >theirs.txt 2>&1
		grep -q '{cpu-clock,task-clock}' theirs.txt && cmp -s ours.txt theirs.txt ||
			{ echo "$f evlist -g:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
		runs=$((runs + 1))
		"$PERF" report --header-only -i "$f" 2>&1 | grep '^# group' >ours.txt
		"$ORACLE" report --header-only -i "$f" 2>&1 | grep '^# group' >theirs.txt
		[ -s theirs.txt ] && cmp -s ours.txt theirs.txt ||
			{ echo "$f # group:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
	fi
	for mode in "" "-n --show-total-period" "--no-group" "--sort comm,dso" \
		    "-F overhead,sample,period,comm,dso"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		compare "$f" $mode || [ $? -eq 2 ] || fails=$((fails + 1))
	done
	grep -q "^# Samples: .* of events '\(anon group\|grp\) {" theirs.txt ||
		{ echo "$f: the distro shows no group"; fails=$((fails + 1)); }
done
for f in d-read.data o-read.data; do
	for cmd in "script" "script -F comm,tid,event,period,ip,sym" "report -D"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		"$PERF" $cmd -i "$f" >ours.txt 2>&1
		# shellcheck disable=SC2086
		"$ORACLE" $cmd -i "$f" >theirs.txt 2>&1
		rc=$?
		crashed $rc && { echo "the distro crashed (exit $rc) on $f $cmd: not compared"
				  not_compared=$((not_compared + 1)); continue; }
		grep -q 'task-clock' theirs.txt && cmp -s ours.txt theirs.txt ||
			{ echo "$f $cmd:"; diff ours.txt theirs.txt | head -5; fails=$((fails + 1)); }
	done
done
for f in d-cg.data o-cg.data; do
	for mode in "--no-children" "-g caller"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		compare "$f" $mode || [ $? -eq 2 ] || fails=$((fails + 1))
	done
done
[ $fails -eq 0 ] || fail_keeping report-groups "$fails of $runs comparisons differ from the distro's"
compared $runs "comparisons agree with the distro's"
exit 0
