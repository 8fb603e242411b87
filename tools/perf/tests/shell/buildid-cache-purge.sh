#!/bin/bash
# perf buildid-cache -l, -M, -p, -u and -P against the distro on the same cache; buildid-cache.max-size evicts the least recently used entries no kept dump names
# A recording fills a private cache; each command runs on one copy of it
# with ours and on another with the distro's, and both leave the same
# .build-id links and print the same bytes: -l lists what a record put
# there (and each lists the other's cache), -M names the DSOs of a file
# recorded with -N, -p takes exactly one path's entries, -u makes a damaged
# entry afresh, -P empties the cache.  Bad input (a path not cached, -M on
# a missing file) gets the distro's messages and exit codes.
# Then buildid-cache.max-size: with a cap, the recorder evicts the least
# recently used entries that no kept dump (of its --switch-output set)
# names, and leaves an old entry such a dump names until --switch-max-files
# removes that dump, and evicts nothing while a dump of the set cannot be
# read.
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_gcc
own_tmpd buildid-cache-purge

# Distinct build ids: the seed is in the code.
for i in 1 2 3; do
	cat >p$i.c <<EOF
volatile unsigned long sink;
int main(void) { for (unsigned long i = 0; i < 30000000UL; i++) sink += i * $i; return 0; }
EOF
	gcc -O1 -o p$i p$i.c || fail "gcc: cannot build p$i"
done
rec() { $PERF record -q -e cpu-clock -c 100000 "$@" >/dev/null 2>&1 || fail "record $*"; }
links() { (cd "$1/.debug" 2>/dev/null && find .build-id -type l -printf '%p %l\n' | sort); }
# Runs a buildid-cache command on $HOME/.debug as ours, and on a copy as
# the distro's, and compares what they print and leave; $1 names the step.
both() {
	local step=$1 rc_o rc_d

	shift
	rm -rf oracle-home && cp -a "$HOME" oracle-home
	$PERF buildid-cache "$@" >"$step.ours" 2>"$step.ours.err"
	rc_o=$?
	HOME=$TMPD/oracle-home "$ORACLE" buildid-cache "$@" >"$step.dist" 2>"$step.dist.err"
	rc_d=$?
	[ $rc_o -eq $rc_d ] || fail "$step: exit $rc_o, the distro's $rc_d"
	cmp -s "$step.ours" "$step.dist" || { diff "$step.ours" "$step.dist"; fail "$step: output"; }
	# The cache's path in a message is the copy's.
	sed -i "s|$TMPD/oracle-home/|$HOME/|g" "$step.dist.err"
	cmp -s "$step.ours.err" "$step.dist.err" ||
		{ diff "$step.ours.err" "$step.dist.err"; fail "$step: messages"; }
	[ "$(links "$HOME")" = "$(links oracle-home)" ] ||
		{ diff <(links "$HOME") <(links oracle-home); fail "$step: the caches differ"; }
	return $rc_o
}
bid_of() { $PERF buildid-list -i "$1" | awk -v p="$TMPD/$2" '$2 == p {print $1}'; }

rec -o r1.data ./p1
rec -N -o r2.data ./p2
b1=$(bid_of r1.data p1) b2=$(bid_of r2.data p2)
[ -n "$b1" ] && [ -n "$b2" ] || fail "no build ids recorded for p1, p2"
[ -L "$HOME/.debug/.build-id/${b1:0:2}/${b1:2}" ] || fail "record did not cache p1"

both list -l || fail "-l exited non-zero"
grep -qx "$b1 $TMPD/p1" list.ours || { cat list.ours; fail "-l does not list p1"; }
grep -q "p2" list.ours && fail "-l lists p2, recorded with -N"

# Each reads the other's cache: the distro's record fills one, ours lists it.
HOME=$TMPD/dist-home; mkdir -p "$HOME"
"$ORACLE" record -q -e cpu-clock -c 100000 -o r3.data ./p3 >/dev/null 2>&1 ||
	fail "distro record"
$PERF buildid-cache -l >cross.ours
"$ORACLE" buildid-cache -l >cross.dist
cmp -s cross.ours cross.dist || { diff cross.ours cross.dist; fail "-l of the distro's cache"; }
grep -q " $TMPD/p3\$" cross.ours || fail "-l of the distro's cache lacks p3"
HOME=$TMPD/home

