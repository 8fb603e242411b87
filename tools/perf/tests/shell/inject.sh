#!/bin/bash
# perf inject -b through pipes: every pairing of our and the distro's recorder, injector and reader
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
cd "$TMPD"

# A shell loop: its samples fall into dash, libc and the kernel.
WORK="sh -c 'i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done'"
SH=$(readlink -f /bin/sh)
FIELDS="-F comm,tid,time,ip,sym,dso"
who="ours"
who="ours distro"
bin() { if [ "$1" = ours ]; then echo "$PERF"; else echo "$ORACLE"; fi; }
clean() { ! grep -Eiq 'corrupt|invalid|not valid|fail|unexpected|truncated|not supported|warn|unknown|out of order' "$1"; }
sh_id=$(readelf -n "$SH" 2>/dev/null | awk '/Build ID/ { print $3 }')

# record -o - | inject -b | script, live; the reader's output must be what
# it reads from the recorder's own stream, and ours must find the shell's
# build id in the injected stream.
for rec in $who; do
	for inj in $who; do
		for rd in $who; do
			what="$rec record | $inj inject -b | $rd script"
			eval "\"$(bin $rec)\" record -q -m 8M -c 100000 -e cpu-clock -o - -- $WORK" \
				2>rec.err | tee s.data | "$(bin $inj)" inject -b 2>inj.err | tee i.data |
				"$(bin $rd)" script $FIELDS -i - >live.out 2>live.err
			st=("${PIPESTATUS[@]}")
			[ "${st[0]}" -eq 0 ] || { cat rec.err; fail "$what: the recorder exited ${st[0]}"; }
			[ "${st[2]}" -eq 0 ] && clean inj.err ||
				{ cat inj.err; fail "$what: inject exited ${st[2]} or complained"; }
			[ "${st[4]}" -eq 0 ] && clean live.err ||
				{ cat live.err; fail "$what: the reader exited ${st[4]} or complained"; }
			[ "$(wc -l <live.out)" -ge 100 ] || fail "$what: fewer than 100 samples"
			cat s.data | "$(bin $rd)" script $FIELDS -i - >direct.out 2>/dev/null
			cmp -s live.out direct.out ||
				{ diff direct.out live.out | head; fail "$what: not what $rd reads without inject"; }
			if [ -n "$sh_id" ]; then
				cat i.data | "$PERF" buildid-list >bids.out 2>bids.err ||
					{ cat bids.err; fail "$what: our buildid-list cannot read it"; }
				grep -q "^$sh_id " bids.out ||
					{ cat bids.out; fail "$what: no build id for $SH ($sh_id)"; }
			fi
		done
	done
done

# To a file: decompressed, with the build ids in its BUILD_ID feature.
eval "\"$PERF\" record -q -z -c 100000 -e cpu-clock -o z.data -- $WORK" || fail "record -z"
"$PERF" inject -b -i z.data -o plain.data || fail "inject -b -i z.data -o plain.data"
"$PERF" script $FIELDS -i z.data >z.out
"$PERF" script $FIELDS -i plain.data >plain.out
cmp -s z.out plain.out || { diff z.out plain.out | head; fail "inject changed the samples"; }
"$PERF" script --header-only -i plain.data | grep -q compressed && fail "the output is still compressed"
# Its command line is the inject's, as the distro writes it; the machine
# and the clock are the input's, so times of day still print.
"$PERF" report --header-only -i plain.data | grep -Eq '^# cmdline : [^ ]*perf inject ' ||
	fail "the output's cmdline is not the inject's"
eval "\"$PERF\" record -q -k monotonic -c 100000 -e cpu-clock -o k.data -- $WORK" || fail "record -k"
"$PERF" inject -i k.data -o k-inj.data || fail "inject -i k.data"
"$PERF" script -F tod,event -i k-inj.data >tod.out 2>tod.err || { cat tod.err; fail "no times of day after inject"; }
for f in version hostname 'os release' cpuid 'total memory' clockid; do
	[ "$("$PERF" report --header-only -i k.data | grep "^# $f")" = \
	  "$("$PERF" report --header-only -i k-inj.data | grep "^# $f")" ] ||
		fail "inject changed the header's $f"
done
oracle_ok "report -D" report -D -i plain.data >dump.out
grep -q 'COMPRESSED events' dump.out && fail "the distro finds COMPRESSED records in the output"
[ -z "$sh_id" ] || oracle_ok "buildid-list" buildid-list -i plain.data | grep -q "^$sh_id " ||
	fail "the distro finds no build id for $SH in the BUILD_ID feature"

# Bad input: one clear message, a non-zero exit, no output file left.
"$PERF" inject -i nope.data -o out.data 2>bad.err && fail "a missing input accepted"
grep -q 'nope.data' bad.err || fail "a missing input: not named"
head -c 100 z.data >cut.data
"$PERF" inject -i cut.data -o out.data 2>cut.err && fail "a cut header accepted"
[ ! -e out.data ] || fail "an output file was left behind"
echo "inject -b through every pairing of pipes"
