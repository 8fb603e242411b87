#!/bin/bash
# perf record holds its output name: a second recorder is refused it, readers of a live file are told who writes it; a busy recorder stops, dumps say what they are and what became of failed ones
. "$(dirname "$0")/lib/common.sh"
need_root
cd "$TMPD"

# 1. A second recorder on a name a live one holds is refused, naming the
#    other's pid, and touches nothing; the first one's dumps hold its own data.
"$PERF" record -e cpu-clock --overwrite -a --switch-output -o same.data 2>a.err &
a=$!
wait_recording $a
ino=$(stat -c %i same.data)
# (With a command, so that a recorder not refused still ends.)
"$PERF" record -e cpu-clock --overwrite -a --switch-output -o same.data -- true 2>b.err >/dev/null
rc=$?
[ $rc -ne 0 ] || fail "a second recorder on same.data was not refused"
crashed $rc && fail "the second recorder crashed ($rc)"
[ "$(wc -l <b.err)" -eq 1 ] || { cat b.err; fail "the refusal is not one line"; }
grep -q "same.data.*pid $a\b.*-o" b.err || { cat b.err; fail "the refusal does not name pid $a and -o"; }
[ ! -e same.data.old ] || fail "the refused recorder renamed same.data to same.data.old"
[ "$(stat -c %i same.data)" = "$ino" ] || fail "the refused recorder replaced same.data"
echo "second recorder: $(cat b.err)"

# 2. Readers of the live file: which recorder holds it and where its dumps
#    go, one line, non-zero exit.
for cmd in script report evlist; do
	"$PERF" $cmd -i same.data >out.txt 2>err.txt
	rc=$?
	[ $rc -ne 0 ] || { cat err.txt; fail "perf $cmd of a live file exits 0"; }
	crashed $rc && fail "perf $cmd of a live file crashed ($rc)"
	[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; fail "perf $cmd: not one line"; }
	grep -q "pid $a\b.*same\.data\.<timestamp> in $TMPD/" err.txt ||
		{ cat err.txt; fail "perf $cmd does not name pid $a and where the dumps are"; }
done
echo "reader: $(cat err.txt)"

# The dump is announced under the name it has, and while the name moves to
# the next file it stays held: a recorder started now is still refused.
kill -USR2 $a
wait_lines a.err 1 'Dump same.data' $a
name=$(sed -n 's/.*Dump \(same\.data\.[0-9]*\).*/\1/p' a.err | head -1)
[ -s "$name" ] || fail "the announced dump $name is not there"
"$PERF" evlist -i "$name" >/dev/null || fail "the dump $name does not read"
"$PERF" record -e cpu-clock -a -o same.data -- true 2>b.err >/dev/null &&
	fail "after a dump, a second recorder got same.data"
kill -INT $a
wait $a || { cat a.err; fail "the first recorder exited $?"; }
[ "$(ls same.data.* | wc -l)" -eq 2 ] || { ls; fail "expected the dump and the exit dump"; }
[ ! -e same.data ] || fail "same.data left behind"

# 3. A recorder whose buffers never run dry still takes SIGINT: a trigger
#    event that fires all the time.
"$PERF" record -e cpu-clock -a --switch-output-event=cpu-clock -o busy.data 2>busy.err &
rec=$!
wait_lines busy.err 2 'Dump busy.data' $rec
kill -INT $rec
wait_gone $rec || fail "a busy recorder ignored SIGINT for $WAIT_S s"
wait $rec || fail "the busy recorder exited $?"
rm -f busy.data*

# 4. Overwrite dumps: "Woken up" counts the times the recorder woke to write
#    the file (the distro says 1 for its snapshots), and -v says nothing of
#    features that do not apply.
"$PERF" record -v -e cpu-clock --overwrite --switch-output -a -o ow.data 2>ow.err &
rec=$!
wait_recording $rec
sleep 0.5	# a moment of samples for the dump
kill -USR2 $rec
wait_lines ow.err 1 'Dump ow.data' $rec
kill -INT $rec
wait $rec || fail "overwrite recorder exited $?"
grep 'dump data: Woken up' ow.err | grep -vq 'Woken up 1 times' &&
	{ grep Woken ow.err; fail "an overwrite dump claims more than one wakeup"; }
grep -q 'not written' ow.err && { grep 'not written' ow.err; fail "-v: features not written"; }
rm -f ow.data*

# 5. Failed dumps say what became of them.
#    An immutable directory: the dump cannot be renamed and stays, complete,
#    under the output name, which the next file moves to .old.
mkdir imm && cd imm
"$PERF" record -e cpu-clock --overwrite --switch-output -a -o fr.data 2>../imm.err &
rec=$!
wait_recording $rec
# Whatever ends the test, the directory must be removable again.
trap 'chattr -i "$TMPD/imm" 2>/dev/null; cleanup' EXIT
if chattr +i . 2>/dev/null; then
	kill -USR2 $rec
	wait_lines ../imm.err 1 'Cannot name the dump' $rec
	chattr -i .
	kill -INT $rec
	wait $rec || { cat ../imm.err; fail "immutable directory: exit $?"; }
	grep -q 'dump was dropped' ../imm.err && { cat ../imm.err; fail "says dropped, but kept"; }
	grep -q 'stays, complete, in fr.data.*fr.data.old' ../imm.err ||
		{ cat ../imm.err; fail "immutable directory: where the dump is, not said"; }
	"$PERF" evlist -i fr.data.old >/dev/null || fail "the kept dump fr.data.old does not read"
	grep -q '^1 dump failed' ../imm.err || { cat ../imm.err; fail "no count of failed dumps"; }
else
	echo "chattr +i not supported here: immutable directory part skipped"
	kill -INT $rec
	wait $rec
fi
cd ..

#    The working directory removed while recording: no "create it".
mkdir gone && cd gone
"$PERF" record -e cpu-clock --overwrite --switch-output -a -o fr.data 2>../gone.err &
rec=$!
wait_recording $rec
cd .. && rm -rf gone
kill -USR2 $rec
wait_lines gone.err 1 'working directory was removed' $rec
kill -INT $rec
wait $rec
rc=$?
[ $rc -ne 0 ] || fail "the exit dump into a removed directory exits 0"
crashed $rc && fail "removed directory: crashed ($rc)"
grep -q 'create it' gone.err && { cat gone.err; fail "removed working directory: says create it"; }
grep -q 'dumps failed' gone.err || { cat gone.err; fail "removed directory: no count of failed dumps"; }

#    A full disk at exit: the exit status of ENOSPC, after the count.
if unshare -m true 2>/dev/null; then
	mkdir full
	{ declare -f fail deadline past_deadline wait_for catches wait_recording; echo "WAIT_S=$WAIT_S"; } >full.sh
	cat >>full.sh <<-EOF
	mount -t tmpfs -o size=1536k none full || exit 3
	cd full
	"$PERF" record -e cpu-clock --overwrite --switch-output -a -o fr.data 2>../full.err &
	rec=\$!
	wait_recording \$rec
	dd if=/dev/zero of=fill bs=64k 2>/dev/null
	kill -INT \$rec
	wait \$rec
	EOF
	unshare -m bash full.sh
	rc=$?
	if [ $rc -eq 3 ]; then
		echo "cannot mount a tmpfs: full disk part skipped"
	else
		[ $rc -eq 228 ] || { cat full.err; fail "full disk at exit: exit $rc, not 228"; }
		grep -q '^1 dump failed' full.err || { cat full.err; fail "full disk: no count"; }
	fi
fi
exit 0
