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

# The layer invariants: library code never exits (a forked child _exit()s)
# and never includes the commands' header, and a function is declared in
# its header only, never by hand in a .c file (the flex and bison outputs
# are generated).
gen='util/parse-events-(flex|bison)\.'
(cd "$src" && ls util/*.c util/*.h) | grep -Ev "$gen" >lib.txt
(cd "$src" && grep -nE '(^|[^A-Za-z0-9_])exit[[:space:]]*\(' $(cat "$TMPD/lib.txt") |
	grep -vE ':[0-9]+:[[:space:]]*(/?\*|//)') >exits.txt
[ -s exits.txt ] && { echo "FAIL: library code calls exit() (return an error to the command):" >&2
	cat exits.txt >&2; bad=1; }
(cd "$src" && grep -nE '#include[[:space:]]+"(\.\./)?builtin\.h"' $(cat "$TMPD/lib.txt")) >incl.txt
[ -s incl.txt ] && { echo "FAIL: util/ includes the commands' header:" >&2; cat incl.txt >&2; bad=1; }
# The session hands -D's records to its tool's dump callback: it prints
# no command's output itself.
(cd "$src" && grep -nE '#include[[:space:]]+"raw-dump\.h"' util/session*.c util/session*.h) >rawd.txt
[ -s rawd.txt ] && { echo "FAIL: the session includes raw-dump.h (-D is the tool's dump callback):" >&2
	cat rawd.txt >&2; bad=1; }
# A top-level statement of a .c file that is a declaration of a function:
# a type and a name before its "(", ending in ");", neither static nor
# an initializer (the runtime's own names, __lsan_*, are the runtime's).
(cd "$src" && awk '
	FNR == 1 { acc = "" }
	acc == "" && /^[A-Za-z_]/ && !/^[A-Za-z_0-9]+:/ && !/^(static|typedef|#)/ { acc = $0; start = FNR }
	acc != "" && FNR > start { acc = acc " " $0 }
	acc != "" && (/\{/ || /;[ \t]*$/) {
		head = acc; sub(/\(.*/, "", head)
		if (acc ~ /\);[ \t]*$/ && acc !~ /[={]/ && split(head, w, /[ \t*]+/) >= 2 &&
		    w[length(w)] !~ /^__/)
			printf "%s:%d: %s\n", FILENAME, start, acc
		acc = ""
	}' $(ls *.c util/*.c tests/*.c | grep -Ev "$gen")) >protos.txt
[ -s protos.txt ] && { echo "FAIL: functions declared outside their header (declare each in its object's header):" >&2
	cat protos.txt >&2; bad=1; }
# One name per type: no struct of the product is defined twice, in two
# files that never meet (a reader could take one for the other).
(cd "$src" && grep -oE '^(static )?struct [a-z_0-9]+ \{' builtin-*.c perf.c $(cat "$TMPD/lib.txt") |
	sed -E 's/:(static )?struct / /; s/ \{$//' | sort -k2 | awk '
	$2 == last { printf "struct %s: %s and %s\n", $2, lastf, $1; bad = 1 }
	{ last = $2; lastf = $1 }') >types.txt
[ -s types.txt ] && { echo "FAIL: a type name defined twice (give each its own name):" >&2
	cat types.txt >&2; bad=1; }
# A command's exit status is named (enum perf_exit_status), never a
# number of the distro's written in a builtin or in the library code that
# returns a command's status (the enum's own definition aside).
(cd "$src" && grep -nE '(return|exit[[:space:]]*\(|status[[:space:]]*=|ret[[:space:]]*=)[[:space:]]*(129|234|255)\b' \
	builtin-*.c perf.c $(grep -v '^util/parse-options\.h$' "$TMPD/lib.txt")) >codes.txt
[ -s codes.txt ] && { echo "FAIL: a literal exit status in a command (use enum perf_exit_status):" >&2
	cat codes.txt >&2; bad=1; }
[ $bad -eq 0 ] || exit 1
echo "ARCHITECTURE.md maps $(grep -c '^util/' present.txt) util files and" \
     "$(grep -c '^builtin-' present.txt) builtins"
