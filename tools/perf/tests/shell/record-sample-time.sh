#!/bin/bash
# SAMPLE_TIME in every file and every dump: the first and last sample times, so --time 10%/1 works in the distro's reader
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
cd "$TMPD"

# $1: a file of ours.  Its header's first and last sample times are the
# earliest and the latest sample's, as the distro prints them; a time slice
# in percent selects the same samples in its reader and ours, some but not all.
check() {
	local f=$1 first last n all ours
	oracle_ok "header of $f" report --header-only -i "$f" >h.txt
	first=$(sed -n 's/^# time of first sample : //p' h.txt)
	last=$(sed -n 's/^# time of last sample : //p' h.txt)
	[ -n "$first" ] && [ -n "$last" ] || { cat h.txt; fail "$f: no sample times in the header"; }
	oracle_ok "script of $f" script -F time -i "$f" | tr -d ' :' | sort -n >t.txt
	[ "$first" = "$(head -1 t.txt)" ] || fail "$f: first sample time $first, the earliest sample at $(head -1 t.txt)"
	[ "$last" = "$(tail -1 t.txt)" ] || fail "$f: last sample time $last, the latest sample at $(tail -1 t.txt)"
	all=$(wc -l <t.txt)
	oracle_ok "report --time 10%/1 of $f" report --stdio --time 10%/1 -i "$f" >r.txt
	n=$(sed -n "s/^# Samples: \([0-9]*\) .*time slices: 10%\/1.*/\1/p" r.txt)
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$all" ] ||
		{ cat r.txt; fail "$f: the distro's --time 10%/1 selects '$n' of $all samples"; }
	ours=$($PERF script --time 10%/1 -i "$f" | wc -l)
	[ "$ours" = "$n" ] || fail "$f: our --time 10%/1 selects $ours samples, the distro's $n"
	echo "$f: samples from $first to $last; 10%/1 selects $n of $all"
}

$PERF record -q -e cpu-clock -o s.data -- $PERF test -w burn 0.3 || fail "record"
check s.data

# A dump by signal and one at exit; with -c too, where the event and the
# tracking dummy lay records out alike and are told apart by ID, not
# IDENTIFIER (each dump must still be whole).
for c in "" "-c 100000"; do
	rm -f fr.data.*
	# shellcheck disable=SC2086
	$PERF record -q -e cpu-clock $c --overwrite --switch-output -o fr.data -- \
		$PERF test -w burn 1.2 &
	dump_once_then_exit $! 'fr.data.*'
	[ "$(ls fr.data.* | wc -l)" = 2 ] || fail "two dumps expected: $(ls fr.data.*)"
	for f in fr.data.*; do
		$PERF test -w validate "$f" || fail "$f ($c) is not whole"
		check "$f"
	done
done
exit 0
