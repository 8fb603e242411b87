# bash completion for perf: its commands, each command's options, event
# names after -e, and file names elsewhere.  Every list comes from the perf
# being completed (perf --list-cmds, perf CMD --list-opts, perf list
# --raw-dump), so it is always that binary's own.  make install puts it in
# <prefix>/share/bash-completion/completions/perf; else source it.

# The word at COMP_CWORD, completed from the blank-separated words @1.
__perf_offer()
{
	local IFS=$' \t\n'

	COMPREPLY=($(compgen -W "$1" -- "$2"))
}

# An event list after -e: only the name after the last comma is completed.
__perf_events()
{
	local perf=$1 cur=$2 head="" names

	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		cur=${cur##*,}
	fi
	names=$("$perf" list --raw-dump 2>/dev/null)
	__perf_offer "$names" "$cur"
	COMPREPLY=("${COMPREPLY[@]/#/$head}")
}

_perf()
{
	local perf=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} cmd="" i

	# The command is the first word past perf's own options.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--buildid-dir) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			__perf_offer "$("$perf" --list-opts 2>/dev/null)" "$cur"
		else
			__perf_offer "$("$perf" --list-cmds 2>/dev/null)" "$cur"
		fi
	elif [[ $cmd == help ]]; then
		__perf_offer "$("$perf" --list-cmds 2>/dev/null)" "$cur"
	elif [[ $prev == -e || $prev == --event ]]; then
		__perf_events "$perf" "$cur"
	elif [[ $cur == -* ]]; then
		__perf_offer "$("$perf" "$cmd" --list-opts 2>/dev/null)" "$cur"
	else
		# compopt works only inside a completion; a test calls _perf itself.
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}

complete -F _perf perf