both missing -M r2.data || fail "-M exited non-zero"
grep -qx "$b2 $TMPD/p2" missing.ours || { cat missing.ours; fail "-M does not name p2"; }
grep -q "p1" missing.ours && fail "-M names p1, which is cached"

before=$(links "$HOME")
both purge -p ./p1 || fail "-p exited non-zero"
[ "$(diff <(echo "$before") <(links "$HOME") | grep -c '^<')" -eq 1 ] ||
	fail "-p ./p1 did not take exactly one link"
links "$HOME" | grep -q "/p1/" && fail "-p ./p1 left p1's link"
[ -e "$HOME/.debug$TMPD/p1/$b1/elf" ] && fail "-p ./p1 left p1's file"
both purge-none -p ./p1 || fail "-p of a path not cached exited non-zero"
both purge-gone -p ./nonexistent || fail "-p of a missing file exited non-zero"

# -u: p2 added, and p1's entry (damaged) made afresh from the file.
$PERF buildid-cache -a ./p1 || fail "-a ./p1"
# Not truncated in place: the entry is a hard link to p1 itself.
rm -f "$HOME/.debug$TMPD/p1/$b1/elf"
echo damaged >"$HOME/.debug$TMPD/p1/$b1/elf"
both update -u ./p1,./p2 || fail "-u exited non-zero"
cmp -s p1 "$HOME/.debug$TMPD/p1/$b1/elf" || fail "-u did not replace p1's entry"
[ -L "$HOME/.debug/.build-id/${b2:0:2}/${b2:2}" ] || fail "-u did not add p2"
both update-gone -u ./nonexistent || fail "-u of a missing file exited non-zero"

both purge-all -P || fail "-P exited non-zero"
[ -z "$(links "$HOME")" ] || { links "$HOME"; fail "-P left entries"; }
both list-empty -l
[ -s list-empty.ours ] && fail "-l lists entries after -P"
both missing-all -M r1.data
grep -qx "$b1 $TMPD/p1" missing-all.ours || fail "-M after -P does not name p1"

both missing-gone -M ./nonexistent
rc=$?
[ $rc -eq 255 ] || fail "-M of a missing file: exit $rc"
grep -qx "failed to open ./nonexistent: No such file or directory" missing-gone.ours.err ||
	fail "-M of a missing file: $(cat missing-gone.ours.err)"
$PERF buildid-cache -l -P >/dev/null 2>excl.err
rc=$?
[ $rc -eq 129 ] && grep -q -- "-l is exclusive" excl.err || fail "-l -P: exit $rc"

# The cap.  Static programs, user samples only: a record adds its program
# and the kernel's and vdso's entries (K bytes, the same every time).
# a1 and a2 are added by hand, older than anything; r1 to r5 are
# recorded by a flight recorder (--overwrite) into one --switch-output set
# that keeps three dumps.
for n in a1 a2 r1 r2 r3 r4 r5; do
	cat >$n.c <<EOF
volatile unsigned long sink;
int main(void) { for (unsigned long i = 0; i < 30000000UL; i++) sink += i ^ 0x$(printf %s $n | od -An -tx1 | tr -d ' \n'); return 0; }
EOF
	gcc -O1 -static -o $n $n.c 2>/dev/null || skip "no static libc to build the cap's programs"
