#!/bin/bash
# perf record --switch-output-event with --filter: one dump per matching event, each with its marker
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
cd "$TMPD"

# The workload's read(2)s are driven from here, line by line (perf test -w
# reads): "fail N" is a read of N bytes from fd -1, which fails; "ok" a read
# of /dev/zero, which does not.  The trigger is a failed read; the recorded
# (overwritten) event is every read's entry, whose count field names it.
mkfifo drive
"$PERF" record -e syscalls:sys_enter_read -m 64K --overwrite -o tr.data \
	--switch-output-event=syscalls:sys_exit_read --filter 'ret < 0' \
	-- "$PERF" test -w reads <drive 2>rec.err &
REC=$!
exec 4>drive

# Five markers for which the filter holds, each after ten reads for which it
# does not, 200 ms apart; the next marker only once its dump is complete.
for k in 1 2 3 4 5; do
	for i in $(seq 1 10); do
		echo ok >&4
		sleep 0.2
	done
	echo "fail $((1000 + k))" >&4
	wait_files 'tr.data.*' $k
done
echo done >&4
exec 4>&-
wait $REC; rc=$?
[ $rc -eq 0 ] || { cat rec.err; fail "record exited $rc"; }
files=$(ls tr.data.*)
nr=$(echo "$files" | wc -w)
[ "$nr" -eq 6 ] || { ls -l; cat rec.err; fail "expected 6 dumps (5 triggers + exit), got $nr"; }
grep -q '5 dumps asked for by --switch-output-event' rec.err ||
	{ cat rec.err; fail "the summary does not count 5 triggered dumps"; }

# Dump k holds marker k (count 1000+k), and not the one before it.
k=0
for f in $files; do
	k=$((k + 1))
	oracle_ok "script $f" script -i "$f" >"$f.txt"
	[ $k -le 5 ] || break
	grep -q "count: 0x0*$(printf '%x' $((1000 + k)))\$" "$f.txt" ||
		{ head "$f.txt"; fail "$f lacks its marker $((1000 + k))"; }
	! grep -q "count: 0x0*$(printf '%x' $((999 + k)))\$" "$f.txt" ||
		fail "$f repeats the marker of the dump before it"
	# The trigger's own sample is in its dump, once (the header's request is
	# checked in record-dump-request.sh).
	[ "$(grep -c 'sys_exit_read' "$f.txt")" -eq 1 ] || fail "$f does not hold its trigger's sample once"
done
exit 0
