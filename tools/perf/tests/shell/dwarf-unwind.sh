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
need_gcc
own_tmpd dwarf-unwind

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
# sometimes stops in libc's start-up code, where ours goes on to _start):
# on our file for every sample, on the distro's for 95% at least; and
# 95% of the samples in the program reach main, in the distro's script of
# either file and in ours of the distro's.
# Where it expands inlined functions from debug info it prints several
# lines at one address, so frames are compared by address (repeats
# folded), and the program's own frames (no debug info) as whole lines.
blocks() {	# one line per sample: its frames, by address or ($2) whole
	awk -v whole="$2" '
		/^$/ { next }
		/^\t/ { if (whole) { if ($0 ~ /\(\/.*\/dw\)$/) b = b "|" $0 }
			else if ($1 != last) b = b "|" $1
			last = $1; next }
		{ if (started) print b "|"; b = ""; last = ""; started = 1 }
		END { print b "|" }' "$1"
}
# Prints "AGREE TOTAL" for samples whose line of $1 begins the same line of
# $2; fails unless the files have as many samples and at least $3 % agree.
prefix_of() {
	awk -v min="$3" 'NR == FNR { a[FNR] = $0; n = FNR; next }
	     { if (substr($0, 1, length(a[FNR])) == a[FNR]) ok++
	       else if (shown++ < 5) print "sample " FNR ": " a[FNR] " / " $0 >"/dev/stderr" }
	     END { print ok + 0, FNR; exit FNR != n || ok * 100 < min * n }' "$1" "$2"
}
# Of the samples of $1 (perf script output) in the program (the loader's
# before it are not), those whose stack reaches main: "N TOTAL".
to_main() {	# $2: another function of the program than main
	awk -v fn="${2:-main}" '
	     function done() { n += in_dw; hit += in_dw && m; m = in_dw = 0 }
	     /^$/ { next }
	     /^\t/ { if ($0 ~ /\(.*\/dw\)$/) in_dw = 1
		     if ($0 ~ " " fn "\\+0x[0-9a-f]+ \\(.*/dw\\)$") m = 1
		     next }
	     { done() }
	     END { done(); print hit + 0, n + 0 }' "$1"
}
compare() {	# $1 $2: the distro's and our script of one file; $3: the agreement asked, in %
	local addr whole
	blocks "$1" "" >dist.addr
	blocks "$2" "" >ours.addr
	addr=$(prefix_of dist.addr ours.addr "$3") || fail "$4: frame addresses differ from the distro's ($addr)"
	blocks "$1" 1 >dist.dw
	blocks "$2" 1 >ours.dw
	grep -q 'top+0x' dist.dw || fail "$4: no frames in the program"
	whole=$(prefix_of dist.dw ours.dw "$3") || fail "$4: the program's frames differ from the distro's ($whole)"
	echo "$4: frame addresses agree for ${addr% *} of ${addr#* } samples, whole lines for ${whole% *}"
}
# On our file, 99% of the samples (by address, and by the program's own lines).
# The distro's libunwind and our libdw part ways, now and then, on a sample
# in libc's start-up taken inside the lazy-binding resolver
# (_dl_runtime_resolve under __pthread_tunables_init): ours skips
# __libc_early_init and dl_main.  Only since the distro unwinds our files
# past __libc_start_call_main (the workload is no longer described by
# perf's own maps) does it reach those frames at all.
compare dist.txt ours.txt 99 "our file"
read -r hit n < <(to_main dist.txt)
echo "our file: the distro unwinds $hit of $n samples to main"
[ $((hit * 100)) -ge $((n * 95)) ] || fail "the distro unwinds only $hit of $n samples of our file to main"
# ... and on to the program's _start, through libc's start-up code: it
# stopped there when our file gave the workload perf's own maps from before
# its exec (the distro's file has only its name then, "perf-exec").
read -r hit n < <(to_main dist.txt _start)
echo "our file: the distro unwinds $hit of $n samples to _start"
[ $((hit * 100)) -ge $((n * 95)) ] || fail "the distro unwinds only $hit of $n samples of our file to _start"
$ORACLE script --show-task-events --show-mmap-events -i d.data 2>/dev/null >events.txt
grep -q 'PERF_RECORD_COMM: perf-exec:' events.txt || fail "the workload is not named perf-exec before its exec"
grep -q 'MMAP.*/perf$' events.txt && fail "the workload's maps from before its exec are in the file"
# Functions inlined where a frame is (from the libraries' debug info, when
# installed) are shown as the distro shows them.
if grep -q '(inlined)$' dist.txt; then
	grep '(inlined)$' dist.txt | sort -u >dist.inl
	grep '(inlined)$' ours.txt | sort -u >ours.inl
	[ -s ours.inl ] || fail "the distro shows inlined functions, we show none"
	# Assembler functions named from the symbol table by addr2line are left
	# out: the __GI_ aliases, and the loader's and libc's string functions
	# (memcpy and friends, from sysdeps/.../*.S), which the distro shows as
	# inlined into themselves when a sample falls in one; ours shows the
	# symbol once.  Which of them a run samples is the machine's business.
	comm -23 dist.inl ours.inl | grep -v -E '__GI_| (mem(cpy|move|set|cmp)|str[a-z]*)\+0x[0-9a-f]+ \(inlined\)$' >missing.inl
	[ -s missing.inl ] && { head -3 missing.inl; fail "inlined functions the distro shows are missing"; }
fi

# perf report shows the unwound frames as its call graph, as the distro does:
# the program's part of the top entry's tree (the libraries' inlined
# frames the distro adds from debug info are left out).
tree() {	# the frames of the first tree in perf report --stdio --no-children output
	awk '/---/ { on = 1; sub(/.*---/, "") } on && /^ *$/ { exit }
	     on { gsub(/^[ |]+/, ""); if ($0 !~ /\(inlined\)$/) print }' "$1"
}
$PERF report --stdio --no-children -i d.data >ours.rep 2>ours.err || { cat ours.err; fail "report"; }
oracle_ok "report" report --stdio --no-children -i d.data >dist.rep
tree ours.rep | head -4 | tr '\n' ' ' >ours.tree
tree dist.rep | head -4 | tr '\n' ' ' >dist.tree
[ "$(cat ours.tree)" = "leaf mid top main " ] || fail "our report's tree: $(cat ours.tree)"
cmp -s ours.tree dist.tree || fail "our report's tree '$(cat ours.tree)', the distro's '$(cat dist.tree)'"

# The distro's own file: it reaches main as often, and we agree with its
# frames for at least 95% of the samples.
"$ORACLE" record -q --call-graph dwarf -e cpu-clock -o o.data ./dw >/dev/null 2>&1 || fail "the distro's record"
oracle_ok "script of its file" script -i o.data >dist2.txt
$PERF script -i o.data >ours2.txt 2>ours2.err || { cat ours2.err; fail "script of the distro's file"; }
read -r hit n < <(to_main dist2.txt)
echo "the distro's file: it unwinds $hit of $n samples to main"
[ $((hit * 100)) -ge $((n * 95)) ] || fail "the distro unwinds only $hit of $n samples of its own file to main"
read -r hit n < <(to_main ours2.txt)
echo "the distro's file: we unwind $hit of $n samples to main"
[ $((hit * 100)) -ge $((n * 95)) ] || fail "we unwind only $hit of $n samples of the distro's file to main"
compare dist2.txt ours2.txt 95 "the distro's file"
exit 0
