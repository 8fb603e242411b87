# perf report --stdio, ours against the distro's, for the report tests.
# Sourced after common.sh; uses $PERF and $ORACLE, and writes ours.txt,
# theirs.txt, ours.e and theirs.e in the current directory.
#
# With $compare_only set (a regular expression), only the tables of the
# events whose names match it are compared.
#
# compare <file> <mode...> exits 0 when the distro's top 30 entries are ours
# too, every percentage within 0.01, and the call graphs of its top 10 are
# the same trees.  Entries and branches of equal shares may come in another
# order (the distro orders those by where its objects sit in memory).  Not
# compared: entries of unresolved addresses under --sort pid,sym, a key the
# distro lists twice, and the "[...]" remainder lines of fractal graphs (see
# report-oracle.sh).

# One line per entry: its rank in its event's table, the event, the
# percentages, the other columns (blanks squeezed), and the call graph below
# it (lines joined by \001).
entries() {
	awk '
	function flush() { if (n) printf "%d\t%s\t%s\t%s\t%s\n", n, ev, pct, key, tree }
	# Entries start 2 to 10 columns in; call graphs 11 or more, folded chains at 0.
	{ match($0, /^ */); lead = RLENGTH }
	lead >= 2 && lead <= 10 && length($0) > lead && substr($0, 1, 1) != "#" {
		flush(); n++; pct = ""; key = ""; tree = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9.]+%$/) pct = pct " " $i
			else key = key " " $i
		}
		next
	}
	/^# Samples: .* of events? / { flush(); n = 0; ev = $0; sub(/.* of events? /, "", ev) }
	/^#/ || /^$/ { next }
	# Which of equal branches comes last (" --" rather than "|--", and no
	# pipe down the frames below it) follows their order.
	n { sub(/[ \t]+$/, ""); line = $0; sub(/[|] ?--/, " --", line); gsub(/[|]/, " ", line)
	    tree = tree "\001" line }
	END { flush() }'
}

# fail_keeping <name> <message>: the run's files go to ${TMPDIR:-/tmp}/<name>.failed
# (the last failed run's only) for whoever looks into it, then the test fails.
fail_keeping() {
	local keep=${TMPDIR:-/tmp}/$1.failed

	rm -rf "$keep" && mkdir -p "$keep" && cp ./*.data "$keep"/ 2>/dev/null &&
		echo "the files are kept in $keep"
	fail "$2"
}

# Comparisons the distro could not make (it crashed): counted apart, never
# as agreement.
not_compared=0

# compared <runs> <what>: says how many of <runs> were compared and agree,
# and how many the distro could not compare; a skip when it compared none.
compared() {
	[ "$not_compared" -lt "$1" ] || skip "the distro crashed on all $1 comparisons: nothing compared"
	local also=""

	[ "$not_compared" -eq 0 ] || also=", $not_compared not compared (the distro crashed)"
	echo "$(($1 - not_compared)) $2$also"
}

# compare <file> <mode...>: exit status 0 when the reports agree, 2 when the
# distro crashed and nothing was compared, 1 when they differ.
compare() {
	local f=$1; shift
	"$PERF" report --stdio -i "$f" "$@" >ours.txt 2>ours.err ||
		{ echo "our report exited $? on $f $*"; head -3 ours.err; return 1; }
	"$ORACLE" report --stdio -i "$f" "$@" >theirs.txt 2>/dev/null
	# The distro 6.1 itself crashes now and then: on a stream with groups,
	# --no-group segfaults for some values of the first event's ids (the
	# same bytes with other ids do not), its own streams too.  Nothing to
	# compare with then.
	local rc=$?
	if crashed $rc; then
		echo "the distro crashed (exit $rc) on $f $*: not compared"
		not_compared=$((not_compared + 1))
		return 2
	fi
	entries <ours.txt | awk -F'\t' -v only="${compare_only:-}" 'only == "" || $2 ~ only' >ours.e
	entries <theirs.txt | awk -F'\t' -v only="${compare_only:-}" 'only == "" || $2 ~ only' >theirs.e
	[ -s theirs.e ] || { echo "the distro reports nothing on $f $*"; return 1; }
	awk -F'\t' -v what="$f $*" '
	function abs(x) { return x < 0 ? -x : x }
	function first(p,   a) { split(p, a, " "); return a[1] + 0 }
	$4 ~ /\] (0x)?[0-9a-f]+$/ && what ~ /pid,sym/ { next }
	NR == FNR { k = $2 $4; o_pct[k] = $3; o_tree[k] = $5; o_ev[FNR] = $2; o_first[FNR] = first($3); o_key[FNR] = k; o_n = FNR; next }
	FNR == 1 { while ((getline line < FILENAME) > 0) { split(line, t, "\t"); seen[t[2] t[4]]++ } close(FILENAME) }
	seen[$2 $4] > 1 { split_key[$2 $4] = 1; next }
	$1 <= 30 { d++; d_ev[d] = $2; d_key[d] = $2 $4; d_pct[d] = $3; d_tree[d] = $5; d_rank[d] = $1
		   cut[$2] = first($3) }
	END {
		bad = 0
		# Entries above the 30th share are the same set; at the 30th, ties may cut anywhere.
		for (i = 1; i <= d; i++) {
			k = d_key[i]
			if (first(d_pct[i]) > cut[d_ev[i]]) above_d[d_ev[i]]++
			if (!(k in o_pct)) {
				if (first(d_pct[i]) > cut[d_ev[i]]) { print what ": we lack " k " (" d_pct[i] ")"; bad++ }
				continue
			}
			nd = split(d_pct[i], a, " "); split(o_pct[k], b, " ")
			for (j = 1; j <= nd; j++)
				if (abs(a[j] - b[j]) > 0.01001) {
					print what ": " k ": ours" o_pct[k] ", the distro" d_pct[i]; bad++
				}
			if (d_rank[i] <= 10 && o_tree[k] != d_tree[i]) {
				# Equal shares may be ordered differently; the lines must still be the same.
				na = split(o_tree[k], x, "\001"); nb = split(d_tree[i], y, "\001")
				if (na != nb) { print what ": " k ": call graph has " na - 1 " lines, the distro " nb - 1; bad++; continue }
				delete cnt
				for (j = 2; j <= na; j++) {
					if (what ~ /fractal/ && (x[j] ~ /\[\.\.\.\]/ || y[j] ~ /\[\.\.\.\]/))
						continue
					cnt[x[j]]++; cnt[y[j]]--
				}
				for (l in cnt) if (cnt[l]) { print what ": " k ": call graph differs at: " l; bad++; break }
			}
		}
		for (i = 1; i <= o_n; i++)
			if ((o_ev[i] in cut) && o_first[i] > cut[o_ev[i]] && !(o_key[i] in split_key)) above_o[o_ev[i]]++
		for (e in cut)
			if (above_d[e] + 0 != above_o[e] + 0) {
				print what ": " e ": " above_o[e] + 0 " entries above " cut[e] "%, the distro " above_d[e] + 0; bad++
			}
		exit bad != 0
	}' ours.e theirs.e
}

