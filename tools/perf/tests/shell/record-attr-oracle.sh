#!/bin/bash
# perf record sets the distro's event attributes, but for the differences listed here, each with its reason
# For each command line of a table, both recorders record the same
# workload; the distro's evlist -v prints both files' attributes (so the
# printer is the same), one field a line.  Every field that differs must be
# in the ALLOWED table below; an allowed difference that no longer occurs
# is reported too, so the table stays true.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

# name | options
CASES='cpu-clock|-e cpu-clock
fp|-e cpu-clock -g
dwarf|-e cpu-clock --call-graph dwarf
count|-e cpu-clock -c 10000
freq|-e cpu-clock -F 999
overwrite|-e cpu-clock --overwrite
overwrite-count|-e cpu-clock --overwrite -c 10000
two|-e cpu-clock -e task-clock
group|-e {cpu-clock,task-clock}
named-group|-e grp{cpu-clock,task-clock}:u
overwrite-group|-e {cpu-clock,task-clock} --overwrite
leader-sampling|-e {cpu-clock,task-clock}:S
tracepoint|-e sched:sched_switch
clock|-e cpu-clock -k monotonic
data|-d -e page-faults -c 10
switch-events|-e cpu-clock --switch-events'

# case (a glob) | - for a field only the distro sets, + for one only we set | field (a glob) | why
# Bit masks (sample_type, read_format) are compared one bit a line.
ALLOWED='
*|+|* sample_type CPU|CPU in every sample (evsel__config): --cpu and --sort cpu work on all our files
dwarf|-|cpu-clock sample_type ADDR|ADDR and DATA_SRC are zeros but for memory events; no reader needs them to unwind
dwarf|-|cpu-clock sample_type DATA_SRC|(the same)
overwrite*|-|cpu-clock mmap: 1|the side-band streams from a forward dummy:u event into the process table, not into the overwritten buffer
overwrite*|-|cpu-clock mmap2: 1|(the same)
overwrite*|-|cpu-clock comm: 1|(the same)
overwrite*|-|cpu-clock comm_exec: 1|(the same)
overwrite*|-|cpu-clock task: 1|(the same)
overwrite*|-|cpu-clock ksymbol: 1|(the same)
overwrite*|-|cpu-clock bpf_event: 1|(the same)
overwrite*|+|dummy:u *|(the same)
overwrite|+|cpu-clock sample_type IDENTIFIER|the dummy:u samples no PERIOD: IDENTIFIER tells the two apart, as the distro does when layouts differ
overwrite-count|+|cpu-clock sample_type ID|with -c neither samples PERIOD: ID tells the two apart, as the distro does when layouts are alike
overwrite-group|-|*-clock sample_type ID|the dummy:u samples no PERIOD: IDENTIFIER tells the events apart, as in overwrite
overwrite-group|+|*-clock sample_type IDENTIFIER|(the same)
'

# One line per attribute field, "event field: value", and per bit of a
# mask, "event sample_type BIT"; sorted.
fields() {
	"$ORACLE" evlist -v -i "$1" 2>/dev/null |
	sed -e 's/{ sample_period, sample_freq }/sample_period,freq/' \
	    -e 's/{ wakeup_events, wakeup_watermark }/wakeup_events,watermark/' |
	awk '/^#/ { next }
	     { ev = substr($0, 1, index($0, ": ") - 1); rest = substr($0, length(ev) + 3)
	       n = split(rest, f, ", ")
	       for (i = 1; i <= n; i++) {
		       if (f[i] ~ /^(sample_type|read_format): /) {
			       split(f[i], kv, ": "); m = split(kv[2], bit, "|")
			       for (j = 1; j <= m; j++) print ev " " kv[1] " " bit[j]
		       } else {
			       print ev " " f[i]
		       }
	       } }' | sort
}

# The number of the ALLOWED line that lets case $1 have line $3 on side $2.
allowed() {
	local n=0 pc ps pf why
	while IFS='|' read -r pc ps pf why; do
		n=$((n + 1))
		[ -n "$pc" ] || continue
		# shellcheck disable=SC2053
		[[ $1 == $pc && $2 == "$ps" && $3 == $pf ]] && { echo $n; return 0; }
	done <<<"$ALLOWED"
	return 1
}

bad=0
: >used
while IFS='|' read -r name opts; do
	# shellcheck disable=SC2086
	"$ORACLE" record -q $opts -o "d-$name.data" -- true >/dev/null 2>&1 ||
		fail "$name: the distro's record $opts"
	# shellcheck disable=SC2086
	$PERF record -q $opts -o "o-$name.data" -- true >/dev/null 2>"o-$name.err" ||
		{ cat "o-$name.err"; fail "$name: our record $opts"; }
	fields "d-$name.data" >"d-$name.txt"
	fields "o-$name.data" >"o-$name.txt"
	[ -s "d-$name.txt" ] && [ -s "o-$name.txt" ] || fail "$name: no attributes printed"
	while read -r side line; do
		if n=$(allowed "$name" "$side" "$line"); then
			echo "$n" >>used
		else
			echo "$name: '$line' is set only by $([ "$side" = - ] && echo "the distro" || echo "us") (perf record $opts)"
			bad=1
		fi
	done < <(diff "d-$name.txt" "o-$name.txt" | sed -n -e 's/^< /- /p' -e 's/^> /+ /p')
done <<<"$CASES"
[ "$bad" = 0 ] || fail "attributes differ from the distro's in ways not listed in the test"

# Every listed difference still occurs: a stale entry would be a wrong claim.
n=0
while IFS= read -r entry; do
	n=$((n + 1))
	[ -n "$entry" ] || continue
	grep -qx "$n" used || fail "the allowed difference '$entry' no longer occurs: remove it"
done <<<"$ALLOWED"
exit 0
