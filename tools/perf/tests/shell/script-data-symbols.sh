#!/bin/bash
# perf script -F addr names data addresses (objects, labels, .data) as the distro does
# A program writes one byte a page into an initialized array (an object in
# .data), into a label's bytes (a symbol of no type, in .data too) and into
# a page-aligned array in .bss.  Its page faults, recorded with -d by us and
# by the distro, must name each fault address in the program as the
# distro's script names it: "table" and "lbl" in the file's pages, the
# .bss array's pages (anonymous memory past the file) without a symbol.
# Not compared: the first byte of .bss, where the kernel's zeroing of the
# page's tail faults, and where four symbols (completed.0, _edata,
# __bss_start, __TMC_END__) share an address; the distro picks one of them
# by a rule we do not follow.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_gcc
own_tmpd script-data-symbols

cat >dsym.c <<'EOF'
int table[4096] = { 1 };
extern char lbl[];
__asm__(".data\n.globl lbl\nlbl:\n.zero 16384\n.previous\n");
char big[16 * 4096] __attribute__((aligned(4096)));
int main(void)
{
	for (int i = 0; i < 16384; i += 4096)
		lbl[i + 8] = 1;
	for (int i = 0; i < 4096; i += 1024)
		table[i + 2] = 2;
	for (unsigned long i = 0; i < sizeof(big); i += 4096)
		big[i + 16] = 1;
	return 0;
}
EOF
gcc -O0 -o dsym dsym.c || fail "gcc"

"$ORACLE" record -q -o d.data -d -c 1 -e page-faults -- ./dsym >/dev/null 2>&1 ||
	skip "the distro perf cannot record page-faults here"
"$PERF" record -q -o o.data -d -c 1 -e page-faults -- ./dsym >/dev/null 2>&1 ||
	fail "our record -d failed"

for f in d.data o.data; do
	"$ORACLE" script -F addr,sym,dso --comm dsym -i "$f" >theirs.txt 2>/dev/null ||
		fail "the distro cannot read $f"
	"$PERF" script -F addr,sym,dso --comm dsym -i "$f" >ours.txt 2>ours.err ||
		{ cat ours.err; fail "our script exited non-zero on $f"; }
	[ "$(wc -l <ours.txt)" = "$(wc -l <theirs.txt)" ] ||
		fail "$f: $(wc -l <ours.txt) faults, the distro $(wc -l <theirs.txt)"
	# Line by line, the faults the distro places in the program, but at
	# the start of .bss.
	paste -d '|' theirs.txt ours.txt |
		awk -F '|' '$1 ~ / \(.*\/dsym\)$/ && $1 !~ / (completed\.0|_edata|__bss_start|__TMC_END__) \(/' >pairs.txt
	awk -F '|' '$1 != $2 { bad++; print "distro: " $1; print "ours:   " $2 } END { exit bad > 0 }' \
		pairs.txt || fail "$f: fault addresses in the program named otherwise"
	for want in table lbl; do
		[ "$(grep -c " $want (" pairs.txt)" -ge 3 ] ||
			{ cat pairs.txt; fail "$f: the distro names fewer than 3 faults '$want'"; }
	done
	# .bss past the file: anonymous, no symbol, on both sides.
	grep -Eq '^ *[0-9a-f]+ \[unknown\] \(//anon\)$' theirs.txt ||
		fail "$f: the distro shows no fault in anonymous memory"
	[ "$(grep -c '//anon' ours.txt)" = "$(grep -c '//anon' theirs.txt)" ] ||
		fail "$f: $(grep -c '//anon' ours.txt) faults in anonymous memory, the distro $(grep -c '//anon' theirs.txt)"
	echo "$f: $(wc -l <pairs.txt) faults in the program named as the distro names them"
done
exit 0
