#!/bin/bash
# perf diff prints what the distro's prints, byte for byte, on the same files, and fails as it does
# A program with three known functions runs twice with their loops in other
# proportions (gamma_ only in the second run), recorded by our perf and by
# the distro's, with and without -g, as flight-recorder dumps, and as two
# builds of one name in one recording.  On each
# pair of files below, every mode's stdout and exit status must be the
# distro's; the shares come from the machine, so the two tools are compared
# on the same files, never against fixed text.  Bad input (a missing file,
# a file that is not a perf.data file, a bad -c) exits as the distro's does,
# with one line saying what is wrong.
# Not compared: with --sort sym alone, which of the addresses at no symbol
# (all one line in both tools) the line shows when they fall in several
# objects; those lines are left out of that mode's comparison.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_gcc
# Not under /tmp/perf-*: the distro takes a program there for a JIT's
# symbol map and shows none of its symbols.
own_tmpd diff-oracle

cat >w.c <<'EOF'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void alpha(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void beta(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 5; }
__attribute__((noinline)) void gamma_(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 3; }
int main(int argc, char **argv)
{
	unsigned long m = 1000000UL;

	if (argc != 4)
		return 1;
	alpha(strtoul(argv[1], 0, 10) * m);
	beta(strtoul(argv[2], 0, 10) * m);
	gamma_(strtoul(argv[3], 0, 10) * m);
	return 0;
}
EOF
gcc -O1 -o w w.c || fail "gcc: cannot build the workload"
# Two builds of one name: two objects "w", each with its own alpha, beta
# and gamma_, which must still be one line each.
mkdir -p one two && cp w one/w && gcc -O2 -fno-inline -o two/w w.c ||
	fail "gcc: cannot build the second workload"

record() {	# <perf> <output> <loops of alpha beta gamma_> [record options]
	local p=$1 o=$2 a=$3 b=$4 c=$5

	shift 5
	"$p" record -q -o "$o" -e cpu-clock "$@" -- ./w "$a" "$b" "$c" >/dev/null 2>&1 &&
		[ -s "$o" ]
}
record "$ORACLE" d1.data 120 40 0 || skip "the distro perf cannot record here"
record "$ORACLE" d2.data 40 120 40 || skip "the distro perf cannot record here"
record "$PERF" o1.data 120 40 0 || fail "our perf record failed"
record "$PERF" o2.data 40 120 40 || fail "our perf record failed"
record "$PERF" g1.data 120 40 0 -g || fail "our perf record -g failed"
record "$PERF" g2.data 40 120 40 -g || fail "our perf record -g failed"
for p in "$ORACLE:d" "$PERF:o"; do
	"${p%:*}" record -q -o "${p#*:}"-two1.data -e cpu-clock -- \
		sh -c './one/w 60 20 0; ./two/w 60 20 0' >/dev/null 2>&1 ||
		fail "${p%:*} record of two builds failed"
	"${p%:*}" record -q -o "${p#*:}"-two2.data -e cpu-clock -- \
		sh -c './one/w 20 60 20; ./two/w 20 60 20' >/dev/null 2>&1 ||
		fail "${p%:*} record of two builds failed"
done
# Flight-recorder dumps: the one written when the workload exits.
for i in 1 2; do
	if [ $i = 1 ]; then args="120 40 0"; else args="40 120 40"; fi
	# shellcheck disable=SC2086
	record "$PERF" fr$i.data $args --overwrite --switch-output ||
		[ -n "$(ls fr$i.data.* 2>/dev/null)" ] || fail "our flight recorder wrote no dump"
	mv "$(ls fr$i.data.* | head -1)" fr$i.data || fail "no dump fr$i.data.<timestamp>"
done

# The workload's functions are in our output: equal outputs are not empty ones.
"$PERF" diff o1.data o2.data >names.txt 2>&1 || fail "perf diff o1.data o2.data: $(head -1 names.txt)"
for f in alpha beta gamma_; do
	grep -q "\[\.\] $f\$" names.txt || fail "no line of $f in perf diff's output"
done

fails=0 runs=0 skipped=""
compare() {	# <mode> <old> <new>
	local mode=$1 rc_o rc_d

	runs=$((runs + 1))
	# shellcheck disable=SC2086
	"$ORACLE" diff $mode "$2" "$3" >exp.txt 2>exp.err
	rc_d=$?
	if crashed $rc_d; then
		skipped="$skipped [the distro's perf diff $mode $2 $3 crashed ($rc_d)]"
		return
	fi
	# shellcheck disable=SC2086
	"$PERF" diff $mode "$2" "$3" >got.txt 2>got.err
	rc_o=$?
	if [ "$mode" = "-s sym" ]; then
		sed -i '/\[.\] 0x[0-9a-f]\{16\}$/d' exp.txt got.txt
	fi
	if [ $rc_o -ne $rc_d ]; then
		echo "perf diff $mode $2 $3: exit $rc_o, the distro's $rc_d: $(head -1 got.err)"
		fails=$((fails + 1))
	elif ! cmp -s exp.txt got.txt; then
		echo "perf diff $mode $2 $3 differs from the distro's (< distro, > ours):"
		diff exp.txt got.txt | head -20
		fails=$((fails + 1))
	fi
}

modes=("" "-c delta" "-c delta-abs" "-c ratio" "-c wdiff:1,1" "-c wdiff:2,3" "-s dso" "-s sym"
	"-s comm,dso" "-s pid" "-s dso,sym,cpu" "-F" "-c ratio -F" "-c wdiff:1,1 -F -p" "-p"
	"-b" "-b -F" "-o 0" "-o 0 -c ratio" "-q")
# Every mode on files of each recorder; the main ones on mixed, -g and dump files.
few=("" "-c ratio" "-c wdiff:1,1" "-s sym" "-F -p")
for pair in "d1.data d2.data" "o1.data o2.data" "d1.data o2.data" "o2.data d1.data" \
	"g1.data g2.data" "fr1.data fr2.data" "fr1.data o2.data" "d-two1.data d-two2.data" \
	"o-two1.data o-two2.data"; do
	case $pair in
	d1.data\ d2.data|o1.data\ o2.data) set -- "${modes[@]}" ;;
	*) set -- "${few[@]}" ;;
	esac
	for m in "$@"; do
		# shellcheck disable=SC2086
		compare "$m" $pair
	done
