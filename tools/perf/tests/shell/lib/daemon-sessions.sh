# Sourced by the daemon tests whose config lists record sessions by name,
# after common.sh, with BASE and CFG set.

# write_config [NAME RUN]...: the config with base BASE and these sessions,
# a comment first (the parser takes them).  Renamed into place, as editors
# save: the daemon sees the whole file at once.
write_config() {
	{
		printf '# perf daemon test\n[daemon]\n\tbase = %s\n' "$BASE"
		while [ $# -ge 2 ]; do
			printf '\n[session-%s]\n\trun = %s\n' "$1" "$2"
			shift 2
		done
	} > "$CFG.new"
	mv "$CFG.new" "$CFG"
}
D() { "$PERF" daemon --config "$CFG" "$@"; }
# Field $2 (1: pid, 9: restarts, 10: last end) of session $1 in the -x: -v
# list; empty if there is none.
field() { D -x: -v | awk -F: -v n="$1" -v f="$2" '$2 == n { print $f }'; }
