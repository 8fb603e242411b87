#!/bin/bash
# Each option table and its manual page name the same options, both ways
# For every command whose options come from one table (util/parse-options),
# every option in the table (perf CMD --list-opts, hidden ones too) and every
# switch perf CMD -h shows is documented in the OPTIONS section of
# Documentation/perf-CMD.txt, and every option that section documents is one
# the table takes.  Commands not on the table yet are listed by name.
. "$(dirname "$0")/lib/common.sh"
DOC=$(cd "$(dirname "$0")/../../Documentation" && pwd) || fail "no Documentation directory"
cd "$TMPD"
# These must be on the table: a command that falls off it fails here.
CONVERTED="evlist buildid-list buildid-cache list inject archive script version daemon test record report sched timechart bench"
not_yet=""
checked=0
for f in "$DOC"/perf-*.txt; do
	c=${f##*/perf-}
	c=${c%.txt}
	if ! "$PERF" "$c" --list-opts >list 2>list.err || [ -s list.err ]; then
		grep -qw -- "$c" <<<"$CONVERTED" && fail "perf $c --list-opts failed: $(head -1 list.err)"
		not_yet="$not_yet $c"
		continue
	fi
	# A subcommand's table (perf script report flamegraph's) is the page's too.
	for sub in $(perf_subcommands "$c"); do
		"$PERF" "$c" ${sub//,/ } --list-opts >>list || fail "perf $c ${sub//,/ } --list-opts failed"
	done
	tr ' ' '\n' <list | grep -- '^--' | sort -u >table
	# The OPTIONS section: from its heading to the next one.
	awk '/^OPTIONS$/ { on = 1; next } on && /^[A-Z][A-Z ]*$/ { exit } on' "$f" |
		grep -E '^-.*::$' >labels
	grep -o -- '--[a-zA-Z0-9][a-zA-Z0-9_-]*' labels | grep -vx -- --help | sort -u >doc
	grep -oE -- '(^|[^-a-z])-[a-zA-Z]\b' labels | grep -o -- '-[a-zA-Z]' | grep -vx -- -h |
		sort -u >doc-short
	"$PERF" "$c" -h >/dev/null 2>help
	for sub in $(perf_subcommands "$c"); do
		"$PERF" "$c" ${sub//,/ } -h >/dev/null 2>>help
	done
	sed -n 's/^    \(-[a-zA-Z]\)[, ].*/\1/p' help | sort -u >help-short
	sed -n 's/^    \(-[a-zA-Z], \|    \)\(--[a-zA-Z0-9][a-zA-Z0-9_-]*\).*/\2/p' help | sort -u >help-long

	while read -r o; do
		grep -qx -- "$o" doc || fail "perf $c takes $o, which perf-$c.txt does not document"
	done <table
	while read -r o; do
		grep -qx -- "$o" table || fail "perf $c -h shows $o, which --list-opts does not list"
	done <help-long
	while read -r o; do
		grep -qx -- "$o" doc-short || fail "perf $c -h shows $o, which perf-$c.txt does not document"
	done <help-short
	while read -r o; do
		grep -qx -- "$o" help-short || fail "perf-$c.txt documents $o, which perf $c does not take"
	done <doc-short
	while read -r o; do
		grep -qx -- "$o" table && continue
		# --no-NAME: the negation of a table's --NAME, if the parser takes it.
		if [ "${o#--no-}" != "$o" ] && grep -qx -- "--${o#--no-}" table &&
		   ! "$PERF" "$c" "$o" -h 2>&1 | grep -qi 'unknown option'; then
			continue
		fi
		fail "perf-$c.txt documents $o, which perf $c does not take"
	done <doc
	echo "perf $c: $(wc -l <table) long options, table and page agree"
	checked=$((checked + 1))
done
[ "$checked" -ge "$(wc -w <<<"$CONVERTED")" ] || fail "only $checked commands checked"
echo "not on the option table yet (not checked):${not_yet:- none}"
exit 0
