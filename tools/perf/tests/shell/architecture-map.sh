#!/bin/bash
# ARCHITECTURE.md's codemap names every util unit and builtin there is, and nothing that is not there
. "$(dirname "$0")/lib/common.sh"
src=${PERF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
map=$src/../../ARCHITECTURE.md
[ -d "$src/util" ] || skip "the sources are not at $src"
[ -f "$map" ] || skip "no ARCHITECTURE.md at $map"
cd "$TMPD"

# A unit is what one stem of tools/perf/util stands for: util/foo.c with
# util/foo.h, a lone header or .c, or the grammar files of util/foo.[ly].
# The map names its files in one codemap line that starts with the path,
# "- `util/foo.[ch]`: ...", "- `util/foo.h`: ..." or
# "- `util/parse-events.[chly]`: ...".  The flex and bison outputs
# (util/parse-events-flex.*, -bison.*) and the flame graph page's arrays
# (util/flamegraph-page.h and util/timeline-page.h, from xxd) are generated, not units.
# Both sides are compared file by file, so "util/foo.[ch]" for a lone
# util/foo.c is as wrong as leaving util/foo.h out.
present() {
	(cd "$src" && ls util/*.c util/*.h util/*.y util/*.l builtin-*.c 2>/dev/null) |
		grep -Ev '^util/(parse-events-(flex|bison)\.|(flamegraph|timeline)-page\.h$|off-cpu-bpf\.h$)' | sort -u
}
named() {
	grep -oE '^- `(util/[A-Za-z0-9_-]+\.(\[[chly]+\]|[chly])|builtin-[a-z0-9-]+\.c)`' "$map" |
		tr -d '`' | sed 's/^- //' |
		while read -r f; do
			case $f in
			*.\[*\])
				exts=${f##*.[}; exts=${exts%]}
				for ((i = 0; i < ${#exts}; i++)); do echo "${f%.\[*}.${exts:i:1}"; done ;;
			*) echo "$f" ;;
			esac
		done | sort
}
present >present.txt
named >named.txt
[ -s present.txt ] || fail "found no util unit in $src/util"

# A file named twice is a unit with two lines: the merger kept both.
dup=$(uniq -d named.txt)
[ -z "$dup" ] || fail "ARCHITECTURE.md names these twice in its codemap: $(echo $dup)"

bad=0
while read -r f; do
	unit=${f%.*}
	if grep -q "^$unit\\." named.txt; then
		hint="add .${f##*.} to the codemap line of $unit"
	elif [[ $f == builtin-* ]]; then
		hint="add one line '- \`$f\`: what the command does'"
	else
		hint="add one line '- \`$unit.[ch]\`: what it is and what it owns' (.c or .h alone for a lone file)"
	fi
	echo "FAIL: unit $unit is not mapped: $f is in tools/perf but not in ARCHITECTURE.md's codemap; $hint" >&2
	bad=1
done < <(comm -23 present.txt named.txt)
while read -r f; do
	echo "FAIL: unit ${f%.*} is named but absent: ARCHITECTURE.md's codemap names $f," \
	     "which is not in tools/perf; take it out of that line (or the line out)" >&2
	bad=1
done < <(comm -13 present.txt named.txt)
[ $bad -eq 0 ] || exit 1
echo "ARCHITECTURE.md maps $(grep -c '^util/' present.txt) util files and" \
     "$(grep -c '^builtin-' present.txt) builtins"
