#!/bin/bash
# perf script/report and the other readers on -z files with a damaged COMPRESSED record: one line naming it, the distro's exit status, what came before still shown
# Each case damages one COMPRESSED record, found by walking the data
# section, at a place its zstd frame header gives: the frame's magic; its
# first block's size, made larger than the payload holds, in that record
# and in the last one (the payload then gives no byte at all, with nothing
# after it to fail on: a corrupt-sweep.sh mutation we read silently, exit
# 0); the record's size, cut inside that block; the file, cut inside the
# record; and, with zstd(1), a payload that ends inside a record.  The
# files: ours (a frame per COMPRESSED record, each 64 KiB of the FORK and
# EXIT records of 2000 forks, so four of them), the same written to a pipe
# (-o -), and the distro's (one zstd stream over all its COMPRESSED
# records).  Where the distro perf is installed, our script's exit status
# and output are compared with its script's on the same damaged file; its
# report says the error but exits 0, ours exits as our script does.
. "$(dirname "$0")/lib/common.sh"
need_oracle
. "$(dirname "$0")/lib/perf-data.sh"
own_tmpd zstd-damaged

u32_at() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
u16_at() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }

# compressed_records FILE: "OFFSET SIZE" of each COMPRESSED record (type
# 81), in the data section, or after the 16-byte header of a stream.
compressed_records() {
	local f=$1 off end size

	if [ "$(u64_at "$f" 8)" -eq 16 ]; then
		off=16
		end=$(stat -c %s "$f")
	else
		off=$(u64_at "$f" 40)
		end=$((off + $(u64_at "$f" 48)))
	fi
	while [ "$off" -lt "$end" ]; do
		size=$(u16_at "$f" $((off + 6)))
		[ "$size" -ge 8 ] || fail "$f: a record of size $size at $off"
		[ "$(u32_at "$f" "$off")" -eq 81 ] && echo "$off $size"
		off=$((off + size))
	done
}

# first_block FILE AT SIZE: BLK, where the first zstd block header in the
# payload of the COMPRESSED record at AT is, and BH, its value.  A payload
# that starts a frame has it after the magic and the frame header (RFC 8878
# 3.1.1); one that goes on with the distro's stream, at its start.  The
# block must be one whose size is what it takes of the payload (not RLE),
# and must end in it.
first_block() {
	local f=$1 at=$2 size=$3 p=$(($2 + 8)) fhd single fcs did

	BLK=$p
	if [ "$(u32_at "$f" "$p")" -eq $((0xfd2fb528)) ]; then
		fhd=$(byte_at "$f" $((p + 4)))
		single=$(((fhd >> 5) & 1))
		fcs=$((fhd >> 6))
		did=$((fhd & 3))
		BLK=$((p + 5 + (1 - single) + (did == 3 ? 4 : did) + (fcs ? 1 << fcs : single)))
	fi
	BH=$(($(u16_at "$f" "$BLK") | $(byte_at "$f" $((BLK + 2))) << 16))
	[ $(((BH >> 1) & 3)) -ne 1 ] || fail "$f: the block at $BLK is RLE"
	[ $((BLK + 3 + (BH >> 3))) -le $((at + size)) ] ||
		fail "$f: the block at $BLK runs past its record"
}

# block_past FILE AT SIZE OUT: OUT, FILE with the first block of the
# COMPRESSED record at AT made 4 KiB larger than its payload holds.
block_past() {
	cp "$1" "$4"
	first_block "$1" "$2" "$3"
	poke "$4" "$BLK" 3 $(((BH & 7) | ($2 + $3 - BLK - 3 + 4096) << 3))
}

WORK="$PERF test -w forks 2000"
"$PERF" record -q -z -e cpu-clock -c 100000000 -o ours.data -- $WORK || fail "record -z"
# The same through a pipe, read as the stream it is.
"$PERF" record -q -z -e cpu-clock -c 100000000 -o - -- $WORK >ours-pipe.data ||
	fail "record -z -o -"
files=(ours.data ours-pipe.data)
"$ORACLE" record -q -z -e cpu-clock -c 100000000 -o distro.data -- $WORK >/dev/null 2>&1 ||
	fail "the distro's record -z failed"
files+=(distro.data)

# read_all FILE: our script (its output in FILE.out) and report, and the
# distro's script when it is there.
read_all() {
	timeout 20 "$PERF" script --show-task-events -i "$1" >"$1.out" 2>"$1.err"
	rc=$?
	timeout 20 "$PERF" report --stdio -i "$1" >/dev/null 2>"$1.rerr"
	rrc=$?
	# In a subshell: the distro's own crashes (a cut file) are not this shell's to report.
	drc=$( (timeout 20 "$ORACLE" script --show-task-events -i "$1" >"$1.dout" 2>"$1.derr"
		echo $?) 2>/dev/null)
}

