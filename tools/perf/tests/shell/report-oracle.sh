#!/bin/bash
# perf report --stdio agrees with the distro's: top entries, shares, call graphs
# Files recorded by ours and by the distro: cpu-clock with -g over a
# workload, tracepoints system-wide (and one execve seen system-wide), and a
# flight-recorder dump (--overwrite --switch-output, SIGUSR2 or the exit
# dump) of the workload.  For each report mode below (and, on the
# cpu-clock files, the other layouts, -F, --comm (-c), --percent-limit,
# --max-stack, -G and --show-total-period; --stats and --header-only byte for byte on all,
# --tasks on the cpu-clock files), the distro's top 30
# entries must be ours too, with every percentage within 0.01, and the call
# graphs of the top 10 must be the same trees.  Entries with equal shares
# (and branches with equal shares) may come in another order: the distro
# orders those by where its objects sit in memory.  Not compared: entries
# of unresolved addresses under --sort pid,sym, which the distro sometimes
# splits in two (the address-0 frame into [k] and [.], others too) by a
# rule we do not follow yet; with a dso key it keeps one entry, as we do.
# Two more differences left out the same way: a key the distro lists twice
# (see --sort pid,sym below for why it does), and the "[...]" remainder
# lines of fractal call graphs, which the distro now and then prints as
# "[...] (inlined)" (the flag of its placeholder symbol is never set, so it
# is whatever the allocator left there; we print "[...]").  Both showed in
# about one fresh-clone run in four, on the short-lived shells of the
# workload.
# --sort pid,sym differences are printed but not counted: see below.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/report-compare.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"
workload='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls -R /usr/share/doc >/dev/null'

record_all() {	# <perf> <prefix>
	local p=$1 x=$2
	"$p" record -q -o "$x-cg.data" -g -e cpu-clock -- sh -c "$workload" >/dev/null 2>&1 ||
		return 1
	"$p" record -q -o "$x-tp.data" -e 'raw_syscalls:*' -e sched:sched_switch -a \
		-- sleep 0.2 >/dev/null 2>&1 || return 1
	# The workload's execve, seen system-wide, is a sample of "perf-exec"
	# in a thread whose last comm is "true": the comm column is as wide as
	# the threads' last comms, so the distro cuts it to "perf-ex".
	"$p" record -q -o "$x-ex.data" -e syscalls:sys_enter_execve -a \
		-- true >/dev/null 2>&1 || return 1
	# The flight recorder around the workload run twice: a dump on SIGUSR2
	# while it runs (if it still does), and one when it exits.  Only the
	# workload's own processes are in it, whatever else the machine runs.
	"$p" record -q -o "$x-fr.data" -g -e cpu-clock --overwrite --switch-output \
		-- sh -c "$workload; $workload" >/dev/null 2>&1 &
	local rec=$!
	# Only once it records (a recorder still starting up when the signal
	# came wrote a dump without a sample, about one run in five on a busy
	# machine), and after a moment of samples.
	(wait_recording $rec) >/dev/null 2>&1
	sleep 0.2
	kill -USR2 $rec 2>/dev/null
	wait $rec
	mv "$(ls "$x"-fr.data.* | head -1)" "$x-fr.data" 2>/dev/null
	rm -f "$x"-fr.data.*
	[ -s "$x-fr.data" ]
}
record_all "$ORACLE" d || skip "the distro perf cannot record here"
record_all "$PERF" o || fail "our perf record failed"

fails=0 runs=0
for x in d o; do
	for kind in cg tp fr; do
		f=$x-$kind.data
		for mode in "" "--no-children" "-g caller" "--sort comm,dso,sym" "--sort pid,sym -n"; do
			# Without callchains the distro refuses -g (and so do we).
			[ "$kind" = tp ] && [ "$mode" = "-g caller" ] && continue
			runs=$((runs + 1))
			# shellcheck disable=SC2086
			if [ "$mode" = "--sort pid,sym -n" ]; then
				# Shown, not counted.  Without a dso key the distro's
				# symbol comparison is not an order: entries with no
				# symbol compare by address alone, the others by DSO
				# name first.  Its tree then sometimes keeps one key as
				# two entries (e.g. "15872:sh [.] __strcmp_avx2" as 46 and
				# 26 samples, one entry of 72 with --sort pid,dso,sym or
				# --no-children), depending on the order samples come in.
				# We keep one entry per key.
				nc=$not_compared
				compare "$f" $mode || echo "(--sort pid,sym differences above not counted)"
				runs=$((runs - 1)) not_compared=$nc
				continue
			fi
			compare "$f" $mode || [ $? -eq 2 ] || fails=$((fails + 1))
		done
		echo "$f: $(entries <theirs.txt | wc -l) entries in the distro's last report"
	done
