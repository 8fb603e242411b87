#!/bin/bash
# The short form of every benchmark (make bench-quick): each script with
# small sizes, then one table of the ratios ours/distro beside their
# targets, also written to bench/last-quick.txt.  A missed target is
# marked, not fatal: this measures, it does not test (exit 0).  A benchmark
# that fails to run, or a row left without a figure, is fatal (exit 1).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=$(mktemp -d /tmp/perf-bench-quick.XXXXXX)
trap 'rm -rf "$LOG"' EXIT

# name and environment of each short form
BENCHES=(
	"record-throughput CALLS=50000 ROUNDS=1"
	"flight-recorder CALLS=500000 PARTS=1"
	"flight-recorder-triggers REPS=3"
	"control-ping-storm N=200 MS=1000"
	"flight-recorder-scale NS=1,4 MB=4 FILL=1"
	"sideband-forks NPROC=800"
	"script-throughput TP_CALLS=150000 CG_SECS=1"
	"see-a-dump SAMPLES=100000 TL_MB=16 TL_SECS=6 SCHED_LOOPS=20000 RENDERS=1"
)

failed=0
for b in "${BENCHES[@]}"; do
	read -r name vars <<<"$b"
	s=$(date +%s)
	echo "== $name ($vars)"
	# A list (NS) is written with commas above.
	args=()
	for v in $vars; do args+=("${v//,/ }"); done
	env "${args[@]}" bash "$ROOT/bench/$name.sh" >"$LOG/$name" 2>"$LOG/$name.err"
	rc=$?
	echo "   $(( $(date +%s) - s )) s, exit $rc"
	if [ $rc -ne 0 ]; then
		cat "$LOG/$name" "$LOG/$name.err" | tail -20
		echo "FAILED: bench/$name.sh exited $rc"
		failed=1
	fi
done

# rows: bench, what, measured, target ("<= x" or ">= x")
rows=()
row() { rows+=("$1|$2|$3|$4"); }
# The first number after $2 on the line matching $1 in log $3.
after() { sed -n "/$1/{s/.*$2 *\([0-9.]*\).*/\1/p;q}" "$LOG/$3"; }

f=record-throughput
row $f "recorder CPU" "$(after '^ratios ours\/distro:' 'cpu' $f)" "<= 0.8"
row $f "recorder CPU with -z" "$(after '^ratios ours\/distro with -z:' 'cpu' $f)" "<= 0.8"
row $f "lost events, ours - distro" \
	"$(sed -n '/^ratios ours\/distro:/{s/.*lost \([0-9]*\) vs \([0-9]*\).*/\1 \2/p;q}' "$LOG/$f" |
	   awk '{ print $1 - $2 }')" "<= 0"
f=flight-recorder
row $f "steady state: recorder CPU" "$(after '^(1)' 'ratio ours\/distro cpu' $f)" "<= 0.5"
row $f "steady state: workload slowdown, ours/distro" \
	"$(sed -n '/^(1)/{s/.*slowdown distro \([0-9.]*\)x, ours \([0-9.]*\)x.*/\2 \1/p;q}' "$LOG/$f" |
	   awk '{ if ($2 > 0) printf "%.2f", $1 / $2 }')" "<= 1.0"
f=flight-recorder-triggers
row $f "trigger to file" "$(after '^trigger to file' 'ratio' $f)" "<= 0.5"
f=control-ping-storm
row $f "slowest ping in a trigger storm" "$(after '^ping during a trigger storm' 'ratio of the slowest' $f)" "<= 0.5"
f=flight-recorder-scale
last=$(sed -n 's/^N=\([0-9]*\):.*/\1/p' "$LOG/$f" | tail -1)
row $f "signal to file at N=$last" "$(after "^N=$last:" 'signal to file' $f)" "<= 1.0"
row $f "RssAnon at N=$last, MB over the limit" \
	"$(sed -n "/^N=$last:/{s/.*RssAnon ours \([0-9]*\) MB vs limit \([0-9]*\) MB.*/\1 \2/p;q}" "$LOG/$f" |
	   awk '{ print $1 - $2 }')" "<= 0"
# A buffer's stop, a swap of tens of microseconds, against the 1 ms a dump
# may end after its request; the ratio to N=1 of two such figures is noise.
row $f "one buffer's longest stop at N=$last, ms" "$(after '^our longest buffer stop' ':' $f)" "<= 1.0"
f=sideband-forks
row $f "fork storm: recorder CPU" "$(after '^ratio ours\/distro recorder CPU' ':' $f)" "<= 0.5"
f=script-throughput
row $f "script speed, tracepoints" "$(after '^tp (' 'speed ours\/distro' $f)" ">= 2"
row $f "script speed, callchains" "$(after '^cg (' 'speed ours\/distro' $f)" ">= 2"
row $f "report -g speed" "$(after '^report -g cg' 'speed ours\/distro' $f)" ">= 2"
f=see-a-dump
# A row the script could not measure for a reason it gives is marked so.
said() { grep -q "^$1: $2" "$LOG/$3" && echo "$2"; }
row $f "flame graph speed, json" "$(after '^flamegraph json:' 'speed ours\/distro' $f)$(said 'flamegraph json' skipped $f)" ">= 10"
row $f "flame graph speed, html vs distro json" "$(after '^flamegraph html:' 'speed ours\/distro json' $f)$(said 'flamegraph json' skipped $f)" ">= 10"
row $f "diff speed" "$(after '^diff:' 'speed ours\/distro' $f)" ">= 2"
row $f "sched timehist speed" "$(after '^sched timehist:' 'speed ours\/distro' $f)$(said 'sched timehist' 'not built' $f)" ">= 2"
row $f "timeline first render, ms" "$(after '^timeline render:' 'first render' $f)$(said 'timeline render' skipped $f)" "<= 2000"

# The table goes to the screen and to bench/last-quick.txt (kept between
# runs, ignored by git), headed by the commit measured, so that anyone can
# see when and on what it last ran.
table() {
echo "bench-quick of $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
	git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc) CPUs"
printf "%-25s %-45s %9s %8s  %s\n" bench ratio measured target ""
missed=0 unmeasured=0 skipped=0
for r in "${rows[@]}"; do
	IFS='|' read -r bench what value target <<<"$r"
	if [ -z "$value" ]; then
		mark="NOT MEASURED"
		unmeasured=$((unmeasured + 1))
	elif [ "$value" = skipped ] || [ "$value" = "not built" ]; then
		mark="(see its log)"
		skipped=$((skipped + 1))
	elif awk -v v="$value" -v op="${target% *}" -v t="${target#* }" \
		'BEGIN { exit !(op == "<=" ? v <= t : v >= t) }'; then
		mark=ok
	else
		mark=MISSED
		missed=$((missed + 1))
	fi
	printf "%-25s %-45s %9s %8s  %s\n" "$bench" "$what" "${value:--}" "$target" "$mark"
done
echo "targets: ${#rows[@]}, missed: $missed, not measured: $unmeasured, skipped or not built: $skipped" \
     "(short runs on a shared machine: read them as a range; bench/README.md has the long ones)"
[ $failed -eq 0 ] || echo "a benchmark failed to run: its rows are not figures"
}
echo
table | tee "$ROOT/bench/last-quick.txt"
# A missed target is a figure; a benchmark that did not run, or a row it
# gave no figure for, is a broken bench.
[ $failed -eq 0 ] || { echo "a benchmark failed to run" >&2; exit 1; }
! grep -q ' NOT MEASURED$' "$ROOT/bench/last-quick.txt" ||
	{ echo "a benchmark ran but gave a row no figure" >&2; exit 1; }
exit 0
