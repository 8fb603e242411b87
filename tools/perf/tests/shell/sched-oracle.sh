#!/bin/bash
# perf sched timehist, latency and map print what the distro's print, on our files and on the distro's
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

# Two tasks ping-pong 100 rounds over two fifos, one pinned on each CPU:
# every round is a wakeup and a switch on each side.  Then a sleeper.
mkfifo f1 f2 || fail "mkfifo"
WORK="taskset -c 1 sh -c 'exec 3<f1 4>f2; while read l <&3; do echo \$l >&4; done' &
	taskset -c 0 sh -c 'exec 3>f1 4<f2; i=0; while [ \$i -lt 100 ]; do echo \$i >&3; read r <&4;
	i=\$((i+1)); done'; wait; sleep 0.05"
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new
	-e sched:sched_migrate_task -e sched:sched_stat_runtime"
# shellcheck disable=SC2086
$PERF record -q $EVENTS -a -o ours.data -- sh -c "$WORK" 2>rec.err || { cat rec.err; fail "our record"; }
"$ORACLE" sched record -o distro.data -- sh -c "$WORK" >/dev/null 2>rec.err ||
	{ cat rec.err; fail "the distro's perf sched record"; }

# Our perf sched record asks for what the distro's does: the same events
# with the same attrs, but for -R (RAW on the dummy event; ours has no -R,
# a tracepoint's samples carrying their raw data anyway).
$PERF sched record -o sched.data -- sh -c "$WORK" >/dev/null 2>rec.err ||
	{ cat rec.err; fail "our perf sched record"; }
for f in sched.data distro.data; do
	oracle_ok "evlist $f" evlist -v -i "$f" | sed '/^dummy:HG:/s/|RAW|/|/' >"$f.evlist"
done
cmp -s sched.data.evlist distro.data.evlist ||
	{ diff sched.data.evlist distro.data.evlist; fail "perf sched record: other events than the distro's"; }

compare() {	# <file> <options...>
	compare_sub timehist "$@"
}

compare_sub() {	# <subcommand> <file> <options...>
	local sub=$1 f=$2 rc1 rc2; shift 2
	$PERF sched "$sub" -i "$f" "$@" >ours.out 2>ours.err
	rc1=$?
	"$ORACLE" sched "$sub" -i "$f" "$@" >distro.out 2>distro.err
	rc2=$?
	crashed $rc1 && fail "$sub $* on $f crashed ($rc1)"
	[ "$rc1" -eq "$rc2" ] || fail "$sub $* on $f: exit $rc1, the distro's $rc2"
	cmp -s ours.out distro.out || { diff ours.out distro.out | head -20; fail "$sub $* on $f differs"; }
	checked=$((checked + 1))
}

checked=0
for f in ours.data distro.data sched.data; do
	lines=$("$ORACLE" sched timehist -i "$f" 2>/dev/null | wc -l)
	# A round blocks at least one side in its read (the other may find
	# the answer there already when its CPU is busy elsewhere): over 100
	# switch lines, whatever the load.  Loaded, 360 were seen, idle 450.
	[ "$lines" -gt 100 ] || fail "$f: the distro shows only $lines lines"
	# A window in the middle of the file, from the times its lines show.
	first=$("$ORACLE" sched timehist -i "$f" 2>/dev/null | awk 'NR == 4 { print $1 }')
	last=$("$ORACLE" sched timehist -i "$f" 2>/dev/null | tail -1 | awk '{ print $1 }')
	mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f,%.6f", a + (b - a) / 4, a + (b - a) / 2 }')
	pid=$("$ORACLE" sched timehist -i "$f" 2>/dev/null | grep -m1 -o ' sh\[[0-9]*\]' | tr -dc 0-9)
	[ -n "$pid" ] || fail "$f: no line of the workload's sh"
	for opts in "" "-s" "-S" "-w" "-M" "-V" "-V -w -M" "--state" "--state -s" "-C 0" "-C 1 -S" \
		    "-p $pid" "-t $pid -w" "-s -w" "--time $mid" "--time $mid -S" "--time ${mid%,*}," \
		    "--no-call-graph"; do
		# shellcheck disable=SC2086
		compare "$f" $opts
	done
	grep -q '^  sh:' < <("$ORACLE" sched latency -i "$f" 2>/dev/null) || fail "$f: no latency line of sh"
	for opts in "" "-p" "-s max" "-s runtime,switch" "-s pid" "-C 0" "-C 1 -p"; do
		# shellcheck disable=SC2086
		compare_sub latency "$f" $opts
	done
	for opts in "" "--compact" "--cpus 1" "--cpus 0 --compact" "-v"; do
		# shellcheck disable=SC2086
		compare_sub map "$f" $opts
	done
	# The distro's map crashes on --color-pids for some files: compared only where it does not.
	if "$ORACLE" sched map -i "$f" --color-pids "$pid" >/dev/null 2>&1; then
		compare_sub map "$f" --color-pids "$pid"
	else
		echo "not compared: the distro's perf sched map --color-pids crashed on $f"
	fi
done

# Call chains: the distro shows them only when every event has them (ours
# -g leaves the dummy event without); the distro's record -g has them all.
$PERF record -q -g -e sched:sched_switch -e sched:sched_wakeup -a -o g.data -- sh -c "$WORK" ||
	fail "record -g"
compare g.data
compare g.data -S
"$ORACLE" record -q -g -e sched:sched_switch -a -o dg.data -- sh -c "$WORK" 2>/dev/null ||
	fail "the distro's record -g"
grep -q ' <- ' < <("$ORACLE" sched timehist -i dg.data 2>/dev/null) || fail "dg.data: no call chains shown"
for opts in "" "-S" "-w" "--max-stack 3" "-V --state" "--no-call-graph" "-p $pid"; do
	# shellcheck disable=SC2086
	compare dg.data $opts
done

# Bad input: one line, the distro's exit code.
$PERF record -q -e cpu-clock -o nosched.data -- true || fail "record without sched events"
compare nosched.data
grep -q "No sched_switch events" ours.err || fail "no sched_switch: $(cat ours.err)"
compare missing.data
[ "$(wc -l <ours.err)" -eq 1 ] || fail "missing file: $(cat ours.err)"
compare ours.data --time bogus
compare_sub latency nosched.data
compare_sub latency missing.data
compare_sub latency ours.data -s bogus
grep -q "Unknown --sort key" ours.err || fail "latency -s bogus: $(head -1 ours.err)"
compare_sub map nosched.data
compare_sub map missing.data
compare_sub map ours.data --cpus bogus
echo "$checked runs equal the distro's"
exit 0
