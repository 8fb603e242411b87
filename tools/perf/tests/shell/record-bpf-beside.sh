#!/bin/bash
# Flight recorder: BPF programs loaded and unloaded beside a -a recorder and another tool's events: each dump's KSYMBOL and BPF_EVENT records at their own size with a trailer the header names, read by the distro and by us without a word
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v taskset >/dev/null || skip "taskset is needed to choose the CPU"
command -v python3 >/dev/null || skip "python3 is needed to walk the files"
cd "$TMPD"
$PERF test -w bpf-loop 0.01 2>/dev/null || skip "BPF programs cannot be loaded here"

# The kernel writes a KSYMBOL or BPF_EVENT record for each side-band event
# of a CPU, newest first, from one header that each event's sample-id size
# is added to: opened after ours, another tool's events make the headers of
# ours count their trailers too, over stale bytes of the ring.
$PERF record -v -a --overwrite --switch-output -o fr.data >rec.out 2>rec.err &
rec=$!
wait_recording $rec
# The other tool: the distro's recorder of side-band records only.  Its
# events are enabled before it starts its workload (-a).
"$ORACLE" record -q -a -e dummy -o other.data -- sleep 600 >/dev/null 2>other.err &
other=$!
wait_for "pgrep -P $other -x sleep >/dev/null" ||
	{ cat other.err; fail "the other recorder did not start"; }

# CPU 0's tracking ring (512 KiB) turned over by 2000 execs' COMMs and
# MMAP2s (some 500 bytes each): the bytes after a record the kernel writes
# there are old records, paths of libraries among them.  The programs are
# loaded there.
taskset -c 0 sh -c 'i=0; while [ $i -lt 2000 ]; do /bin/true; i=$((i + 1)); done'
for n in 1 2 3; do
	for k in 1 2; do
		taskset -c 0 $PERF test -w bpf-loop 0.05 || fail "loading the BPF program"
	done
	kill -USR2 $rec
	wait_files 'fr.data.*' $n
done
kill -INT $other
wait $other
taskset -c 0 $PERF test -w bpf-loop 0.05 || fail "loading the BPF program"
kill -INT $rec
wait $rec
rc=$?
[ $rc -eq 0 ] || { tail -20 rec.err; fail "the flight recorder exited $rc"; }
[ "$(ls fr.data.* | wc -l)" -eq 4 ] || fail "4 dumps expected (3 signals and the exit): $(ls fr.data.*)"
grep 'written at their own size' rec.err

# Walks a file: every KSYMBOL and BPF_EVENT is as long as its body (a
# BPF_EVENT's 24 bytes, a KSYMBOL's name to its NUL, 8-aligned) and the
# trailer of the attr its id names (the last word, with IDENTIFIER; 0 is a
# synthesized record's, the first attr's); every record's id is one the
# header lists.  Prints how many of each of the two there are.
cat >walk.py <<'EOF'
import struct, sys

TID, TIME, ID, CPU, STREAM_ID, IDENTIFIER = 1 << 1, 1 << 2, 1 << 6, 1 << 7, 1 << 9, 1 << 16
TRAILER = TID | TIME | ID | STREAM_ID | CPU | IDENTIFIER
path = sys.argv[1]
d = open(path, 'rb').read()
attr_size, = struct.unpack_from('<Q', d, 16)
a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQ', d, 24)
attrs, ids = [], {}
for off in range(a_off, a_off + a_size, attr_size):
    sample_type, = struct.unpack_from('<Q', d, off + 24)
    flags, = struct.unpack_from('<Q', d, off + 40)
    ids_off, ids_size = struct.unpack_from('<QQ', d, off + attr_size - 16)
    attrs.append((sample_type, bool(flags & (1 << 18))))
    for i in range(ids_off, ids_off + ids_size, 8):
        ids[struct.unpack_from('<Q', d, i)[0]] = attrs[-1]
bad = []
count = {17: 0, 18: 0}
off, end = d_off, d_off + d_size
while off < end:
    typ, misc, size = struct.unpack_from('<IHH', d, off)
    if size < 8 or off + size > end:
        sys.exit('%s: a record of %d bytes at %#x' % (path, size, off))
    rec = d[off:off + size]
    attr = attrs[0]
    if typ < 64 and attrs[0][1] and attrs[0][0] & IDENTIFIER:
        id, = struct.unpack_from('<Q', rec, 8 if typ == 9 else size - 8)
        if id and id not in ids:
            bad.append('type %d at %#x: id %d, which the header does not list' % (typ, off, id))
        attr = ids.get(id, attrs[0])
    if typ in count:
        count[typ] += 1
        if typ == 17:
            nul = rec.find(b'\0', 24)
            body = (nul + 1 + 7) & ~7 if nul >= 0 else size
        else:
            body = 24
        due = body + (8 * bin(attr[0] & TRAILER).count('1') if attr[1] else 0)
        if size != due:
            bad.append('type %d at %#x: %d bytes, %d due, ending %r' % (typ, off, size, due, rec[due:]))
    off += size
for b in bad[:10]:
    print('%s: %s' % (path, b))
print('%d KSYMBOL %d BPF_EVENT' % (count[17], count[18]))
sys.exit(1 if bad else 0)
EOF

# A reader's words on stderr are complaints about the file, but for the
# count of LOST records a busy machine made the kernel write.
quiet() {
	grep -Ev '^Warning:$|^Processed [0-9]+ events and lost [0-9]+ chunks!$|^Check IO/CPU overload!$|^$' "$1" |
		grep -q . && { cat "$1"; return 1; }
	return 0
}

ksyms=0
for f in fr.data.*; do
	python3 walk.py "$f" >walk.out || { cat walk.out; fail "$f: records of the wrong size or id"; }
	echo "$f: $(cat walk.out)"
	ksyms=$((ksyms + $(awk '{ print $1 }' walk.out)))
	for who in "$ORACLE" "$PERF"; do
		"$who" script -i "$f" >script.out 2>script.err || { cat script.err; fail "$who script -i $f exited $?"; }
		quiet script.err || fail "$who script -i $f said something"
		"$who" report --stdio -i "$f" >report.out 2>report.err ||
			{ cat report.err; fail "$who report -i $f exited $?"; }
		quiet report.err || fail "$who report -i $f said something"
	done
done
# The dumps of the loads hold the program's records.
[ "$ksyms" -gt 0 ] || fail "no dump has a KSYMBOL record"
exit 0
