#!/bin/bash
# Samples in a BPF program loaded while recording are named from its KSYMBOL record, as the distro names them; its header lists the program
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
cd "$TMPD"
$PERF test -w bpf-loop 0.01 2>/dev/null || skip "BPF programs cannot be loaded here"

PROG='bpf_prog_[0-9a-f]{16}_perf_test_loop'
# $1: perf script -F ip,sym,dso output.  How many samples are in the program.
in_prog() { grep -Ec "^ *[0-9a-f]+ $PROG \($PROG\)$" "$1"; }

$PERF record -q -e cpu-clock -o o.data -- $PERF test -w bpf-loop 0.5 || fail "record"
$PERF script -F ip,sym,dso -i o.data >ours.txt 2>ours.err || { cat ours.err; fail "script"; }
n=$(in_prog ours.txt)
[ "$n" -gt 0 ] || { sort ours.txt | uniq -c | sort -rn | head -5; fail "no sample named $PROG"; }
echo "our file: $n of $(wc -l <ours.txt) samples in the program"

# Flight-recorder dumps: each names the program, the ones after the first
# too (the process table keeps its KSYMBOL record for every dump it overlaps).
$PERF record -q -e cpu-clock --overwrite --switch-output -o fr.data -- $PERF test -w bpf-loop 1.5 &
dump_once_then_exit $! 'fr.data.*'
[ "$(ls fr.data.* | wc -l)" = 2 ] || fail "two dumps expected: $(ls fr.data.*)"
for f in fr.data.*; do
	$PERF script -F ip,sym,dso -i "$f" >dump.txt 2>ours.err || { cat ours.err; fail "script of $f"; }
	[ "$(in_prog dump.txt)" -gt 0 ] || fail "$f: no sample named $PROG"
	oracle_ok "script of $f" script -F ip,sym,dso -i "$f" >dist.txt
	[ "$(grep -E "$PROG" dump.txt)" = "$(grep -E "$PROG" dist.txt)" ] ||
		fail "$f: the program's samples are named apart from the distro's"
	echo "$f: $(in_prog dump.txt) of $(wc -l <dump.txt) samples in the program"
done

# A program loaded before the recording starts is named too (its KSYMBOL
# records are written at the head of the file, and seed the flight
# recorder's process table), in a file and in a dump.
$PERF test -w bpf-loop 30 &
loop=$!
wait_for "grep -qs '^prog_id:' /proc/$loop/fdinfo/*" ||
	fail "the BPF program was not loaded in $WAIT_S s"
$PERF record -q -e cpu-clock -p $loop -o pre.data -- sleep 0.5 || fail "record -p"
$PERF record -q -e cpu-clock -p $loop --overwrite --switch-output -o prefr.data -- sleep 0.5 ||
	fail "record -p --overwrite"
kill $loop
wait $loop 2>/dev/null
for f in pre.data prefr.data.*; do
	$PERF script -F ip,sym,dso -i "$f" >pre.txt 2>ours.err || { cat ours.err; fail "script of $f"; }
	[ "$(in_prog pre.txt)" -gt 0 ] ||
		{ sort pre.txt | uniq -c | sort -rn | head -3; fail "$f: no sample of the program loaded before named $PROG"; }
	oracle_ok "script of $f" script -F ip,sym,dso -i "$f" >dist.txt
	[ "$(in_prog dist.txt)" = "$(in_prog pre.txt)" ] ||
		fail "$f: the distro names $(in_prog dist.txt) samples $PROG, we $(in_prog pre.txt)"
	echo "$f, the program loaded before: $(in_prog pre.txt) of $(wc -l <pre.txt) samples in it"
done

# The distro reads the same names from our file, and we from its file.
oracle_ok "script of our file" script -F ip,sym,dso -i o.data >dist.txt
[ "$(grep -E "$PROG" ours.txt)" = "$(grep -E "$PROG" dist.txt)" ] ||
	fail "the program's samples are named apart from the distro's"
[ "$(in_prog dist.txt)" = "$n" ] || fail "the distro names $(in_prog dist.txt) samples of our file $PROG, we $n"
"$ORACLE" record -q -e cpu-clock -o d.data -- $PERF test -w bpf-loop 0.5 >/dev/null 2>&1 ||
	fail "the distro's record"
oracle_ok "script of its file" script -F ip,sym,dso -i d.data >dist2.txt
$PERF script -F ip,sym,dso -i d.data >ours2.txt 2>ours.err || { cat ours.err; fail "script of its file"; }
[ "$(in_prog dist2.txt)" -gt 0 ] || fail "the distro names no sample of its own file $PROG"
[ "$(grep -E "$PROG" ours2.txt)" = "$(grep -E "$PROG" dist2.txt)" ] ||
	fail "the program's samples in the distro's file are named apart from the distro's"
echo "the distro's file: $(in_prog ours2.txt) samples in the program, named as the distro names them"

# Its header lists the programs loaded meanwhile (BPF_PROG_INFO), with the
# names of their functions from their BTF (BPF_BTF): --header-only as the
# distro prints it, byte for byte.
"$ORACLE" record -q -e cpu-clock -o b.data -- $PERF test -w bpf-loop 0.5 btf >/dev/null 2>&1 ||
	skip "a BPF program with BTF cannot be loaded here"
$PERF report --stdio --header-only -i b.data >ours.hdr 2>ours.err || { cat ours.err; fail "header"; }
oracle_ok "header" report --stdio --header-only -i b.data >dist.hdr
grep -Eq '^# 	sub_prog 1: bpf_prog_[0-9a-f]{16}_perf_test_sub addr 0x[0-9a-f]+ size [0-9]+$' dist.hdr ||
	fail "the distro lists no BTF-named function of the program"
grep -q '^# btf info of id ' dist.hdr || fail "the distro lists no BTF"
cmp -s ours.hdr dist.hdr || { diff ours.hdr dist.hdr | head; fail "--header-only differs from the distro's"; }
grep '^# .*perf_test_' ours.hdr
exit 0
