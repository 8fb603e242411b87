#!/bin/bash
# perf script/evlist: corrupt, truncated and hostile perf.data files give one clear error
# Every run is bounded by timeout(1): a hang fails like a crash does.  A crash
# (a signal: exit 130 to 192) or an ASan report fails the test; a clean
# error (exit 1, 129 or the distro's 234 and 255, with a message) passes.
# A truncated or damaged file shows what it holds, then exits 1 with a
# warning naming the damage: records of unknown type (named with their
# offset and skipped), samples of no event, a damaged feature, tracing data
# whose formats do not parse or do not match the records; attrs we cannot
# trust are refused as the distro does.
PERF=${PERF:-perf}
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/perf-data.sh"
DISTRO=$ORACLE
tmp=$TMPD
fail=0

if [ ! -x "$DISTRO" ]; then
	echo "skip: $DISTRO (the distro perf, used to record a real file) is missing"
	exit 2
fi
if ! "$DISTRO" record -q -o "$tmp/good.data" -e cpu-clock -c 100000 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
	echo "skip: $DISTRO record does not work here"
	exit 2
fi

# run NAME EXPECT CMD...: EXPECT is "fail" (non-zero, one message) or "any".
run() {
	local name=$1 expect=$2
	shift 2
	timeout 10 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if crashed $rc || grep -q -E 'AddressSanitizer|runtime error:' "$tmp/err"; then
		echo "FAIL $name: exit $rc"; head -5 "$tmp/err"; fail=1; return
	fi
	if [ "$expect" = fail ] && { [ $rc -eq 0 ] || [ ! -s "$tmp/err" ]; }; then
		echo "FAIL $name: expected an error, got exit $rc"; fail=1; return
	fi
}

size=$(stat -c %s "$tmp/good.data")
data_off=$(od -An -t u8 -j 40 -N 8 "$tmp/good.data" | tr -d ' ')
data_end=$((data_off + $(od -An -t u8 -j 48 -N 8 "$tmp/good.data" | tr -d ' ')))

"$PERF" script -i "$tmp/good.data" >/dev/null 2>&1 || { echo "FAIL: good file rejected"; fail=1; }

# Truncated at 50 offsets spread over the whole file.
for i in $(seq 1 50); do
	off=$((size * i / 51))
	head -c $off "$tmp/good.data" >"$tmp/t.data"
	if [ $off -lt "$data_off" ]; then
		# The header or the attrs are cut: nothing can be read.
		run "truncated at $off" fail "$PERF" script -i "$tmp/t.data"
	else
		# What is there is shown, and the exit status still says the file is cut.
		run "truncated at $off" fail "$PERF" script -i "$tmp/t.data"
		if ! grep -q -i 'truncated' "$tmp/err"; then
			echo "FAIL truncated at $off: no warning"; fail=1
		fi
		if [ $off -lt $data_end ] && [ ! -s "$tmp/out" ] && [ $off -gt $((data_off + 4096)) ]; then
			echo "FAIL truncated at $off: the records before the cut were not shown"; fail=1
		fi
	fi
	run "evlist truncated at $off" any "$PERF" evlist -v -i "$tmp/t.data"
	# The counts of a cut file are shown too, and its exit status says so.
	[ $off -gt $data_off ] && [ $off -lt $data_end ] &&
		run "report --stats truncated at $off" fail "$PERF" report --stdio --stats -i "$tmp/t.data"
done

# patch OFFSET VALUE: a copy with one u64 of the header replaced.
patch() {
	cp "$tmp/good.data" "$tmp/p.data"
	printf "$(printf '%016x' "$2" | sed 's/\(..\)/\1 /g' | awk '{for(i=8;i>0;i--) printf "\\\\x%s",$i}')" |
		dd of="$tmp/p.data" bs=1 seek="$1" conv=notrunc status=none
}
for field in 8:104000 8:0 16:0 16:99999999 24:999999999 32:7 32:999999999999 40:999999999999 \
	     40:0 48:1 48:999999999999 24:$((size - 8)); do
	patch "${field%%:*}" "${field#*:}"
	run "header field $field" fail "$PERF" script -i "$tmp/p.data"
	# evlist reads no data: a bad data size only costs it the features.
	case $field in 48:*) ;; *) run "evlist header field $field" fail "$PERF" evlist -i "$tmp/p.data";; esac
