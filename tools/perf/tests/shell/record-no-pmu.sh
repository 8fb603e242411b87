#!/bin/bash
# Without a hardware PMU only cycles falls back to cpu-clock; other events are errors naming them
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"
# The distro tells whether this machine lacks the counters.
if "$ORACLE" record -q -e instructions:u -o probe.data -- true >/dev/null 2>probe.err; then
	skip "this machine has a hardware PMU: nothing falls back"
fi
grep -q 'The instructions:u event is not supported' probe.err ||
	skip "the distro fails on instructions:u for another reason: $(tail -1 probe.err)"

for e in instructions:u instructions branches:u cache-misses branch-misses r00c0 \
	 '{cycles,instructions}'; do
	name=${e#\{cycles,}; name=${name%\}}
	"$PERF" record -e "$e" -o o.data -- true >out.txt 2>err.txt
	rc=$?
	[ $rc -ne 0 ] || { cat err.txt; fail "-e $e recorded (as cpu-clock?) where the distro fails"; }
	crashed $rc && fail "-e $e: crashed ($rc)"
	grep -q "^The $name event is not supported\." err.txt ||
		{ cat err.txt; fail "-e $e: the error does not name $name"; }
	grep -q 'falling back' err.txt && [ "$e" = "${e#\{}" ] && fail "-e $e: said it falls back"
	[ ! -e o.data ] || fail "-e $e: left a file behind"
	echo "-e $e -> $(grep "^The $name" err.txt)"
done

# cycles in its spellings still becomes cpu-clock, as with the distro.
for e in cycles cycles:u cpu-cycles; do
	"$PERF" record -e "$e" -o o.data -- true >out.txt 2>err.txt ||
		{ cat err.txt; fail "-e $e did not fall back to cpu-clock"; }
	got=$(oracle_ok "-e $e" evlist -i o.data)
	case "$got" in cpu-clock*) ;; *) fail "-e $e recorded '$got', want cpu-clock";; esac
	echo "-e $e -> $got"
	rm -f o.data o.data.old
done
exit 0