done
HOME=$TMPD/cap; mkdir -p "$HOME" fr
export PERF_CONFIG_NOSYSTEM=1
cache_bytes() {
	find "$HOME/.debug" -path "$HOME/.debug/.build-id" -prune -o -type f -printf '%s\n' |
		awk '{ t += $1 } END { print t + 0 }'
}
entry() { echo "$HOME/.debug$TMPD/$1"; }
cached() { [ -n "$(ls -A "$(entry $1)" 2>/dev/null)" ]; }
frec() {
	$PERF record -v -e cpu-clock:u -c 100000 --overwrite --switch-output --switch-max-files=3 \
		-o fr/perf.data ./$1 >/dev/null 2>"$1.err" || { cat "$1.err"; fail "record $1"; }
}
frec r1
cached r1 || fail "record did not cache r1"
P=$(stat -c %s r1)
K=$(( $(cache_bytes) - P ))
$PERF buildid-cache -a ./a1,./a2 || fail "-a a1,a2"
touch -d '3 hours ago' "$(entry a1)"/*
touch -d '2 hours ago' "$(entry a2)"/*
touch -d '1 hour ago' "$(entry r1)"/*
# Room for three programs and a half: each record past that evicts one.
cap=$(( K + 3 * P + P / 2 ))
printf '[buildid-cache]\n\tmax-size = %d\n' $cap >"$HOME/.perfconfig"

# r2: a1, the least recently used, goes; a2 stays.
frec r2
cached a1 && fail "r2: a1, the oldest entry no dump names, was not evicted"
cached a2 || fail "r2: a2 was evicted too"
[ "$(grep -c 'build-id cache: evicted' r2.err)" -eq 1 ] && grep -q "evicted .* $TMPD/a1 " r2.err ||
	{ grep build-id r2.err; fail "r2: the eviction of a1 is not logged once"; }
[ "$(cache_bytes)" -le $cap ] || fail "r2: the cache holds $(cache_bytes) bytes, over $cap"

# r3: r1 is now the least recently used, but its dump is kept: a2 goes.
touch -d '5 hours ago' "$(entry r1)"/*
frec r3
cached r1 || fail "r3: r1 was evicted while a kept dump names it"
cached a2 && fail "r3: a2, no dump naming it, was kept over the cap"
cached r2 && cached r3 || fail "r3: the newest dumps' entries went"
[ "$(cache_bytes)" -le $cap ] || fail "r3: the cache holds $(cache_bytes) bytes, over $cap"
[ "$(ls fr | wc -l)" -eq 3 ] || fail "the set holds $(ls fr | wc -l) dumps, not 3"

# r4: its dump pushes r1's out of the set, so r1 is no longer kept and,
# the least recently used, goes; the entries of the three dumps left stay.
frec r4
[ "$(ls fr | wc -l)" -eq 3 ] || fail "the set holds $(ls fr | wc -l) dumps, not 3"
cached r1 && fail "r4: r1 was kept after its dump was removed from the set"
cached r2 && cached r3 && cached r4 || fail "r4: an entry a kept dump names went"
grep -q "evicted .* $TMPD/r1 " r4.err || fail "r4: the eviction of r1 is not logged"
[ "$(cache_bytes)" -le $cap ] || fail "r4: the cache holds $(cache_bytes) bytes, over $cap"

# r5 beside a dump that cannot be read (named the newest, so it stays in
# the set): what it names is not known, so nothing is evicted, though r2's
# and r3's dumps are gone and the cache is over the cap.
echo "not a perf.data file" >fr/perf.data.2999123123595999
frec r5
cached r2 && cached r3 || fail "r5: an entry went while a kept dump could not be read"
grep -q "not trimmed to buildid-cache.max-size" r5.err ||
	{ grep build-id r5.err; fail "r5: -v does not say why the cache was not trimmed"; }
rm fr/perf.data.2999123123595999

# A cap that is not a size is refused before recording, naming the key.
printf '[buildid-cache]\n\tmax-size = lots\n' >"$HOME/.perfconfig"
$PERF record -q -o bad.data true 2>bad.err && fail "record with max-size = lots succeeded"
grep -q "buildid-cache.max-size: expected a size" bad.err || fail "bad cap: $(cat bad.err)"
[ -e bad.data ] && fail "record with a bad cap wrote a file"

# Both config files are read, the system's first: the user's value, read
# last, wins over /etc/perfconfig's; without one of the user's, the
# system's is the cap, and a bad one is named with its file.  Only where
# /etc/perfconfig is not the machine's own.
if [ ! -e /etc/perfconfig ]; then
	trap 'rm -f /etc/perfconfig; cleanup' EXIT
	unset PERF_CONFIG_NOSYSTEM
	printf '[buildid-cache]\n\tmax-size = lots\n' >/etc/perfconfig
	printf '[buildid-cache]\n\tmax-size = %d\n' $cap >"$HOME/.perfconfig"
	$PERF record -q -o sys1.data true 2>sys1.err ||
		fail "the user's cap did not win over /etc/perfconfig's: $(cat sys1.err)"
	printf '[report]\n\tchildren = true\n' >"$HOME/.perfconfig"
	$PERF record -q -o sys2.data true 2>sys2.err && fail "/etc/perfconfig's bad cap was not read"
	grep -q "^/etc/perfconfig:2: buildid-cache.max-size: expected a size" sys2.err ||
		fail "/etc/perfconfig's bad cap: $(cat sys2.err)"
	rm -f /etc/perfconfig
fi
exit 0
