#!/bin/bash
# perf script/evlist: corrupt, truncated and hostile perf.data files give one clear error
# Every run is bounded by timeout(1): a hang fails like a crash does.  A crash
# (signal, exit >= 128) or an ASan report fails the test; a clean error
# (exit 1 with a message) or, for truncation inside the data, a warning passes.
PERF=${PERF:-perf}
DISTRO=/usr/bin/perf
tmp=$(mktemp -d /tmp/perf-corrupt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
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
	local rc=$?
	if [ $rc -ge 124 ] || grep -q -E 'AddressSanitizer|runtime error:' "$tmp/err"; then
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
		run "truncated at $off" any "$PERF" script -i "$tmp/t.data"
		if [ $off -lt $data_end ] && ! grep -q -i 'truncated' "$tmp/err"; then
			echo "FAIL truncated at $off: no warning"; fail=1
		fi
		if [ $off -lt $data_end ] && [ ! -s "$tmp/out" ] && [ $off -gt $((data_off + 4096)) ]; then
			echo "FAIL truncated at $off: the records before the cut were not shown"; fail=1
		fi
	fi
	run "evlist truncated at $off" any "$PERF" evlist -v -i "$tmp/t.data"
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
