#!/bin/bash
# perf record --switch-events: context switch records, on the event the distro puts them on, read as the distro reads them
# perf script --show-switch-events documents files recorded with
# --switch-events.  For a workload (PERF_RECORD_SWITCH), system-wide
# (PERF_RECORD_SWITCH_CPU_WIDE) and a flight recorder's dump, the file must
# hold switch records of the workload, exactly one event must ask for them
# (the one the distro's recorder picks, but in overwrite mode, where ours
# tracks on a forward dummy that never reaches a dump: there the first
# overwrite event carries them), and our script --show-switch-events and
# report -D must print those records as the distro's do, with nothing on
# its stderr.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
cd "$TMPD"

# A workload that is sure to be switched out and in: it sleeps.
WL='sleep 0.05'

# name | options | the event carrying context_switch in our file (the distro's choice but for overwrite)
CASES='workload|-e cpu-clock|cpu-clock
system-wide|-e cpu-clock -a|dummy:HG
overwrite|-e cpu-clock -a --overwrite|cpu-clock'

carrier() {	# the names of the events of file $2 whose attr has context_switch, read by perf $1
	"$1" evlist -v -i "$2" 2>/dev/null | sed -n 's/: type: .*context_switch: 1.*//p'
}

while IFS='|' read -r name opts want; do
	# shellcheck disable=SC2086
	"$PERF" record -q --switch-events $opts -o "$name.data" -- $WL 2>"$name.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$name.err"; fail "$name: perf record --switch-events $opts exited $rc"; }
	[ -s "$name.err" ] && { cat "$name.err"; fail "$name: perf record printed something"; }
	got=$(carrier "$ORACLE" "$name.data")
	[ "$got" = "$want" ] || fail "$name: context_switch is on '$got', expected '$want'"
	if [ "$name" != overwrite ]; then
		# shellcheck disable=SC2086
		"$ORACLE" record -q --switch-events $opts -o "$name.theirs" -- $WL 2>/dev/null ||
			fail "$name: the distro's record failed"
		theirs=$(carrier "$ORACLE" "$name.theirs")
		[ "$got" = "$theirs" ] || fail "$name: ours on '$got', the distro's on '$theirs'"
	fi

	"$ORACLE" script --show-switch-events -i "$name.data" >theirs.txt 2>theirs.err ||
		fail "$name: the distro's script failed"
	[ -s theirs.err ] && { cat theirs.err; fail "$name: the distro's script wrote to stderr"; }
	"$PERF" script --show-switch-events -i "$name.data" >ours.txt 2>ours.err ||
		{ cat ours.err; fail "$name: our script failed"; }
	grep -q "sleep .*PERF_RECORD_SWITCH" ours.txt ||
		fail "$name: no switch record of the workload in our script's output"
	# The switch lines; the samples of the machine's other tasks are not
	# what this test is about (the distro takes /tmp/perf-* files for JIT maps).
	grep PERF_RECORD_SWITCH ours.txt >ours.sw
	grep PERF_RECORD_SWITCH theirs.txt >theirs.sw
	cmp -s ours.sw theirs.sw ||
		{ diff ours.sw theirs.sw | head -5; fail "$name: script --show-switch-events differs"; }

	"$PERF" report -D -i "$name.data" 2>/dev/null | grep PERF_RECORD_SWITCH >ours.D ||
		fail "$name: our report -D shows no switch record"
	"$ORACLE" report -D -i "$name.data" 2>/dev/null | grep PERF_RECORD_SWITCH >theirs.D
	cmp -s ours.D theirs.D || { diff ours.D theirs.D | head -5; fail "$name: report -D differs"; }
	echo "$name: $(wc -l <ours.D) switch records on $got, read as the distro reads them"
done <<<"$CASES"
exit 0
