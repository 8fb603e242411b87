#!/bin/bash
# Build-id cache: a flight-recorder dump taken after its program was replaced names the old code
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/hot-prog.sh"
need_root
need_oracle
need_gcc
own_tmpd buildid-fr

hot_prog prog plain 100000000
hot_prog prog.new inserted 100000000

"$PERF" record -e cpu-clock --overwrite --switch-output -a -m 1M -o fr.data 2>rec.err &
rec=$!
wait_recording $rec
./prog
# The recorder caches a binary when it is mapped: wait for that, then deploy.
bid=$(readelf -n prog | awk '/Build ID/ { print $3 }')
[ -n "$bid" ] || fail "prog has no build id"
wait_for '[ -e "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}" ]' ||
	fail "prog was not cached when it was mapped"
mv prog.new prog			# the deploy
kill -USR2 $rec
wait_files 'fr.data.*'
kill -INT $rec
wait $rec || { cat rec.err; fail "record exited $?"; }
dump=$(ls fr.data.* | head -1)
"$PERF" buildid-list -i "$dump" > bids || fail "buildid-list"
grep -q "/prog$" bids || { cat bids rec.err; fail "the dump's BUILD_ID does not list prog"; }
for who in ours distro; do
	bin=$PERF; [ $who = distro ] && bin=$ORACLE
	"$bin" script -F ip,sym,dso -i "$dump" 2>"$who.err" | awk '/\/prog\)$/ { print $(NF-1) }' | sort | uniq -c > "$who.syms"
	echo "$who: $(tr '\n' ' ' < "$who.syms")"
	grep -q ' hot_original$' "$who.syms" || { cat "$who.err"; fail "$who: no samples in hot_original"; }
	! grep -q ' inserted$' "$who.syms" || fail "$who: samples given to the new binary's 'inserted'"
done
exit 0