done

# The default files: perf.data.old against perf.data, or against the one named.
mkdir -p defaults && cp d1.data defaults/perf.data.old && cp o2.data defaults/perf.data &&
	cp d2.data defaults/new.data || fail "cannot copy the files"
(cd defaults && "$ORACLE" diff >../exp.txt 2>/dev/null; "$PERF" diff >../got.txt 2>&1)
runs=$((runs + 1))
cmp -s exp.txt got.txt || { echo "perf diff without files differs:"; diff exp.txt got.txt | head;
	fails=$((fails + 1)); }
(cd defaults && "$ORACLE" diff new.data >../exp.txt 2>/dev/null; "$PERF" diff new.data >../got.txt 2>&1)
runs=$((runs + 1))
cmp -s exp.txt got.txt || { echo "perf diff new.data differs:"; diff exp.txt got.txt | head;
	fails=$((fails + 1)); }

# Bad input: the distro's exit status, and one line (a usage follows a bad -c, as in the distro).
echo "not a perf.data file" >junk.data
bad() {	# <what> <lines: 1 or "usage"> <args...>
	local what=$1 lines=$2 rc_o rc_d

	shift 2
	runs=$((runs + 1))
	"$ORACLE" diff "$@" >/dev/null 2>/dev/null
	rc_d=$?
	"$PERF" diff "$@" >/dev/null 2>err.txt
	rc_o=$?
	crashed $rc_o && fail "$what: crashed (exit $rc_o)"
	[ $rc_o -ne 0 ] || fail "$what: exit status 0"
	if [ $rc_o -ne $rc_d ]; then
		echo "$what: exit $rc_o, the distro's $rc_d"
		fails=$((fails + 1))
	fi
	[ -s err.txt ] || fail "$what: no message"
	[ "$lines" != 1 ] || [ "$(wc -l <err.txt)" -eq 1 ] ||
		fail "$what: $(wc -l <err.txt) lines on stderr, one expected: $(cat err.txt)"
	echo "$what -> $(head -1 err.txt)"
}
bad "a missing baseline" 1 nosuch.data o2.data
bad "a missing new file" 1 o1.data nosuch.data
bad "not a perf.data file" 1 junk.data o2.data
bad "no perf.data.old" 1 o2.data
bad "an unknown -c" usage -c nosuch o1.data o2.data
bad "wdiff without weights" usage -c wdiff o1.data o2.data
bad "a zero weight" usage -c wdiff:0,1 o1.data o2.data
bad "ratio with an argument" usage -c ratio:2 o1.data o2.data
bad "-o out of range" 1 -o 2 o1.data o2.data

[ $fails -eq 0 ] || fail "$fails of $runs comparisons differ from the distro's"
[ -z "$skipped" ] || skip "$runs comparisons agree, but not compared:$skipped"
echo "$runs comparisons agree with the distro's perf diff"
