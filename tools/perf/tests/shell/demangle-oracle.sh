#!/bin/bash
# C++ and Rust symbol names demangled as the distro perf prints them
# A C++ program (templates, namespaces, operators) and Rust-mangled names
# (legacy and v0, given to C functions with asm labels) are recorded; for
# every sample in the program, the symbol column of our perf script equals
# the distro's, with and without --no-demangle, and so do the symbols of
# the program's lines in perf report; and of two versions of one function.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v g++ >/dev/null || skip "g++ is not installed"
own_tmpd demangle-oracle

cat >prog.cpp <<'EOF'
#include <string>
#include <vector>
volatile unsigned long sink;
namespace ns {
template <class T> struct Box {
	T v;
	__attribute__((noinline)) T spin(int n) const
	{
		T s = v;
		for (int i = 0; i < n; i++)
			sink = s = s * 3 + i;
		return s;
	}
	__attribute__((noinline)) Box operator+(const Box &o) const
	{
		for (int i = 0; i < 2000000; i++)
			sink += i;
		return Box{v + o.v};
	}
};
}
extern "C" {
/* Rust's manglings, legacy (with the hash perf drops) and v0. */
__attribute__((noinline)) void rust_legacy(void) __asm__("_ZN7mycrate6worker3run17h0123456789abcdefE");
__attribute__((noinline)) void rust_legacy(void)
{
	for (unsigned long i = 0; i < 30000000UL; i++)
		sink += i;
}
__attribute__((noinline)) void rust_v0(void) __asm__("_RNvNtCs1234_7mycrate6worker4walk");
__attribute__((noinline)) void rust_v0(void)
{
	for (unsigned long i = 0; i < 30000000UL; i++)
		sink += i;
}
}
__attribute__((noinline)) long work(std::vector<int> &v, const std::string &s)
{
	ns::Box<long> b{(long)s.size()}, c{2};
	long t = 0;
	for (int k = 0; k < 3000; k++)
		t += b.spin(10000) + v.size();
	for (int k = 0; k < 10; k++)
		t += (b + c).v;
	return t;
}
int main()
{
	std::vector<int> v(3);
	rust_legacy();
	rust_v0();
	return (int)work(v, "abc") & 1;
}
EOF
g++ -O1 -o prog prog.cpp || fail "g++"
$PERF record -q -e cpu-clock -o p.data ./prog || fail "record"

# "ip sym (dso)" of the samples in prog.
prog_lines() { grep -E '\(.*/prog\)$'; }
$PERF script -F ip,sym,dso -i p.data 2>ours.err | prog_lines >ours.txt || fail "our script"
oracle_ok "script" script -F ip,sym,dso -i p.data | prog_lines >dist.txt
[ -s dist.txt ] || fail "the distro saw no samples in prog"
cmp -s ours.txt dist.txt || { diff ours.txt dist.txt | head; fail "script symbols differ from the distro's"; }
for want in 'ns::Box<long>::spin' 'mycrate::worker::run' 'mycrate::worker::walk'; do
	grep -qF " $want (" ours.txt || fail "no sample shown in $want"
done
grep -q '_Z\|_R' ours.txt && fail "a mangled name is left"

$PERF script --no-demangle -F ip,sym,dso -i p.data 2>/dev/null | prog_lines >ours-raw.txt
oracle_ok "script --no-demangle" script --no-demangle -F ip,sym,dso -i p.data | prog_lines >dist-raw.txt
cmp -s ours-raw.txt dist-raw.txt ||
	{ diff ours-raw.txt dist-raw.txt | head; fail "--no-demangle differs from the distro's"; }
grep -q '_ZNK2ns3BoxIlE4spinEi' ours-raw.txt || fail "--no-demangle: no mangled name"

# report: the symbols of prog's lines (percentages are compared elsewhere).
rep_syms() { awk '$3 == "prog" { $1 = $2 = $3 = ""; print }' | sort; }
$PERF report --stdio -i p.data 2>/dev/null | rep_syms >ours.rep
oracle_ok "report" report --stdio -i p.data | rep_syms >dist.rep
cmp -s ours.rep dist.rep || { diff ours.rep dist.rep | head; fail "report symbols differ"; }

# Symbol versions: two names of one function, of one length, at one address
# (as glibc has clock_gettime@@GLIBC_2.17 and clock_gettime@GLIBC_2.2.5):
# the one listed first is shown, as the distro shows it.
cat >lib.c <<'EOF'
volatile unsigned long vsink;
__attribute__((noinline)) void vfun_impl(void)
{
	for (unsigned long i = 0; i < 100000000UL; i++)
		vsink += i;
}
__asm__(".symver vfun_impl, vfun@@V2");
__asm__(".symver vfun_impl, vfun@VA1");
EOF
printf 'VA1 { global: vfun; local: *; };\nV2 { global: vfun; } VA1;\n' >ver.map
echo 'void vfun(void); int main(void) { vfun(); return 0; }' >main.c
gcc -O1 -shared -fPIC -Wl,--version-script=ver.map -o libv.so lib.c &&
	gcc -o vmain main.c -L. -lv -Wl,-rpath,"$TMPD" || fail "building the versioned library"
$PERF record -q -e cpu-clock -o v.data ./vmain || fail "record of vmain"
$PERF script -F ip,sym,dso -i v.data 2>/dev/null | grep libv.so >ours-v.txt
oracle_ok "script of vmain" script -F ip,sym,dso -i v.data | grep libv.so >dist-v.txt
grep -q 'vfun@' dist-v.txt || fail "the distro shows no versioned name"
cmp -s ours-v.txt dist-v.txt || { diff ours-v.txt dist-v.txt | head -3; fail "versioned names differ"; }
exit 0
