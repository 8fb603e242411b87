#!/bin/bash
# perf record --overwrite: where swap mode's locked memory is not allowed (a user, perf_event_mlock_kb) it pauses instead, said in one line, and dumps
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v setpriv >/dev/null || skip "setpriv is not installed"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ] || skip "perf_event_paranoid > 2: a user records nothing"
cd "$TMPD"
chmod 777 "$TMPD"
as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# For -m from 8 MiB down: where pause mode records, swap mode must too, in
# swap mode or with the one line that says why it pauses.
fallbacks=0
for m in 8M 4M 2M 1M 512K 256K 128K; do
	rm -f p.data* s.data*
	"${as_user[@]}" "$PERF" record -v --dump-mode=pause --overwrite -e cpu-clock -m $m \
		-o p.data -- sleep 0.1 2>p.err || continue
	"${as_user[@]}" "$PERF" record -v --overwrite -e cpu-clock -m $m -o s.data -- sleep 0.1 \
		2>s.err || { cat s.err; fail "-m $m: pause mode records, swap mode fails"; }
	if grep -q '^overwrite buffers: pause mode' s.err; then
		[ "$(grep -c '^Dumps pause each overwrite buffer instead of swapping it: .*locked memory' s.err)" -eq 1 ] ||
			{ cat s.err; fail "-m $m: paused without the one line that says why"; }
		fallbacks=$((fallbacks + 1))
	else
		grep -q '^overwrite buffers: swap mode' s.err || { cat s.err; fail "-m $m: which mode?"; }
		! grep -q 'instead of swapping' s.err || fail "-m $m: swap mode, and a line that says it pauses"
	fi
	f=$(ls s.data* | head -1)
	[ -n "$f" ] || fail "-m $m: no file"
	oracle_ok "$f" script -f -i "$f" >/dev/null
done
[ $fallbacks -gt 0 ] || skip "no -m here is within pause mode's locked memory and beyond swap mode's"
echo "$fallbacks sizes paused for want of locked memory, dumped all the same"
exit 0
