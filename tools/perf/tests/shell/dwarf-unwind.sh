#!/bin/bash
# --call-graph dwarf: user stacks unwound from the sampled registers and stack, as the distro does
# A program built without frame pointers spends its time three calls deep.
# We record it with --call-graph dwarf; our perf script unwinds leaf <- mid
# <- top <- main from the copied stack, and the user frames of every sample
# equal the distro's on the same file: their addresses, whole lines in
# the program, and the inlined functions shown from libraries' debug info.  The
# distro also unwinds our file (it needs the data mmaps too).
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v gcc >/dev/null || skip "gcc is not installed"
# Not under /tmp/perf-*: the distro perf takes files there for JIT symbol maps.
TMPD0=$TMPD
TMPD=$(mktemp -d /tmp/dwarf-unwind.XXXXXX)
trap 'rm -rf "$TMPD" "$TMPD0"' EXIT
cd "$TMPD"
export HOME=$TMPD/home
mkdir -p "$HOME"

cat >dw.c <<'EOF'
volatile unsigned long sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void mid(int n) { leaf(n); sink++; }
__attribute__((noinline)) void top(int n) { mid(n); sink++; }
int main(void) { for (int k = 0; k < 2000; k++) top(100000); return 0; }
EOF
gcc -O2 -g0 -fomit-frame-pointer -o dw dw.c || fail "gcc"
$PERF record -q --call-graph dwarf -e cpu-clock -o d.data ./dw || fail "record"
$PERF script -i d.data >ours.txt 2>ours.err || { cat ours.err; fail "script exit $?"; }
oracle_ok "script" script -i d.data >dist.txt

# leaf, mid, top, main on consecutive lines, in our output.
awk '/ leaf\+0x[0-9a-f]+ \(/ { s = 1; next }
     s == 1 && / mid\+0x/ { s = 2; next }
     s == 2 && / top\+0x/ { s = 3; next }
     s == 3 && / main\+0x/ { n++ }
     { s = 0 }
     END { exit n > 0 ? 0 : 1 }' ours.txt || fail "no sample unwound leaf <- mid <- top <- main"
# The distro unwinds our file as well.
grep -q ' top+0x' dist.txt || fail "the distro does not unwind our file"

# Per sample, the distro's frames must begin ours (its libunwind-based walk
# sometimes stops in libc's start-up code, where ours goes on to _start).
# Where it expands inlined functions from debug info it prints several
# lines at one address, so frames are compared by address (repeats
# folded), and the program's own frames (no debug info) as whole lines.
blocks() {	# one line per sample: its frames, by address or ($2) whole
	awk -v whole="$2" '
		/^\t/ { if (whole) { if ($0 ~ /\(\/.*\/dw\)$/) b = b "|" $0 }
			else if ($1 != last) b = b "|" $1
			last = $1; next }
		{ if (started) print b "|"; b = ""; last = ""; started = 1 }
		END { print b "|" }' "$1"
}
prefix_of() {	# every line of $1 begins the same line of $2
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	     { if (substr($0, 1, length(a[FNR])) != a[FNR]) { print "sample " FNR ": " a[FNR] " / " $0; bad = 1 } }
	     END { if (FNR != n) { print n " samples against " FNR; bad = 1 } exit bad }' "$1" "$2"
}
blocks dist.txt "" >dist.addr
blocks ours.txt "" >ours.addr
prefix_of dist.addr ours.addr | head -5
prefix_of dist.addr ours.addr >/dev/null || fail "frame addresses differ from the distro's"
blocks dist.txt 1 >dist.dw
blocks ours.txt 1 >ours.dw
grep -q 'top+0x' dist.dw || fail "no frames in the program"
prefix_of dist.dw ours.dw | head -5
prefix_of dist.dw ours.dw >/dev/null || fail "the program's frames differ from the distro's"
# Functions inlined where a frame is (from the libraries' debug info, when
# installed) are shown as the distro shows them.
if grep -q '(inlined)$' dist.txt; then
	grep '(inlined)$' dist.txt | sort -u >dist.inl
	grep '(inlined)$' ours.txt | sort -u >ours.inl
	[ -s ours.inl ] || fail "the distro shows inlined functions, we show none"
	# Assembler functions named from the symbol table by addr2line are left out.
	comm -23 dist.inl ours.inl | grep -v '__GI_' >missing.inl
	[ -s missing.inl ] && { head -3 missing.inl; fail "inlined functions the distro shows are missing"; }
fi
exit 0
