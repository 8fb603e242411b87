#!/bin/bash
# bash completion: commands, options of every command as its --list-opts gives them, events after -e, file names
. "$(dirname "$0")/lib/common.sh"
SRC=${PERF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$TMPD" || exit 1

# The script, sourced as bash-completion sources it, then _perf driven as
# readline drives it: the words so far and the one being completed.
# shellcheck source=/dev/null
. "$SRC/perf-completion.sh" || fail "sourcing perf-completion.sh failed"
complete -p perf | grep -q -- '-F _perf perf$' || fail "perf is not completed by _perf: $(complete -p perf)"
complete_words() {	# the words of the line, the last being completed
	COMP_WORDS=("$PERF" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_perf
	printf '%s\n' "${COMPREPLY[@]}"
}

out=$(complete_words rec)
[ "$out" = record ] || fail "perf rec<TAB> gave '$out', not record"
out=$(complete_words record --ov)
[ "$out" = --overwrite ] || fail "perf record --ov<TAB> gave '$out', not --overwrite"
out=$(complete_words help sch)
[ "$out" = sched ] || fail "perf help sch<TAB> gave '$out', not sched"
out=$(complete_words --vers)
[ "$out" = --version ] || fail "perf --vers<TAB> gave '$out', not --version"

# Every command offers what its option table has: the first long option of
# each, from its start, comes back among the words offered.
cmds=$("$PERF" --list-cmds)
for c in record script report list daemon version; do
	grep -qw -- "$c" <<<"$cmds" || fail "perf --list-cmds does not name $c: $cmds"
done
n=0
for c in $cmds; do
	[ "$c" = help ] && continue	# it takes a command's name, no option
	opts=$("$PERF" "$c" --list-opts) || fail "perf $c --list-opts exited $?"
	first=$(awk '{ print $1 }' <<<"$opts")
	if [ -z "$first" ]; then	# perf archive: none to offer
		out=$(complete_words "$c" --)
		[ -z "$out" ] || fail "perf $c has no option, but --<TAB> gave '$out'"
		continue
	fi
	out=$(complete_words "$c" "${first:0:4}")
	want=$(tr ' ' '\n' <<<"$opts" | grep -- "^${first:0:4}" | sort)
	[ "$(sort <<<"$out")" = "$want" ] ||
		fail "perf $c ${first:0:4}<TAB> gave '$out', its --list-opts has '$want'"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n commands were tried"

# Events after -e, also after a comma, and after --event.
out=$(complete_words record -e task-cl)
[ "$out" = task-clock ] || fail "perf record -e task-cl<TAB> gave '$out', not task-clock"
out=$(complete_words record -e cpu-clock,task-cl)
[ "$out" = cpu-clock,task-clock ] || fail "-e cpu-clock,task-cl<TAB> gave '$out'"
out=$(complete_words record --event page-f)
[ "$out" = page-faults ] || fail "perf record --event page-f<TAB> gave '$out', not page-faults"

# Anything else is a file name.
: > perf.data.2026120700000001
out=$(complete_words report -i perf.data.2026)
[ "$out" = perf.data.2026120700000001 ] || fail "perf report -i perf.data.2026<TAB> gave '$out'"
echo "completion: commands, events, files and the options of $n commands"
exit 0
