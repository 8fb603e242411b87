#!/bin/bash
# perf buildid-cache -l, -M, -p, -u and -P against the distro on the same cache
# A recording fills a private cache; each command runs on one copy of it
# with ours and on another with the distro's, and both leave the same
# .build-id links and print the same bytes: -l lists what a record put
# there (and each lists the other's cache), -M names the DSOs of a file
# recorded with -N, -p takes exactly one path's entries, -u makes a damaged
# entry afresh, -P empties the cache.  Bad input (a path not cached, -M on
# a missing file) gets the distro's messages and exit codes.
. "$(dirname "$0")/lib/common.sh"
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
	[ -x "$ORACLE" ] || return $rc_o
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
if [ -x "$ORACLE" ]; then
	HOME=$TMPD/dist-home; mkdir -p "$HOME"
	"$ORACLE" record -q -e cpu-clock -c 100000 -o r3.data ./p3 >/dev/null 2>&1 ||
		fail "distro record"
	$PERF buildid-cache -l >cross.ours
	"$ORACLE" buildid-cache -l >cross.dist
	cmp -s cross.ours cross.dist || { diff cross.ours cross.dist; fail "-l of the distro's cache"; }
	grep -q " $TMPD/p3\$" cross.ours || fail "-l of the distro's cache lacks p3"
	HOME=$TMPD/home
fi

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
exit 0