done

attrs_off=$(u64_at "$tmp/good.data" 24)
attr_entry=$(u64_at "$tmp/good.data" 16)
"$PERF" script -i "$tmp/good.data" >"$tmp/good.out" 2>/dev/null
good_lines=$(wc -l <"$tmp/good.out")

# attr.size (4 bytes into the attr): too small, not a multiple of 8, larger
# than the entry that holds it.  The distro says "incompatible file format".
for v in 8 100 $((attr_entry - 16 + 8)) 65535; do
	cp "$tmp/good.data" "$tmp/a.data"
	poke "$tmp/a.data" $((attrs_off + 4)) 4 $v
	run "attr.size $v" fail "$PERF" script -i "$tmp/a.data"
	grep -q 'incompatible file format' "$tmp/err" ||
		{ echo "FAIL attr.size $v: not refused as an incompatible format"; cat "$tmp/err"; fail=1; }
done

# Two events whose attrs disagree on sample_id_all: where a record's id sits
# would depend on the event it came from.  Refused as the distro refuses it.
"$DISTRO" record -q -o "$tmp/two.data" -e cpu-clock -e task-clock -c 100000 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1
two_attrs=$(u64_at "$tmp/two.data" 24)
two_entry=$(u64_at "$tmp/two.data" 16)
flags_off=$((two_attrs + two_entry + 40))
"$PERF" script -i "$tmp/two.data" >/dev/null 2>&1 || { echo "FAIL: two-event file rejected"; fail=1; }
poke "$tmp/two.data" $flags_off 8 $(( $(u64_at "$tmp/two.data" $flags_off) ^ (1 << 18) ))
run "sample_id_all mismatch" fail "$PERF" script -i "$tmp/two.data"
grep -q 'non matching sample_id_all' "$tmp/err" ||
	{ echo "FAIL sample_id_all mismatch: not refused by name"; cat "$tmp/err"; fail=1; }
run "evlist sample_id_all mismatch" fail "$PERF" evlist -i "$tmp/two.data"

# damaged NAME FILE CMD...: a file read, but damaged: exit 1, with the damage named.
damaged() {
	local name=$1 pattern=$2

	shift 2
	run "$name" fail "$@"
	[ "$rc" -eq 1 ] || { echo "FAIL $name: exit $rc, not 1"; cat "$tmp/err"; fail=1; }
	grep -q -E "$pattern" "$tmp/err" || { echo "FAIL $name: damage not named"; cat "$tmp/err"; fail=1; }
}
# Two events, one of whose ids is not the one its samples carry: the
# distro stops there; we show the rest and exit 1.
"$DISTRO" record -q -o "$tmp/two.data" -e cpu-clock -e task-clock -c 100000 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1
ids_off=$(u64_at "$tmp/two.data" $((two_attrs + 2 * two_entry - 16)))
ids_size=$(u64_at "$tmp/two.data" $((two_attrs + 2 * two_entry - 8)))
# Every id of task-clock (one per CPU): its samples may be on any of them.
for ((o = ids_off; o < ids_off + ids_size; o += 8)); do
	poke "$tmp/two.data" "$o" 8 $(( $(u64_at "$tmp/two.data" "$o") ^ 0x5a5a0000 ))
done
damaged "sample of an unknown id" 'samples with id not present' "$PERF" script -i "$tmp/two.data"
damaged "report: sample of an unknown id" 'is damaged' "$PERF" report --stdio -i "$tmp/two.data"
# Attr 1's id elsewhere than attr 0's: which event a record is of cannot be
# told (the distro: "non matching sample_type").
"$DISTRO" record -q -o "$tmp/two.data" -e cpu-clock -e task-clock -c 100000 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1
st_off=$((two_attrs + two_entry + 24))
poke "$tmp/two.data" $st_off 8 $(( $(u64_at "$tmp/two.data" $st_off) ^ (1 << 16) ))
run "sample id moved" fail "$PERF" script -i "$tmp/two.data"
grep -q 'non matching sample_type' "$tmp/err" ||
	{ echo "FAIL sample id moved: not refused by name"; cat "$tmp/err"; fail=1; }

