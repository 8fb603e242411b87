#!/bin/bash
# perf script/report/evlist on mutated perf.data files: no crash or hang, and damage the distro sees is named with a non-zero exit
# Seeds are recorded here by both recorders: tracepoints (with their tracing
# data), cpu-clock -g, -z, an event group and a flight-recorder dump.  Each
# mutation flips bytes in one part of a seed (header, attrs, a feature,
# the tracing data, the records) or cuts it short, at places a seeded
# generator picks, so a run can be repeated.  Each file is read by our
# script, report --stdio and evlist -v and by the distro's script.
# Asserted: ours never dies by a signal, an ASan report or a timeout; when
# the distro complains (a message on stderr, a non-zero exit, a crash) our
# script and report name the damage on stderr and exit non-zero.
# PERF_CORRUPT_SWEEP=N sets the number of mutations (60 here, stopping
# early after 150 s on a busy machine; 300 for the whole sweep, which runs
# them all), PERF_CORRUPT_SEED the generator's seed, and
# PERF_CORRUPT_TABLE=FILE keeps the table of every file's outcome.
# A mutation depends on the seed files too, recorded anew each run: a run
# that fails keeps them, and PERF_CORRUPT_SEEDS=DIR takes them from there
# instead of recording them.  PERF_CORRUPT_ONLY=N[,N...] reads only those
# mutations (the generator still draws the ones before, which are dropped):
# with the seed files and the seed of a run, its mutation N again, exactly,
# as the failure message says.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/perf-data.sh"
. "$(dirname "$0")/lib/report-compare.sh"
need_oracle
own_tmpd corrupt-sweep
NR=${PERF_CORRUPT_SWEEP:-60}
deadline=150
[ -n "$PERF_CORRUPT_SWEEP" ] && deadline=0
rng=${PERF_CORRUPT_SEED:-18}
seed0=$rng
only=${PERF_CORRUPT_ONLY//[[:space:]]/}
if [ -n "$only" ]; then
	[[ $only =~ ^[0-9]+(,[0-9]+)*$ ]] || fail "PERF_CORRUPT_ONLY=$only: not N[,N...]"
	# Up to the last one asked for, however long it takes.
	last=$(tr , '\n' <<<"$only" | sort -n | tail -1)
	[ -n "$PERF_CORRUPT_SWEEP" ] || NR=$((last + 1))
	deadline=0
fi

# rand N: R is the next number of the generator (a 64-bit LCG), below N.
rand() {
	rng=$(( rng * 6364136223846793005 + 1442695040888963407 ))
	R=$(( ((rng >> 33) & 0x7fffffff) % $1 ))
}

loop='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
seeds=()
# seed NAME RECORDER ARGS...: a seed, when that recorder can make it here
# (or, with PERF_CORRUPT_SEEDS, when that directory has it).
seed() {
	local name=$1 rec=$2

	shift 2
	if [ -n "$PERF_CORRUPT_SEEDS" ]; then
		cp "$PERF_CORRUPT_SEEDS/$name.data" . 2>/dev/null && seeds+=("$name.data")
		return
	fi
	if "$rec" record -q -o "$name.data" "$@" >/dev/null 2>"$name.rec.err" && [ -s "$name.data" ]; then
		seeds+=("$name.data")
	else
		echo "note: no $name seed ($(head -1 "$name.rec.err"))"
	fi
}
tp='-e sched:sched_switch -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit'
tpwork='for i in 1 2 3 4; do ls /usr/share/doc >/dev/null; done'
if [ -n "$PERF_CORRUPT_SEEDS" ] || { [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/mounts; }; then
	seed tp-distro "$ORACLE" $tp -- sh -c "$tpwork"
	seed tp-ours "$PERF" $tp -- sh -c "$tpwork"
else
	echo "note: no tracepoint seeds (they need root and tracefs)"
fi
seed cg "$PERF" -g -e cpu-clock -c 100000 -- sh -c "$loop"
seed z "$ORACLE" -z -g -e cpu-clock -c 100000 -- sh -c "$loop"
seed grp "$PERF" -e '{cpu-clock,task-clock}' -c 100000 -- sh -c "$loop"
# A flight-recorder dump: the one made when the workload ends.
if [ -n "$PERF_CORRUPT_SEEDS" ]; then
	seed fr
elif "$PERF" record -q -o fr.data --overwrite --switch-output -e cpu-clock -c 100000 \
	-- sh -c "$loop" >/dev/null 2>fr.rec.err; then
	for f in fr.data.*; do [ -s "$f" ] && mv "$f" fr.data && seeds+=(fr.data); break; done
fi
[ ${#seeds[@]} -ge 3 ] || skip "fewer than three seed files could be recorded"

# read_all FILE SEED: runs the four readers; m.<reader>.rc and .err are
# what each did, m.<reader>.new the lines of stderr the seed did not give.
readers=(script report evlist distro)
read_all() {
	local f=$1 s=$2 r

	timeout 20 "$PERF" script -i "$f" >/dev/null 2>m.script.err; echo $? >m.script.rc
	timeout 20 "$PERF" report --stdio -i "$f" >/dev/null 2>m.report.err; echo $? >m.report.rc
	timeout 20 "$PERF" evlist -v -i "$f" >/dev/null 2>m.evlist.err; echo $? >m.evlist.rc
	# In a subshell: the distro's own crashes are not this shell's to report.
	(timeout 20 "$ORACLE" script -i "$f" >/dev/null 2>m.distro.err; echo $? >m.distro.rc) 2>/dev/null
	for r in "${readers[@]}"; do
		if [ -s "base.$s.$r" ]; then
			grep -v -F -x -f "base.$s.$r" m.$r.err >m.$r.new
		else
			cp m.$r.err m.$r.new
		fi
	done
}
fail=0
bad() { echo "FAIL $*"; fail=1; }

# The seeds themselves: read by ours with exit 0 and not a word, and by the
# distro (what it says of them is not a complaint about a mutation).
for s in "${seeds[@]}"; do
	read_all "$s" "$s"
	for r in "${readers[@]}"; do cp m.$r.err "base.$s.$r"; done
	for r in script report evlist; do
		[ "$(cat m.$r.rc)" -eq 0 ] && [ ! -s m.$r.err ] ||
			{ bad "$s (not mutated): our $r exited $(cat m.$r.rc)"; head -3 m.$r.err; }
	done
	[ "$(cat m.distro.rc)" -eq 0 ] || bad "$s (not mutated): the distro's script exited $(cat m.distro.rc)"
done
[ $fail -eq 0 ] || fail_keeping corrupt-sweep "a seed does not read cleanly"

# The parts of each seed, "LO HI" by kind, found once.
declare -A part
for s in "${seeds[@]}"; do
	size=$(stat -c %s "$s")
	attrs=$(u64_at "$s" 24)
	data=$(u64_at "$s" 40)
	feat=$((data + $(u64_at "$s" 48)))
	part[$s.size]=$size
	part[$s.header]="0 104"
	part[$s.attrs]="$attrs $((attrs + $(u64_at "$s" 32)))"
	part[$s.records]="$data $feat"
	td=$(feature_section "$s" 1)
	if [ -n "$td" ]; then
		part[$s.tracing]="${td% *} $((${td% *} + ${td#* }))"
		# The feature table and sections after the data, the tracing data aside.
		feat=$((${td% *} + ${td#* }))
	fi
	part[$s.features]="$feat $size"
done

# mutate SEED OUT: a mutated copy; WHAT says what was done.
mutate() {
	local s=$1 out=$2 size=${part[$1.size]} kinds lo hi n k off b x

	cp "$s" "$out"
	kinds=(header attrs features records records truncate)
	[ -n "${part[$s.tracing]}" ] && kinds+=(tracing tracing)
	rand ${#kinds[@]}
	k=${kinds[$R]}
	if [ "$k" = truncate ]; then
		rand "$size"
		truncate -s "$R" "$out"
		WHAT="truncate: at $R of $size"
		return
	fi
	read -r lo hi <<<"${part[$s.$k]}"
	[ "$hi" -gt "$lo" ] || { lo=0; hi=$size; }
	rand 3
	n=$((R + 1))
	WHAT="$k:"
	for ((; n > 0; n--)); do
		rand $((hi - lo))
		off=$((lo + R))
		rand 255
		x=$((R + 1))
		b=$(byte_at "$out" $off)
		poke "$out" "$off" 1 $((b ^ x))
		WHAT+=" $off^$x"
	done
}

table=sweep.table
printf '%-4s %-14s %-44s %-8s %-8s %-8s %-8s %s\n' n seed mutation distro script \
	report evlist verdict >$table
complained=0 named=0 ours_only=0 failed= nread=0
start=$SECONDS
for ((i = 0; i < NR; i++)); do
	if [ $deadline -gt 0 ] && [ $((SECONDS - start)) -ge $deadline ]; then
		echo "note: stopped after $i mutations, at the ${deadline} s this test allows"
		NR=$i
		break
	fi
	s=${seeds[$((i % ${#seeds[@]}))]}
	m=m$i.data
	mutate "$s" "$m"
	if [ -n "$only" ] && [[ ,$only, != *,$i,* ]]; then
		rm -f "$m"
		continue
	fi
	read_all "$m" "$s"
	nread=$((nread + 1))
	verdict=ok
	for r in script report evlist; do
		rc=$(cat m.$r.rc)
		if crashed "$rc" || grep -q -E 'AddressSanitizer|runtime error:' m.$r.err; then
			bad "$m ($s, $WHAT): our $r exited $rc"; head -3 m.$r.err
			verdict=CRASH
		fi
	done
	drc=$(cat m.distro.rc)
	if [ "$drc" -ne 0 ] || [ -s m.distro.new ]; then
		complained=$((complained + 1))
		for r in script report; do
			[ "$(cat m.$r.rc)" -ne 0 ] && [ -s m.$r.err ] && continue
			bad "$m ($s, $WHAT): the distro complains (exit $drc: $(head -1 m.distro.new))," \
			    "our $r exits $(cat m.$r.rc) with $(wc -l <m.$r.err) lines on stderr"
			verdict=SILENT
		done
		[ $verdict = ok ] && named=$((named + 1))
	elif [ "$(cat m.script.rc)" -ne 0 ]; then
		verdict=ours-only
		ours_only=$((ours_only + 1))
	fi
	printf '%-4s %-14s %-44.44s %-8s %-8s %-8s %-8s %s\n' $i "$s" "$WHAT" \
		"$drc/$(wc -l <m.distro.new)" "$(cat m.script.rc)/$(wc -l <m.script.err)" \
		"$(cat m.report.rc)/$(wc -l <m.report.err)" "$(cat m.evlist.rc)/$(wc -l <m.evlist.err)" \
		$verdict >>$table
	# Only the files that failed are kept.
	case $verdict in
	ok|ours-only) rm -f "$m";;
	*) failed+=${failed:+,}$i;;
	esac
done
[ -n "$PERF_CORRUPT_TABLE" ] && cp $table "$PERF_CORRUPT_TABLE"
echo "$nread mutations of ${#seeds[@]} seeds: the distro complained about $complained, our" \
     "script and report named the damage of $named of them; ours alone of $ours_only"
if [ $fail -ne 0 ]; then
	[ -n "$failed" ] &&
		echo "again: PERF_CORRUPT_SEEDS=${TMPDIR:-/tmp}/corrupt-sweep.failed" \
		     "PERF_CORRUPT_SEED=$seed0 PERF_CORRUPT_ONLY=$failed perf test corrupt-sweep"
	fail_keeping corrupt-sweep "damaged files read silently or with a crash"
fi
exit 0
