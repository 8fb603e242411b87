#!/bin/bash
# The docs are tests: every command line of README.md and of the manual pages' examples runs and prints what they show
# A documented command line is a line of an example that starts with a shell
# prompt, "# " or "$ " (README.md: a code block indented four spaces; a
# manual page: a "----" listing block or a tab-indented line); a line
# ending in "\" goes on on the next.  The lines after it, up to the next
# command or the end of the block, are what it prints.  Both are taken
# from the files as they are now:
#
# - every documented command must be a row of ROWS below, and every row a
#   documented command, so a new example without a test fails here;
# - a row runs its command as the docs give it (system paths such as
#   /etc and /var/lib moved under the test's directory, a dump's name
#   given as perf.data.<timestamp> replaced by the name of the dump the
#   example made), in a shell of its own per example, with explicit waits
#   and a deadline; it must exit 0 (no crash);
# - what it prints is checked against the patterns of PATTERNS, and every
#   line the docs show it print must match one of them, so the docs show
#   the output as it is;
# - a command the test cannot run says why, in its row.
#
# The README's worked example goes on past the docs: its dump is read by
# our perf script and report and by the distro's, whose stderr must be
# empty.  Manual pages must show their commands as written (perf help CMD
# keeps quotes), and a command line without a prompt in an example fails.
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
SRC=${PERF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TOP=$(cd "$SRC/../.." && pwd)
own_tmpd docs-examples

# Whatever ends the test, each example's shell goes with it: it runs in a
# process group of its own (its recorders too), whose id is in its
# directory's "pgid"; a daemon is the leader of its own session, and is
# stopped by its config file ("daemon-configs"), its pid in "daemon-pids".
sessions_cleanup() {
	local cfg g i pid

	for cfg in $(cat "$TMPD"/*/daemon-configs 2>/dev/null); do
		timeout 60 "$PERF" daemon stop --config "$cfg" >/dev/null 2>&1
	done
	for pid in $(cat "$TMPD"/*/daemon-pids 2>/dev/null); do
		pkill -9 -s "$pid" 2>/dev/null
	done
	for g in $(cat "$TMPD"/*/pgid 2>/dev/null); do
		kill -TERM -- -"$g" 2>/dev/null || continue
		# 10 s to end on SIGTERM, then SIGKILL.
		deadline 10
		while kill -0 -- -"$g" 2>/dev/null && ! past_deadline; do
			sleep 0.1
		done
		kill -KILL -- -"$g" 2>/dev/null
	done
	cleanup
}
trap sessions_cleanup EXIT

# ---- the documented command lines -------------------------------------

# Prints "C<tab>file<tab>command" for each documented command line (prompt
# dropped, continuations joined, blanks squeezed), "O<tab>line" for each line
# it is shown to print, and "U<tab>file<tab>line" for a command line of an
# example that has no prompt.
doc_commands() {
	awk '
	function squeeze(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
	FNR == 1 { listing = 0; cont = ""; out = 0; prev = ""; md = FILENAME ~ /\.md$/; name = FILENAME; sub(/.*\//, "", name) }
	# A listing block opens after a blank line or a "+"; other "----" lines underline headings.
	!md && /^----+$/ && (listing || prev == "" || prev == "+") { listing = !listing; out = 0; prev = $0; next }
	{ p = prev; prev = $0 }
	{
		lit = 0; text = $0
		if (md && sub(/^    /, "", text)) lit = 1
		else if (!md && listing) lit = 1
		else if (!md && sub(/^\t/, "", text)) lit = 1
		if (cont != "") {
			line = text; sub(/^[ \t]+/, "", line)
			cmd = cmd " " line
			if (cmd !~ /\\$/) { print "C\t" name "\t" squeeze(cmd); cont = "" } else sub(/\\$/, "", cmd)
			next
		}
		# A blank line ends a code block, but not a listing block.
		if (!md && listing && out && text ~ /^[ \t]*$/) { print "O\t"; next }
		if (!lit || text ~ /^[ \t]*$/) { out = 0; next }
		if (text ~ /^(\([a-z ]+\) )?[#$] [^ ]/) {
			cmd = text; sub(/^(\([a-z ]+\) )?[#$] /, "", cmd)
			out = 1
			if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
			print "C\t" name "\t" squeeze(cmd)
			next
		}
		if (out) { print "O\t" text; next }
		if (text ~ /^[ \t]*(tools\/perf\/)?perf [a-z][a-z-]*( -.*)?$/ && text !~ /</)
			print "U\t" name "\t" text
	}' "$TOP/README.md" "$SRC"/Documentation/*.txt
}

# id | file | command, as the docs have it.  An id "skip: <reason>" is a
# command the test cannot run, and why.
ROWS='make-run|README.md|make run # installs what is missing, builds, runs a short flight-recorder demo
skip: it is the whole suite, this test among it|README.md|make test # installs what is missing, builds, runs the whole test suite
worked-record|README.md|tools/perf/perf record -g -e cycles -e '"'raw_syscalls:*/call-graph=no/'"' -e sched:sched_switch/call-graph=no/ --switch-output --overwrite -a &
worked-kill|README.md|kill -USR2 %1
worked-script|README.md|perf script -i perf.data.2026120212305147 | tail -3
worked-timeline|README.md|perf script report flamegraph --timeline -i perf.data.2026120212305147
ctl-fifos|README.md|mkfifo ctl ack; exec 3<>ack
ctl-record|README.md|tools/perf/perf record -e '"'raw_syscalls:*'"' --overwrite -a --switch-output --control=fifo:ctl,ack &
ctl-snapshot|README.md|echo snapshot > ctl; read -r reply <&3; echo $reply
trigger-record|README.md|tools/perf/perf record -e '"'raw_syscalls:*'"' -e sched:sched_switch --overwrite -a --switch-output-event=syscalls:sys_exit_read --filter '"'ret < 0'"' --switch-output-delay=200ms --switch-max-files=20 &
worked-archive|README.md|tools/perf/perf archive perf.data.2026120212305147 # -> .tar.bz2
worked-elsewhere|README.md|tar xvf perf.data.2026120212305147.tar.bz2 -C ~/.debug
daemon-cat|README.md|cat /etc/perf-daemon.conf
daemon-start|README.md|tools/perf/perf daemon start --config /etc/perf-daemon.conf
daemon-signal|README.md|tools/perf/perf daemon signal --config /etc/perf-daemon.conf --wait
plain-record|README.md|tools/perf/perf record -e cpu-clock -g -- ./my-program
plain-report|README.md|perf report --stdio
pd-cat|perf-daemon.txt|cat ~/.perfconfig
pd-start|perf-daemon.txt|perf daemon start
pd-list|perf-daemon.txt|perf daemon
pd-list-x|perf-daemon.txt|perf daemon -x:
pd-ping|perf-daemon.txt|perf daemon ping
pd-signal|perf-daemon.txt|perf daemon signal --session cycles --wait
pd-report|perf-daemon.txt|perf report -i /var/lib/perf-daemon/session-cycles/perf.data.2026120314051532
pd-stop|perf-daemon.txt|perf daemon stop
pd-cp|perf-daemon.txt|cp Documentation/examples/perf-daemon.conf /etc/perf-daemon.conf
skip: it makes systemd read its units again, on the machine itself|perf-daemon.txt|systemctl daemon-reload
skip: it starts a service on the machine and at every boot|perf-daemon.txt|systemctl enable --now perf-daemon
pi-pipe|perf-inject.txt|perf record -o - -a sleep 1 | perf inject -b | perf report -i -
pr-trigger|perf-record.txt|perf record -e '"'raw_syscalls:*'"' --overwrite -a --switch-output-event=syscalls:sys_exit_read --filter '"'ret < 0'"'
pr-fifos|perf-record.txt|mkfifo ctl ack
pr-ctl-record|perf-record.txt|perf record --overwrite --switch-output -a --control=fifo:ctl,ack &
pr-snapshot|perf-record.txt|exec 3<>ack; echo snapshot > ctl; read -r reply <&3; echo $reply
pr-fr-record|perf-record.txt|perf record -g -e cycles -e '"'raw_syscalls:*/call-graph=no/'"' --switch-output --overwrite -a &
pr-fr-kill|perf-record.txt|kill -USR2 %1 # when something goes wrong
skip: it is the whole suite, this test among it|perf-test.txt|perf test
pt-list|perf-test.txt|perf test -l ring
pt-verbose|perf-test.txt|perf test -v 5 "cpu map"
pt-unit|perf-test.txt|PERF_TEST_NO_SHELL=1 perf test
psc-record|perf-sched.txt|perf sched record -o sched.data -- sleep 2
psc-timehist|perf-sched.txt|perf sched -i sched.data timehist -s
psc-latency|perf-sched.txt|perf sched -i sched.data latency -s max
psc-map|perf-sched.txt|perf sched -i sched.data map --compact
ptc-record|perf-timechart.txt|perf timechart record -T -- sleep 1
ptc-chart|perf-timechart.txt|perf timechart -o tc.svg
pv-build|perf-version.txt|perf version --build-options | grep -E '"'version|dwarf-unwind'"''

# id | kind | extended regular expression.  Kinds: "must", a line of what
# the command printed matches; "nopmu", must on a machine without a
# hardware PMU, and never printed on one with it; "every", each line
# printed matches one of the command's "every" patterns; "exact", what it
# printed is what the docs show.  A line the docs show a command print
# must match one of its patterns.
DUMP_MSG='^\[ perf record: Dump ([^ ]*/)?perf\.data\.[0-9]{16}( \([^)]*\))?: [0-9]+ samples, [0-9]+\.[0-9]{6}\.\.[0-9]+\.[0-9]{6} \([0-9]+\.[0-9]{3} s\), [0-9]+ tasks, [0-9]+ lost \]$'
SCRIPT_LINE='^ *[^ ].* +-?[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: +[a-z_]+:[a-z_]+: .*$'
# The worked example's last three lines are whatever the machine did last:
# often the recorder's own syscalls (as the README shows), but they may be
# a -g sample of its cycles event (cpu-clock without a PMU), whose period
# and name head a call chain that the tail cuts, or the last switch of a
# task that exited, which the kernel gives pid and tid -1 (":-1 -1").
SAMPLE_HEAD='^ *[^ ].* +[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: +[0-9]+ +(cycles|cpu-clock): *$'
PATTERNS='worked-record|nopmu|^The cycles event is not supported here \(no hardware PMU\?\), falling back to cpu-clock\.$
worked-kill|must|^\[ perf record: dump data: Woken up [0-9,]+ times? \]$
worked-kill|must|'"$DUMP_MSG"'
worked-script|every|'"$SCRIPT_LINE"'
worked-script|every|'"$SAMPLE_HEAD"'
worked-script|every|^	 *[0-9a-f]+ .* \(.*\)$
worked-script|every|^$
worked-timeline|must|^dumping data to timeline\.html$
worked-archive|must|^\$ tar xvf perf\.data\.[0-9]{16}\.tar\.bz2 -C ~/\.debug$
worked-elsewhere|must|^\.build-id/[0-9a-f]{2}/[0-9a-f]{38}$
ctl-snapshot|must|^ack /.*/perf\.data\.[0-9]{16}$
pr-snapshot|must|^ack /.*/perf\.data\.[0-9]{16}$
pr-fr-kill|must|'"$DUMP_MSG"'
daemon-cat|exact|
pd-cat|exact|
daemon-signal|must|^dump requested from session '"'sched \[[0-9]+\]'"'$
daemon-signal|must|^(/.*)?/var/lib/perf-daemon/session-sched/perf\.data\.[0-9]{16}$
pd-signal|must|^dump requested from session '"'cycles \[[0-9]+\]'"'$
pd-signal|must|^(/.*)?/var/lib/perf-daemon/session-cycles/perf\.data\.[0-9]{16}$
pd-list|must|^\[[0-9]+:daemon\] base: (/.*)?/var/lib/perf-daemon$
pd-list|must|^\[[0-9]+:cycles\] perf record -m 10M -e cycles --overwrite --switch-output -a$
pd-list|must|^\[[0-9]+:sched\] perf record -m 20M -e sched:\* --overwrite --switch-output -a$
pd-list-x|must|^[0-9]+:daemon:(/.*)?/var/lib/perf-daemon:(/.*)?/var/lib/perf-daemon/output:(/.*)?/var/lib/perf-daemon/lock:[0-9]+$
pd-list-x|must|^[0-9]+:cycles:-m 10M -e cycles --overwrite --switch-output -a:.*:[0-9]+$
pd-list-x|must|^[0-9]+:sched:-m 20M -e sched:\* --overwrite --switch-output -a:.*:[0-9]+$
pd-ping|must|^OK   cycles$
pd-ping|must|^OK   sched$
pd-report|must|^# Samples: [0-9.]+[KM]? +of event '"'cpu-clock'"'$
plain-report|must|^# Samples: [0-9.]+[KM]? +of event '"'cpu-clock'"'$
plain-report|must|^ +[0-9]+\.[0-9]{2}% +[0-9]+\.[0-9]{2}% +[^ ]+ +[^ ]+ +\[[.k]\] [^ ]
pi-pipe|must|^# Samples: [0-9.]+[KM]? +of event '"'cycles'"'$|^# Samples: [0-9.]+[KM]? +of event '"'cpu-clock'"'$
pi-pipe|must|^ +[0-9]+\.[0-9]{2}% +sleep +
pt-list|every|^ *[0-9]+: .*ring
pt-list|must|^ *[0-9]+: Backward ring buffer
pt-verbose|must|^ *5: .*: Ok$
pt-verbose|must|^ *[0-9]+: CPU map.*: Ok$
pt-unit|must|^[0-9]+ passed, 0 failed, [0-9]+ skipped$
pt-unit|every|^ *[0-9]+: .*: (Ok|Skip.*)$|^[0-9]+ passed, 0 failed, [0-9]+ skipped$
pv-build|exact|
psc-timehist|must|^Runtime summary$
psc-timehist|must|^    Total number of unique tasks: [0-9]+$
psc-map|must|^ +\*[A-Z.][0-9 ] +[0-9]+\.[0-9]{6} secs [A-Z][0-9] => .*:[0-9]+ \(CPU [0-9]+\)$
psc-latency|must|^  TOTAL: +\| +[0-9]+\.[0-9]{3} ms \| +[0-9]+ \|$
ptc-chart|must|^Written [0-9]+\.[0-9] seconds of trace to tc\.svg\.$
make-run|must|^== the first dump, decoded
make-run|must|^\(read with perf script \(ours\); [0-9]+ lines'

norm() { sed -E 's/[ \t]+/ /g; s/^ //; s/ $//'; }
row_cmd() { awk -F'|' -v id="$1" '$1 == id { sub(/^[^|]*\|[^|]*\|/, ""); print; exit }' <<<"$ROWS"; }
row_file() { awk -F'|' -v id="$1" '$1 == id { print $2; exit }' <<<"$ROWS"; }
patterns() { awk -F'|' -v id="$1" -v k="$2" '$1 == id && $2 ~ k { sub(/^[^|]*\|[^|]*\|/, ""); print }' <<<"$PATTERNS"; }

doc_commands >doc.txt
# The lines the docs show command $1 print.
doc_output() {
	awk -F'\t' -v f="$(row_file "$1")" -v c="$(row_cmd "$1" | norm)" '
	$1 == "C" { on = ($2 == f && $3 == c); next }
	$1 == "O" && on { sub(/^O\t/, ""); print }' doc.txt
}

# ---- the docs against the table ---------------------------------------
bad=0
if grep -q '^U' doc.txt; then
	grep '^U' doc.txt | cut -f2- >&2
	echo "FAIL: these example lines run perf but have no prompt ('# ' or '\$ '), so nothing tests them" >&2
	bad=1
fi
awk -F'\t' '$1 == "C" { print $2 "\t" $3 }' doc.txt | sort >documented
while IFS='|' read -r id file cmd; do
	printf '%s\t%s\n' "$file" "$(norm <<<"$cmd")"
done <<<"$ROWS" | sort >table
comm -23 documented table | sed 's/^/FAIL: a documented command no row of this test runs: /' >&2
comm -13 documented table | sed 's/^/FAIL: a row of this test that no doc has (any more): /' >&2
[ -z "$(comm -3 documented table)" ] || bad=1
[ "$(wc -l <documented)" -ge 30 ] || { echo "FAIL: only $(wc -l <documented) documented commands found" >&2; bad=1; }

# Every line the docs show a command print matches one of its patterns.
while IFS='|' read -r id file cmd; do
	case $id in skip:*) continue ;; esac
	doc_output "$id" >shown
	[ -s shown ] || continue
	patterns "$id" exact | grep -q . && continue
	patterns "$id" . >pats
	if [ ! -s pats ]; then
		echo "FAIL: $file: the output shown for '$cmd' is not checked: give it patterns" >&2
		bad=1
		continue
	fi
	while IFS= read -r line; do
		grep -Eq -f pats <<<"$line" && continue
		echo "FAIL: $file: '$cmd' is shown printing a line the test does not expect: $line" >&2
		bad=1
	done <shown
done <<<"$ROWS"

# The manual pages show each of their command lines as written.
while IFS=$'\t' read -r kind file line; do
	[ "$kind" = C ] && [ "$file" != README.md ] || continue
	cmdname=${file#perf-}
	cmdname=${cmdname%.txt}
	"$PERF" help "$cmdname" 2>/dev/null |
		awk '/\\$/ { sub(/\\$/, ""); printf "%s ", $0; next } { print }' | norm |
		grep -qF -- "# $line" && continue
	echo "FAIL: perf help $cmdname does not show the command as written: $line" >&2
	bad=1
done < <(grep '^C' doc.txt)
[ $bad -eq 0 ] || fail "the docs and this test's table disagree (see above)"
echo "$(wc -l <documented) documented command lines, each in the table"

# ---- running them -----------------------------------------------------

# perf list hw lists no event without a hardware PMU (as the distro's, see docs-and-lists).
NOPMU=
[ -z "$("$PERF" list hw 2>/dev/null)" ] && NOPMU=1
mkdir -p ours distro
ln -s "$PERF" ours/perf
ln -s "$ORACLE" distro/perf

# A session: one shell runs an example's steps in order, its output in
# $S/log, each step between "@@step ID" and "@@rc ID STATUS" lines.
begin() {
	S=$TMPD/$1
	ROOT=$S/root
	mkdir -p "$S/home" "$S/tools/perf" "$ROOT/etc" "$ROOT/var/lib"
	ln -s "$PERF" "$S/tools/perf/perf"
	: >"$S/steps"
	cat >"$S/run.sh" <<-EOF
	. "$SRC/tests/shell/lib/common.sh"
	rm -rf "\$TMPD"; TMPD=$S
	set -o pipefail
	export PATH=$TMPD/ours:\$PATH HOME=$S/home PERF_CONFIG_NOSYSTEM=1
	cd "$S" || exit 1
	# The recorders stop as Ctrl-C stops them, whatever ends the session.
	trap 'for p in \$(jobs -p); do kill -INT \$p; done; wait' EXIT
	trap 'exit 143' TERM
	dump_in() { ls -d "\${1:-}"perf.data.* 2>/dev/null | grep -E '\\.[0-9]{16}\$' | head -1; }
	# bg: the recorder just started in the background records.
	bg() { REC=\$!; wait_recording \$REC; DUMPS=0; }
	# wait_sessions N [OPTIONS]: the daemon's N sessions answer a ping.
	wait_sessions() {
		deadline \$WAIT_S
		while ! past_deadline; do
			[ "\$(perf daemon ping "\${@:2}" 2>/dev/null | grep -c '^OK ')" -ge \$1 ] && return 0
			sleep 0.1
		done
		fail "waited \$WAIT_S s for \$1 sessions to answer"
	}
	# wait_dump: one dump more in the current directory, with its message.
	wait_dump() {
		local f
		DUMPS=\$((DUMPS + 1))
		wait_files "perf.data.2*" \$DUMPS
		for f in \$(ls perf.data.2*); do wait_lines $S/log 1 "Dump \$f[ :]"; done
	}
	EOF
}
emit() { printf '%s\n' "$*" >>"$S/run.sh"; }
# The command of row $1 as it runs here: system paths under $ROOT, a dump's
# name the name of the first dump in its directory.
localize() {
	sed -E "s#(^|[ =])/(etc|var/lib)/#\\1$ROOT/\\2/#g" |
	sed -E 's#([^ ]*/)?perf\.data\.[0-9]{16}#$(dump_in "\1")#g'
}
# step ID [distro|bg]: run row ID's command; "distro": then with the
# distro's perf too; "bg": in the background, for a recorder that the
# docs run until Ctrl-C.
step() {
	local cmd
	cmd=$(row_cmd "$1" | localize)
	[ -n "$cmd" ] || fail "no row $1"
	echo "$1" >>"$S/steps"
	emit "echo '@@step $1'"
	if [ "${2:-}" = bg ]; then emit "$cmd &"; else emit "$cmd"; fi
	emit "echo \"@@rc $1 \$?\""
	if [ "${2:-}" = distro ]; then
		echo "$1.distro" >>"$S/steps"
		emit "echo '@@step $1.distro'"
		emit "( PATH=$TMPD/distro:\$PATH; $cmd ) 2>$S/$1.distro.err"
		emit "echo \"@@rc $1.distro \$?\""
	fi
}
extra() {	# extra ID COMMAND: a step of the test's own, not of the docs
	echo "$1" >>"$S/steps"
	printf '%s\n' "$2" >"$S/$1.cmd"
	emit "echo '@@step $1'"
	emit "$2"
	emit "echo \"@@rc $1 \$?\""
}
window() { awk -v s="@@step $2" '$0 == s { on = 1; next } /^@@step / { on = 0 } on && !/^@@/ { print }' "$1"; }

# queue SECS [second]: the session is ready; it will run for SECS seconds
# at most, in the first lane or the second (two lanes run side by side).
queue() { echo "$(basename "$S") $1" >>"$TMPD/lane-${2:-first}"; }

# Runs session $1 (at most $2 seconds), then checks each step.
run() {
	local name=$1 secs=$2 S=$TMPD/$1 ROOT=$TMPD/$1/root id rc pat start step out
	start=$SECONDS
	( cd "$S" && exec timeout -k 5 "$secs" bash run.sh >log 2>&1 ) &
	echo $! >"$S/pgid"
	wait $!
	rc=$?
	if [ $rc -ne 0 ]; then
		tail -30 "$S/log"
		id=$(grep '^@@step ' "$S/log" | tail -1 | cut -d' ' -f2)
		crashed $rc && fail "$name: step $id did not end within $secs s"
		fail "$name: the session failed in step $id (exit $rc)"
	fi
	while read -r step; do
		out=$S/$step.out
		id=${step%.distro}
		window "$S/log" "$step" >"$out"
		rc=$(awk -v s="$step" '$1 == "@@rc" && $2 == s { print $3 }' "$S/log")
		if [ "$rc" != 0 ]; then
			cat "$out"
			fail "$name: $step: '$(row_cmd "$id"; cat "$S/$id.cmd" 2>/dev/null)' exited ${rc:-nothing}"
		fi
		if [ "$id" != "$step" ] && [ -s "$S/$step.err" ]; then
			cat "$S/$step.err"
			fail "$name: the distro's perf wrote to stderr in $step"
		fi
		while IFS= read -r pat; do
			grep -Eq -- "$pat" "$out" && continue
			cat "$out"
			fail "$name: $step printed no line matching $pat"
		done < <(patterns "$id" '^must$')
		pat=$(patterns "$id" '^nopmu$')
		if [ -n "$pat" ]; then
			grep -Eq -- "$pat" "$out"
			[ $? -eq $((NOPMU ? 0 : 1)) ] ||
				{ cat "$out"; fail "$name: $step: '$pat' is for machines without a PMU only"; }
		fi
		if patterns "$id" '^every$' >"$S/every" && [ -s "$S/every" ]; then
			grep -Ev -f "$S/every" "$out" &&
				fail "$name: $step printed the lines above, of no form the docs show"
		fi
		if patterns "$id" '^exact$' | grep -q .; then
			doc_output "$id" | localize | diff - "$out" ||
				fail "$name: $step does not print what the docs show"
		fi
	done <"$S/steps"
	echo "$name: $(wc -l <"$S/steps") steps as documented, in $((SECONDS - start)) s"
}

# README: the worked example, end to end, and the archive to read it elsewhere.
begin worked
step worked-record
# A moment of samples before the documented signal (not a wait).
emit 'bg; sleep 0.5'
step worked-kill
emit 'wait_dump'
step worked-script distro
step worked-timeline
extra worked-timeline-page 'grep -q "id=\"timeline-data\"" timeline.html'
# Past the docs: the dump read whole by our script and report and the
# distro's.  Their sample lines (not the frames, whose symbols are the
# machine's) are the same; so are the events report shows.
extra worked-report 'perf report --stdio -i $(dump_in) >ours.report'
extra worked-script-all 'perf script -i $(dump_in) >ours.script && "$ORACLE" script -i $(dump_in) >distro.script 2>distro.script.err'
extra worked-script-same '[ ! -s distro.script.err ] && diff <(grep -v "^	" ours.script) <(grep -v "^	" distro.script) >script.diff || { head -5 distro.script.err script.diff; false; }'
extra worked-report-distro '"$ORACLE" report --stdio -i $(dump_in) >distro.report 2>distro.report.err; [ ! -s distro.report.err ] || { cat distro.report.err; false; }'
extra worked-report-events 'diff <(grep "^# Samples" ours.report) <(grep "^# Samples" distro.report) && [ "$(grep -c "^# Samples" ours.report)" -ge 3 ]'
step worked-archive
# Elsewhere: a home of its own, with a build-id cache (~/.debug) as perf
# makes one, the dump's binaries from the archive alone.
emit 'HOME=$PWD/elsewhere; mkdir -p ~/.debug'
step worked-elsewhere
extra worked-elsewhere-links '[ -n "$(find ~/.debug/.build-id -type l)" ] && [ -z "$(find -L ~/.debug/.build-id -type l)" ]'
extra worked-stop 'kill -INT $REC; wait $REC'
# perf archive packs every binary the system ran in the dump's window: it
# takes a while, so the other examples run meanwhile.
queue 240 second

# README: a control client asks for the dump, and is answered with its name.
begin control
step ctl-fifos
step ctl-record
emit 'bg'
step ctl-snapshot
extra ctl-acked-file '[ -f "${reply#ack }" ] && [ "$(dirname "${reply#ack }")" = "$PWD" ]'
extra ctl-stop 'kill -INT $REC; wait $REC'
queue 120

# README: a trigger event with a filter and a window; a read that fails
# (cat reads a directory) makes a dump.
begin trigger
step trigger-record
emit 'bg'
extra trigger-fire 'cat / 2>/dev/null; wait_dump'
extra trigger-read 'perf script -i $(dump_in) | grep "raw_syscalls:sys_e" >/dev/null'
extra trigger-stop 'kill -INT $REC; wait $REC'
queue 120

# README: the daemon, from its config file.
begin daemon
echo "$ROOT/etc/perf-daemon.conf" >"$S/daemon-configs"
doc_output daemon-cat | localize >"$ROOT/etc/perf-daemon.conf"
step daemon-cat
step daemon-start
emit 'cat root/var/lib/perf-daemon/lock >daemon-pids; wait_sessions 1 --config root/etc/perf-daemon.conf'
step daemon-signal
extra daemon-dump 'perf script -i $(dump_in root/var/lib/perf-daemon/session-sched/) | grep sched:sched_switch >/dev/null'
extra daemon-stop 'perf daemon stop --config root/etc/perf-daemon.conf'
queue 120

# README: plain recording of a program, and the report.
begin plain
printf '#!/bin/sh\nexec perf test -w burn 0.3\n' >"$S/my-program"
chmod +x "$S/my-program"
step plain-record
step plain-report distro
queue 120

# perf-daemon(1): two sessions from ~/.perfconfig, listed, pinged, one
# signalled and its dump read, all stopped; the unit's config installed.
begin perf-daemon
echo "$S/home/.perfconfig" >"$S/daemon-configs"
doc_output pd-cat | localize >"$S/home/.perfconfig"
step pd-cat
step pd-start
emit 'cat root/var/lib/perf-daemon/lock >daemon-pids; wait_sessions 2'
step pd-list
step pd-list-x
step pd-ping
step pd-signal
step pd-report
step pd-stop
emit "cd $SRC"
step pd-cp
extra pd-cp-same "cmp Documentation/examples/perf-daemon.conf $ROOT/etc/perf-daemon.conf"
queue 120

# perf-inject(1): through pipes.
begin perf-inject
step pi-pipe
queue 120

# perf-record(1): the trigger (the recorder runs until Ctrl-C), the control
# FIFOs, and a flight recorder's dump.
begin perf-record
emit 'mkdir trigger && cd trigger'
step pr-trigger bg
emit 'bg'
extra pr-trigger-fire 'cat / 2>/dev/null; wait_dump; kill -INT $REC; wait $REC'
emit 'cd .. && mkdir control && cd control'
step pr-fifos
step pr-ctl-record
emit 'bg'
step pr-snapshot
extra pr-ctl-stop 'kill -INT $REC; wait $REC'
emit 'cd .. && mkdir fr && cd fr'
step pr-fr-record
# A moment of samples before the documented signal (not a wait).
emit 'bg; sleep 0.3'
step pr-fr-kill
emit 'wait_dump'
extra pr-fr-stop 'kill -INT $REC; wait $REC'
queue 120

# perf-timechart(1): a second of the scheduler's events, then the picture.
begin perf-timechart
step ptc-record
step ptc-chart
extra ptc-svg 'python3 -c "import xml.etree.ElementTree as E; E.parse(\"tc.svg\")"'
queue 120

# perf-test(1).
begin perf-test
step pt-list
step pt-verbose
step pt-unit
queue 120

# README: make run, when it would only run the demo (every package it
# installs is there); -o perf keeps it from building again the perf
# under test, which the suite runs.
missing=$(for p in $(make -s -C "$TOP" --no-print-directory --eval 'pkgs: ; @echo $(DEB_PKGS)' pkgs); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
done)
if [ -n "$missing" ]; then
	echo "make run: not run, it would install $(echo $missing)"
else
	begin make-run
	emit "cd $TOP && export DEMO_DIR=$S/demo"
	cmd=$(row_cmd make-run)
	emit "echo '@@step make-run'; ${cmd%% #*} -o perf; echo \"@@rc make-run \$?\""
	echo make-run >>"$S/steps"
	queue 120 second
fi

lane() { local n t; while read -r n t; do run "$n" "$t" || exit 1; done <"$TMPD/lane-$1"; }
lane second >"$TMPD/second.out" 2>&1 &
SECOND=$!
lane first
wait $SECOND
rc=$?
cat "$TMPD/second.out"
[ $rc -eq 0 ] || exit $rc
exit 0