done
# More options, on the cpu-clock files: other layouts, -F columns, filters.
for f in d-cg.data o-cg.data; do
	for mode in "-g fractal --no-children" "-g flat --no-children" "-g folded,caller" \
		    "-g graph,2,callee,period" "-F overhead,sample,comm,dso,sym" \
		    "-F comm,overhead,period --no-children -g none" "--comm sh --no-children" \
		    "--percent-limit 5" "--max-stack 3" "-G --no-children" \
		    "-n --show-total-period --no-children" "-c sh --show-total-period"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		compare "$f" $mode || [ $? -eq 2 ] || fails=$((fails + 1))
	done
done
# --stats (the records of each file by type), --header-only and, on the
# workload files, --tasks (the process tree), byte for byte.  (System-wide files: the
# distro also knows threads we do not, and orders some siblings otherwise.)
for f in ?-*.data; do
	for opt in --stats --tasks --header-only; do
		[ $opt = --tasks ] && [ "${f#?-}" != cg.data ] && continue
		runs=$((runs + 1))
		# A dump's DUMP_REQUEST feature is ours alone (the distro skips
		# it): its line is the one the distro cannot print.
		"$PERF" report --stdio $opt -i "$f" 2>/dev/null | grep -v '^# dump requested by : ' >ours.txt
		"$ORACLE" report --stdio $opt -i "$f" >theirs.txt 2>/dev/null
		cmp -s ours.txt theirs.txt ||
			{ echo "$f $opt:"; diff ours.txt theirs.txt | head -5; fails=$((fails + 1)); }
	done
done
# Columns byte for byte (blanks too): a last dso column is padded, wider
# where an entry has no symbol; a CPU column without CPUs in the samples; a
# comm column as wide as the entries' threads' last comms; with -t, the
# columns joined by its string, the numbers left-aligned, and -q's table
# still ending in two blank lines.
for f in ?-*.data; do
	for mode in "--sort dso" "--sort cpu,comm" "--sort comm" \
		    "-s comm -q -n -t ; --percent-limit=90" "-s comm,dso -n --show-total-period -t , "; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		"$PERF" report --stdio -g none $mode -i "$f" 2>/dev/null | grep -v '^#' >ours.txt
		# shellcheck disable=SC2086
		"$ORACLE" report --stdio -g none $mode -i "$f" 2>/dev/null | grep -v '^#' >theirs.txt
		cmp -s ours.txt theirs.txt ||
			{ echo "$f $mode:"; diff ours.txt theirs.txt | head -5; fails=$((fails + 1)); }
	done
done
# The sample count line names the time slices chosen: the first tenth,
# which holds the first sample (a later one may fall in a gap of the
# workload's, one run in twenty).
for f in d-cg.data o-cg.data; do
	runs=$((runs + 1))
	"$PERF" report --stdio --time 10%/1 -i "$f" 2>/dev/null | grep '^# Samples' >ours.txt
	"$ORACLE" report --stdio --time 10%/1 -i "$f" 2>/dev/null | grep '^# Samples' >theirs.txt
	grep -q '(time slices: 10%/1)$' theirs.txt && cmp -s ours.txt theirs.txt ||
		{ echo "$f --time 10%/1:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
done
# No sample at all (a file of a tracepoint that never fired; a --time
# range before the first sample): the distro's error, its two lines of
# output, byte for byte.
"$ORACLE" record -q -o d-none.data -e sched:sched_process_fork -- true >/dev/null 2>&1
for f in d-none.data d-cg.data; do
	[ -f "$f" ] || continue
	t=$([ $f = d-cg.data ] && echo "--time 1,2")
	runs=$((runs + 1))
	# shellcheck disable=SC2086
	"$PERF" report --stdio $t -i "$f" >ours.txt 2>&1
	# shellcheck disable=SC2086
	"$ORACLE" report --stdio $t -i "$f" >theirs.txt 2>&1
	grep -q 'data has no samples!$' theirs.txt && cmp -s ours.txt theirs.txt ||
		{ echo "$f $t:"; diff ours.txt theirs.txt; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] || fail_keeping report-oracle "$fails of $runs reports differ from the distro's"
compared $runs "reports agree with the distro's"
exit 0