# shown NAME FILE HOW: what our script showed of FILE.  "prefix": the
# start of what the good file ($GOOD) shows, as a reader that stops at a
# record shows every record flushed before it and no other; "some": lines
# (a cut file's records are all flushed, and those before the cut may come
# later than some after it, or lack the COMM of their task).  With the
# distro there and COMPARE set, also the lines its script shows.
shown() {
	if [ "$3" = prefix ]; then
		head -n "$(wc -l <"$2.out")" "$GOOD.out" | cmp -s - "$2.out" ||
			fail "$1: our script's output is not the start of the good file's"
	else
		[ -s "$2.out" ] || fail "$1: our script shows nothing"
	fi
	if [ -n "$COMPARE" ]; then
		cmp -s "$2.dout" "$2.out" ||
			fail "$1: we show $(wc -l <"$2.out") lines, the distro $(wc -l <"$2.dout")"
	fi
}

# damaged NAME FILE RC PATTERN [HOW]: our script and report exit RC (with
# COMPARE set and the distro there, its script's status, which must not be
# 0), with one line on stderr matching PATTERN; what is shown, as HOW says
# (prefix, unless told).
damaged() {
	local name=$1 f=$2 want=$3 pattern=$4 how=${5:-prefix}

	read_all "$f"
	if crashed $rc || crashed $rrc; then
		fail "$name: our script or report crashed or hung ($rc, $rrc)"
	fi
	if [ -n "$COMPARE" ]; then
		[ "$drc" -ne 0 ] ||
			fail "$name: the distro's script exits 0: nothing damaged it sees"
		crashed $drc && fail "$name: the distro's script crashed ($drc)"
		want=$drc
	fi
	[ "$rc" -eq "$want" ] || { cat "$f.err"; fail "$name: our script exits $rc, not $want"; }
	[ "$rrc" -eq "$want" ] || { cat "$f.rerr"; fail "$name: our report exits $rrc, not $want"; }
	[ "$(wc -l <"$f.err")" -eq 1 ] && grep -q -E "$pattern" "$f.err" ||
		{ cat "$f.err"; fail "$name: our script does not name the damage in one line"; }
	[ "$(wc -l <"$f.rerr")" -eq 1 ] && grep -q -E "$pattern" "$f.rerr" ||
		{ cat "$f.rerr"; fail "$name: our report does not name the damage in one line"; }
	shown "$name" "$f" "$how"
	echo "$name: exit $rc, $(wc -l <"$f.out") lines shown: $(cat "$f.err")"
}

