#!/bin/bash
# perf help pages read as text, document every option; perf list KIND and perf test list
# perf help CMD shows Documentation/perf-CMD.txt laid out for a terminal:
# headings, indented text, and none of the asciidoc markup (no "::"
# labels, [verse], underlines, ";;" items, 'quotes' around names or
# linkperf: links).  Every long option that "perf CMD -h" lists must appear
# in the page.  perf list sw|hw|tracepoint lists one kind of event only,
# perf list WORD what the distro's lists;
# perf test list lists the tests, numbered, without running them.
. "$(dirname "$0")/lib/common.sh"
need_oracle
DOC=$(cd "$(dirname "$0")/../../Documentation" && pwd) || fail "no Documentation directory"
cd "$TMPD"
for c in record report script evlist inject list test daemon sched version; do
	"$PERF" help $c >page 2>err || { cat err; fail "perf help $c exited $?"; }
	grep -q '^NAME$' page && grep -q '^OPTIONS$' page || fail "perf help $c: no NAME/OPTIONS headings"
	grep -q "^       perf-$c - " page || fail "perf help $c: the NAME line is not indented"
	if grep -nE '::$|^\[verse\]|^(====|----)|;;|linkperf:|'"'"'perf [a-z]+'"'" page; then
		fail "perf help $c: asciidoc markup left in the page"
	fi
	"$PERF" $c -h 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u >opts
	[ -s opts ] || fail "perf $c -h lists no options"
	while read -r o; do
		grep -q -- "$o" page || fail "perf help $c: $o is not documented"
	done <opts
	echo "perf help $c: $(wc -l <page) lines, $(wc -l <opts) options documented"
done
PERF_HELP_RAW=1 "$PERF" help report | grep -q '^--children::$' || fail "PERF_HELP_RAW=1 is not the source"

# The other way round: every option a page documents is one its command
# takes, and every option named anywhere in the pages or the README is one
# of some perf command, so a page cannot send users to an option that is
# not there.  Not listed by -h, but taken: --help, and these (each checked):
TAKEN=$(cat <<'EOF'
report --task|the distro's spelling of --tasks
list --raw-dump|for the shell's completion, hidden from -h as the distro hides it
report --demangle|the default, which --no-demangle turns off
report --inline|the default, which --no-inline turns off
script --demangle|the default, which --no-demangle turns off
script --inline|the default, which --no-inline turns off
record --no-overwrite|the negation of --overwrite, which -h lists
record --no-tail-synthesize|the negation of --tail-synthesize, which -h lists
sched --no-call-graph|the negation of timehist's --call-graph, which -h lists
EOF
)
# Named, but not options of a perf command:
OTHERS=$(cat <<'EOF'
--intr-regs --user-regs --phys-data --data-page-size --code-page-size|the distro's perf record options, named as such where perf script prints what they record
--now|systemctl's, in the example that installs the unit file
--buildid-dir|perf's own option, before the command (checked below)
--version|perf's own option, before the command (checked by the version test)
--help|perf's: perf CMD --help shows the manual page, and no -h lists it (checked below)
EOF
)
"$PERF" test --help 2>&1 | grep -q '^perf-test(1)' || fail "perf test --help does not show the manual page"
"$PERF" --buildid-dir "$TMPD" version >/dev/null || fail "perf --buildid-dir is documented but not taken"
: >all-opts
for f in "$DOC"/perf-*.txt; do
	c=${f##*/perf-}
	c=${c%.txt}
	{
		"$PERF" "$c" -h
		for sub in $(perf_subcommands "$c"); do
			"$PERF" "$c" ${sub//,/ } -h
		done
	} 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >opts
	cat opts >>all-opts
	for o in $(grep -E '^-.*::$' "$f" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		[ "$o" = --help ] || grep -qx -- "$o" opts && continue
		grep -q "^$c $o|" <<<"$TAKEN" || fail "perf-$c.txt documents $o, which perf $c -h does not list"
		"$PERF" "$c" "$o" -h 2>&1 | grep -Eiq 'nrecognized option|unknown option' &&
			fail "perf-$c.txt documents $o, which perf $c does not take"
	done
done
echo "$TAKEN" | sed 's/|.*//; s/^[^ ]* //' >>all-opts
echo "$OTHERS" | sed 's/|.*//' | tr ' ' '\n' >>all-opts
for o in $(grep -ho -- '--[a-z][a-z0-9-]*' "$DOC"/*.txt "$DOC"/../../../README.md | sort -u); do
	grep -qx -- "$o" all-opts || fail "the docs name $o, which no perf command takes"
done

"$PERF" list sw >sw || fail "perf list sw exited $?"
grep -q '^  cpu-clock  *\[Software event\]$' sw || fail "perf list sw has no cpu-clock"
grep -v '\[Software event\]$' sw && fail "perf list sw lists other kinds"
"$PERF" list hw >hw || fail "perf list hw exited $?"
grep -v '\[Hardware event\]$' hw && fail "perf list hw lists other kinds, or unsupported events"
# As the distro: the same hardware events (none on a machine without a PMU),
# and the same tracepoints, in the same order.
"$ORACLE" list hw 2>/dev/null | cmp -s - hw || fail "perf list hw differs from the distro's"
if grep -q tracefs /proc/mounts; then
	"$PERF" list tracepoint >tp || fail "perf list tracepoint exited $?"
	grep -q '^  sched:sched_switch  *\[Tracepoint event\]$' tp || fail "no sched:sched_switch"
	grep -v '\[Tracepoint event\]$' tp && fail "perf list tracepoint lists other kinds"
	"$ORACLE" list tracepoint 2>/dev/null | cmp -s - tp ||
		{ diff tp <("$ORACLE" list tracepoint 2>/dev/null) | head -5;
		  fail "perf list tracepoint differs from the distro's"; }
	# A word lists every event whose name has it in it (the tracepoints
	# by their name alone), sys:name globs the tracepoints; words add up.
	# The distro's tool, PMU and SDT events are not ours to list (see
	# perf-list.txt): those lines are left out of its list.
	for w in sched "sched clock" faults page 'sched:*' 'sched:sched_s*' \
		 '*:sched_switch' 'sched?switch' 'sw sched'; do
		# shellcheck disable=SC2086
		"$PERF" list $w >words 2>words.err || fail "perf list $w failed: $(head -1 words.err)"
		# shellcheck disable=SC2086
		"$ORACLE" list $w 2>/dev/null |
			grep -v -e '\[Tool event\]$' -e '\[Kernel PMU event\]$' -e '\[SDT event\]$' >theirs
		grep -q 'sched_switch\|faults' theirs && cmp -s words theirs ||
			{ diff words theirs | head -5; fail "perf list $w differs from the distro's"; }
	done
	grep -q '^  sched:sched_switch  *\[Tracepoint event\]$' <("$PERF" list sched) ||
		fail "perf list sched does not list sched:sched_switch"
fi

"$PERF" test list >all || fail "perf test list exited $?"
"$PERF" test -l >all.l || fail "perf test -l exited $?"
cmp -s all all.l || fail "perf test list and perf test -l differ"
grep -q ': perf report call graphs' all || fail "perf test list misses a test"
grep -vE '^ *[0-9]+: ' all && fail "perf test list prints something else than numbered tests"
"$PERF" test list report >some || fail "perf test list report exited $?"
[ "$(wc -l <some)" -lt "$(wc -l <all)" ] && [ -s some ] || fail "perf test list report did not select"
exit 0
