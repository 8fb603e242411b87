#!/bin/bash
# A library's last symbol without a size (an assembler function) names its samples, as in the distro
. "$(dirname "$0")/lib/common.sh"
need_oracle
command -v cc >/dev/null || skip "cc is not installed"
command -v strip >/dev/null || skip "strip is not installed"
own_tmpd symbol-last-sizeless

# spin_nosize has no .size and comes last in the library's .text; the
# library is stripped, so .dynsym is all a reader has.
cat >lib.c <<'SRC'
int helper_sized(int x) { return x * 3; }
__asm__(".text\n.globl spin_nosize\n.type spin_nosize,@function\nspin_nosize:\n"
	"\tmov $300000000,%rcx\n1:\tdec %rcx\n\tjnz 1b\n\tret\n");
SRC
cat >main.c <<'SRC'
void spin_nosize(void);
int main(void) { spin_nosize(); return 0; }
SRC
cc -O1 -fno-toplevel-reorder -shared -fPIC -o libns.so lib.c 2>/dev/null &&
	strip --strip-unneeded libns.so &&
	cc -O1 -o prog main.c -L. -lns -Wl,-rpath,"$PWD" 2>/dev/null ||
	skip "cannot build an x86-64 test library here"
last=$(nm -D -n -S libns.so | awk '$NF != "" && $2 != "w" { l = $0 } END { print l }')
[[ $last == *" T spin_nosize" ]] && [ "$(echo "$last" | wc -w)" -eq 3 ] ||
	skip "the toolchain did not put the size-less symbol last: $last"

"$PERF" record -q -e cpu-clock -o ns.data ./prog 2>rec.err || { cat rec.err; fail "perf record failed"; }
"$PERF" script -F ip,sym,dso -i ns.data 2>/dev/null | grep -F '(/' | grep libns.so >ours
total=$(wc -l <ours)
named=$(grep -c ' spin_nosize (' ours)
echo "samples in libns.so: $total, named spin_nosize: $named"
[ "$total" -ge 20 ] || fail "only $total samples in the library: the workload did not run"
[ "$named" -eq "$total" ] || { head -3 ours; fail "samples of a size-less last symbol are not named"; }
"$ORACLE" script -F ip,sym,dso -i ns.data 2>/dev/null | grep -F '(/' | grep libns.so >distro
diff ours distro || fail "the library's samples are named otherwise than by the distro"
exit 0
