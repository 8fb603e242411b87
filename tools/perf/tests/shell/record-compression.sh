#!/bin/bash
# perf record -z: compressed files and dumps read by the distro, the distro's read by us, a third of the size
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"

# The same syscalls for every recording: 30000 getppid() calls of our own workload.
WORK="$PERF test -w getppid 30000"
EV=raw_syscalls:sys_enter
FIELDS="-F trace:comm,tid,time,event,trace"

# Our reader and the distro's agree on the records of FILE ($1).
same_as_oracle() {
	oracle_ok "script $1" script $FIELDS -i "$1" >"$1.oracle"
	"$PERF" script $FIELDS -i "$1" >"$1.ours" 2>"$1.err" || { cat "$1.err"; fail "we cannot read $1"; }
	[ ! -s "$1.err" ] || { cat "$1.err"; fail "we warned about $1"; }
	cmp -s "$1.oracle" "$1.ours" ||
		{ diff "$1.oracle" "$1.ours" | head; fail "$1: our records differ from the distro's"; }
	[ "$(grep -c "$EV" "$1.ours")" -ge 30000 ] || fail "$1: fewer than 30000 syscalls"
}
# The u32 fields of feature $2 in file $1 (the section table follows the data).
u64_at() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
feature_u32s() {
	local f=$1 feat=$2 i=0 b byte table
	byte=$(od -An -t u1 -j $((72 + feat / 8)) -N 1 "$f")
	(( (byte >> (feat % 8)) & 1 )) || fail "$f has no feature $feat"
	for ((b = 0; b < feat; b++)); do
		byte=$(od -An -t u1 -j $((72 + b / 8)) -N 1 "$f")
		(( (byte >> (b % 8)) & 1 )) && i=$((i + 1))
	done
	table=$(( $(u64_at "$f" 40) + $(u64_at "$f" 48) + 16 * i ))
	od -An -t u4 -v -j "$(u64_at "$f" $table)" -N "$(u64_at "$f" $((table + 8)))" "$f" | xargs
}
HEADER_COMPRESSED=27
compressed_records() {
	"$ORACLE" report -D -i "$1" 2>/dev/null | awk '/COMPRESSED events:/ { print $3 }'
}

# 1. Ours, plain and -z, of the same workload.
"$PERF" record -q -e $EV -m 4M -o plain.data -- $WORK || fail "record plain"
"$PERF" record -q -z -e $EV -m 4M -o z.data -- $WORK || fail "record -z"
same_as_oracle plain.data
same_as_oracle z.data
oracle_ok "report -D" report -D -i z.data >/dev/null
oracle_ok "report" report --stdio -i z.data >/dev/null
[ "$(compressed_records z.data)" -gt 0 ] || fail "the distro found no COMPRESSED records in z.data"
oracle_ok "header" report --header-only -i z.data | grep -q 'compressed : Zstd, level = 1,' ||
	fail "the distro does not see the COMPRESSED feature (zstd, level 1)"
plain=$(stat -c %s plain.data)
z=$(stat -c %s z.data)
echo "syscall trace: plain $plain bytes, -z $z bytes"
[ $((z * 3)) -le "$plain" ] || fail "-z file is $z bytes, more than a third of $plain"

# 2. A level; numbers past zstd's levels taken as the nearest, as the
#    distro takes them; what is not a number refused.
"$PERF" record -q --compression-level=9 -e $EV -o z9.data -- $WORK || fail "record level 9"
"$PERF" script --header-only -i z9.data | grep -q 'compressed : Zstd, level = 9,' ||
	fail "level 9 not in the COMPRESSED feature"
for lv in 0:1 23:22 30:22; do
	"$PERF" record -q --compression-level=${lv%:*} -e cpu-clock -o zl.data -- true ||
		fail "--compression-level=${lv%:*} refused"
	"$PERF" report --header-only -i zl.data | grep -q "^# compressed : Zstd, level = ${lv#*:}," ||
		fail "--compression-level=${lv%:*} is not level ${lv#*:}"
