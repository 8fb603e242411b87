#!/bin/bash
# Seeing a dump, ours vs the distro's on the same files: the flame graph of
# a SAMPLES-sample -g file (time, peak memory, the page's size), perf diff
# of it against a shorter run, perf sched timehist of a file of sched
# events, and the timeline page of a TL_MB MiB dump in headless Chromium
# (its time to first render, from the page's own data-render-ms).
. "$(dirname "$0")/lib.sh"
SAMPLES=${SAMPLES:-1000000}	# samples in the flame graph's file
FREQ=${FREQ:-20000}		# cpu-clock -F of the -g files, per CPU
TL_MB=${TL_MB:-64}		# the dump's buffers, MiB over all CPUs
TL_SECS=${TL_SECS:-20}		# seconds of burn before the dump is asked for
SCHED_LOOPS=${SCHED_LOOPS:-200000}	# pipe round trips in the sched file
RENDERS=${RENDERS:-3}		# page loads, the median is taken
NCPU=$(nproc)

# Two burners, one per CPU here, as a known workload with callchains
# (SAMPLES over 2 x FREQ seconds of it).
burn() { "$OURS" test -w burn "$1" & "$OURS" test -w burn "$1"; wait $!; }
export -f burn; export OURS
# /usr/bin/time's seconds and peak kB of a command, into $secs and $kb.
timed() {
	/usr/bin/time -f "%e %M" -o "$W/time" "$@"
	local rc=$?
	read -r secs kb < <(tail -1 "$W/time")
	return $rc
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
samples_of() { "$OURS" script -F time -i "$1" 2>/dev/null | wc -l; }

# The -g files: a quarter of SAMPLES for perf diff's baseline, its rate
# (the kernel throttles) then sets how long to burn for SAMPLES.
record_burn() {
	"$OURS" record -q -g -e cpu-clock -F "$FREQ" -o "$1" -- bash -c "burn $2" >/dev/null 2>"$W/rec.err" ||
		{ cat "$W/rec.err"; echo "perf record -g failed" >&2; exit 1; }
}
base_secs=$(awk -v n="$SAMPLES" -v f="$FREQ" 'BEGIN { printf "%.1f", n / 4 / (f * 2) }')
record_burn "$W/fg-base.data" "$base_secs"
record_burn "$W/fg.data" "$(awk -v n="$SAMPLES" -v s="$base_secs" -v b="$(samples_of "$W/fg-base.data")" \
	'BEGIN { printf "%.1f", (b > 0 ? n * s / b : 4 * s) }')"
n=$(samples_of "$W/fg.data")
echo "flamegraph: $n samples, file $(mb "$(stat -c %s "$W/fg.data")") MB"

printf "%-7s %-5s %8s %9s %9s\n" who fmt secs peak_MB out_MB
row() { printf "%-7s %-5s %8.2f %9.1f %9.1f\n" "$1" "$2" "$secs" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" \
	"$(mb "$(stat -c %s "$3")")"; }
declare -A s m
timed "$OURS" script report flamegraph -f json -i "$W/fg.data" -o "$W/ours.json" >/dev/null ||
	{ echo "our flamegraph -f json failed" >&2; exit 1; }
s[json]=$secs; m[json]=$kb; row ours json "$W/ours.json"
timed "$OURS" script report flamegraph -i "$W/fg.data" -o "$W/ours.html" >/dev/null ||
	{ echo "our flamegraph failed" >&2; exit 1; }
s[html]=$secs; m[html]=$kb; row ours html "$W/ours.html"
# The distro's report reads ./perf.data only, and runs its Python script.
mkdir "$W/distro" && ln -s "$W/fg.data" "$W/distro/perf.data"
why=
command -v python3 >/dev/null || why="python3 is not installed"
if [ -z "$why" ] && ! (cd "$W/distro" && timed "$DISTRO" script report flamegraph -f json -o distro.json) \
		>/dev/null 2>"$W/distro.err"; then
	why=$(grep -v '^$' "$W/distro.err" | head -1)
fi
if [ -n "$why" ]; then
	echo "flamegraph json: skipped: the distro's report cannot run: ${why:-it failed}"
else
	read -r secs kb < <(tail -1 "$W/time")
	row distro json "$W/distro/distro.json"
	same=no; cmp -s "$W/ours.json" "$W/distro/distro.json" && same=yes
	echo "flamegraph json: speed ours/distro $(ratio "$secs" "${s[json]}")x," \
	     "peak memory ours/distro $(ratio "${m[json]}" "$kb"), same bytes: $same"
	echo "flamegraph html: speed ours/distro json $(ratio "$secs" "${s[html]}")x," \
	     "page $(mb "$(stat -c %s "$W/ours.html")") MB"
fi

# perf diff: the quarter run as the baseline, the flame graph's file as the new one.
declare -A ds
for who in distro ours; do
	bin=$DISTRO; [ $who = ours ] && bin=$OURS
	timed "$bin" diff "$W/fg-base.data" "$W/fg.data" >"$W/diff.$who" 2>"$W/diff.$who.err" ||
		{ head -3 "$W/diff.$who.err"; echo "$who perf diff failed" >&2; exit 1; }
	ds[$who]=$secs
	printf "diff    %-7s %8.2f s %7d lines\n" $who "$secs" "$(wc -l <"$W/diff.$who")"
done
same=no; cmp -s "$W/diff.ours" "$W/diff.distro" && same=yes
echo "diff: speed ours/distro $(ratio "${ds[distro]}" "${ds[ours]}")x, same output: $same"

# perf sched timehist on sched events of pipe round trips, recorded by ours.
"$OURS" record -q -a -m 1024 -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new \
	-e sched:sched_migrate_task -e sched:sched_process_fork -e sched:sched_process_exit \
	-o "$W/sched.data" -- "$DISTRO" bench sched pipe -l "$SCHED_LOOPS" >/dev/null 2>"$W/rec.err" ||
	{ cat "$W/rec.err"; echo "perf record of sched events failed" >&2; exit 1; }
echo "sched: $(samples_of "$W/sched.data") events, file $(mb "$(stat -c %s "$W/sched.data")") MB"
timed "$DISTRO" sched timehist -i "$W/sched.data" >"$W/th.distro" 2>"$W/th.distro.err" ||
	{ head -3 "$W/th.distro.err"; echo "the distro's sched timehist failed" >&2; exit 1; }
printf "timehist distro  %8.2f s %7d lines\n" "$secs" "$(wc -l <"$W/th.distro")"
tsecs=$secs
# Our perf sched may not be built yet: its usage then names no timehist.
if ! "$OURS" sched timehist -h 2>&1 | grep -q timehist; then
	echo "sched timehist: not built (our perf has no 'sched timehist')"
else
	timed "$OURS" sched timehist -i "$W/sched.data" >"$W/th.ours" 2>"$W/th.ours.err" ||
		{ head -3 "$W/th.ours.err"; echo "our sched timehist failed" >&2; exit 1; }
	printf "timehist ours    %8.2f s %7d lines\n" "$secs" "$(wc -l <"$W/th.ours")"
	same=no; cmp -s "$W/th.ours" "$W/th.distro" && same=yes
	echo "sched timehist: speed ours/distro $(ratio "$tsecs" "$secs")x, same output: $same"
fi

# The timeline of a dump of TL_MB MiB of buffers, lapped by TL_SECS of burn.
"$OURS" record -q -a -g -e cpu-clock -F "$FREQ" -e sched:sched_switch/call-graph=no/ \
	--overwrite --switch-output -m $((TL_MB / NCPU))M -o "$W/tl.data" >/dev/null 2>"$W/rec.err" &
rec=$!
wait_recording $rec plain >/dev/null || exit 1
burn "$TL_SECS"
kill -USR2 $rec
wait_files "$W/tl.data" 1 || exit 1
kill -INT $rec; wait $rec
dump=$(ls "$W"/tl.data.* | head -1)
timed "$OURS" script report flamegraph --timeline -i "$dump" -o "$W/tl.html" >/dev/null ||
	{ echo "our flamegraph --timeline failed on $dump" >&2; exit 1; }
echo "timeline: dump $(mb "$(stat -c %s "$dump")") MiB, $(samples_of "$dump") events;" \
     "page $(mb "$(stat -c %s "$W/tl.html")") MB written in $secs s, peak $(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }') MB"
if ! CHROMIUM=$(command -v chromium); then
	echo "timeline render: skipped: chromium is not installed (make deps installs it)"
	exit 0
fi
# As tests/shell/lib/chromium.sh runs it, offline, but in real time: no
# --virtual-time-budget, whose clock would also be the page's.  Timed.
chrome() {
	rm -rf "$W/profile"
	timed timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$W/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
		--proxy-server=127.0.0.1:9 --window-size=1200,800 --dump-dom "$1"
}
chrome about:blank >/dev/null 2>&1
blank=$secs
for i in $(seq 1 "$RENDERS"); do
	chrome "file://$W/tl.html" >"$W/tl.dom" 2>/dev/null
	ms=$(sed -n 's/.*<body[^>]* data-render-ms="\([0-9]*\)".*/\1/p' "$W/tl.dom" | head -1)
	grep -q '<body[^>]* data-rendered="1"' "$W/tl.dom" || ms=
	[ -n "$ms" ] || { echo "the timeline page did not render in chromium" >&2; exit 1; }
	echo "render $i: $ms ms, chromium $secs s (about:blank $blank s)"
	echo "$ms" >>"$W/renders"
done
echo "timeline render: first render $(sort -n "$W/renders" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') ms" \
     "(median of $RENDERS) for a $(mb "$(stat -c %s "$dump")") MiB dump"
