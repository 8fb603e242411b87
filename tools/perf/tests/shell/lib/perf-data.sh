# Sourced by the tests that damage perf.data files on purpose: where the
# parts of a file are, and writing bytes into it.

# u64_at FILE OFFSET: the little-endian u64 at OFFSET.
u64_at() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# byte_at FILE OFFSET: the byte at OFFSET.
byte_at() { od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }

# poke FILE OFFSET NBYTES VALUE: writes VALUE little-endian over NBYTES at OFFSET.
poke() {
	local hex s="" i

	hex=$(printf "%0$(($3 * 2))x" "$4")
	for ((i = $3 - 1; i >= 0; i--)); do s+="\\x${hex:$((i * 2)):2}"; done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# feature_sections FILE: "BIT OFFSET SIZE" of every feature the file has.
feature_sections() {
	local f=$1 table idx=0 bit w

	table=$(( $(u64_at "$f" 40) + $(u64_at "$f" 48) ))
	read -r -a w <<<"$(od -An -t u8 -j 72 -N 32 "$f" | tr '\n' ' ')"
	for ((bit = 1; bit < 256; bit++)); do
		(( (w[bit / 64] >> (bit % 64)) & 1 )) || continue
		echo "$bit $(u64_at "$f" $((table + idx * 16))) $(u64_at "$f" $((table + idx * 16 + 8)))"
		idx=$((idx + 1))
	done
}

# feature_section FILE BIT: "OFFSET SIZE" of feature BIT (1 is TRACING_DATA);
# nothing when the file lacks it.
feature_section() { feature_sections "$1" | awk -v b="$2" '$1 == b { print $2, $3 }'; }