done
for bad in --compression-level=x -z-1 --compression-level=; do
	"$PERF" record -q $bad -o bad.data -- true 2>bad.err && fail "$bad accepted"
	grep -q 'compression level' bad.err || { cat bad.err; fail "$bad: no clear message"; }
	[ ! -e bad.data ] || fail "$bad left a file"
done

# 3. The distro's -z file, read by us.
"$ORACLE" record -q -z -e $EV -m 4M -o distro-z.data -- $WORK >/dev/null 2>&1 ||
	fail "the distro's record -z failed"
[ "$(compressed_records distro-z.data)" -gt 0 ] || fail "the distro wrote no COMPRESSED records"
same_as_oracle distro-z.data

# 3b. The COMPRESSED feature is the distro's for the same command, field for
#     field: version, type (zstd), level, ratio (record bytes over what they
#     took in the file, rounded: the workload's, not the same number) and
#     mmap_len (one ring buffer of -m with its header page).
read -r dver dtype dlevel dratio dlen < <(feature_u32s distro-z.data $HEADER_COMPRESSED)
read -r over otype olevel oratio olen < <(feature_u32s z.data $HEADER_COMPRESSED)
echo "COMPRESSED feature: distro $dver $dtype $dlevel $dratio $dlen, ours $over $otype $olevel $oratio $olen"
[ "$over" = "$dver" ] || fail "COMPRESSED version $over, the distro writes $dver"
[ "$otype" = "$dtype" ] && [ "$olevel" = "$dlevel" ] || fail "COMPRESSED type/level $otype/$olevel, not $dtype/$dlevel"
[ "$olen" = "$dlen" ] || fail "COMPRESSED mmap_len $olen, the distro writes $dlen for -m 4M"
pdata=$(u64_at plain.data 48) zdata=$(u64_at z.data 48)
want=$(( (pdata + zdata / 2) / zdata ))
[ "$oratio" -ge $((want * 3 / 4)) ] && [ "$oratio" -le $((want * 5 / 4 + 1)) ] ||
	fail "COMPRESSED ratio $oratio, but the data took $zdata bytes for $pdata plain ($want)"
oracle_ok "header" report --header-only -i z.data | grep -qx "# compressed : Zstd, level = $olevel, ratio = $oratio" ||
	fail "the distro does not read the COMPRESSED feature as written"

# 4. Flight-recorder dumps with -z: one on a signal, one at the end.
"$PERF" record -q -z -e $EV --overwrite --switch-output -m 4M -o fr.data -- \
	$PERF test -w getppid 2000000000 2>fr.err &
REC=$!
wait_recording $REC
kill -USR2 $REC
wait_files 'fr.data.*' 1
kill -INT $REC
wait $REC
dumps=$(ls fr.data.*)
[ "$(echo $dumps | wc -w)" -eq 2 ] || { cat fr.err; fail "expected 2 dumps, got: $dumps"; }
for f in $dumps; do
	oracle_ok "dump $f" report -D -i "$f" >/dev/null
	[ "$(compressed_records "$f")" -gt 0 ] || fail "$f has no COMPRESSED records"
	oracle_ok "dump $f" script $FIELDS -i "$f" >"$f.oracle"
	"$PERF" script $FIELDS -i "$f" >"$f.ours" || fail "we cannot read $f"
	cmp -s "$f.oracle" "$f.ours" || fail "$f: our records differ from the distro's"
	grep -q "$EV" "$f.ours" || fail "$f holds no syscalls"
done

# 5. A COMPRESSED record that is not zstd: one clear error naming its offset.
data_off=$(od -An -t u8 -j 40 -N 8 z.data | tr -d ' ')
[ "$(od -An -t u4 -j "$data_off" -N 4 z.data | tr -d ' ')" -eq 81 ] ||
	fail "z.data does not start its data with a COMPRESSED record"
cp z.data broken.data
printf 'XXXX' | dd of=broken.data bs=1 seek=$((data_off + 8)) conv=notrunc status=none
"$PERF" script -i broken.data >/dev/null 2>broken.err && fail "a broken COMPRESSED record was accepted"
grep -q "COMPRESSED record that does not decompress.* at offset $data_off" broken.err ||
	{ cat broken.err; fail "the broken COMPRESSED record was not named with its offset"; }
echo "compressed files, dumps and the distro's read both ways"
