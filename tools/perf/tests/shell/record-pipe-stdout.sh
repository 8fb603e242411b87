#!/bin/bash
# perf record to a pipe: the workload's own output stays out of the stream, a pipe on stdout takes it without -o, and a stream's vdso is named
. "$(dirname "$0")/lib/common.sh"
own_tmpd record-pipe-stdout

# A workload that prints: its text goes to standard error, as the distro
# sends it; in the stream it used to break the records that followed.
"$PERF" record -q -o - -e task-clock -c 100000 -- sh -c 'echo wl-marker-out; "$0" test -w clock 3000000' "$PERF" \
	>out.data 2>rec.err || { cat rec.err; fail "perf record -o - failed"; }
grep -q wl-marker-out rec.err || fail "the workload's output is not on standard error"
"$PERF" script -i - <out.data >script.out 2>script.err ||
	{ cat script.err; fail "perf script cannot read a stream whose workload printed"; }
grep -q task-clock script.out || fail "no samples read from the stream"

# No -o, standard output a pipe: the stream goes there, no perf.data.
"$PERF" record -q -e task-clock -- "$PERF" test -w burn 0.1 2>rec2.err | cat >piped.data
[ ! -e perf.data ] || fail "perf.data was written although standard output is a pipe"
"$PERF" script -i - <piped.data 2>&1 | grep -q task-clock ||
	fail "the stream on a piped standard output has no samples"

# The vdso of a stream has no build id in the file: both readers take this
# machine's own.  Its samples are named as the distro names them, whatever
# this kernel's vdso holds.
need_oracle
for who in ours distro; do
	p=$PERF; [ $who = distro ] && p=$ORACLE
	"$p" script -F ip,sym,dso -i - <out.data 2>/dev/null | grep '\[vdso\]' | sort | uniq -c >vdso.$who
done
[ -s vdso.distro ] || skip "the workload's samples never hit the vdso here: nothing to compare"
diff vdso.ours vdso.distro || fail "the stream's vdso samples are named otherwise than by the distro"
exit 0
