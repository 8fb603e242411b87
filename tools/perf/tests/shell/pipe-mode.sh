#!/bin/bash
# perf record -o - and perf script/report -i -: every pairing of our and the distro's recorder and reader through a pipe
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
cd "$TMPD"

WORK="$PERF test -w getppid 20000"
EV=raw_syscalls:sys_enter
FIELDS="-F trace:comm,tid,time,event,trace"
recorders="ours distro"
readers="ours distro"
bin() { if [ "$1" = ours ]; then echo "$PERF"; else echo "$ORACLE"; fi; }
# Stderr of a reader that is content with its input.
clean() { ! grep -Eiq 'corrupt|invalid|not valid|fail|unexpected|truncated|not supported|warn|unknown|out of order' "$1"; }

# 1. Every pairing, -z or not: recorder | tee | reader, live.  The stream
#    tee kept must read the same through a pipe by the other reader, and
#    by ours with no -i at all (stdin is the default when it is a pipe).
for z in "" -z; do
	for rec in $recorders; do
		for rd in $readers; do
			what="$rec record $z -o - | $rd script"
			"$(bin $rec)" record -q $z -m 8M -o - -e $EV -- $WORK 2>rec.err | tee s.data |
				"$(bin $rd)" script $FIELDS -i - >live.out 2>live.err
			st=("${PIPESTATUS[@]}")
			[ "${st[0]}" -eq 0 ] || { cat rec.err; fail "$what: the recorder exited ${st[0]}"; }
			[ "${st[2]}" -eq 0 ] && clean live.err ||
				{ cat live.err; fail "$what: the reader exited ${st[2]} or complained"; }
			[ "$(grep -c "$EV" live.out)" -ge 20000 ] || fail "$what: fewer than 20000 syscalls"
			[ "$(head -c 16 s.data | od -An -t u8 | awk '{ print $2 }')" -eq 16 ] ||
				fail "$rec record -o - did not write the 16-byte pipe header"
			for other in $readers; do
				if [ "$other" = ours ]; then
					cat s.data | "$PERF" script $FIELDS >again.out 2>again.err
				else
					cat s.data | "$ORACLE" script $FIELDS -i - >again.out 2>again.err
				fi
				clean again.err || { cat again.err; fail "$what: $other complained"; }
				cmp -s live.out again.out ||
					{ diff live.out again.out | head; fail "$what: $other reads it otherwise"; }
			done
		done
	done
done

# 2. perf report through a pipe, both ways.
for rec in $recorders; do
	for rd in $readers; do
		"$(bin $rec)" record -q -m 8M -o - -e $EV -- $WORK 2>/dev/null |
			"$(bin $rd)" report --stdio -i - >rep.out 2>rep.err ||
			{ cat rep.err; fail "$rec record | $rd report failed"; }
		clean rep.err || { cat rep.err; fail "$rec record | $rd report complained"; }
		grep -q "of event '$EV'" rep.out || fail "$rec record | $rd report: no samples"
	done
done

# 3. A FIFO given with -i is read as a stream.
mkfifo fifo
"$PERF" record -q -m 8M -o - -e $EV -- $WORK >fifo 2>/dev/null &
timeout 60 "$PERF" script $FIELDS -i fifo >fifo.out 2>fifo.err || { cat fifo.err; fail "-i FIFO failed"; }
wait
[ "$(grep -c "$EV" fifo.out)" -ge 20000 ] || fail "-i FIFO: fewer than 20000 syscalls"

# 4. A stream saved to a file is still a stream.
"$PERF" script $FIELDS -i s.data >file.out 2>file.err && clean file.err ||
	{ cat file.err; fail "a saved stream given with -i"; }

# 5. Damage: a stream cut inside a record is shown, then the exit says so;
#    a perf.data file (not a stream) through a pipe is refused by name.
"$PERF" record -q -m 8M -o - -e $EV -- $WORK >plain.data 2>/dev/null || fail "record -o - > file"
size=$(stat -c %s plain.data)
head -c $((size / 2 + 3)) plain.data | "$PERF" script $FIELDS >cut.out 2>cut.err &&
	fail "a cut stream gave exit 0"
grep -q 'ends inside the record' cut.err || { cat cut.err; fail "a cut stream: no warning"; }
[ "$(grep -c "$EV" cut.out)" -ge 1000 ] || fail "a cut stream: the records before the cut were not shown"
# Cut anywhere (head, features, tracing data, data; -z or not): never a
# crash or a hang.  Every record of a plain stream of ours is an even
# number of bytes, so an odd cut is inside one: that says so, exit non-zero.
# (A COMPRESSED record may be odd-sized: a cut there may be a clean end.)
"$PERF" record -q -z -m 8M -o - -e $EV -e sched:sched_switch -- $WORK >zs.data 2>/dev/null ||
	fail "record -z -o - > file"
for f in plain.data zs.data; do
	size=$(stat -c %s $f)
	for i in $(seq 1 25); do
		off=$(( (size * i / 26) | 1 ))	# odd
		head -c $off $f | timeout 20 "$PERF" script >/dev/null 2>cut.err
		rc=$?
		if crashed $rc || grep -Eq 'AddressSanitizer|runtime error:' cut.err; then
			head -3 cut.err; fail "$f cut at $off: exit $rc"
		fi
		[ $f = zs.data ] || { [ $rc -ne 0 ] && grep -q 'ends inside' cut.err; } ||
			fail "$f cut at $off: exit $rc without a warning"
	done
done
# 3. --header-only of a stream, by report (its features, as they came) and
#    by script (its head only), as the distro prints them, for streams of
#    both recorders (-k and -z add features).
for rec in $recorders; do
	"$(bin $rec)" record -q -k monotonic -z -o - -e $EV -e cpu-clock -- true >h.data 2>/dev/null ||
		fail "$rec record -k -z -o -"
	for cmd in report script; do
		"$PERF" $cmd --header-only -i h.data >ours.hdr 2>&1
		"$ORACLE" $cmd --header-only -i h.data >dist.hdr 2>&1
		cmp -s ours.hdr dist.hdr ||
			{ diff ours.hdr dist.hdr | head; fail "$cmd --header-only of $rec's stream"; }
	done
done
"$PERF" record -q -o file.data -e $EV -- $WORK || fail "record to a file"
cat file.data | "$PERF" script >/dev/null 2>notpipe.err && fail "a perf.data file was read through a pipe"
grep -q 'not a stream' notpipe.err || { cat notpipe.err; fail "a file through a pipe: no clear message"; }
"$PERF" record -q -o - --switch-output -e $EV -- true >/dev/null 2>sw.err &&
	fail "-o - with --switch-output accepted"
grep -q 'switch-output' sw.err || fail "-o - with --switch-output: no clear message"
echo "all pairings read through pipes"