for GOOD in "${files[@]}"; do
	read_all "$GOOD"
	[ "$rc" -eq 0 ] && [ ! -s "$GOOD.err" ] ||
		{ cat "$GOOD.err"; fail "$GOOD: not read cleanly"; }
	[ "$rrc" -eq 0 ] || fail "$GOOD: our report exits $rrc"
	[ "$(grep -c -w -E 'PERF_RECORD_(FORK|EXIT)' "$GOOD.out")" -ge 4000 ] ||
		fail "$GOOD: fewer than 4000 FORK and EXIT records shown"
	mapfile -t recs < <(compressed_records "$GOOD")
	echo "$GOOD: ${#recs[@]} COMPRESSED records: ${recs[*]}"
	f=${GOOD%.data}
	if [ $f != distro ]; then
		# A frame per record: the second, with records before it.
		[ ${#recs[@]} -ge 4 ] || fail "$GOOD: ${#recs[@]} COMPRESSED records, not 4"
		read -r at size <<<"${recs[1]}"
	else
		# One stream: the first record has the frame header.
		[ ${#recs[@]} -ge 1 ] || fail "distro.data: no COMPRESSED record"
		read -r at size <<<"${recs[0]}"
	fi
	pay=$((at + 8))
	# The distro's status: 255 in a file, 234 in a stream (its stream
	# reader stops with -EINVAL on any record).
	want=255
	[ $f = ours-pipe ] && want=234
	COMPARE=1

	# The frame's magic: not zstd.
	cp "$GOOD" $f-magic.data
	poke $f-magic.data $pay 1 $(($(byte_at "$GOOD" $pay) ^ 0xff))
	damaged "$f: magic" $f-magic.data $want \
		"COMPRESSED record that does not decompress .*at offset $at\$"

	# The first block 4 KiB larger than the payload holds.
	block_past "$GOOD" "$at" "$size" $f-block.data
	damaged "$f: block past the payload" $f-block.data $want \
		"COMPRESSED record that decompresses to nothing at offset $at\$"
	# ... in the last COMPRESSED record, with no payload after it to fail on.
	read -r lat lsize <<<"${recs[-1]}"
	block_past "$GOOD" "$lat" "$lsize" $f-lastblock.data
	damaged "$f: last block past the payload" $f-lastblock.data $want \
		"COMPRESSED record that decompresses to nothing at offset $lat\$"

	# The record's size cut 16 bytes into its first block.
	first_block "$GOOD" "$at" "$size"
	cp "$GOOD" $f-size.data
	poke $f-size.data $((at + 6)) 2 $((BLK + 3 + 16 - at))
	damaged "$f: record size cut" $f-size.data $want \
		"COMPRESSED record that decompresses to nothing at offset $at\$"

	# The file cut inside the record: what is before it shown, exit 1 as for
	# any cut file.  The distro's script refuses every COMPRESSED record of
	# a cut file (its mmap_len comes from a feature after the data), so its
	# status is not ours to have.
	unset COMPARE
	head -c $((pay + (size - 8) / 2)) "$GOOD" >$f-cut.data
	read_all $f-cut.data
	[ "$rc" -eq 1 ] && [ "$rrc" -eq 1 ] ||
		fail "$f: cut: our script exits $rc, report $rrc, not 1"
	grep -q "ends inside the record at offset $at;" $f-cut.data.err ||
		{ cat $f-cut.data.err; fail "$f: cut: the record cut is not named"; }
	shown "$f: cut" $f-cut.data some
	echo "$f: cut: exit $rc, $(wc -l <$f-cut.data.out) lines shown"
done

# The last COMPRESSED record of ours made one that ends 24 bytes into an
# EXIT record that says it has 48 (a skippable frame fills the rest of the
# payload): every whole record before it is shown, as the distro shows
# them (it says nothing of the rest), then the error naming that record.
if command -v zstd >/dev/null; then
	read -r at size <<<"$(compressed_records ours.data | tail -1)"
	printf '\x04\x00\x00\x00\x00\x00\x30\x00%s' 0123456789abcdef | zstd -q -c >part.zst
	pad=$((size - 8 - $(stat -c %s part.zst)))
	[ $pad -ge 8 ] || fail "the last COMPRESSED record of ours.data has no room"
	cp ours.data ours-part.data
	dd if=part.zst of=ours-part.data bs=1 seek=$((at + 8)) conv=notrunc status=none
	poke ours-part.data $((at + size - pad)) 4 $((0x184d2a50))
	poke ours-part.data $((at + size - pad + 4)) 4 $((pad - 8))
	GOOD=ours.data
	damaged "ours: ends inside a record" ours-part.data 234 \
		"the last COMPRESSED record ends 24 bytes into a record at offset $at\$" some
	[ "$drc" -eq 0 ] || fail "ours-part.data: the distro's script exits $drc"
	COMPARE=1 shown "ours: ends inside a record" ours-part.data some
else
	echo "note: no zstd(1): no payload ending inside a record"
fi

# The other readers of the session on the damaged block: the same line.
for cmd in "report --stats -i" "inject -o inj.data -i" "buildid-list --with-hits -i" \
	   "diff ours.data"; do
	timeout 20 $PERF $cmd ours-block.data >/dev/null 2>other.err
	rc=$?
	crashed $rc && fail "perf $cmd: exit $rc"
	[ "$rc" -eq 255 ] && grep -q "COMPRESSED record that decompresses to nothing" other.err ||
		{ cat other.err; fail "perf $cmd: exit $rc, the damage not named"; }
done
# perf sched, on sched_switch records of ours (root and tracefs): the same
# line, and the distro's exit status.
if [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/mounts; then
	"$PERF" record -q -z -e sched:sched_switch -o sw.data -- $WORK ||
		fail "record -z sched_switch"
	read -r at size <<<"$(compressed_records sw.data | tail -1)"
	block_past sw.data "$at" "$size" sw-block.data
	named="^perf sched: sw-block.data: .*COMPRESSED record that decompresses to nothing"
	for cmd in latency map timehist; do
		timeout 20 "$PERF" sched $cmd -i sw-block.data >/dev/null 2>other.err
		rc=$?
		want=255
		want=$( (timeout 20 "$ORACLE" sched $cmd -i sw-block.data >/dev/null 2>&1
			 echo $?) 2>/dev/null)
		grep -q "$named at offset $at\$" other.err && [ "$rc" -eq "$want" ] ||
			{ cat other.err; fail "perf sched $cmd: exit $rc (not $want), the damage not named"; }
	done
else
	echo "note: no perf sched case (it needs root and tracefs)"
fi
echo "damaged COMPRESSED records named, with the distro's exit status"
exit 0