# A feature whose length runs past its section (HOSTNAME), and one this
# perf does not read (CPU_TOPOLOGY) placed past the end: named, exit 1.
cp "$tmp/good.data" "$tmp/f.data"
read -r host_off _ <<<"$(feature_section "$tmp/f.data" 3)"
poke "$tmp/f.data" "$host_off" 4 65535
damaged "damaged HOSTNAME" 'feature HOSTNAME .*is damaged' "$PERF" script -i "$tmp/f.data"
damaged "evlist: damaged HOSTNAME" 'feature HOSTNAME .*is damaged' "$PERF" evlist -i "$tmp/f.data"
cp "$tmp/good.data" "$tmp/f.data"
table=$((data_off + $(u64_at "$tmp/f.data" 48)))
idx=$(feature_sections "$tmp/f.data" | awk '$1 == 13 { print NR - 1 }')
if [ -n "$idx" ]; then
	poke "$tmp/f.data" $((table + idx * 16)) 8 $((size * 4))
	damaged "CPU_TOPOLOGY past the end" 'CPU_TOPOLOGY' "$PERF" report --stdio -i "$tmp/f.data"
else
	echo "note: the distro wrote no CPU_TOPOLOGY here"
fi
# MEM_TOPOLOGY (not used here, read by the distro) of a version no perf wrote.
cp "$tmp/good.data" "$tmp/f.data"
mem=$(feature_section "$tmp/f.data" 22)
if [ -n "$mem" ]; then
	poke "$tmp/f.data" "${mem% *}" 8 2
	damaged "damaged MEM_TOPOLOGY" 'feature MEM_TOPOLOGY .*is damaged' "$PERF" script -i "$tmp/f.data"
else
	echo "note: the distro wrote no MEM_TOPOLOGY here"
fi

