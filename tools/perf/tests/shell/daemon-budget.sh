#!/bin/bash
# perf daemon: daemon.max-size bounds the dumps of all sessions, oldest deleted first
. "$(dirname "$0")/lib/common.sh"
cd "$TMPD"
trap daemon_cleanup_tmpd EXIT
BASE=$TMPD/base
# Small dumps (some 3.5 KB here), of a workload of the recorder's own: no root needed.
RUN='-q -e cpu-clock -m 16K --overwrite --switch-output -- sleep 1000'
MAX=12288
printf '[daemon]\nbase = %s\nmax-size = 12K\n[session-x]\nrun = %s\n[session-y]\nrun = %s\n' \
	"$BASE" "$RUN" "$RUN" > config
D() { "$PERF" daemon --config config "$@"; }
D start || fail "start exited $?"

total() { cat "$BASE"/session-*/perf.data.* 2>/dev/null | wc -c; }
declare -A round_of
ROUNDS=6
for r in $(seq 1 $ROUNDS); do
	D signal --wait=30 > dumps.txt || { cat dumps.txt; fail "round $r: signal --wait exited $?"; }
	paths=$(grep "^$BASE/session-" dumps.txt)
	[ "$(echo "$paths" | wc -l)" -eq 2 ] || { cat dumps.txt; fail "round $r: not one dump per session"; }
	for p in $paths; do
		round_of[$p]=$r
		# The newest of each session is kept.
		[ -f "$p" ] || fail "round $r: the newest dump $p was deleted"
	done
	used=$(total)
	echo "round $r: $(ls "$BASE"/session-*/perf.data.* | wc -l) dumps, $used bytes"
	[ "$used" -le $MAX ] || { ls -l "$BASE"/session-*; fail "round $r: $used bytes of dumps, over $MAX"; }
done

# Oldest first: no dump that is left is of an earlier round than one deleted.
oldest_kept=$ROUNDS newest_gone=0 gone=0
for p in "${!round_of[@]}"; do
	r=${round_of[$p]}
	if [ -f "$p" ]; then
		[ "$r" -lt "$oldest_kept" ] && oldest_kept=$r
	else
		gone=$((gone + 1))
		[ "$r" -gt "$newest_gone" ] && newest_gone=$r
		# Each deletion is logged, with its size and the budget.
		grep -q "deleted $p ([0-9]* bytes): daemon.max-size $MAX reached" "$BASE/output" ||
			{ cat "$BASE/output"; fail "no log line for the deletion of $p"; }
	fi
done
echo "$gone dumps deleted, the newest of them from round $newest_gone, the oldest kept from round $oldest_kept"
[ "$gone" -gt 0 ] || fail "$ROUNDS rounds of dumps fit in $MAX bytes: the budget was never reached"
[ "$newest_gone" -le "$oldest_kept" ] || fail "a dump of round $newest_gone was deleted before one of round $oldest_kept"
[ "$(grep -c '^\[.*\] deleted ' "$BASE/output")" -eq "$gone" ] || { cat "$BASE/output"; fail "not one log line per deletion"; }

# -v shows the budget and what the dumps take.
D -v | grep -Eqx "  dumps:   $(total) bytes in [0-9]+ files, of max-size $MAX bytes" ||
	{ D -v; fail "-v does not show the budget and its use"; }

# Dumps a recorder takes on its own (SIGUSR2 from someone else) are found by
# the daemon's look every few seconds.
pid=$(D | sed -n 's/^\[\([0-9]*\):x\] .*/\1/p')
[ -n "$pid" ] || { D; fail "no recorder listed for session x"; }
newest() { ls "$BASE"/session-x/perf.data.* 2>/dev/null | tail -n 1; }
deleted_before=$(grep -c '^\[.*\] deleted ' "$BASE/output")
for i in 1 2 3 4; do
	prev=$(newest)
	kill -USR2 "$pid" || fail "recorder $pid of session x is gone"
	wait_for '[ "$(newest)" != "$prev" ]' || fail "session x took no dump on SIGUSR2 $i"
done
last=$(newest)
wait_for '[ "$(total)" -le $MAX ]' ||
	{ ls -l "$BASE"/session-*; fail "the recorder's own dumps took $(total) bytes, over $MAX, and stayed"; }
[ -f "$last" ] || fail "the newest dump $last of session x was deleted"
[ "$(grep -c '^\[.*\] deleted ' "$BASE/output")" -gt "$deleted_before" ] ||
	{ cat "$BASE/output"; fail "no deletion logged for the recorder's own dumps"; }

# A reload that lowers max-size applies it at once.
sed -i 's/^max-size = 12K$/max-size = 8K/' config
wait_lines "$BASE/output" 1 'daemon.max-size: the dumps of all sessions are kept within 8192 bytes'
wait_for '[ "$(total)" -le 8192 ]' ||
	{ ls -l "$BASE"/session-*; fail "after max-size = 8K, the dumps still take $(total) bytes"; }
[ -f "$last" ] || fail "the newest dump $last of session x was deleted after the reload"
D stop || fail "stop exited $?"

# A max-size that is not a size stops start, with the file and the line.
printf '[daemon]\nbase = %s\nmax-size = lots\n' "$BASE.bad" > bad
"$PERF" daemon start --config bad 2>err.txt && fail "start took max-size = lots"
grep -q "bad:3: expected 'max-size = <size>'" err.txt || { cat err.txt; fail "no clear error for max-size = lots"; }
[ ! -e "$BASE.bad" ] || fail "a bad max-size left a base"
exit 0