# Tracing data: damaged formats and records that name another event.
if [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/mounts &&
   "$DISTRO" record -q -o "$tmp/tp.data" -e raw_syscalls:sys_exit -- ls / >/dev/null 2>&1; then
	td=$(feature_section "$tmp/tp.data" 1)
	td_off=${td% *}
	# patch_td NAME STRING REPLACEMENT: the first STRING in the tracing data replaced.
	patch_td() {
		local at

		cp "$tmp/tp.data" "$tmp/t.data"
		at=$(tail -c +$((td_off + 1)) "$tmp/t.data" | grep -a -b -o -F -m1 "$2" | head -1)
		at=$((td_off + ${at%%:*}))
		printf '%s' "$3" | dd of="$tmp/t.data" bs=1 seek=$at conv=notrunc status=none
	}
	# The field 'ret' renamed: the print format uses a field the event lacks.
	patch_td field "field:long ret;" "field:long rex;"
	damaged "format field renamed" "sys_exit .*field 'ret' it does not have" \
		"$PERF" script -i "$tmp/t.data"
	damaged "report: format field renamed" "field 'ret'" "$PERF" report --stdio -i "$tmp/t.data"
	damaged "evlist: format field renamed" "field 'ret'" "$PERF" evlist -v -i "$tmp/t.data"
	# A byte no kernel writes in a format.
	patch_td binary "print fmt:" "print$(printf '\377')fmt:"
	damaged "format not text" 'not text' "$PERF" script -i "$tmp/t.data"
	# The event's id changed in its format: no format for the file's event.
	id=$(u64_at "$tmp/tp.data" $(( $(u64_at "$tmp/tp.data" 24) + 8 )))
	patch_td id "ID: $id" "ID: $(( ${id:0:1} % 9 + 1 ))${id:1}"
	damaged "format id changed" 'no format for it' "$PERF" script -i "$tmp/t.data"
	# A record whose common_type names another event: [UNKNOWN EVENT].
	cp "$tmp/tp.data" "$tmp/t.data"
	off=$(u64_at "$tmp/t.data" 40)
	while [ "$(od -An -t u4 -j "$off" -N 4 "$tmp/t.data" | tr -d ' ')" -ne 9 ]; do
		off=$((off + $(od -An -t u2 -j $((off + 6)) -N 2 "$tmp/t.data" | tr -d ' ')))
	done
	st=$(u64_at "$tmp/t.data" $(( $(u64_at "$tmp/t.data" 24) + 24 )))
	words=0
	for bit in 0 1 2 3 6 7 8 9 16; do (( (st >> bit) & 1 )) && words=$((words + 1)); done
	poke "$tmp/t.data" $((off + 8 + words * 8 + 4)) 2 $(( (id + 1) & 0xffff ))
	damaged "record of another event" 'names event id' "$PERF" script -i "$tmp/t.data"
else
	echo "note: no tracing data cases (they need root, tracefs and a tracepoint recorded)"
fi

# The first record's type set to one no perf defines (0, a kernel type to
# come, one past every user type): named with its offset, skipped, counted at
# the end; every sample is still shown.
for t in 0 30 200; do
	cp "$tmp/good.data" "$tmp/u.data"
	poke "$tmp/u.data" "$data_off" 4 $t
	run "unknown type $t" fail "$PERF" script -i "$tmp/u.data"
	[ "$rc" -eq 1 ] || { echo "FAIL unknown type $t: exit $rc, not 1"; fail=1; }
	grep -q "unknown type $t .*at offset $data_off" "$tmp/err" ||
		{ echo "FAIL unknown type $t: no warning with the offset"; cat "$tmp/err"; fail=1; }
	grep -q "1 records of unknown type skipped, the first at offset $data_off" "$tmp/err" ||
		{ echo "FAIL unknown type $t: not in the end-of-file summary"; cat "$tmp/err"; fail=1; }
	[ "$(wc -l <"$tmp/out")" -eq "$good_lines" ] ||
		{ echo "FAIL unknown type $t: $(wc -l <"$tmp/out") lines, not $good_lines"; fail=1; }
done
# A type that exists but that this perf cannot read: unsupported, by name.
cp "$tmp/good.data" "$tmp/u.data"
poke "$tmp/u.data" "$data_off" 4 70
run "unsupported type" any "$PERF" script -i "$tmp/u.data"
if ! grep -q "PERF_RECORD_AUXTRACE_INFO records are not supported" "$tmp/err" ||
   grep -q -i corrupt "$tmp/err"; then
	echo "FAIL unsupported type: not reported as unsupported by name"; cat "$tmp/err"; fail=1
fi

# The size of the first record set to 0, 4, and 65535.
for v in 0 4 65528; do
	cp "$tmp/good.data" "$tmp/r.data"
	printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $((v >> 8)))" |
		dd of="$tmp/r.data" bs=1 seek=$((data_off + 6)) conv=notrunc status=none
	run "record size $v" fail "$PERF" script -i "$tmp/r.data"
done

: >"$tmp/empty.data"
run "zero-length file" fail "$PERF" script -i "$tmp/empty.data"
run "directory" fail "$PERF" script -i "$tmp"
run "non-existent file" fail "$PERF" script -i "$tmp/nope.data"
head -c 100000 /dev/urandom >"$tmp/random.data"
run "random bytes" fail "$PERF" script -i "$tmp/random.data"
# Random bytes behind a valid header: data errors, never a crash.
head -c "$data_off" "$tmp/good.data" >"$tmp/rnd2.data"
head -c $((size - data_off)) /dev/urandom >>"$tmp/rnd2.data"
run "random data section" any "$PERF" script -i "$tmp/rnd2.data"

[ $fail -eq 0 ] && echo "all corrupt inputs handled"
exit $fail
